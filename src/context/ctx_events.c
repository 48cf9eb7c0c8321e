/* Model events -> the thread table and the sched state. Names come, for
 * perf.data, from perf's own thread model (ctx_perf.c: payload names are
 * then ignored); for other formats from what the events say, latest wins:
 * - LTTng contexts procname / vtid / vpid (UST, kernel with -t procname);
 * - sched_switch prev_comm/next_comm, sched_wakeup comm,
 *   sched_process_fork child_comm/child_pid, sched_process_exit,
 *   lttng_statedump_process_state tid/pid/name.
 * An event without a tid belongs to the thread running on its cpu. */
#include <string.h>

#include "context/context_internal.h"

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
	if (tid == TK_PID_NONE && ev->cpu != TK_CPU_NONE && !c->perf)
		tid = ctx_sched_current(c, ev->cpu); /* kernel events: who runs there */
	c->cur_ev = ev;
	c->cur_off = ev->offset;
	c->cur_tid = tid;
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

bool tk_context_event_thread(const tk_context *c, const tk_event *ev, tk_ctx_thread *out)
{
	if (!c || !ev)
		return false;
	if (c->perf) {
		/* perf.data: perf's thread of the sample's pid/tid, as perf script
		 * names it (":-1" for a sample of tid -1) */
		const tk_thread *pt = tk_threads_findnew(c->perf, ev->pid, ev->tid);
		if (!pt)
			return false;
		const ctx_thread *th = ctx_thread_get((tk_context *)c, pt->tid);
		memset(out, 0, sizeof *out);
		if (th)
			ctx_thread_fill(th, out);
		out->pid = pt->pid;
		out->tid = pt->tid;
		out->comm = pt->comm;
		out->comm_len = strnlen(pt->comm, sizeof pt->comm);
		return true;
	}
	int32_t tid = ev->tid;
	if (tid == TK_PID_NONE && c->cur_ev == ev && c->cur_off == ev->offset) {
		tid = c->cur_tid;
	} else if (tid == TK_PID_NONE) {
		const ctx_class *k = c->last_class;
		int64_t v;
		if (k && k->cls == ev->cls && ctx_value_int(ctx_ref_value(ev, k->vtid), &v))
			tid = (int32_t)v;
		else if (ev->cpu != TK_CPU_NONE)
			tid = ctx_sched_current(c, ev->cpu);
	}
	return tid >= 0 && tk_context_thread(c, tid, out);
}
