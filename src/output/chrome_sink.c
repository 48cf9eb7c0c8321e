/* Chrome Trace Event Format sink ({"traceEvents": [...]}), which Perfetto UI
 * and chrome://tracing open. Every event becomes an instant event ("ph":"i")
 * with its fields as args; callchains become "sf" references into a
 * deduplicated "stackFrames" table written at the end (its size grows with
 * distinct frames, not events).
 *
 * With a model context on the events (tk_context_of; convert attaches one):
 * - thread and process names are the model's (last name of each thread),
 *   written as metadata ("ph":"M") at the end for every (pid, tid) used;
 *   events without a tid of their own go to the thread the model gives
 *   them (LTTng: the thread running on their cpu), CPEL/elog events to
 *   their track (tid = track index, named by the track);
 * - derived spans are complete events ("ph":"X"): running slices on a
 *   "CPUs" process with one thread per cpu (tid 0x7fff0000 + cpu, "CPU N"),
 *   named by the running thread;
 *   runnable slices, syscalls and *_entry/_exit calls on their thread;
 *   CPEL state intervals on their track;
 * - counters (an event of one number) are also "ph":"C" events, and so
 *   are samples' periods ("<event> period" on the sample's process);
 * - stack frames are symbolized: "name" is the symbol (or the hex ip),
 *   "category" the image.
 * Without a context: names from a payload's comm field, hex frames.
 * Integers beyond 2^53 are strings (tk_put_json_u64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "model/source_impl.h"
#include "output/model_print.h"
#include "output/sink_writer.h"
#include "output/text_sinks.h"

#define CHROME_CPU_PID 0x7ffffff0 /* the pseudo-process of cpu tracks */
/* cpu N's track: a tid no kernel gives (pid_max <= 2^22), so readers that
 * key threads by tid alone (Perfetto's JSON importer) never mix it with a
 * real thread */
#define CHROME_CPU_TID(cpu) (0x7fff0000 + (int64_t)(cpu))
#define CHROME_MAX_CTXS     64   /* inputs whose names and spans are written */
#define CHROME_FRAMES       127  /* perf's default max_stack */
#define CHROME_CPUS         4096 /* cpu tracks named (the model's cap) */

typedef struct frames {
	tk_hashmap index;        /* mix(parent, addr, space) (+probe) -> id */
	uint64_t *parent, *addr; /* by id - 1 */
	uint64_t *space;         /* address space: 0 kernel/unknown, else pid + 1 */
	const char **sym, **dso; /* owned by the contexts; NULL unknown */
	size_t n, cap;
} frames;

/* One (input, pid, tid) that events were written for: its names go out at the end. */
typedef struct chrome_thread {
	uint32_t ctx;
	int64_t pid, tid;
	int64_t track; /* CPEL track index, else -1 */
} chrome_thread;

typedef struct chrome_sink {
	tk_sink base;
	tk_writer *w;
	bool first;
	frames fr;
	tk_hashmap named; /* without context: tid -> 1 when a thread_name was written */
	/* with contexts */
	tk_context *ctxs[CHROME_MAX_CTXS];
	size_t n_ctxs;
	size_t last_ctx;
	tk_hashmap seen; /* mix of chrome_thread -> index (+probe) */
	chrome_thread *threads;
	size_t n_threads, cap_threads;
	bool cpus_used;
	uint64_t cpu_bits[CHROME_CPUS / 64]; /* cpus with a running slice */
	tk_frame stack[CHROME_FRAMES];
} chrome_sink;

static uint64_t mix(uint64_t parent, uint64_t addr)
{
	uint64_t k = addr * 0x9E3779B97F4A7C15ULL ^ (parent + 0x632BE59BD9B4E019ULL);
	return k ^ (k >> 29);
}

static bool grow_frames(frames *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024;
	uint64_t *np = realloc(f->parent, cap * sizeof *np);
	if (!np)
		return false;
	f->parent = np;
	uint64_t *na = realloc(f->addr, cap * sizeof *na);
	if (!na)
		return false;
	f->addr = na;
	uint64_t *ns = realloc(f->space, cap * sizeof *ns);
	if (!ns)
		return false;
	f->space = ns;
	const char **sy = realloc(f->sym, cap * sizeof *sy);
	if (!sy)
		return false;
	f->sym = sy;
	const char **d = realloc(f->dso, cap * sizeof *d);
	if (!d)
		return false;
	f->dso = d;
	f->cap = cap;
	return true;
}

