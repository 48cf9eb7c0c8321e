/* The model pass behind track, counter and sched (and thread/process for
 * formats other than perf.data): one read of the input's model events.
 *
 * - track: one per CPU seen ("cpu"), per CTF stream ("stream"), per CPEL
 *   track ("cpel", the payload's `track`), per counter ("counter").
 * - counter: cpu_frequency / cpu_idle events (perf tracepoints power:*,
 *   LTTng power_*), value `state` on the track "<event> cpu N".
 * - sched: running slices from sched_switch events (perf's
 *   sched:sched_switch with prev_pid/next_pid, LTTng's sched_switch with
 *   prev_tid/next_tid): a slice starts when next_* is switched in on a CPU
 *   and ends at the next switch on that CPU, whose prev_state is its
 *   end_state; slices still running at the end end with the last event
 *   and have no end_state (Perfetto's sched_slice rules).
 * - thread_state: per thread, Running while a sched slice runs it; from
 *   a switch out, the prev_state letters (S, D, ...) until a sched_waking /
 *   sched_wakeup names it (then R, runnable) or it is switched in again
 *   (Perfetto's thread_state, without io_wait and blocked_function).
 * - thread/process (not perf.data): one thread per tid the events carry
 *   or sched_switch names, spanning its first to its last event; names from
 *   an LTTng `procname` context, else the comms of sched_switch (the
 *   latest). */
#ifdef TK_HAVE_SQLITE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_internal.h"

/* Track id for (type, name), interned. -1: out of memory. */
static int64_t track_id(tk_sql_derived *d, const char *type, const char *name, size_t len)
{
	const char *n = tk_sql_intern(&d->strings, name, len);
	if (!n)
		return -1;
	uint64_t key = (uintptr_t)n ^ ((uintptr_t)type << 1);
	for (;; key++) {
		uint64_t *v = tk_hashmap_get(&d->track_by_key, key);
		if (!v)
			break;
		const tk_sql_track *t = TK_SQL_AT(d->tracks, tk_sql_track, *v);
		if (t->name == n && t->type == type)
			return (int64_t)*v;
	}
	tk_sql_track *t = tk_sql_vec_push(&d->tracks, sizeof *t);
	if (!t)
		return -1;
	t->name = n;
	t->type = type;
	return tk_hashmap_put(&d->track_by_key, key, d->tracks.n - 1) ? (int64_t)d->tracks.n - 1
								      : -1;
}

static const tk_value *member(const tk_event *ev, const char *name)
{
	const tk_value *v = ev->payload ? tk_value_member(ev->payload, name) : NULL;
	if (!v && ev->context)
		v = tk_value_member(ev->context, name);
	if (!v && ev->stream_context)
		v = tk_value_member(ev->stream_context, name);
	return v;
}

