/* Chrome Trace Event Format sink ({"traceEvents": [...]}), which Perfetto UI
 * and chrome://tracing open. Every event becomes an instant event ("ph":"i")
 * with its fields as args; thread names become metadata events ("ph":"M");
 * callchains become "sf" references into a deduplicated "stackFrames" table
 * written at the end (its size grows with distinct frames, not events). */
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "model/source_impl.h"
#include "output/model_print.h"
#include "output/sink_writer.h"
#include "output/text_sinks.h"

typedef struct frames {
	tk_hashmap index;        /* mix(parent, addr) (+probe) -> id */
	uint64_t *parent, *addr; /* by id - 1 */
	size_t n, cap;
} frames;

typedef struct chrome_sink {
	tk_sink base;
	tk_writer *w;
	bool first;
	frames fr;
	tk_hashmap named; /* tid -> 1 when a thread_name was written */
} chrome_sink;

static uint64_t mix(uint64_t parent, uint64_t addr)
{
	uint64_t k = addr * 0x9E3779B97F4A7C15ULL ^ (parent + 0x632BE59BD9B4E019ULL);
	return k ^ (k >> 29);
}

/* The id of frame (parent, addr), added when new; 0 when out of memory. */
static uint64_t frame_id(frames *f, uint64_t parent, uint64_t addr)
{
	uint64_t key = mix(parent, addr);
	for (;;) {
		uint64_t *id = tk_hashmap_get(&f->index, key);
		if (!id)
			break;
		if (f->parent[*id - 1] == parent && f->addr[*id - 1] == addr)
			return *id;
		key++; /* a different frame hashed here: probe on */
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 1024;
		uint64_t *np = realloc(f->parent, cap * sizeof *np);
		if (!np)
			return 0;
		f->parent = np;
		uint64_t *na = realloc(f->addr, cap * sizeof *na);
		if (!na)
			return 0;
		f->addr = na;
		f->cap = cap;
	}
	f->parent[f->n] = parent;
	f->addr[f->n] = addr;
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

static void ids(chrome_sink *c, const tk_event *ev)
{
	tk_writer *w = c->w;
	int64_t pid = ev->pid != TK_PID_NONE ? ev->pid : (int64_t)ev->stream_id;
	int64_t tid = ev->tid != TK_PID_NONE   ? ev->tid
		      : ev->cpu != TK_CPU_NONE ? ev->cpu
					       : (int64_t)ev->stream_instance;
	tk_put_str(w, ",\"pid\":");
	tk_put_json_i64(w, pid);
	tk_put_str(w, ",\"tid\":");
	tk_put_json_i64(w, tid);
}

static void sep(chrome_sink *c)
{
	tk_put_str(c->w, c->first ? "\n" : ",\n");
	c->first = false;
}

static void thread_name(chrome_sink *c, const tk_event *ev, const tk_value *comm)
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
		ids(c, ev);
		tk_put_str(c->w, ",\"args\":{\"name\":");
		tk_put_json_str(c->w, comm->v.str.ptr, comm->v.str.len);
		tk_put_str(c->w, "}}");
	}
}

static tk_status chrome_write(tk_sink *s, const tk_event *ev, tk_error *err)
{
	chrome_sink *c = (chrome_sink *)s;
	tk_writer *w = c->w;
	thread_name(c, ev, member_by_semantic(ev->payload, TK_SEM_COMM, "comm"));
	const tk_value *chain = member_by_semantic(ev->payload, TK_SEM_CALLCHAIN, NULL);
	uint64_t leaf = 0;
	if (chain && chain->cls &&
	    (chain->cls->kind == TK_TYPE_SEQUENCE || chain->cls->kind == TK_TYPE_ARRAY)) {
		/* Stored leaf first: build the frames from the root down. */
		for (size_t i = chain->v.list.n; i-- > 0;) {
			uint64_t addr = chain->v.list.items[i].v.u;
			if (addr >= (uint64_t)-4095)
				continue; /* context marker */
			uint64_t id = frame_id(&c->fr, leaf, addr);
			if (!id)
				return tk_error_set(err, TK_ERR_NOMEM, ev->offset,
						    "out of memory for stack frames");
			leaf = id;
		}
	}
	sep(c);
	const char *name = ev->cls && ev->cls->name ? ev->cls->name : "event";
	tk_put_str(w, "{\"name\":");
	tk_put_json_str(w, name, strlen(name));
	tk_put_str(w, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":");
	uint64_t t = ev->has_time ? ev->time_ns : 0;
	tk_put_u64(w, t / 1000);
	tk_put_char(w, '.');
	tk_put_u64_pad(w, t % 1000, 3, '0');
	ids(c, ev);
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
	if (w->error)
		return tk_writer_flush(w, err); /* names the output and the errno */
	return TK_OK;
}

static void free_chrome(chrome_sink *c)
{
	tk_hashmap_free(&c->fr.index);
	tk_hashmap_free(&c->named);
	free(c->fr.parent);
	free(c->fr.addr);
	free(c);
}

static tk_status chrome_close(tk_sink *s, tk_error *err)
{
	chrome_sink *c = (chrome_sink *)s;
	tk_writer *w = c->w;
	tk_put_str(w, "\n],\n\"displayTimeUnit\":\"ns\",\n\"stackFrames\":{");
	for (size_t i = 0; i < c->fr.n; i++) {
		tk_put_str(w, i ? ",\n\"" : "\n\"");
		tk_put_u64(w, i + 1);
		tk_put_str(w, "\":{\"name\":\"0x");
		tk_put_hex(w, c->fr.addr[i]);
		tk_put_str(w, "\",\"category\":\"ip\"");
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
	c->first = true;
	c->base.ops = &chrome_ops;
	tk_put_str(c->w, "{\"traceEvents\":[");
	*out = &c->base;
	return TK_OK;
}