/* The id of frame (parent, addr) in an address space, added when new; 0
 * when out of memory. sym/dso name it (NULL: hex). */
static uint64_t frame_id(frames *f, uint64_t parent, uint64_t addr, uint64_t space, const char *sym,
			 const char *dso)
{
	uint64_t key = mix(parent, addr ^ (space * 0xD6E8FEB86659FD93ULL));
	for (;;) {
		uint64_t *id = tk_hashmap_get(&f->index, key);
		if (!id)
			break;
		size_t i = *id - 1;
		if (f->parent[i] == parent && f->addr[i] == addr && f->space[i] == space)
			return *id;
		key++; /* a different frame hashed here: probe on */
	}
	if (f->n == f->cap && !grow_frames(f))
		return 0;
	f->parent[f->n] = parent;
	f->addr[f->n] = addr;
	f->space[f->n] = space;
	f->sym[f->n] = sym;
	f->dso[f->n] = dso;
	f->n++;
	if (!tk_hashmap_put(&f->index, key, f->n))
		return 0;
	return f->n;
}

static const tk_value *member_by_semantic(const tk_value *s, tk_semantic sem, const char *name)
{
	if (!s || !s->cls || s->cls->kind != TK_TYPE_STRUCT)
		return NULL;
	for (size_t i = 0; i < s->cls->n_members && i < s->v.list.n; i++) {
		const tk_member *m = &s->cls->members[i];
		if (m->cls->semantic == sem || (name && strcmp(m->name, name) == 0))
			return &s->v.list.items[i];
	}
	return NULL;
}

static void sep(chrome_sink *c)
{
	tk_put_str(c->w, c->first ? "\n" : ",\n");
	c->first = false;
}

static void put_ids(tk_writer *w, int64_t pid, int64_t tid)
{
	tk_put_str(w, ",\"pid\":");
	tk_put_json_i64(w, pid);
	tk_put_str(w, ",\"tid\":");
	tk_put_json_i64(w, tid);
}

/* Chrome times are microseconds: ns / 1000 with three decimals (exact). */
static void put_us(tk_writer *w, uint64_t ns)
{
	tk_put_u64(w, ns / 1000);
	tk_put_char(w, '.');
	tk_put_u64_pad(w, ns % 1000, 3, '0');
}

/* The index of ctx among the inputs seen; CHROME_MAX_CTXS when full. */
static size_t ctx_index(chrome_sink *c, tk_context *ctx)
{
	if (c->last_ctx < c->n_ctxs && c->ctxs[c->last_ctx] == ctx)
		return c->last_ctx;
	for (size_t i = 0; i < c->n_ctxs; i++)
		if (c->ctxs[i] == ctx)
			return c->last_ctx = i;
	if (c->n_ctxs == CHROME_MAX_CTXS)
		return CHROME_MAX_CTXS;
	c->ctxs[c->n_ctxs] = ctx;
	return c->last_ctx = c->n_ctxs++;
}

/* Notes (ctx, pid, tid) for the names written at the end; false: OOM. */
static bool note_thread(chrome_sink *c, size_t ci, int64_t pid, int64_t tid, int64_t track)
{
	if (ci >= CHROME_MAX_CTXS)
		return true;
	uint64_t key = mix(mix((uint64_t)ci, (uint64_t)pid), (uint64_t)tid);
	for (;; key++) {
		uint64_t *ix = tk_hashmap_get(&c->seen, key);
		if (!ix)
			break;
		chrome_thread *t = &c->threads[*ix];
		if (t->ctx == ci && t->pid == pid && t->tid == tid)
			return true;
	}
	if (c->n_threads == c->cap_threads) {
		size_t nc = c->cap_threads ? c->cap_threads * 2 : 256;
		chrome_thread *nt = realloc(c->threads, nc * sizeof *nt);
		if (!nt)
			return false;
		c->threads = nt;
		c->cap_threads = nc;
	}
	c->threads[c->n_threads] = (chrome_thread){(uint32_t)ci, pid, tid, track};
	return tk_hashmap_put(&c->seen, key, c->n_threads++);
}

/* pid and tid of an event: its own, else the model's thread (or CPEL
 * track), else the cpu / stream as before the model existed. */
