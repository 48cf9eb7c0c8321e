/* The thread table of the model context: tid -> pid, name, first/last
 * time and per-thread span state, in order of first sight, and its
 * queries. Filled by ctx_events.c (model events) and ctx_perf.c. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

ctx_thread *ctx_thread_get(tk_context *c, int32_t tid)
{
	uint64_t *ix = tk_hashmap_get(&c->by_tid, (uint32_t)tid);
	return ix ? &c->threads[*ix] : NULL;
}

ctx_thread *ctx_thread_findnew(tk_context *c, int32_t pid, int32_t tid, uint64_t t)
{
	if (tid == TK_PID_NONE)
		return NULL;
	ctx_thread *th = ctx_thread_get(c, tid);
	if (th) {
		if (pid != TK_PID_NONE)
			th->pid = pid;
		if (t != CTX_TIME_UNSET) {
			if (th->first_ns == 0)
				th->first_ns = t;
			th->last_ns = t;
		}
		return th;
	}
	if (c->n_threads >= c->opt.max_threads) {
		c->stats.dropped_threads++;
		return NULL;
	}
	if (c->n_threads == c->cap_threads) {
		size_t nc = c->cap_threads ? c->cap_threads * 2 : 256;
		ctx_thread *nt = realloc(c->threads, nc * sizeof *nt);
		if (!nt) {
			c->stats.oom = true;
			return NULL;
		}
		c->threads = nt;
		c->cap_threads = nc;
	}
	th = &c->threads[c->n_threads];
	memset(th, 0, sizeof *th);
	th->pid = pid;
	th->tid = tid;
	th->running_cpu = -1;
	th->runnable_since = CTX_TIME_UNSET;
	if (tid == 0) /* every CPU's idle task, as perf names it */
		ctx_thread_set_comm(th, "swapper", 7);
	if (t != CTX_TIME_UNSET)
		th->first_ns = th->last_ns = t;
	if (!tk_hashmap_put(&c->by_tid, (uint32_t)tid, c->n_threads)) {
		c->stats.oom = true;
		return NULL;
	}
	c->n_threads++;
	return th;
}

void ctx_thread_set_comm(ctx_thread *th, const char *s, size_t n)
{
	if (n >= CTX_COMM_MAX)
		n = CTX_COMM_MAX - 1;
	memcpy(th->comm, s, n);
	th->comm[n] = '\0';
	th->comm_len = (uint8_t)n;
}

void ctx_thread_fill(const ctx_thread *th, tk_ctx_thread *out)
{
	out->pid = th->pid;
	out->tid = th->tid;
	out->comm = th->comm;
	out->comm_len = th->comm_len;
	out->first_ns = th->first_ns;
	out->last_ns = th->last_ns;
	out->exited = th->exited;
}

void ctx_threads_free(tk_context *c)
{
	for (size_t i = 0; i < c->n_threads; i++)
		free(c->threads[i].stack);
	free(c->threads);
	tk_hashmap_free(&c->by_tid);
}

bool tk_context_thread(const tk_context *c, int32_t tid, tk_ctx_thread *out)
{
	if (!c)
		return false;
	ctx_thread *th = ctx_thread_get((tk_context *)c, tid);
	if (!th)
		return false;
	ctx_thread_fill(th, out);
	return true;
}

size_t tk_context_n_threads(const tk_context *c)
{
	return c ? c->n_threads : 0;
}

bool tk_context_thread_at(const tk_context *c, size_t i, tk_ctx_thread *out)
{
	if (!c || i >= c->n_threads)
		return false;
	ctx_thread_fill(&c->threads[i], out);
	return true;
}

const char *tk_context_process_name(const tk_context *c, int32_t pid)
{
	if (!c || pid == TK_PID_NONE)
		return "";
	ctx_thread *th = ctx_thread_get((tk_context *)c, pid);
	return th ? th->comm : "";
}
