/* One model event into the view: which track it goes to, its name, its
 * fields (as a JSON object, interned), its stack and weight when it is a
 * sample, and the counters it carries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/model_print.h"
#include "view/view_internal.h"

#define MAX_COUNTER_TRACKS 64
#define MAX_FRAMES         512

/* Fields worth showing: not the ones the view already has as columns
 * (perf's perf_* sample members, values with a meaning the tracks carry). */
static bool shown_member(const tk_member *m)
{
	if (!m->cls || strncmp(m->name, "perf_", 5) == 0)
		return false;
	return m->cls->semantic == TK_SEM_NONE || m->cls->semantic == TK_SEM_ADDR ||
	       m->cls->semantic == TK_SEM_COMM;
}

/* skip: a member not to show (the track the event is filed under), or -1 */
static void put_members(tk_writer *w, const tk_value *s, bool *first, int skip)
{
	if (!s || !s->cls || s->cls->kind != TK_TYPE_STRUCT)
		return;
	for (size_t i = 0; i < s->v.list.n && i < s->cls->n_members; i++) {
		const tk_member *m = &s->cls->members[i];
		if ((int)i == skip || !shown_member(m))
			continue;
		if (!*first)
			tk_put_char(w, ',');
		*first = false;
		tk_put_json_str(w, m->name, strlen(m->name));
		tk_put_char(w, ':');
		tk_value_write_json(w, &s->v.list.items[i]);
	}
}

/* The event's fields as a JSON object, interned; 0 when it has none or the
 * details budget is spent. */
static uint32_t details_of(view_builder *b, const tk_event *ev, int track_member)
{
	if (b->details_bytes > b->details_budget + VIEW_DETAILS_PER_EVENT * b->n_events) {
		b->details_dropped++;
		return 0;
	}
	tk_writer *w = b->scratch;
	w->pos = 0;
	bool first = true;
	tk_put_char(w, '{');
	put_members(w, ev->context, &first, -1);
	put_members(w, ev->payload, &first, track_member);
	tk_put_char(w, '}');
	if (first)
		return 0;
	size_t len;
	const char *text = tk_writer_data(w, &len);
	/* the page holds at most ~4 bytes of distinct details per event (plus
	 * a first megabyte): repeated field sets cost nothing, unique ones
	 * past that are left out */
	if (b->details_bytes > b->details_budget + VIEW_DETAILS_PER_EVENT * b->n_events) {
		b->details_dropped++;
		return 0;
	}
	size_t idx;
	bool added;
	if (!tk_intern_get(&b->details, text, len, &idx, &added) || idx >= UINT32_MAX) {
		b->details_dropped++;
		return 0;
	}
	if (added)
		b->details_bytes += len;
	return (uint32_t)idx;
}

static uint32_t frame_of(view_builder *b, uint64_t addr)
{
	char buf[24] = "0x";
	size_t n = 2 + tk_fmt_hex(buf + 2, addr);
	return view_string(b, buf, n);
}

/* The stack of a sample, symbolized by the model context (leaf first:
 * walked from the root into the stack trie). Frames are named by symbol,
 * else by address. */
static uint32_t stack_of(view_builder *b, tk_context *ctx, const tk_event *ev)
{
	tk_frame frames[MAX_FRAMES];
	size_t n = tk_context_stack(ctx, ev, frames, MAX_FRAMES);
	if (n > MAX_FRAMES)
		n = MAX_FRAMES;
	if (n == 0 && ev->payload && ev->payload->cls && ev->payload->cls->kind == TK_TYPE_STRUCT) {
		/* a call chain of context markers only: the sample's ip, as
		 * report counts it */
		const tk_value *s = ev->payload;
		for (size_t i = 0; i < s->v.list.n && i < s->cls->n_members; i++)
			if (s->cls->members[i].cls &&
			    s->cls->members[i].cls->semantic == TK_SEM_IP) {
				if (!tk_context_symbolize(ctx, ev->pid, ev->tid, 0,
							  s->v.list.items[i].v.u, &frames[0]))
					frames[0] = (tk_frame){.ip = s->v.list.items[i].v.u};
				n = 1;
				break;
			}
	}
	uint32_t node = 0;
	for (size_t k = n; k-- > 0;) {
		const tk_frame *fr = &frames[k];
		uint32_t f = fr->sym ? view_string(b, fr->sym, fr->sym_len) : frame_of(b, fr->ip);
		if (f == UINT32_MAX)
			return UINT32_MAX;
		node = view_stack_child(b, node, f);
		if (node == UINT32_MAX)
			return node;
	}
	return node;
}

