/* The model pass behind track, counter, sched, thread_state, thread and
 * process: one read of the input's model events, with the model context
 * (include/tracekit/context.h) attached to the source, so threads,
 * processes and running/runnable spans are the ones every other consumer
 * of the context sees.
 *
 * - track: one per CPU seen ("cpu"), per CTF stream ("stream"), per CPEL
 *   track ("cpel", the payload's `track`), per counter ("counter").
 * - counter: cpu_frequency / cpu_idle events (perf tracepoints power:*,
 *   LTTng power_*), value `state` on the track "<event> cpu N"; perf
 *   counts: the running sum of the periods of each sampled event per CPU
 *   on "<event> cpu N" (Perfetto's perf counter tracks); LTTng perf
 *   counter contexts on "<field> cpu N" (perf_cpu_*) or "<field> tid N"
 *   (perf_thread_*); in LTTng-UST traces (env domain "ust") the context's
 *   counters (an event whose payload is one number) on "<event>.<field>".
 * - sched: running slices from sched_switch events (perf's
 *   sched:sched_switch with prev_pid/next_pid, LTTng's sched_switch with
 *   prev_tid/next_tid): a slice starts when next_* is switched in on a CPU
 *   and ends at the next switch on that CPU, whose prev_state is its
 *   end_state; slices still running at the end end with the last event
 *   and have no end_state (Perfetto's sched_slice rules).
 * - thread_state: the context's spans (Running on a CPU, R runnable) and,
 *   between a switch out in a sleeping state and the thread's next span,
 *   that state's letters (S, D, ...), as Perfetto's thread_state.
 * - thread/process: the context's threads (for perf.data perf's own model
 *   of COMM/FORK/EXIT, elsewhere LTTng contexts, sched_* payloads and
 *   statedumps), in order of first sight; a process per pid, named by its
 *   leader; perf.data: the recorded command's process gets its cmdline
 *   from HEADER_CMDLINE (the only command line the formats carry). */
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
	tk_context *ctx;
	tk_hashmap waiting;     /* tid -> thread_state row + 1 of its open sleep */
	tk_hashmap sums;        /* (class, cpu) key -> counter track + 1 */
	tk_sql_vec totals;      /* period_sum per (class, cpu) */
	bool ust;               /* an LTTng-UST trace: one-number events are counters (kernel
				 * tracepoints with one field, such as irq numbers, are not) */
	uint64_t *fixed_period; /* perf: per attr index, 0 when sampled by freq */
	size_t n_fixed;
	char **argv; /* perf: the recording's command line (HEADER_CMDLINE) */
	size_t n_argv;
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

/* A wakeup ends the sleep of its thread; the context's runnable span
 * starts there. */
