/* The thread table of the model context: tid -> pid, name, first/last
 * time and per-thread span state, in order of first sight. Names come,
 * for perf.data, from perf's own thread model (ctx_perf.c); for other
 * formats from what the events say, latest wins:
 * - LTTng contexts procname / vtid / vpid (UST, kernel with -t procname);
 * - sched_switch prev_comm/next_comm, sched_wakeup comm,
 *   sched_process_fork child_comm/child_pid, sched_process_exit,
 *   lttng_statedump_process_state tid/pid/name. */
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

static int32_t int_of(const tk_event *ev, uint16_t idx, int32_t dflt)
{
	int64_t v;
	return ctx_value_int(ctx_field(ev, idx), &v) ? (int32_t)v : dflt;
}

/* Names a thread from a payload string unless perf's model names it. */
static void name_from(ctx_thread *th, const tk_value *v)
{
	const char *s;
	size_t n;
	if (th && !th->comm_from_perf && ctx_value_str(v, &s, &n) && n)
		ctx_thread_set_comm(th, s, n);
}

tk_status ctx_threads_event(tk_context *c, const ctx_class *k, const tk_event *ev, tk_error *err)
{
	(void)err;
	uint64_t t = ev->has_time ? ev->time_ns : CTX_TIME_UNSET;
	int32_t pid = ev->pid, tid = ev->tid;
	int64_t v;
	if (tid == TK_PID_NONE && ctx_value_int(ctx_ref_value(ev, k->vtid), &v))
		tid = (int32_t)v;
	if (pid == TK_PID_NONE && ctx_value_int(ctx_ref_value(ev, k->vpid), &v))
		pid = (int32_t)v;
	if (tid == TK_PID_NONE && ev->cpu != TK_CPU_NONE)
		tid = ctx_sched_current(c, ev->cpu); /* kernel events: who runs there */
	ctx_thread *th = tid >= 0 ? ctx_thread_findnew(c, pid, tid, t) : NULL;
	if (th && k->procname.idx != CTX_NO_FIELD)
		name_from(th, ctx_ref_value(ev, k->procname));
	switch (k->role) {
	case CTX_ROLE_SWITCH: {
		int32_t prev = int_of(ev, k->f_prev_tid, -1), next = int_of(ev, k->f_next_tid, -1);
		/* tid 0 is each CPU's idle task ("swapper/N"): one thread */
		if (prev > 0)
			name_from(ctx_thread_findnew(c, TK_PID_NONE, prev, t),
				  ctx_field(ev, k->f_prev_comm));
		if (next > 0)
			name_from(ctx_thread_findnew(c, TK_PID_NONE, next, t),
				  ctx_field(ev, k->f_next_comm));
		if (ev->has_time && ev->cpu != TK_CPU_NONE) {
			int64_t state = -1;
			ctx_value_int(ctx_field(ev, k->f_prev_state), &state);
			c->saw_switch_tp = true;
			ctx_sched_switch(c, ev->cpu, ev->time_ns, prev, state, next);
		}
		break;
	}
	case CTX_ROLE_WAKEUP: {
		int32_t w = int_of(ev, k->f_tid, -1);
		if (w > 0) {
			name_from(ctx_thread_findnew(c, TK_PID_NONE, w, t),
				  ctx_field(ev, k->f_comm));
			if (c->flags & TK_CTX_SPAN_SCHED && ev->has_time)
				ctx_sched_wakeup(c, ev->time_ns, w);
		}
		break;
	}
	case CTX_ROLE_FORK: {
		int32_t ct = int_of(ev, k->f_child_tid, -1);
		int32_t cp = int_of(ev, k->f_child_pid, TK_PID_NONE);
		if (ct > 0)
			name_from(ctx_thread_findnew(c, cp, ct, t), ctx_field(ev, k->f_child_comm));
		break;
	}
	case CTX_ROLE_EXIT: {
		ctx_thread *x = ctx_thread_get(c, int_of(ev, k->f_tid, -1));
		if (x)
			x->exited = true;
		break;
	}
	case CTX_ROLE_STATEDUMP: {
		int32_t st = int_of(ev, k->f_tid, -1);
		if (st > 0)
			name_from(ctx_thread_findnew(c, int_of(ev, k->f_pid, TK_PID_NONE), st, t),
				  ctx_field(ev, k->f_comm));
		break;
	}
	default: break;
	}
	return TK_OK;
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

bool tk_context_event_thread(const tk_context *c, const tk_event *ev, tk_ctx_thread *out)
{
	if (!c || !ev)
		return false;
	int32_t tid = ev->tid;
	if (tid == TK_PID_NONE) {
		const ctx_class *k = c->last_class;
		int64_t v;
		if (k && k->cls == ev->cls && ctx_value_int(ctx_ref_value(ev, k->vtid), &v))
			tid = (int32_t)v;
		else if (ev->cpu != TK_CPU_NONE)
			tid = ctx_sched_current(c, ev->cpu);
	}
	return tid >= 0 && tk_context_thread(c, tid, out);
}