/* A counter sample (the context's rule: a payload of one number besides
 * ids) on the counter track of its "<event>.<field>" name. */
static bool add_counter(view_builder *b, uint32_t input, const tk_counter *c, uint64_t t)
{
	uint64_t key = 1469598103934665603ULL ^ ((uint64_t)input << 56);
	for (const char *p = c->name; *p; p++)
		key = (key ^ (unsigned char)*p) * 1099511628211ULL;
	uint64_t *v = tk_hashmap_get(&b->counter_by_key, key);
	uint32_t track;
	if (v) {
		track = (uint32_t)*v;
	} else {
		if (b->n_counter_tracks >= MAX_COUNTER_TRACKS)
			return true;
		uint32_t g = view_group_get(b, VIEW_GROUP_COUNTER, input, -1, "counters");
		track = g == UINT32_MAX
			    ? g
			    : view_track_get(b, g, key, c->name, VIEW_ROW_COUNTER, -1, -1);
		if (track == UINT32_MAX || !tk_hashmap_put(&b->counter_by_key, key, track))
			return false;
		b->n_counter_tracks++;
	}
	view_row *r = view_track_row(b, track, 0);
	return r && view_row_counter(b, r, t, c->value);
}

/* The track an event is drawn on. */
static uint32_t track_lookup(view_builder *b, uint32_t input, tk_format fmt, const tk_event *ev,
			     const tk_value *tr)
{
	char name[320];
	uint32_t g;
	if (fmt == TK_FORMAT_CPEL || fmt == TK_FORMAT_ELOG || fmt == TK_FORMAT_TKLOG) {
		if (tr && tr->cls && tr->cls->kind == TK_TYPE_STRING) {
			size_t n = tr->v.str.len < 300 ? tr->v.str.len : 300;
			memcpy(name, tr->v.str.ptr, n);
			name[n] = 0;
			uint64_t key = 1469598103934665603ULL;
			for (size_t i = 0; i < n; i++)
				key = (key ^ (unsigned char)name[i]) * 1099511628211ULL;
			g = view_group_get(b, VIEW_GROUP_CPEL, input, 0, "tracks");
			return g == UINT32_MAX
				   ? g
				   : view_track_get(b, g, key, name, VIEW_ROW_EVENTS, -1, -1);
		}
	}
	if (ev->tid >= 0 || ev->pid >= 0) {
		int64_t pid = ev->pid >= 0 ? ev->pid : ev->tid;
		snprintf(name, sizeof name, "process %lld", (long long)pid);
		g = view_group_get(b, VIEW_GROUP_PROCESS, input, pid, name);
		if (g == UINT32_MAX)
			return g;
		if (ev->tid >= 0) {
			snprintf(name, sizeof name, "thread %d", ev->tid);
			return view_track_get(b, g, (uint64_t)ev->tid, name, VIEW_ROW_EVENTS,
					      ev->tid, -1);
		}
		return view_track_get(b, g, UINT64_MAX, "process events", VIEW_ROW_EVENTS, -1, -1);
	}
	if (fmt == TK_FORMAT_DCPI) {
		g = view_group_get(b, VIEW_GROUP_PROFILE, input, 0, "profile");
		const char *n = ev->cls && ev->cls->name ? ev->cls->name : "samples";
		return g == UINT32_MAX ? g
				       : view_track_get(b, g, ev->cls ? ev->cls->id : 0, n,
							VIEW_ROW_EVENTS, -1, -1);
	}
	if (fmt == TK_FORMAT_CTF || ev->cpu < 0) {
		g = view_group_get(b, VIEW_GROUP_STREAM, input, 0, "streams");
		snprintf(name, sizeof name, "stream %llu/%llu", (unsigned long long)ev->stream_id,
			 (unsigned long long)ev->stream_instance);
		return g == UINT32_MAX
			   ? g
			   : view_track_get(b, g, ev->stream_id << 32 ^ ev->stream_instance, name,
					    VIEW_ROW_EVENTS, -1, -1);
	}
	g = view_group_get(b, VIEW_GROUP_CPU, input, 0, "CPUs");
	snprintf(name, sizeof name, "CPU %d", ev->cpu);
	return g == UINT32_MAX
		   ? g
		   : view_track_get(b, g, (uint64_t)ev->cpu, name, VIEW_ROW_EVENTS, -1, ev->cpu);
}