static void event_ids(chrome_sink *c, const tk_event *ev, int64_t *pid, int64_t *tid,
		      int64_t *track)
{
	tk_context *ctx = tk_context_of(ev);
	*pid = ev->pid;
	*tid = ev->tid;
	*track = -1;
	if (ctx && ev->tid == TK_PID_NONE) {
		tk_ctx_thread th;
		*track = tk_context_event_track(ctx, ev);
		if (*track >= 0) {
			*tid = *track;
			*pid = 0; /* tracks are threads of one process, as their spans */
		} else if (tk_context_event_thread(ctx, ev, &th)) {
			*tid = th.tid;
			if (*pid == TK_PID_NONE)
				*pid = th.pid;
		}
	}
	if (*pid == TK_PID_NONE)
		*pid = *tid != TK_PID_NONE && *track < 0 && ctx ? *tid : (int64_t)ev->stream_id;
	if (*tid == TK_PID_NONE)
		*tid = ev->cpu != TK_CPU_NONE ? ev->cpu : (int64_t)ev->stream_instance;
	(void)c;
}

/* Without a context: names from the payload's comm, as first seen. */
static void payload_thread_name(chrome_sink *c, const tk_event *ev, const tk_value *comm,
				int64_t pid, int64_t tid)
{
	if (ev->tid == TK_PID_NONE || !comm || !comm->cls || comm->cls->kind != TK_TYPE_STRING)
		return;
	if (tk_hashmap_get(&c->named, (uint64_t)(uint32_t)ev->tid))
		return;
	tk_hashmap_put(&c->named, (uint64_t)(uint32_t)ev->tid, 1);
	for (int pass = 0; pass < (ev->pid == ev->tid ? 2 : 1); pass++) {
		sep(c);
		tk_put_str(c->w, pass ? "{\"name\":\"process_name\",\"ph\":\"M\""
				      : "{\"name\":\"thread_name\",\"ph\":\"M\"");
		put_ids(c->w, pid, tid);
		tk_put_str(c->w, ",\"args\":{\"name\":");
		tk_put_json_str(c->w, comm->v.str.ptr, comm->v.str.len);
		tk_put_str(c->w, "}}");
	}
}

/* The stack's leaf frame id (0: none); false when out of memory. */
static bool stack_of(chrome_sink *c, const tk_event *ev, const tk_value *chain, uint64_t *leaf)
{
	*leaf = 0;
	tk_context *ctx = tk_context_of(ev);
	if (ctx && (tk_context_flags(ctx) & TK_CTX_SYMBOLS)) {
		size_t n = tk_context_stack(ctx, ev, c->stack, CHROME_FRAMES);
		if (n > CHROME_FRAMES)
			n = CHROME_FRAMES;
		/* a lone ip is not a stack */
		if (!chain)
			return true;
		uint64_t user_space = ev->pid != TK_PID_NONE ? (uint64_t)(uint32_t)ev->pid + 1 : 0;
		for (size_t i = n; i-- > 0;) {
			const tk_frame *fr = &c->stack[i];
			uint64_t id = frame_id(&c->fr, *leaf, fr->ip, fr->kernel ? 0 : user_space,
					       fr->sym, fr->dso);
			if (!id)
				return false;
			*leaf = id;
		}
		return true;
	}
	if (chain && chain->cls &&
	    (chain->cls->kind == TK_TYPE_SEQUENCE || chain->cls->kind == TK_TYPE_ARRAY)) {
		/* Stored leaf first: build the frames from the root down. */
		for (size_t i = chain->v.list.n; i-- > 0;) {
			uint64_t addr = chain->v.list.items[i].v.u;
			if (addr >= (uint64_t)-4095)
				continue; /* context marker */
			uint64_t id = frame_id(&c->fr, *leaf, addr, 0, NULL, NULL);
			if (!id)
				return false;
			*leaf = id;
		}
	}
	return true;
}

