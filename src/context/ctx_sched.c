/* Thread running / runnable slices (TK_CTX_SPAN_SCHED), Perfetto's
 * sched rules:
 * - sched_switch(prev, prev_state, next) on cpu at t ends the running
 *   slice on cpu (the thread switched in at the previous switch there,
 *   prev or not) and begins next's;
 *   the idle task (tid 0) gets no slice. A prev whose state is runnable
 *   (TASK_RUNNING: state & 0xff == 0, "R" or "R+") was preempted: its
 *   runnable slice begins at t;
 * - sched_wakeup / sched_wakeup_new(tid) at t begins tid's runnable slice
 *   unless it runs or is runnable already; a switch-in ends it;
 * - perf --switch-events: a switch-in record of tid on cpu begins its
 *   running slice, the switch-out ends it (PREEMPT: runnable from there).
 *   When sched_switch tracepoints are in the trace they are used instead.
 *   Per-thread recordings carry no cpu: the slice is the thread's, with
 *   cpu TK_CPU_NONE.
 * The per-cpu running thread is kept whenever threads are derived, so
 * kernel events without a tid (LTTng) are given the thread on their cpu.
 * Memory: one small record per cpu (< 4096 cpus), state in the thread
 * table. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

static ctx_cpu *cpu_at(tk_context *c, int32_t cpu)
{
	if (cpu < 0 || cpu >= CTX_MAX_CPUS)
		return NULL;
	if ((size_t)cpu >= c->n_cpus) {
		size_t n = (size_t)cpu + 1 < 16 ? 16 : (size_t)cpu * 2 + 1;
		if (n > CTX_MAX_CPUS)
			n = CTX_MAX_CPUS;
		ctx_cpu *nc = realloc(c->cpus, n * sizeof *nc);
		if (!nc) {
			c->stats.oom = true;
			return NULL;
		}
		memset(nc + c->n_cpus, 0, (n - c->n_cpus) * sizeof *nc);
		c->cpus = nc;
		c->n_cpus = n;
	}
	return &c->cpus[cpu];
}

int32_t ctx_sched_current(const tk_context *c, int32_t cpu)
{
	if (cpu < 0 || (size_t)cpu >= c->n_cpus || !c->cpus[cpu].known)
		return -1;
	return c->cpus[cpu].tid;
}

static void emit(tk_context *c, tk_span_kind kind, int32_t cpu, const ctx_thread *th,
		 uint64_t begin, uint64_t end, bool truncated)
{
	if (!(c->flags & TK_CTX_SPAN_SCHED) || end < begin)
		return;
	tk_span s = {.kind = kind,
		     .name = kind == TK_SPAN_RUNNING ? "running" : "runnable",
		     .begin_ns = begin,
		     .end_ns = end,
		     .cpu = cpu,
		     .pid = th->pid,
		     .tid = th->tid,
		     .track = -1,
		     .truncated = truncated};
	ctx_span_emit(c, &s);
}

/* Ends the running slice on cpu at t: the cpu's, whatever the thread did
 * meanwhile. A stream that misses switches (lost events; or switches that
 * never reach the recording, with no LOST record: seen on a VM for the
 * threads of its pid 1) can show the thread switched in on another cpu
 * before this one switches again: the thread runs there now, but this
 * cpu's slice still ends here rather than vanishing. */
static void end_running(tk_context *c, ctx_cpu *cc, int32_t cpu, uint64_t t, bool truncated)
{
	if (!cc->known || cc->tid <= 0)
		return;
	ctx_thread *th = ctx_thread_get(c, cc->tid);
	if (!th)
		return;
	emit(c, TK_SPAN_RUNNING, cpu, th, cc->since, t, truncated);
	if (th->running_cpu == cpu)
		th->running_cpu = -1;
}

static void begin_running(tk_context *c, ctx_cpu *cc, int32_t cpu, uint64_t t, int32_t tid)
{
	cc->known = true;
	cc->tid = tid;
	cc->since = t;
	if (tid <= 0)
		return;
	ctx_thread *th = ctx_thread_findnew(c, TK_PID_NONE, tid, t);
	if (!th)
		return;
	if (th->runnable_since != CTX_TIME_UNSET) {
		emit(c, TK_SPAN_RUNNABLE, cpu, th, th->runnable_since, t, false);
		th->runnable_since = CTX_TIME_UNSET;
	}
	th->running_cpu = cpu;
}