static bool on_wakeup(model_pass *p, const tk_event *ev)
{
	int64_t tid;
	if (!ev->has_time || (!int_member(ev, "tid", &tid) && !int_member(ev, "pid", &tid)))
		return true;
	return wait_state(p, tid, ev->time_ns, NULL);
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
	if ((int_member(ev, "prev_tid", &prev) || int_member(ev, "prev_pid", &prev)) && prev > 0) {
		/* runnable (preempted) is the context's span; a sleep is ours */
		const char *st = NULL;
		if (has_state && (prev_state & 0xff) != 0) {
			char buf[16];
			state_text(prev_state, buf, sizeof buf);
			if (!(st = tk_sql_intern(&d->strings, buf, strlen(buf))))
				return false;
		}
		if (!wait_state(p, prev, ev->time_ns, st))
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

/* A counter value on the track named name (created on first use). */
static bool counter_row(model_pass *p, const char *name, size_t len, uint64_t ts, double value)
{
	int64_t id = track_id(p->d, "counter", name, len);
	tk_sql_counter *c = id >= 0 ? tk_sql_vec_push(&p->d->counters, sizeof *c) : NULL;
	if (!c)
		return false;
	c->ts = ts;
	c->track = (uint32_t)id;
	c->value = value;
	return true;
}

/* perf counts: the period of a sample added to its event's sum on its
 * CPU; the counter's value is the sum so far (what perf's count would
 * read at that time, to the sampling's resolution). */
typedef struct period_sum {
	uint64_t track, sum;
} period_sum;

static bool on_period(model_pass *p, const tk_event *ev, const char *name, uint64_t period)
{
	int32_t cpu = ev->cpu >= 0 ? ev->cpu : -1;
	uint64_t key = ((uint64_t)(uintptr_t)ev->cls << 20) ^ (uint64_t)(uint32_t)(cpu + 1);
	uint64_t *slot = tk_hashmap_get(&p->sums, key);
	if (!slot) {
		char track[160];
		int n = cpu >= 0 ? snprintf(track, sizeof track, "%s cpu %d", name, (int)cpu)
				 : snprintf(track, sizeof track, "%s", name);
		size_t len = n < 0 ? 0 : (size_t)n < sizeof track ? (size_t)n : sizeof track - 1;
		int64_t id = track_id(p->d, "counter", track, len);
		period_sum *ps = id >= 0 ? tk_sql_vec_push(&p->totals, sizeof *ps) : NULL;
		if (!ps || !tk_hashmap_put(&p->sums, key, p->totals.n))
			return false;
		ps->track = (uint64_t)id;
		slot = tk_hashmap_get(&p->sums, key);
	}
	period_sum *ps = TK_SQL_AT(p->totals, period_sum, *slot - 1);
	ps->sum += period;
	tk_sql_counter *c = tk_sql_vec_push(&p->d->counters, sizeof *c);
	if (!c)
		return false;
	c->ts = ev->time_ns;
	c->track = (uint32_t)ps->track;
	c->value = (double)ps->sum;
	return true;
}

/* A sample's period: its period member (TK_SEM_PERIOD), else its attr's
 * fixed period (perf record -c N stores none per sample). */
static bool period_of(const model_pass *p, const tk_event *ev, uint64_t *out)
{
	const tk_value *pl = ev->payload;
	if (!pl || pl->cls->kind != TK_TYPE_STRUCT)
		return false;
	for (size_t i = 0; i < pl->cls->n_members && i < pl->v.list.n; i++)
		if (pl->cls->members[i].cls->semantic == TK_SEM_PERIOD &&
		    pl->v.list.items[i].cls->kind == TK_TYPE_INT) {
			*out = pl->v.list.items[i].v.u;
			return true;
		}
	if (ev->cls && ev->cls->id < p->n_fixed && p->fixed_period[ev->cls->id]) {
		*out = p->fixed_period[ev->cls->id];
		return true;
	}
	return false;
}

/* The fixed sample periods of a perf.data file's attrs: the header's, and
 * in pipe mode the HEADER_ATTR records before the first sample. */
static bool fixed_periods(model_pass *p, const char *path)
{
	tk_open_options po = {.format = TK_FORMAT_PERF, .raw_order = true, .log = NULL};
	tk_session *s;
	tk_error err;
	if (tk_session_open(path, &po, TK_SESSION_NATIVE, &s, &err) != TK_OK)
		return true; /* the model source reports the error */
	const tk_perf_file *f = tk_session_perf(s);
	const tk_session_item *it;
	while (tk_session_next(s, &it, &err) == TK_OK && it->perf->type != TK_PERF_RECORD_SAMPLE)
		;
	size_t n = tk_perf_attr_count(f);
	p->fixed_period = calloc(n ? n : 1, sizeof *p->fixed_period);
	if (!p->fixed_period) {
		tk_session_close(s);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const tk_perf_attr *a = tk_perf_attr_at(f, i);
		if (!tk_perf_attr_flag(a, TK_PERF_ATTR_FREQ) && a->index < n)
			p->fixed_period[a->index] = a->sample_period;
	}
	p->n_fixed = n;
	const tk_perf_features *ft = tk_perf_get_features(f);
	if (ft && ft->n_cmdline && (p->argv = calloc(ft->n_cmdline, sizeof *p->argv))) {
		for (size_t i = 0; i < ft->n_cmdline; i++)
			if (ft->cmdline[i] && (p->argv[p->n_argv] = strdup(ft->cmdline[i])))
				p->n_argv++;
	}
	tk_session_close(s);
	return true;
}

/* The recording's workload: perf record's command line ends with the
 * command it ran ("perf record -g -o x.data ./app arg"), whose process
 * perf names by the program's base name (15 characters, the kernel's
 * comm). The first argument whose base name is a process's name starts
 * that process's command line; options and their values name none. */
static bool workload_cmdline(model_pass *p)
{
	tk_sql_derived *d = p->d;
	for (size_t i = 1; i < p->n_argv; i++) {
		const char *a = p->argv[i];
		if (a[0] == '-' || !a[0])
			continue;
		const char *slash = strrchr(a, '/');
		const char *base = slash ? slash + 1 : a;
		size_t blen = strnlen(base, 15);
		for (size_t k = 0; k < d->processes.n; k++) {
			tk_sql_process *pr = TK_SQL_AT(d->processes, tk_sql_process, k);
			if (!pr->name || strlen(pr->name) != blen ||
			    memcmp(pr->name, base, blen) != 0)
				continue;
			size_t len = 0;
			for (size_t j = i; j < p->n_argv; j++)
				len += strlen(p->argv[j]) + 1;
			char *text = malloc(len);
			if (!text)
				return false;
			size_t at = 0;
			for (size_t j = i; j < p->n_argv; j++) {
				size_t n = strlen(p->argv[j]);
				memcpy(text + at, p->argv[j], n);
				at += n;
				text[at++] = j + 1 < p->n_argv ? ' ' : '\0';
			}
			pr->cmdline = tk_sql_intern(&d->strings, text, at - 1);
			free(text);
			return pr->cmdline != NULL;
		}
	}
	return true;
}

/* LTTng's perf counter contexts (`lttng add-context -t perf:cpu:cycles`
 * gives the field perf_cpu_cycles): each event carries the counter's
 * value, on the track "<field> cpu N". */
static bool on_perf_context(model_pass *p, const tk_event *ev)
{
	const tk_value *scopes[2] = {ev->stream_context, ev->context};
	for (int k = 0; k < 2; k++) {
		const tk_value *sv = scopes[k];
		if (!sv || sv->cls->kind != TK_TYPE_STRUCT)
			continue;
		for (size_t i = 0; i < sv->cls->n_members && i < sv->v.list.n; i++) {
			const char *fn = sv->cls->members[i].name;
			const tk_value *v = &sv->v.list.items[i];
			if (strncmp(fn, "perf_", 5) != 0 || v->cls->kind != TK_TYPE_INT)
				continue;
			/* perf_thread_*: the thread's own count; perf_cpu_*: the CPU's */
			char track[160];
			bool per_thread = strncmp(fn, "perf_thread_", 12) == 0 && ev->tid >= 0;
			int n = per_thread
				    ? snprintf(track, sizeof track, "%s tid %d", fn, (int)ev->tid)
				    : snprintf(track, sizeof track, "%s cpu %d", fn, (int)ev->cpu);
			double x = v->cls->is_signed ? (double)v->v.i : (double)v->v.u;
			if (!counter_row(
				p, track,
				n > 0 ? ((size_t)n < sizeof track ? (size_t)n : sizeof track - 1)
				      : 0,
				ev->time_ns, x))
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
	uint64_t period;
	tk_counter cnt;
	if (ends_with(cn, "cpu_frequency") || ends_with(cn, "cpu_idle")) {
		if (!on_counter(p, ev, cn))
			return false;
	} else if (fmt == TK_FORMAT_PERF) {
		if (ev->has_time && period_of(p, ev, &period) && !on_period(p, ev, cn, period))
			return false;
	} else if (p->ust && ev->has_time && tk_context_counter(p->ctx, ev, &cnt)) {
		if (!counter_row(p, cnt.name, strlen(cnt.name), ev->time_ns, cnt.value))
			return false;
	}
	if (fmt == TK_FORMAT_CTF && ev->has_time && ev->cpu >= 0 &&
	    (ev->context || ev->stream_context) && !on_perf_context(p, ev))
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

/* A span of the context as a thread_state row: Running on its CPU, or
 * runnable (R). */
static bool on_span(model_pass *p, const tk_span *sp)
{
	tk_sql_derived *d = p->d;
	if (sp->kind != TK_SPAN_RUNNING && sp->kind != TK_SPAN_RUNNABLE)
		return true;
	const char *state = sp->kind == TK_SPAN_RUNNING ? tk_sql_intern(&d->strings, "Running", 7)
							: tk_sql_intern(&d->strings, "R", 1);
	tk_sql_thread_state *r = state ? tk_sql_vec_push(&d->thread_state, sizeof *r) : NULL;
	if (!r)
		return false;
	*r = (tk_sql_thread_state){sp->begin_ns, sp->end_ns - sp->begin_ns,
				   sp->kind == TK_SPAN_RUNNING ? sp->cpu : -1, sp->tid, state};
	return true;
}

static bool drain_spans(model_pass *p)
{
	const tk_span *sp;
	while ((sp = tk_context_next_span(p->ctx)))
		if (!on_span(p, sp))
			return false;
	return true;
}

/* Sleeps still open end with the trace; everything in time order. */
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
	if (d->thread_state.n)
		qsort(d->thread_state.v, d->thread_state.n, sizeof(tk_sql_thread_state), state_cmp);
	return true;
}

/* The context's threads and a process per pid (named by its leader, else
 * its first named thread). perf.data threads without a comm are named
 * ":TID" as perf names them. */
static bool threads_and_processes(model_pass *p, tk_format fmt)
{
	tk_sql_derived *d = p->d;
	size_t n = tk_context_n_threads(p->ctx);
	for (size_t i = 0; i < n; i++) {
		tk_ctx_thread ct;
		if (!tk_context_thread_at(p->ctx, i, &ct) || ct.tid < 0 ||
		    tk_hashmap_get(&d->thread_by_tid, (uint32_t)ct.tid))
			continue;
		tk_sql_thread *t = tk_sql_vec_push(&d->threads, sizeof *t);
		if (!t || !tk_hashmap_put(&d->thread_by_tid, (uint32_t)ct.tid, d->threads.n - 1))
			return false;
		t->tid = ct.tid;
		t->pid = ct.pid;
		t->upid = -1;
		t->has_start = t->has_end = ct.first_ns != 0;
		t->start_ts = ct.first_ns;
		t->end_ts = ct.last_ns;
		char placeholder[24];
		const char *name = ct.comm;
		size_t len = ct.comm_len;
		if (!len && fmt == TK_FORMAT_PERF) {
			int k = snprintf(placeholder, sizeof placeholder, ":%d", (int)ct.tid);
			name = placeholder;
			len = k > 0 ? (size_t)k : 0;
		}
		if (len && !(t->name = tk_sql_intern(&d->strings, name, len)))
			return false;
	}
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

tk_status tk_sql_model_pass(tk_sql_ctx *ctx, tk_sql_input *in, tk_error *err)
{
	tk_open_options oo = {.log = ctx->opt.log, .log_user = ctx->opt.log_user};
	tk_session *ses;
	tk_status st = tk_session_open(in->path, &oo, TK_SESSION_MODEL, &ses, err);
	if (st != TK_OK)
		return st;
	tk_source *src = tk_session_source(ses);
	model_pass p = {.d = &in->d};
	tk_context_options co = {.flags = TK_CTX_THREADS | TK_CTX_SPAN_SCHED | TK_CTX_COUNTERS,
				 .log = ctx->opt.log,
				 .log_user = ctx->opt.log_user};
	if ((st = tk_context_new(&co, &p.ctx, err)) != TK_OK) {
		tk_session_close(ses);
		return st;
	}
	tk_source_set_context(src, p.ctx);
	tk_hashmap_init(&p.track_of_cpu);
	tk_hashmap_init(&p.track_of_stream);
	tk_hashmap_init(&p.waiting);
	tk_hashmap_init(&p.sums);
	const tk_trace_info *ti = tk_source_info(src);
	tk_format fmt = ti->format;
	for (size_t i = 0; fmt == TK_FORMAT_CTF && i < ti->n_env; i++)
		if (strcmp(ti->env[i].key, "domain") == 0 && !ti->env[i].is_int && ti->env[i].str &&
		    strcmp(ti->env[i].str, "ust") == 0)
			p.ust = true;
	if (fmt == TK_FORMAT_PERF && !fixed_periods(&p, in->path))
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	const tk_session_item *it;
	while (st == TK_OK && (st = tk_session_next(ses, &it, err)) == TK_OK) {
		if (!on_event(&p, it->event, fmt) || !drain_spans(&p)) {
			st = tk_error_set(err, TK_ERR_NOMEM, it->event->offset, "out of memory");
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
		tk_context_finish(p.ctx, p.has_last ? p.last_ts : 0);
		tk_context_stats cs;
		tk_context_get_stats(p.ctx, &cs);
		if (!drain_spans(&p) || cs.oom || !threads_and_processes(&p, fmt) ||
		    !workload_cmdline(&p) || !thread_states(&p))
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	free(p.cpus);
	free(p.totals.v);
	free(p.fixed_period);
	for (size_t i = 0; i < p.n_argv; i++)
		free(p.argv[i]);
	free(p.argv);
	tk_hashmap_free(&p.sums);
	tk_hashmap_free(&p.waiting);
	tk_hashmap_free(&p.track_of_cpu);
	tk_hashmap_free(&p.track_of_stream);
	tk_context_free(p.ctx);
	tk_session_close(ses);
	return st;
}

#endif /* TK_HAVE_SQLITE */
