/* perf.data side-band feed: COMM / FORK / EXIT / MMAP / MMAP2 / NAMESPACES
 * go through perf's thread and maps model (threads_model.c, the one the
 * perf-script path uses, so names and symbols agree with perf script);
 * the model's thread table mirrors the threads they touch. Samples create
 * their thread as perf's machine__findnew_thread does and leave their
 * cpumode for the model event made of them (tk_context_stack). SWITCH and
 * SWITCH_CPU_WIDE records (perf record --switch-events) give running
 * slices. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

#define MISC_SWITCH_OUT         (1u << 13)
#define MISC_SWITCH_OUT_PREEMPT (1u << 14)

/* Copies perf's view of tid into the model's table. */
static void mirror(tk_context *c, const tk_thread *pt, uint64_t t)
{
	if (!pt)
		return;
	ctx_thread *th = ctx_thread_findnew(c, pt->pid, pt->tid, t);
	if (!th)
		return;
	th->comm_from_perf = true;
	size_t n = strnlen(pt->comm, sizeof pt->comm);
	if (n != th->comm_len || memcmp(th->comm, pt->comm, n) != 0)
		ctx_thread_set_comm(th, pt->comm, n);
}

static tk_thread *perf_thread(tk_context *c, int32_t pid, int32_t tid)
{
	return tk_threads_findnew(c->perf, pid, tid);
}

tk_status ctx_perf_feed(tk_context *c, const tk_perf_file *f, const tk_perf_record *rec,
			tk_error *err)
{
	if (!c->perf) {
		c->perf = calloc(1, sizeof *c->perf);
		if (!c->perf || !tk_threads_init(c->perf, c->have_symopt ? &c->symopt : NULL)) {
			if (c->perf)
				tk_threads_free(c->perf);
			free(c->perf);
			c->perf = NULL;
			c->stats.oom = true;
			return tk_error_set(err, TK_ERR_NOMEM, rec->offset,
					    "model context: out of memory");
		}
		c->perf_file = f;
	}
	uint64_t t = rec->has_time ? rec->sid.time : CTX_TIME_UNSET;
	bool has_tid = (rec->sid.present & TK_PERF_SAMPLE_TID) != 0;
	int32_t cpu = (rec->sid.present & TK_PERF_SAMPLE_CPU) ? (int32_t)rec->sid.cpu : -1;
	switch (rec->type) {
	case TK_PERF_RECORD_SAMPLE: {
		c->sample_offset = rec->offset;
		c->sample_cpumode = rec->misc & 7u;
		c->have_sample = true;
		int32_t pid = has_tid ? (int32_t)rec->sid.pid : -1;
		mirror(c, perf_thread(c, pid, has_tid ? (int32_t)rec->sid.tid : -1), t);
		/* the process leader perf created with it names the process */
		if (pid > 0 && !ctx_thread_get(c, pid))
			mirror(c, perf_thread(c, pid, pid), CTX_TIME_UNSET);
		return TK_OK;
	}
	case TK_PERF_RECORD_SWITCH:
	case TK_PERF_RECORD_SWITCH_CPU_WIDE:
		if (has_tid && rec->has_time) {
			mirror(c, perf_thread(c, (int32_t)rec->sid.pid, (int32_t)rec->sid.tid), t);
			ctx_sched_switch_record(c, cpu, t, (int32_t)rec->sid.pid,
						(int32_t)rec->sid.tid, rec->misc & MISC_SWITCH_OUT,
						rec->misc & MISC_SWITCH_OUT_PREEMPT);
		}
		return TK_OK;
	case TK_PERF_RECORD_COMM:
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
	case TK_PERF_RECORD_MMAP:
	case TK_PERF_RECORD_MMAP2:
	case TK_PERF_RECORD_NAMESPACES: break;
	default: return TK_OK;
	}
	if (!f)
		return TK_OK; /* typed parses need the file (byte order, attrs) */
	tk_status st = tk_threads_process(c->perf, f, rec, err);
	if (st != TK_OK)
		return st;
	if (rec->type == TK_PERF_RECORD_MMAP || rec->type == TK_PERF_RECORD_MMAP2)
		return TK_OK;
	tk_perf_event e;
	tk_error perr;
	if (tk_perf_parse_event(f, rec, &e, &perr) != TK_OK)
		return TK_OK; /* perf's model warned or skipped it already */
	switch (rec->type) {
	case TK_PERF_RECORD_COMM:
		mirror(c, perf_thread(c, (int32_t)e.u.comm.pid, (int32_t)e.u.comm.tid), t);
		break;
	case TK_PERF_RECORD_FORK:
		mirror(c, perf_thread(c, (int32_t)e.u.fork.pid, (int32_t)e.u.fork.tid), t);
		break;
	case TK_PERF_RECORD_EXIT: {
		ctx_thread *th = ctx_thread_get(c, (int32_t)e.u.fork.tid);
		if (th)
			th->exited = true;
		break;
	}
	default: break;
	}
	return TK_OK;
}

void ctx_perf_free(tk_context *c)
{
	if (c->perf) {
		tk_threads_free(c->perf);
		free(c->perf);
		c->perf = NULL;
	}
}