void ctx_sched_switch(tk_context *c, int32_t cpu, uint64_t t, int32_t prev_tid, int64_t prev_state,
		      int32_t next_tid)
{
	ctx_cpu *cc = cpu_at(c, cpu);
	if (!cc)
		return;
	/* the slice on this cpu belongs to whoever switched in there; a
	 * prev that differs (missed switches) still ends it, even when that
	 * thread was switched in on another cpu since */
	end_running(c, cc, cpu, t, false);
	if (prev_tid > 0 && prev_state >= 0 && (prev_state & 0xff) == 0) {
		ctx_thread *th = ctx_thread_get(c, prev_tid);
		if (th && th->runnable_since == CTX_TIME_UNSET)
			th->runnable_since = t;
	}
	begin_running(c, cc, cpu, t, next_tid);
}

void ctx_sched_wakeup(tk_context *c, uint64_t t, int32_t tid)
{
	ctx_thread *th = ctx_thread_get(c, tid);
	if (th && th->running_cpu < 0 && th->runnable_since == CTX_TIME_UNSET)
		th->runnable_since = t;
}

/* A switch record of a per-thread recording (no cpu). */
static void thread_switch(tk_context *c, uint64_t t, int32_t pid, int32_t tid, bool out,
			  bool preempt)
{
	ctx_thread *th = tid > 0 ? ctx_thread_findnew(c, pid, tid, t) : NULL;
	if (!th)
		return;
	if (!out) {
		if (th->runnable_since != CTX_TIME_UNSET) {
			emit(c, TK_SPAN_RUNNABLE, TK_CPU_NONE, th, th->runnable_since, t, false);
			th->runnable_since = CTX_TIME_UNSET;
		}
		if (th->running_cpu < 0) {
			th->running_cpu = CTX_CPU_UNKNOWN;
			th->running_since = t;
		}
		return;
	}
	if (th->running_cpu == CTX_CPU_UNKNOWN) {
		emit(c, TK_SPAN_RUNNING, TK_CPU_NONE, th, th->running_since, t, false);
		th->running_cpu = -1;
	}
	if (preempt && th->runnable_since == CTX_TIME_UNSET)
		th->runnable_since = t;
}

void ctx_sched_switch_record(tk_context *c, int32_t cpu, uint64_t t, int32_t pid, int32_t tid,
			     bool out, bool preempt)
{
	if (c->saw_switch_tp)
		return;
	if (cpu < 0) {
		thread_switch(c, t, pid, tid, out, preempt);
		return;
	}
	ctx_cpu *cc = cpu_at(c, cpu);
	if (!cc)
		return;
	if (!out) {
		end_running(c, cc, cpu, t, false);
		begin_running(c, cc, cpu, t, tid);
		ctx_thread *th = tid > 0 ? ctx_thread_get(c, tid) : NULL;
		if (th && pid != TK_PID_NONE)
			th->pid = pid;
		return;
	}
	if (cc->known && cc->tid == tid) {
		end_running(c, cc, cpu, t, false);
		cc->tid = 0; /* until the next switch-in */
		cc->since = t;
	}
	ctx_thread *th = tid > 0 ? ctx_thread_get(c, tid) : NULL;
	if (th && preempt && th->runnable_since == CTX_TIME_UNSET)
		th->runnable_since = t;
}

void ctx_sched_finish(tk_context *c, uint64_t end)
{
	for (size_t i = 0; i < c->n_cpus; i++) {
		ctx_cpu *cc = &c->cpus[i];
		end_running(c, cc, (int32_t)i, end, true);
		cc->known = false;
	}
	for (size_t i = 0; i < c->n_threads; i++) {
		ctx_thread *th = &c->threads[i];
		if (th->running_cpu == CTX_CPU_UNKNOWN) {
			emit(c, TK_SPAN_RUNNING, TK_CPU_NONE, th, th->running_since, end, true);
			th->running_cpu = -1;
		}
		if (th->runnable_since != CTX_TIME_UNSET) {
			emit(c, TK_SPAN_RUNNABLE, TK_CPU_NONE, th, th->runnable_since, end, true);
			th->runnable_since = CTX_TIME_UNSET;
		}
	}
}

void ctx_sched_free(tk_context *c)
{
	free(c->cpus);
}