static void write_span(chrome_sink *c, size_t ci, tk_context *ctx, const tk_span *s)
{
	tk_writer *w = c->w;
	int64_t pid, tid;
	const char *name = s->name;
	tk_ctx_thread th;
	bool named = s->tid != TK_PID_NONE && tk_context_thread(ctx, s->tid, &th);
	if (s->kind == TK_SPAN_RUNNING && s->cpu != TK_CPU_NONE) {
		pid = CHROME_CPU_PID;
		tid = CHROME_CPU_TID(s->cpu);
		c->cpus_used = true;
		if (s->cpu >= 0 && s->cpu < CHROME_CPUS)
			c->cpu_bits[s->cpu / 64] |= 1ull << (s->cpu % 64);
		if (named && th.comm_len)
			name = th.comm;
	} else if (s->kind == TK_SPAN_STATE) {
		pid = 0;
		tid = s->track;
		note_thread(c, ci, pid, tid, s->track);
	} else {
		tid = s->tid;
		pid = s->pid != TK_PID_NONE            ? s->pid
		      : named && th.pid != TK_PID_NONE ? th.pid
						       : tid;
		note_thread(c, ci, pid, tid, -1);
	}
	sep(c);
	tk_put_str(w, "{\"name\":");
	tk_put_json_str(w, name, strlen(name));
	tk_put_str(w, ",\"ph\":\"X\",\"ts\":");
	put_us(w, s->begin_ns);
	tk_put_str(w, ",\"dur\":");
	put_us(w, s->end_ns - s->begin_ns);
	put_ids(w, pid, tid);
	tk_put_str(w, ",\"args\":{\"kind\":");
	static const char *const kinds[] = {"running", "runnable", "syscall", "call", "state"};
	tk_put_json_str(w, kinds[s->kind], strlen(kinds[s->kind]));
	if (s->kind == TK_SPAN_RUNNING && s->cpu != TK_CPU_NONE) {
		tk_put_str(w, ",\"tid\":");
		tk_put_json_i64(w, s->tid);
		if (s->pid != TK_PID_NONE) {
			tk_put_str(w, ",\"pid\":");
			tk_put_json_i64(w, s->pid);
		}
	} else if (s->cpu != TK_CPU_NONE) {
		tk_put_str(w, ",\"cpu\":");
		tk_put_json_i64(w, s->cpu);
	}
	if (s->kind == TK_SPAN_CALL) {
		tk_put_str(w, ",\"depth\":");
		tk_put_u64(w, s->depth);
	}
	if (s->truncated)
		tk_put_str(w, ",\"truncated\":true");
	tk_put_str(w, "}}");
}

static void drain_spans(chrome_sink *c, size_t ci, tk_context *ctx)
{
	const tk_span *s;
	while ((s = tk_context_next_span(ctx)) != NULL)
		write_span(c, ci, ctx, s);
}

static void write_counter(chrome_sink *c, const tk_event *ev, int64_t pid, const tk_counter *k)
{
	tk_writer *w = c->w;
	sep(c);
	tk_put_str(w, "{\"name\":");
	tk_put_json_str(w, k->name, strlen(k->name));
	tk_put_str(w, ",\"ph\":\"C\",\"ts\":");
	put_us(w, ev->has_time ? ev->time_ns : 0);
	tk_put_str(w, ",\"pid\":");
	tk_put_json_i64(w, pid);
	tk_put_str(w, ",\"tid\":0,\"args\":{\"value\":");
	if (!k->is_int)
		tk_put_double(w, k->value != k->value || k->value - k->value != 0 ? 0 : k->value,
			      "%.17g");
	else if (k->value < 0)
		tk_put_json_i64(w, k->i);
	else
		tk_put_json_u64(w, k->u);
	tk_put_str(w, "}}");
}

/* A sample's period (events counted since the previous sample) as a
 * counter of the process: "<event> period", args {"period": N}, the same
 * line tracekit view draws. */
static void write_period(chrome_sink *c, const tk_event *ev, int64_t pid, const char *name,
			 uint64_t period)
{
	tk_writer *w = c->w;
	sep(c);
	char buf[300];
	int n = snprintf(buf, sizeof buf, "%s period", name);
	tk_put_str(w, "{\"name\":");
	tk_put_json_str(w, buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : strlen(buf));
	tk_put_str(w, ",\"ph\":\"C\",\"ts\":");
	put_us(w, ev->time_ns);
	tk_put_str(w, ",\"pid\":");
	tk_put_json_i64(w, pid);
	tk_put_str(w, ",\"tid\":0,\"args\":{\"period\":");
	tk_put_json_u64(w, period);
	tk_put_str(w, "}}");
}