/* The same track as a recent event with the same key: a direct-mapped
 * cache in front of track_lookup() (which formats names and hashes twice). */
#define TRACK_CACHE 4096
typedef struct track_slot {
	uint64_t key;
	uint32_t track;
	bool used;
} track_slot;

static uint32_t track_of(view_builder *b, uint32_t input, tk_format fmt, const tk_event *ev,
			 const tk_value *tr)
{
	uint64_t key = 0x9e3779b97f4a7c15ULL * (input + 1);
	if ((fmt == TK_FORMAT_CPEL || fmt == TK_FORMAT_ELOG || fmt == TK_FORMAT_TKLOG) && tr &&
	    tr->cls && tr->cls->kind == TK_TYPE_STRING) {
		key ^= 1;
		for (size_t i = 0; i < tr->v.str.len && i < 300; i++)
			key = (key ^ (unsigned char)tr->v.str.ptr[i]) * 1099511628211ULL;
	} else if (ev->tid >= 0 || ev->pid >= 0) {
		key = ((key ^ 2) * 1099511628211ULL) ^
		      (((uint64_t)(uint32_t)ev->pid << 32) | (uint32_t)ev->tid);
	} else if (fmt == TK_FORMAT_DCPI) {
		key = (key ^ 3) * 1099511628211ULL ^ (ev->cls ? ev->cls->id : 0);
	} else {
		key = ((key ^ 4) * 1099511628211ULL ^ ev->stream_id) * 1099511628211ULL ^
		      ev->stream_instance;
		key = (key * 1099511628211ULL) ^ (uint32_t)ev->cpu;
	}
	key ^= key >> 29;
	if (!b->track_cache && !(b->track_cache = calloc(TRACK_CACHE, sizeof(track_slot))))
		return UINT32_MAX;
	track_slot *slot = &((track_slot *)b->track_cache)[key % TRACK_CACHE];
	if (slot->used && slot->key == key)
		return slot->track;
	uint32_t t = track_lookup(b, input, fmt, ev, tr);
	if (t != UINT32_MAX)
		*slot = (track_slot){.key = key, .track = t, .used = true};
	return t;
}

/* What the view needs of an event class, worked out once per class (a
 * direct-mapped cache keyed by the class pointer, which the source keeps
 * for its lifetime): its name's string id, where its period / count /
 * track members are, whether it has counter fields. */
typedef struct class_info {
	const tk_event_class *cls;
	const tk_field_class *payload;
	uint32_t input;
	uint32_t name;
	int period, count, track;
	bool counters;
} class_info;

#define CLASS_CACHE 1024
static int member_index(const tk_field_class *s, const char *name, tk_semantic sem)
{
	if (!s || s->kind != TK_TYPE_STRUCT)
		return -1;
	for (size_t i = 0; i < s->n_members; i++)
		if (name ? strcmp(s->members[i].name, name) == 0
			 : s->members[i].cls && s->members[i].cls->semantic == sem)
			return (int)i;
	return -1;
}

