/* The view builder's tables: columns, groups, tracks, rows, strings,
 * stacks. See view_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "view/view_internal.h"

/* Names, frames and details beyond these sizes are not kept (a hostile or
 * huge input must not grow them without end); the page says so. */
#define STRINGS_LIMIT ((size_t)256 << 20)

bool view_builder_init(view_builder *b)
{
	memset(b, 0, sizeof *b);
	tk_hashmap_init(&b->track_by_key);
	tk_hashmap_init(&b->group_by_key);
	tk_hashmap_init(&b->stack_by_key);
	tk_hashmap_init(&b->counter_by_key);
	tk_intern_init(&b->strings, STRINGS_LIMIT);
	tk_intern_init(&b->details, STRINGS_LIMIT);
	b->details_budget = (size_t)1 << 20;
	tk_error err;
	if (tk_writer_open_memory(&b->scratch, &err) != TK_OK)
		return false;
	size_t idx;
	bool added;
	return tk_intern_get(&b->strings, "", 0, &idx, &added) &&
	       tk_intern_get(&b->details, "", 0, &idx, &added);
}

static void row_free(view_row *r)
{
	view_col *cols[] = {&r->t,   &r->tovf,  &r->dur,    &r->durovf, &r->name, &r->arg,
			    &r->cpu, &r->stack, &r->weight, &r->wovf,   &r->value};
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
		view_col_free(cols[i]);
	view_lod_free(&r->lod);
}

void view_builder_free(view_builder *b)
{
	for (size_t i = 0; i < b->n_rows; i++)
		row_free(&b->rows[i]);
	free(b->rows);
	for (size_t i = 0; i < b->n_tracks; i++) {
		free(b->tracks[i].name);
		free(b->tracks[i].rows);
	}
	free(b->tracks);
	for (size_t i = 0; i < b->n_groups; i++)
		free(b->groups[i].name);
	free(b->groups);
	tk_hashmap_free(&b->track_by_key);
	tk_hashmap_free(&b->group_by_key);
	tk_hashmap_free(&b->stack_by_key);
	tk_hashmap_free(&b->counter_by_key);
	tk_intern_free(&b->strings);
	tk_intern_free(&b->details);
	view_col_free(&b->stack_parent);
	view_col_free(&b->stack_frame);
	if (b->input_formats)
		for (size_t i = 0; i < b->n_inputs; i++)
			free(b->input_formats[i]);
	free(b->input_formats);
	tk_writer_abort(b->scratch);
	free(b->class_cache);
	free(b->track_cache);
	free(b->span_name_cache);
	memset(b, 0, sizeof *b);
}

uint32_t view_string(view_builder *b, const char *s, size_t len)
{
	size_t idx;
	bool added;
	if (!tk_intern_get(&b->strings, s, len, &idx, &added) || idx >= UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)idx;
}

/* Combines a key so that distinct (h, v) pairs give distinct keys in
 * practice: the keys of groups and tracks are looked up by this value alone.
 * The older boost-style combine (h ^= v + C + (h << 6) + (h >> 2)) let two
 * small pairs meet, e.g. thread 3920 of one process and 3985 of another
 * sharing one track. Multiplying by an odd constant and the murmur3
 * finalizer are both bijective, so only the xor can merge inputs, which
 * for small v and h*C spread over 64 bits practically never happens. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h * 0x9e3779b97f4a7c15ULL) ^ v;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

uint32_t view_stack_child(view_builder *b, uint32_t parent, uint32_t frame)
{
	uint64_t key = ((uint64_t)parent << 32) | frame;
	uint64_t *v = tk_hashmap_get(&b->stack_by_key, key);
	if (v)
		return (uint32_t)*v;
	if (b->n_stacks >= UINT32_MAX - 1 || !view_col_u32(&b->stack_parent, parent) ||
	    !view_col_u32(&b->stack_frame, frame))
		return UINT32_MAX;
	uint32_t id = ++b->n_stacks;
	if (!tk_hashmap_put(&b->stack_by_key, key, id))
		return UINT32_MAX;
	return id;
}

#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			size_t c_ = (cap) ? (cap)*2 : 16;                                          \
			void *p_ = realloc((arr), c_ * sizeof *(arr));                             \
			if (!p_)                                                                   \
				return UINT32_MAX;                                                 \
			(arr) = p_;                                                                \
			(cap) = c_;                                                                \
		}                                                                                  \
	} while (0)

uint32_t view_group_get(view_builder *b, view_group_kind kind, uint32_t input, int64_t id,
			const char *name)
{
	uint64_t key = mix(mix(kind + 1, input), (uint64_t)id);
	/* a name-keyed group (CPEL tracks) hashes its name too */
	if (id < 0 && name)
		for (const char *p = name; *p; p++)
			key = mix(key, (unsigned char)*p);
	uint64_t *v = tk_hashmap_get(&b->group_by_key, key);
	if (v)
		return (uint32_t)*v;
	GROW(b->groups, b->n_groups, b->cap_groups);
	view_group *g = &b->groups[b->n_groups];
	memset(g, 0, sizeof *g);
	g->kind = kind;
	g->input = input;
	g->id = id;
	g->name = strdup(name ? name : "");
	g->order = ((uint64_t)kind << 56) | ((uint64_t)input << 48) |
		   (id >= 0 ? (uint64_t)id & 0xffffffffffffULL : b->n_groups);
	if (!g->name || !tk_hashmap_put(&b->group_by_key, key, b->n_groups))
		return UINT32_MAX;
	return (uint32_t)b->n_groups++;
}