static tk_status chrome_write(tk_sink *s, const tk_event *ev, tk_error *err)
{
	chrome_sink *c = (chrome_sink *)s;
	tk_writer *w = c->w;
	tk_context *ctx = tk_context_of(ev);
	size_t ci = ctx ? ctx_index(c, ctx) : CHROME_MAX_CTXS;
	int64_t pid, tid, track;
	event_ids(c, ev, &pid, &tid, &track);
	if (ctx) {
		if (ci < CHROME_MAX_CTXS)
			drain_spans(c, ci, ctx);
		if (!note_thread(c, ci, pid, tid, track))
			return tk_error_set(err, TK_ERR_NOMEM, ev->offset, "out of memory");
	} else {
		payload_thread_name(c, ev, member_by_semantic(ev->payload, TK_SEM_COMM, "comm"),
				    pid, tid);
	}
	const tk_value *chain = member_by_semantic(ev->payload, TK_SEM_CALLCHAIN, NULL);
	uint64_t leaf = 0;
	if (!stack_of(c, ev, chain, &leaf))
		return tk_error_set(err, TK_ERR_NOMEM, ev->offset,
				    "out of memory for stack frames");
	sep(c);
	const char *name = ev->cls && ev->cls->name ? ev->cls->name : "event";
	tk_put_str(w, "{\"name\":");
	tk_put_json_str(w, name, strlen(name));
	tk_put_str(w, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	put_us(w, ev->has_time ? ev->time_ns : 0);
	put_ids(w, pid, tid);
	if (leaf) {
		tk_put_str(w, ",\"sf\":");
		tk_put_u64(w, leaf);
	}
	tk_put_str(w, ",\"args\":{");
	bool any = false;
	if (ev->cpu != TK_CPU_NONE) {
		tk_put_str(w, "\"cpu\":");
		tk_put_json_i64(w, ev->cpu);
		any = true;
	}
	const tk_value *scopes[] = {ev->packet_context, ev->stream_context, ev->context,
				    ev->payload};
	for (size_t k = 0; k < 4; k++) {
		const tk_value *sv = scopes[k];
		if (!sv || !sv->cls || sv->cls->kind != TK_TYPE_STRUCT)
			continue;
		for (size_t i = 0; i < sv->cls->n_members && i < sv->v.list.n; i++) {
			const tk_value *v = &sv->v.list.items[i];
			if (v == chain)
				continue;
			if (any)
				tk_put_char(w, ',');
			any = true;
			const char *mn = sv->cls->members[i].name;
			tk_put_json_str(w, mn, strlen(mn));
			tk_put_char(w, ':');
			tk_value_write_json(w, v);
		}
	}
	tk_put_str(w, "}}");
	tk_counter k;
	if (ctx && tk_context_counter(ctx, ev, &k))
		write_counter(c, ev, pid, &k);
	const tk_value *period = member_by_semantic(ev->payload, TK_SEM_PERIOD, NULL);
	if (period && ev->has_time)
		write_period(c, ev, pid, name, period->v.u);
	if (w->error)
		return tk_writer_flush(w, err); /* names the output and the errno */
	return TK_OK;
}

static void free_chrome(chrome_sink *c)
{
	tk_hashmap_free(&c->fr.index);
	tk_hashmap_free(&c->named);
	tk_hashmap_free(&c->seen);
	free(c->fr.parent);
	free(c->fr.addr);
	free(c->fr.space);
	free(c->fr.sym);
	free(c->fr.dso);
	free(c->threads);
	free(c);
}

static void meta(chrome_sink *c, const char *what, int64_t pid, int64_t tid, const char *name,
		 size_t len)
{
	sep(c);
	tk_put_str(c->w, "{\"name\":\"");
	tk_put_str(c->w, what);
	tk_put_str(c->w, "\",\"ph\":\"M\"");
	put_ids(c->w, pid, tid);
	tk_put_str(c->w, ",\"args\":{\"name\":");
	tk_put_json_str(c->w, name, len);
	tk_put_str(c->w, "}}");
}

/* Spans still open end with the trace; then every thread and process
 * written gets its model name (the last one the trace gave it). */
static void write_names(chrome_sink *c)
{
	for (size_t i = 0; i < c->n_ctxs; i++) {
		tk_context_finish(c->ctxs[i], 0);
		drain_spans(c, i, c->ctxs[i]);
	}
	tk_hashmap pids;
	tk_hashmap_init(&pids);
	for (size_t i = 0; i < c->n_threads; i++) {
		const chrome_thread *t = &c->threads[i];
		tk_context *ctx = c->ctxs[t->ctx];
		if (t->track >= 0) {
			const char *tn = tk_context_track_name(ctx, (size_t)t->track);
			if (tn)
				meta(c, "thread_name", t->pid, t->tid, tn, strlen(tn));
			continue;
		}
		tk_ctx_thread th;
		if (tk_context_thread(ctx, (int32_t)t->tid, &th) && th.comm_len)
			meta(c, "thread_name", t->pid, t->tid, th.comm, th.comm_len);
		uint64_t pk = mix((uint64_t)t->ctx, (uint64_t)t->pid);
		if (tk_hashmap_get(&pids, pk))
			continue;
		tk_hashmap_put(&pids, pk, 1);
		const char *pn = tk_context_process_name(ctx, (int32_t)t->pid);
		if (pn[0])
			meta(c, "process_name", t->pid, t->pid, pn, strlen(pn));
	}
	tk_hashmap_free(&pids);
	if (c->cpus_used) {
		meta(c, "process_name", CHROME_CPU_PID, CHROME_CPU_PID, "CPUs", 4);
		for (int cpu = 0; cpu < CHROME_CPUS; cpu++) {
			if (!(c->cpu_bits[cpu / 64] >> (cpu % 64) & 1))
				continue;
			char name[16];
			int n = snprintf(name, sizeof name, "CPU %d", cpu);
			meta(c, "thread_name", CHROME_CPU_PID, CHROME_CPU_TID(cpu), name,
			     (size_t)n);
		}
	}
}

static tk_status chrome_close(tk_sink *s, tk_error *err)
{
	chrome_sink *c = (chrome_sink *)s;
	tk_writer *w = c->w;
	write_names(c);
	tk_put_str(w, "\n],\n\"displayTimeUnit\":\"ns\",\n\"stackFrames\":{");
	for (size_t i = 0; i < c->fr.n; i++) {
		tk_put_str(w, i ? ",\n\"" : "\n\"");
		tk_put_u64(w, i + 1);
		tk_put_str(w, "\":{\"name\":");
		if (c->fr.sym[i]) {
			tk_put_json_str(w, c->fr.sym[i], strlen(c->fr.sym[i]));
		} else {
			tk_put_str(w, "\"0x");
			tk_put_hex(w, c->fr.addr[i]);
			tk_put_char(w, '"');
		}
		tk_put_str(w, ",\"category\":");
		if (c->fr.dso[i])
			tk_put_json_str(w, c->fr.dso[i], strlen(c->fr.dso[i]));
		else
			tk_put_str(w, "\"ip\"");
		if (c->fr.sym[i]) {
			tk_put_str(w, ",\"ip\":\"0x");
			tk_put_hex(w, c->fr.addr[i]);
			tk_put_char(w, '"');
		}
		if (c->fr.parent[i]) {
			tk_put_str(w, ",\"parent\":");
			tk_put_u64(w, c->fr.parent[i]);
		}
		tk_put_char(w, '}');
	}
	tk_put_str(w, "\n}}\n");
	tk_status st = tk_writer_commit(w, err);
	free_chrome(c);
	return st;
}

static void chrome_abort(tk_sink *s)
{
	chrome_sink *c = (chrome_sink *)s;
	tk_writer_abort(c->w);
	free_chrome(c);
}

static const tk_sink_ops chrome_ops = {chrome_write, chrome_close, chrome_abort};

tk_status tk_chrome_sink_open(const char *path, const tk_trace_info *info,
			      const tk_sink_options *opt, tk_sink **out, tk_error *err)
{
	(void)info;
	(void)opt;
	chrome_sink *c = calloc(1, sizeof *c);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = tk_sink_writer_open(path, &c->w, err);
	if (st != TK_OK) {
		free(c);
		return st;
	}
	tk_hashmap_init(&c->fr.index);
	tk_hashmap_init(&c->named);
	tk_hashmap_init(&c->seen);
	c->first = true;
	c->base.ops = &chrome_ops;
	tk_put_str(c->w, "{\"traceEvents\":[");
	*out = &c->base;
	return TK_OK;
}
