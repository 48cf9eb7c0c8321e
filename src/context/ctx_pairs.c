/* Spans from paired events on one thread:
 * - syscalls (TK_CTX_SPAN_SYSCALL): perf's syscalls:sys_enter_X/sys_exit_X
 *   and raw_syscalls:sys_enter/sys_exit (named "sys_<id>" by the id
 *   member), LTTng's syscall_entry_X/syscall_exit_X. A thread is in one
 *   syscall at a time: an exit ends the open one (an exit with none open
 *   is ignored; a second entry ends the first as truncated);
 * - calls (TK_CTX_SPAN_CALL): NAME_entry ... NAME_exit (LTTng-UST
 *   func_entry/func_exit, irq_handler_entry/exit, ...), nested: an exit
 *   ends the innermost open span of the same NAME and any opened inside
 *   it (marked truncated). At most CTX_STACK_MAX open per thread.
 * The thread is the event's tid, else the one running on its cpu. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

static const char *raw_name(tk_context *c, const ctx_class *k, const tk_event *ev)
{
	int64_t id;
	if (!ctx_value_int(ctx_field(ev, k->f_id), &id))
		return "syscall";
	uint64_t *p = tk_hashmap_get(&c->sysname_by_id, (uint64_t)id);
	if (p)
		return (const char *)(uintptr_t)*p;
	if (c->sysname_by_id.n >= CTX_MAX_SYSNAMES)
		return "syscall"; /* hostile ids: no string per id */
	char buf[32];
	int n = snprintf(buf, sizeof buf, "sys_%" PRId64, id);
	const char *s = ctx_intern(c, buf, (size_t)n);
	if (!s || !tk_hashmap_put(&c->sysname_by_id, (uint64_t)id, (uint64_t)(uintptr_t)s))
		return "syscall";
	return s;
}

static void emit(tk_context *c, const ctx_thread *th, const ctx_open *o, int32_t cpu, uint64_t end,
		 uint32_t depth, bool truncated)
{
	tk_span s = {.kind = o->syscall ? TK_SPAN_SYSCALL : TK_SPAN_CALL,
		     .name = o->name,
		     .begin_ns = o->begin,
		     .end_ns = end < o->begin ? o->begin : end,
		     .cpu = cpu,
		     .pid = th->pid,
		     .tid = th->tid,
		     .track = -1,
		     .depth = depth,
		     .truncated = truncated};
	ctx_span_emit(c, &s);
}

static void push(tk_context *c, ctx_thread *th, const char *name, uint64_t t, bool syscall)
{
	if (c->n_open >= c->opt.max_open_spans) {
		c->stats.dropped_spans++;
		return;
	}
	if (th->depth == th->cap) {
		if (th->cap >= CTX_STACK_MAX) {
			c->stats.dropped_spans++;
			return;
		}
		uint16_t nc = th->cap ? (uint16_t)(th->cap * 2) : 4;
		ctx_open *ns = realloc(th->stack, nc * sizeof *ns);
		if (!ns) {
			c->stats.oom = true;
			return;
		}
		th->stack = ns;
		th->cap = nc;
	}
	th->stack[th->depth++] = (ctx_open){name, t, syscall};
	c->n_open++;
}

/* Ends the innermost open span matching (syscall, name) and those above it. */
static void pop(tk_context *c, ctx_thread *th, const char *name, bool syscall, int32_t cpu,
		uint64_t t, bool truncated)
{
	for (size_t i = th->depth; i-- > 0;) {
		ctx_open *o = &th->stack[i];
		if (o->syscall != syscall || (!syscall && strcmp(o->name, name) != 0))
			continue;
		while (th->depth > i + 1) {
			th->depth--;
			c->n_open--;
			emit(c, th, &th->stack[th->depth], cpu, t, th->depth, true);
		}
		th->depth--;
		c->n_open--;
		emit(c, th, o, cpu, t, th->depth, truncated);
		return;
	}
}

void ctx_pairs_event(tk_context *c, const ctx_class *k, const tk_event *ev)
{
	bool sys = k->role == CTX_ROLE_SYS_ENTER || k->role == CTX_ROLE_SYS_EXIT;
	bool call = k->role == CTX_ROLE_CALL_ENTRY || k->role == CTX_ROLE_CALL_EXIT;
	if (!ev->has_time || (sys && !(c->flags & TK_CTX_SPAN_SYSCALL)) ||
	    (call && !(c->flags & TK_CTX_SPAN_CALL)) || (!sys && !call))
		return;
	int32_t tid = ev->tid;
	int64_t v;
	if (tid == TK_PID_NONE && ctx_value_int(ctx_ref_value(ev, k->vtid), &v))
		tid = (int32_t)v;
	if (tid == TK_PID_NONE && ev->cpu != TK_CPU_NONE)
		tid = ctx_sched_current(c, ev->cpu);
	if (tid < 0)
		return;
	ctx_thread *th = ctx_thread_get(c, tid);
	if (!th)
		return;
	uint64_t t = ev->time_ns;
	switch (k->role) {
	case CTX_ROLE_SYS_ENTER:
		/* an entry while one is open: the exit was lost */
		pop(c, th, NULL, true, ev->cpu, t, true);
		push(c, th, k->stem ? k->stem : raw_name(c, k, ev), t, true);
		break;
	case CTX_ROLE_SYS_EXIT: pop(c, th, NULL, true, ev->cpu, t, false); break;
	case CTX_ROLE_CALL_ENTRY: push(c, th, k->stem, t, false); break;
	case CTX_ROLE_CALL_EXIT: pop(c, th, k->stem, false, ev->cpu, t, false); break;
	default: break;
	}
}

void ctx_pairs_finish(tk_context *c, uint64_t end)
{
	for (size_t i = 0; i < c->n_threads; i++) {
		ctx_thread *th = &c->threads[i];
		while (th->depth > 0) {
			th->depth--;
			c->n_open--;
			emit(c, th, &th->stack[th->depth], TK_CPU_NONE, end, th->depth, true);
		}
	}
}