static bool int_member(const tk_event *ev, const char *name, int64_t *out)
{
	const tk_value *v = member(ev, name);
	if (!v || v->cls->kind != TK_TYPE_INT)
		return false;
	*out = v->cls->is_signed ? v->v.i : (int64_t)v->v.u;
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Linux task state bits as Perfetto and perf sched print them. */
static void state_text(int64_t state, char *buf, size_t size)
{
	static const char letters[] = "SDTtXZPI";
	size_t k = 0;
	if ((state & 0xff) == 0)
		buf[k++] = 'R';
	for (int b = 0; b < 8 && k + 2 < size; b++)
		if (state & (1 << b))
			buf[k++] = letters[b];
	if (state & 0x100 && k + 2 < size) /* TASK_REPORT_MAX: preempted */
		buf[k++] = '+';
	buf[k] = '\0';
}

typedef struct cpu_slice {
	bool open;
	size_t row; /* d->sched row of the running slice */
} cpu_slice;

typedef struct model_pass {
	tk_sql_derived *d;
	tk_hashmap waiting; /* tid -> thread_state row + 1 of its open wait */
	bool threads;
	cpu_slice *cpus;
	size_t n_cpus;
	tk_hashmap track_of_cpu, track_of_stream;
	uint64_t last_ts;
	bool has_last;
} model_pass;

static cpu_slice *cpu_state(model_pass *p, int32_t cpu)
{
	if (cpu < 0 || cpu > 1 << 20)
		return NULL;
	if ((size_t)cpu >= p->n_cpus) {
		size_t n = (size_t)cpu + 1;
		cpu_slice *c = realloc(p->cpus, n * sizeof *c);
		if (!c)
			return NULL;
		memset(c + p->n_cpus, 0, (n - p->n_cpus) * sizeof *c);
		p->cpus = c;
		p->n_cpus = n;
	}
	return &p->cpus[cpu];
}

/* Ends tid's open wait at ts; starts a new one in state (NULL: none). */
static bool wait_state(model_pass *p, int64_t tid, uint64_t ts, const char *state)
{
	tk_sql_derived *d = p->d;
	uint64_t *open = tk_hashmap_get(&p->waiting, (uint32_t)tid);
	if (open && *open) {
		tk_sql_thread_state *w = TK_SQL_AT(d->thread_state, tk_sql_thread_state, *open - 1);
		w->dur = ts >= w->ts ? ts - w->ts : 0;
		*open = 0;
	}
	if (!state)
		return true;
	tk_sql_thread_state *w = tk_sql_vec_push(&d->thread_state, sizeof *w);
	if (!w)
		return false;
	w->ts = ts;
	w->cpu = -1;
	w->tid = (int32_t)tid;
	w->state = state;
	return tk_hashmap_put(&p->waiting, (uint32_t)tid, d->thread_state.n);
}

static bool on_wakeup(model_pass *p, const tk_event *ev)
{
	int64_t tid;
	if (!ev->has_time || (!int_member(ev, "tid", &tid) && !int_member(ev, "pid", &tid)))
		return true;
	uint64_t *open = tk_hashmap_get(&p->waiting, (uint32_t)tid);
	if (!open || !*open)
		return true; /* running or never seen asleep: nothing to split */
	const tk_sql_thread_state *w =
	    TK_SQL_AT(p->d->thread_state, tk_sql_thread_state, *open - 1);
	if (strcmp(w->state, "R") == 0 || strcmp(w->state, "R+") == 0)
		return true;
	const char *r = tk_sql_intern(&p->d->strings, "R", 1);
	return r && wait_state(p, tid, ev->time_ns, r);
}

static bool on_switch(model_pass *p, const tk_event *ev)
{
	tk_sql_derived *d = p->d;
	int64_t next, prev_state = 0, prio = 0;
	if (!ev->has_time || ev->cpu < 0)
		return true;
	if (!int_member(ev, "next_tid", &next) && !int_member(ev, "next_pid", &next))
		return true;
	bool has_prio = int_member(ev, "next_prio", &prio);
	bool has_state = int_member(ev, "prev_state", &prev_state);
	int64_t prev;
	if (int_member(ev, "prev_tid", &prev) || int_member(ev, "prev_pid", &prev)) {
		char buf[16];
		state_text(has_state ? prev_state : 0, buf, sizeof buf);
		const char *st = tk_sql_intern(&d->strings, buf, strlen(buf));
		if (!st || !wait_state(p, prev, ev->time_ns, st))
			return false;
	}
	if (!wait_state(p, next, ev->time_ns, NULL))
		return false;
	cpu_slice *c = cpu_state(p, ev->cpu);
	if (!c)
		return false;
	if (c->open) {
		tk_sql_sched *s = TK_SQL_AT(d->sched, tk_sql_sched, c->row);
		s->dur = ev->time_ns >= s->ts ? ev->time_ns - s->ts : 0;
		if (has_state) {
			char buf[16];
			state_text(prev_state, buf, sizeof buf);
			if (!(s->end_state = tk_sql_intern(&d->strings, buf, strlen(buf))))
				return false;
		}
	}
	tk_sql_sched *s = tk_sql_vec_push(&d->sched, sizeof *s);
	if (!s)
		return false;
	s->ts = ev->time_ns;
	s->cpu = ev->cpu;
	s->tid = (int32_t)next;
	s->priority = (int32_t)prio;
	s->has_priority = has_prio;
	c->open = true;
	c->row = d->sched.n - 1;
	return true;
}

static bool on_counter(model_pass *p, const tk_event *ev, const char *name)
{
	int64_t state, cpu = ev->cpu;
	if (!ev->has_time || !int_member(ev, "state", &state))
		return true;
	int_member(ev, "cpu_id", &cpu);
	char track[128];
	int n = snprintf(track, sizeof track, "%s cpu %lld", name, (long long)cpu);
	int64_t id = track_id(p->d, "counter", track, n > 0 ? (size_t)n : 0);
	tk_sql_counter *c = id >= 0 ? tk_sql_vec_push(&p->d->counters, sizeof *c) : NULL;
	if (!c)
		return false;
	c->ts = ev->time_ns;
	c->track = (uint32_t)id;
	/* cpu_idle's "exit" is (u32)-1 */
	c->value = (double)(state == 4294967295 ? -1 : state);
	return true;
}

/* The thread row of tid (created on first sight), its span grown to ts
 * and its pid filled in when known. NULL when out of memory. */
static tk_sql_thread *thread_seen(model_pass *p, int64_t tid, int32_t pid, bool has_ts, uint64_t ts)
{
	tk_sql_derived *d = p->d;
	uint64_t *v = tk_hashmap_get(&d->thread_by_tid, (uint32_t)tid);
	tk_sql_thread *t;
	if (v) {
		t = TK_SQL_AT(d->threads, tk_sql_thread, *v);
	} else {
		t = tk_sql_vec_push(&d->threads, sizeof *t);
		if (!t || !tk_hashmap_put(&d->thread_by_tid, (uint32_t)tid, d->threads.n - 1))
			return NULL;
		t->tid = (int32_t)tid;
		t->pid = pid;
		t->upid = -1;
	}
	if (has_ts) {
		if (!t->has_start || ts < t->start_ts)
			t->start_ts = ts;
		if (!t->has_end || ts > t->end_ts)
			t->end_ts = ts;
		t->has_start = t->has_end = true;
	}
	if (t->pid < 0 && pid >= 0)
		t->pid = pid;
	return t;
}

/* A string member as the thread's name (the latest one wins, as a comm
 * changes with exec). */
static bool name_thread(model_pass *p, tk_sql_thread *t, const tk_value *s)
{
	if (!s || s->cls->kind != TK_TYPE_STRING)
		return true;
	size_t len = strnlen(s->v.str.ptr, s->v.str.len);
	if (len == 0)
		return true;
	t->name = tk_sql_intern(&p->d->strings, s->v.str.ptr, len);
	return t->name != NULL;
}

static bool on_thread(model_pass *p, const tk_event *ev)
{
	if (ev->tid >= 0) {
		tk_sql_thread *t = thread_seen(p, ev->tid, ev->pid, ev->has_time, ev->time_ns);
		if (!t || (!t->name && !name_thread(p, t, member(ev, "procname"))))
			return false;
	}
	/* kernel traces name threads in their scheduling events */
	const char *cn = ev->cls && ev->cls->name ? ev->cls->name : "";
	if (ends_with(cn, "sched_switch")) {
		static const char *const ids[2][2] = {{"prev_tid", "prev_pid"},
						      {"next_tid", "next_pid"}};
		static const char *const comms[2] = {"prev_comm", "next_comm"};
		for (int k = 0; k < 2; k++) {
			int64_t tid;
			if (!int_member(ev, ids[k][0], &tid) && !int_member(ev, ids[k][1], &tid))
				continue;
			tk_sql_thread *t = thread_seen(p, tid, -1, ev->has_time, ev->time_ns);
			if (!t || !name_thread(p, t, member(ev, comms[k])))
				return false;
		}
	}
	return true;
}

static bool on_event(model_pass *p, const tk_event *ev, tk_format fmt)
{
	tk_sql_derived *d = p->d;
	char name[64];
	if (ev->cpu >= 0 && !tk_hashmap_get(&p->track_of_cpu, (uint32_t)ev->cpu)) {
		int n = snprintf(name, sizeof name, "cpu %d", (int)ev->cpu);
		int64_t id = track_id(d, "cpu", name, (size_t)n);
		if (id < 0 || !tk_hashmap_put(&p->track_of_cpu, (uint32_t)ev->cpu, (uint64_t)id))
			return false;
	}
	if (fmt == TK_FORMAT_CTF && !tk_hashmap_get(&p->track_of_stream, ev->stream_instance)) {
		int n = snprintf(name, sizeof name, "stream %llu",
				 (unsigned long long)ev->stream_instance);
		int64_t id = track_id(d, "stream", name, (size_t)n);
		if (id < 0 ||
		    !tk_hashmap_put(&p->track_of_stream, ev->stream_instance, (uint64_t)id))
			return false;
	}
	if (fmt == TK_FORMAT_CPEL || fmt == TK_FORMAT_ELOG) {
		const tk_value *tr = member(ev, "track");
		if (tr && tr->cls->kind == TK_TYPE_STRING &&
		    track_id(d, "cpel", tr->v.str.ptr, strnlen(tr->v.str.ptr, tr->v.str.len)) < 0)
			return false;
	}
	const char *cn = ev->cls && ev->cls->name ? ev->cls->name : "";
	if (ends_with(cn, "sched_switch") && !on_switch(p, ev))
		return false;
	if ((ends_with(cn, "sched_waking") || ends_with(cn, "sched_wakeup") ||
	     ends_with(cn, "sched_wakeup_new")) &&
	    !on_wakeup(p, ev))
		return false;
	if ((ends_with(cn, "cpu_frequency") || ends_with(cn, "cpu_idle")) && !on_counter(p, ev, cn))
		return false;
	if (p->threads && !on_thread(p, ev))
		return false;
	if (ev->has_time) {
		p->last_ts = ev->time_ns;
		p->has_last = true;
	}
	return true;
}

static int state_cmp(const void *a, const void *b)
{
	const tk_sql_thread_state *x = a, *y = b;
	return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : (x->tid > y->tid) - (x->tid < y->tid);
}

/* Waits still open end with the trace; the sched slices are the Running
 * rows; everything in time order. */
static bool thread_states(model_pass *p)
{
	tk_sql_derived *d = p->d;
	for (size_t i = 0; i < p->waiting.cap; i++) {
		if (!p->waiting.used[i] || !p->waiting.vals[i])
			continue;
		tk_sql_thread_state *w =
		    TK_SQL_AT(d->thread_state, tk_sql_thread_state, p->waiting.vals[i] - 1);
		w->dur = p->has_last && p->last_ts > w->ts ? p->last_ts - w->ts : 0;
	}
	const char *running = tk_sql_intern(&d->strings, "Running", 7);
	if (!running)
		return false;
	for (size_t i = 0; i < d->sched.n; i++) {
		const tk_sql_sched *s = TK_SQL_AT(d->sched, tk_sql_sched, i);
		tk_sql_thread_state *r = tk_sql_vec_push(&d->thread_state, sizeof *r);
		if (!r)
			return false;
		*r = (tk_sql_thread_state){s->ts, s->dur, s->cpu, s->tid, running};
	}
	if (d->thread_state.n)
		qsort(d->thread_state.v, d->thread_state.n, sizeof(tk_sql_thread_state), state_cmp);
	return true;
}

/* Processes of the threads the model pass found. */
static bool processes(tk_sql_derived *d)
{
	for (size_t i = 0; i < d->threads.n; i++) {
		tk_sql_thread *t = TK_SQL_AT(d->threads, tk_sql_thread, i);
		if (t->pid < 0)
			continue;
		uint64_t *v = tk_hashmap_get(&d->process_by_pid, (uint32_t)t->pid);
		if (!v) {
			tk_sql_process *pr = tk_sql_vec_push(&d->processes, sizeof *pr);
			if (!pr || !tk_hashmap_put(&d->process_by_pid, (uint32_t)t->pid,
						   d->processes.n - 1))
				return false;
			pr->pid = t->pid;
			v = tk_hashmap_get(&d->process_by_pid, (uint32_t)t->pid);
		}
		t->upid = (int64_t)*v;
		tk_sql_process *pr = TK_SQL_AT(d->processes, tk_sql_process, *v);
		if (t->name && (t->tid == t->pid || !pr->name))
			pr->name = t->name;
	}
	return true;
}

tk_status tk_sql_model_pass(tk_sql_ctx *ctx, tk_sql_input *in, bool threads, tk_error *err)
{
	tk_open_options oo = {.log = ctx->opt.log, .log_user = ctx->opt.log_user};
	tk_source *src;
	tk_status st = tk_source_open(in->path, &oo, &src, err);
	if (st != TK_OK)
		return st;
	model_pass p = {.d = &in->d, .threads = threads};
	tk_hashmap_init(&p.track_of_cpu);
	tk_hashmap_init(&p.track_of_stream);
	tk_hashmap_init(&p.waiting);
	tk_format fmt = tk_source_info(src)->format;
	const tk_event *ev;
	while ((st = tk_source_next(src, &ev, err)) == TK_OK) {
		if (!on_event(&p, ev, fmt)) {
			st = tk_error_set(err, TK_ERR_NOMEM, ev->offset, "out of memory");
			break;
		}
	}
	if (st == TK_END) {
		st = TK_OK;
		/* Slices still running end with the trace. */
		for (size_t c = 0; c < p.n_cpus; c++) {
			if (!p.cpus[c].open)
				continue;
			tk_sql_sched *s = TK_SQL_AT(in->d.sched, tk_sql_sched, p.cpus[c].row);
			s->dur = p.has_last && p.last_ts > s->ts ? p.last_ts - s->ts : 0;
		}
		if (threads && !processes(&in->d))
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		if (st == TK_OK && !thread_states(&p))
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	free(p.cpus);
	tk_hashmap_free(&p.waiting);
	tk_hashmap_free(&p.track_of_cpu);
	tk_hashmap_free(&p.track_of_stream);
	tk_source_close(src);
	return st;
}

#endif /* TK_HAVE_SQLITE */