static const class_info *class_of(view_builder *b, uint32_t input, tk_format fmt,
				  const tk_event *ev)
{
	if (!b->class_cache && !(b->class_cache = calloc(CLASS_CACHE, sizeof(class_info))))
		return NULL;
	class_info *cache = b->class_cache;
	uintptr_t h = ((uintptr_t)ev->cls >> 4) ^ input;
	class_info *ci = &cache[(h ^ (h >> 10)) % CLASS_CACHE];
	const tk_field_class *payload = ev->payload ? ev->payload->cls : NULL;
	if (ci->cls == ev->cls && ci->input == input && ci->payload == payload && ev->cls)
		return ci;
	const char *cname = ev->cls && ev->cls->name ? ev->cls->name : "?";
	ci->cls = ev->cls;
	ci->input = input;
	ci->payload = payload;
	ci->name = view_string(b, cname, strlen(cname));
	ci->period = member_index(payload, NULL, TK_SEM_PERIOD);
	ci->count = fmt == TK_FORMAT_DCPI ? member_index(payload, "count", TK_SEM_NONE) : -1;
	ci->track = member_index(payload, "track", TK_SEM_NONE);
	/* counter fields are LTTng's (a CPEL datum or code is no quantity) */
	ci->counters = fmt == TK_FORMAT_CTF;
	return ci;
}

static const tk_value *item(const tk_event *ev, int i)
{
	return i >= 0 && ev->payload && (size_t)i < ev->payload->v.list.n
		   ? &ev->payload->v.list.items[i]
		   : NULL;
}

tk_status view_add_event(view_builder *b, uint32_t input, tk_context *ctx, const tk_event *ev,
			 tk_error *err)
{
	tk_format fmt = TK_FORMAT_UNKNOWN;
	if (b->input_formats && b->input_formats[input])
		fmt = tk_format_from_name(b->input_formats[input]);
	uint64_t t = ev->has_time ? ev->time_ns : 0;
	if (!ev->has_time)
		b->n_untimed++;
	const class_info *ci = class_of(b, input, fmt, ev);
	if (!ci)
		goto nomem;
	uint32_t name = ci->name;
	/* LTTng names its threads in contexts (vtid, vpid): the model
	 * context finds them */
	tk_event thev;
	const tk_event *tev = ev;
	tk_ctx_thread th;
	if (ev->tid < 0 && fmt == TK_FORMAT_CTF && ctx && tk_context_event_thread(ctx, ev, &th)) {
		thev = *ev;
		thev.tid = th.tid;
		thev.pid = th.pid;
		tev = &thev;
	}
	uint32_t track = track_of(b, input, fmt, tev, ci->track >= 0 ? item(ev, ci->track) : NULL);
	if (name == UINT32_MAX || track == UINT32_MAX)
		goto nomem;
	/* a CPEL/elog event's track member names its track: not repeated */
	bool by_track = fmt == TK_FORMAT_CPEL || fmt == TK_FORMAT_ELOG || fmt == TK_FORMAT_TKLOG;
	const tk_value *trv = ci->track >= 0 ? item(ev, ci->track) : NULL;
	uint32_t arg = details_of(
	    b, ev,
	    by_track && trv && trv->cls && trv->cls->kind == TK_TYPE_STRING ? ci->track : -1);
	uint32_t stack = 0;
	uint64_t weight = 0;
	const tk_value *period = ci->period >= 0 ? item(ev, ci->period) : NULL;
	const tk_value *count = ci->count >= 0 ? item(ev, ci->count) : NULL;
	if (period || count) {
		weight = period ? period->v.u : count->v.u;
		stack = stack_of(b, ctx, ev);
		if (stack == UINT32_MAX)
			goto nomem;
	}
	view_row *r = view_track_row(b, track, 0);
	b->untimed_now = !ev->has_time;
	bool ok = r && view_row_event(b, r, t, name, arg, ev->cpu, stack, weight);
	b->untimed_now = false;
	if (!ok)
		goto nomem;
	tk_counter counter;
	if (ci->counters && ctx && tk_context_counter(ctx, ev, &counter) &&
	    !add_counter(b, input, &counter, t))
		goto nomem;
	/* a sample's period (events counted since the previous sample) is
	 * also a counter: "<event> period", one line per event */
	if (period && ev->has_time) {
		char pname[160];
		snprintf(pname, sizeof pname, "%.*s period",
			 (int)(b->strings.v[name].len > 120 ? 120 : b->strings.v[name].len),
			 (const char *)b->strings.v[name].key);
		counter = (tk_counter){.name = pname, .value = (double)period->v.u};
		if (!add_counter(b, input, &counter, t))
			goto nomem;
	}
	b->n_events++;
	return TK_OK;
nomem:
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory building the view");
}