uint32_t view_track_get(view_builder *b, uint32_t g, uint64_t key, const char *name,
			view_row_kind kind, int64_t tid, int64_t cpu)
{
	uint64_t k = mix(mix(g, key), kind);
	uint64_t *v = tk_hashmap_get(&b->track_by_key, k);
	if (v)
		return (uint32_t)*v;
	GROW(b->tracks, b->n_tracks, b->cap_tracks);
	view_track *t = &b->tracks[b->n_tracks];
	memset(t, 0, sizeof *t);
	t->group = g;
	t->name = strdup(name);
	t->tid = tid;
	t->cpu = cpu;
	t->order = ((uint64_t)kind << 62) |
		   (tid >= 0   ? (uint64_t)tid
		    : cpu >= 0 ? (uint64_t)cpu
			       : 0)
		       << 24 |
		   (b->n_tracks & 0xffffff);
	if (!t->name || !tk_hashmap_put(&b->track_by_key, k, b->n_tracks))
		return UINT32_MAX;
	uint32_t id = (uint32_t)b->n_tracks++;
	view_row *r = view_track_row(b, id, 0);
	if (!r)
		return UINT32_MAX;
	r->kind = kind;
	return id;
}

view_row *view_track_row(view_builder *b, uint32_t track, uint32_t depth)
{
	view_track *t = &b->tracks[track];
	if (depth < t->n_rows)
		return &b->rows[t->rows[depth]];
	while (t->n_rows <= depth) {
		if (b->n_rows == b->cap_rows) {
			size_t c = b->cap_rows ? b->cap_rows * 2 : 64;
			view_row *p = realloc(b->rows, c * sizeof *p);
			if (!p)
				return NULL;
			b->rows = p;
			b->cap_rows = c;
		}
		uint32_t *rows = realloc(t->rows, (t->n_rows + 1) * sizeof *rows);
		if (!rows)
			return NULL;
		t->rows = rows;
		view_row *r = &b->rows[b->n_rows];
		memset(r, 0, sizeof *r);
		r->track = track;
		r->depth = (uint32_t)t->n_rows;
		r->kind = t->n_rows ? b->rows[t->rows[0]].kind : VIEW_ROW_EVENTS;
		t->rows[t->n_rows++] = (uint32_t)b->n_rows++;
	}
	return &b->rows[t->rows[depth]];
}

static void note_time(view_builder *b, uint64_t t, uint64_t end)
{
	if (b->untimed_now)
		return; /* an event without a time does not stretch the trace */
	if (!b->have_t0 || t < b->t0)
		b->t0 = t;
	if (!b->have_t0 || end > b->t1)
		b->t1 = end;
	b->have_t0 = true;
}

static bool row_time(view_row *r, uint64_t t)
{
	uint64_t prev = r->have_first ? r->last : t;
	if (!r->have_first) {
		r->first = t;
		r->have_first = true;
	}
	if (t < prev)
		r->lod.invalid = true;
	r->last = t;
	return view_put_time(&r->t, &r->tovf, prev, t);
}

bool view_row_event(view_builder *b, view_row *r, uint64_t t, uint32_t name, uint32_t arg,
		    int32_t cpu, uint32_t stack, uint64_t weight)
{
	note_time(b, t, t);
	uint16_t c = cpu >= 0 && cpu < 0xfffe ? (uint16_t)(cpu + 1) : 0;
	if ((stack || weight) && !r->has_stack) {
		/* the first sample of the row: earlier events had none */
		for (uint64_t i = 0; i < r->n; i++)
			if (!view_col_u32(&r->stack, 0) || !view_col_u32(&r->weight, 0))
				return false;
		r->has_stack = true;
	}
	if (!row_time(r, t) || !view_col_u32(&r->name, name) || !view_col_u32(&r->arg, arg) ||
	    !view_col_u16(&r->cpu, c))
		return false;
	if (r->has_stack &&
	    (!view_col_u32(&r->stack, stack) || !view_put_u32e(&r->weight, &r->wovf, weight)))
		return false;
	view_lod_add(&r->lod, r->first, t, t, name, r->n + 1);
	r->n++;
	b->tracks[r->track].n_events++;
	return true;
}

bool view_row_span(view_builder *b, view_row *r, uint64_t start, uint64_t end, uint32_t name,
		   uint32_t arg)
{
	if (end < start)
		end = start;
	note_time(b, start, end);
	if (!row_time(r, start) || !view_put_u32e(&r->dur, &r->durovf, end - start) ||
	    !view_col_u32(&r->name, name) || !view_col_u32(&r->arg, arg))
		return false;
	if (end > r->max_end)
		r->max_end = end;
	view_lod_add(&r->lod, r->first, start, end, name, r->n + 1);
	r->n++;
	b->tracks[r->track].n_events++;
	return true;
}

bool view_row_counter(view_builder *b, view_row *r, uint64_t t, double value)
{
	note_time(b, t, t);
	if (!row_time(r, t) || !view_col_f64(&r->value, value))
		return false;
	r->n++;
	b->tracks[r->track].n_events++;
	return true;
}

#define MAX_SPAN_ROWS 64

bool view_track_span(view_builder *b, uint32_t track, uint64_t start, uint64_t end, uint32_t name,
		     uint32_t arg)
{
	view_track *t = &b->tracks[track];
	uint32_t d = 0;
	/* a row whose spans all ended (and started) before this one begins */
	while (d < t->n_rows && d < MAX_SPAN_ROWS - 1) {
		const view_row *r = &b->rows[t->rows[d]];
		if (!r->n || (r->max_end <= start && r->last <= start))
			break;
		d++;
	}
	view_row *r = view_track_row(b, track, d);
	if (!r)
		return false;
	r->kind = VIEW_ROW_SPANS;
	return view_row_span(b, r, start, end, name, arg);
}
