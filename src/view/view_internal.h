/* tracekit view internals: the columns a timeline is built from, before
 * they are written into the HTML page (view_html.c).
 *
 * The builder (view_build.c) files every event into a row of a track:
 *   - event rows: time, name, details, CPU, and for samples stack + weight;
 *   - span rows: one per nesting depth of a span track (spans of one row
 *     never overlap, so their starts and ends are both sorted, which is
 *     what the page's binary searches need);
 *   - counter rows: time, value.
 * Columns are kept in their final encoding while reading (a 10 M-event
 * input must not need a second copy): times are u32 deltas from the
 * previous time of the row, a delta that does not fit is written as
 * 0xFFFFFFFF and its value (a double, may be negative) goes to the row's
 * overflow column, in order. Levels of detail (view_lod.c) are folded in
 * as the events arrive. Not thread-safe; everything is owned by the
 * builder and freed by view_builder_free(). */
#ifndef TK_VIEW_INTERNAL_H
#define TK_VIEW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/intern.h"
#include "base/writer.h"
#include "tracekit/tracekit.h"
#include "tracekit/view.h"

#define VIEW_ESCAPE UINT32_C(0xFFFFFFFF)
/* bytes of distinct event details the page may hold per event (beyond a
 * first megabyte): repeated field sets cost nothing, unique ones past it
 * are left out, so a page stays near its budget of bytes per event */
#define VIEW_DETAILS_PER_EVENT 4

/* A growable byte column. */
typedef struct view_col {
	uint8_t *p;
	size_t n, cap;
} view_col;

/* Makes room for n more bytes; false: out of memory. */
bool view_col_grow(view_col *c, size_t n);
/* Inline, so that the fixed-size puts below are a store, not a call to
 * memcpy (they run several times per event). */
static inline bool view_col_put(view_col *c, const void *p, size_t n)
{
	if (c->cap - c->n < n && !view_col_grow(c, n))
		return false;
	memcpy(c->p + c->n, p, n);
	c->n += n;
	return true;
}
static inline bool view_col_u32(view_col *c, uint32_t v)
{
	return view_col_put(c, &v, sizeof v);
}
static inline bool view_col_u16(view_col *c, uint16_t v)
{
	return view_col_put(c, &v, sizeof v);
}
static inline bool view_col_f64(view_col *c, double v)
{
	return view_col_put(c, &v, sizeof v);
}
void view_col_free(view_col *c);

/* Levels of detail: level l groups a row's entries by bucket
 * (time - base) >> (VIEW_LOD_SHIFT0 + 2 l); each bucket becomes one summary
 * entry (first start, last end, count, the name of its longest entry).
 * Levels whose entry count stays far below the row's are written. */
#define VIEW_LOD_SHIFT0 10 /* 1.024 us */
#define VIEW_LOD_LEVELS 26 /* up to buckets of 2^60 ns */

typedef struct view_lod_level {
	view_col t, tovf;     /* entry starts: u32 deltas + overflow */
	view_col dur, durovf; /* entry extents: u32 + overflow */
	view_col count;       /* u32 */
	view_col name;        /* u32 */
	uint64_t n;
	bool dropped; /* too many entries: not written */
	/* the open bucket */
	bool open;
	uint64_t bucket, start, end, last_start, best_dur, cnt;
	uint32_t best_name;
} view_lod_level;

typedef struct view_lod {
	view_lod_level lv[VIEW_LOD_LEVELS];
	bool invalid; /* times went backwards: no levels */
	int live;     /* the finest level not dropped */
} view_lod;

typedef enum view_row_kind { VIEW_ROW_EVENTS, VIEW_ROW_SPANS, VIEW_ROW_COUNTER } view_row_kind;

typedef struct view_row {
	view_row_kind kind;
	uint32_t track;
	uint32_t depth;  /* span rows */
	uint64_t n;      /* entries */
	bool have_first; /* first time seen */
	uint64_t first, last, max_end;
	view_col t, tovf;      /* starts */
	view_col dur, durovf;  /* spans */
	view_col name, arg;    /* u32 string ids; arg: details id, 0 = none */
	view_col cpu;          /* u16: cpu + 1, 0 = unknown */
	view_col stack;        /* u32 stack node, 0 = none (written when has_stack) */
	view_col weight, wovf; /* u32 + overflow (samples) */
	view_col value;        /* f64 (counters) */
	bool has_stack;
	view_lod lod;
} view_row;

typedef enum view_group_kind {
	VIEW_GROUP_PROCESS,
	VIEW_GROUP_CPU,
	VIEW_GROUP_STREAM,
	VIEW_GROUP_CPEL,
	VIEW_GROUP_PROFILE,
	VIEW_GROUP_COUNTER,
} view_group_kind;

typedef struct view_group {
	view_group_kind kind;
	uint32_t input;
	int64_t id; /* pid, or -1 */
	char *name;
	uint64_t order; /* sort key */
} view_group;

typedef struct view_track {
	uint32_t group;
	char *name;
	int64_t tid, cpu;   /* -1 when not a thread / CPU track */
	const char *suffix; /* after the thread's name ("state", "syscalls"), or NULL */
	uint64_t order;
	uint32_t *rows;
	size_t n_rows;
	uint64_t n_events;
} view_track;

typedef struct view_builder {
	view_row *rows;
	size_t n_rows, cap_rows;
	view_track *tracks;
	size_t n_tracks, cap_tracks;
	view_group *groups;
	size_t n_groups, cap_groups;
	tk_hashmap track_by_key; /* hash of (kind, input, ids) -> track + 1 */
	tk_hashmap group_by_key;
	tk_intern strings; /* names, frames; index 0 = "" */
	tk_intern details; /* event fields as JSON objects; index 0 = "" */
	size_t details_budget, details_bytes;
	uint64_t details_dropped;
	/* stacks: node i + 1 = (parent node, frame string); 0 = the root */
	view_col stack_parent, stack_frame;
	tk_hashmap stack_by_key;
	uint32_t n_stacks;
	/* counter tracks per (class, field) */
	tk_hashmap counter_by_key;
	size_t n_counter_tracks;
	bool have_t0;
	uint64_t t0, t1; /* first and last time (ns) */
	uint64_t n_events, n_untimed, n_spans;
	bool untimed_now; /* the event being filed has no time: drawn at the start */
	bool epoch_clock; /* times are ns since the epoch */
	const char *const *inputs;
	size_t n_inputs;
	char **input_formats;
	tk_writer *scratch;             /* a memory writer for field text */
	void *class_cache;              /* view_events.c: per event class */
	void *track_cache;              /* view_events.c: recent tracks */
	void *span_name_cache;          /* view_spans.c */
	uint32_t state_tracks[16][256]; /* view_spans.c: track + 1 per CPEL track */
} view_builder;

bool view_builder_init(view_builder *b);
void view_builder_free(view_builder *b);

/* Interning; UINT32_MAX when out of memory. */
uint32_t view_string(view_builder *b, const char *s, size_t len);
/* The stack node under `parent` for `frame`. */
uint32_t view_stack_child(view_builder *b, uint32_t parent, uint32_t frame);

uint32_t view_group_get(view_builder *b, view_group_kind kind, uint32_t input, int64_t id,
			const char *name);
/* A track of group g with the given key; created with `name` and one row of
 * `kind` when new. */
uint32_t view_track_get(view_builder *b, uint32_t g, uint64_t key, const char *name,
			view_row_kind kind, int64_t tid, int64_t cpu);
/* The track's row for span depth `depth` (created on demand). */
view_row *view_track_row(view_builder *b, uint32_t track, uint32_t depth);

/* A span on a span track: into the first depth row it fits after (rows
 * never hold overlapping spans); false: out of memory. */
bool view_track_span(view_builder *b, uint32_t track, uint64_t start, uint64_t end, uint32_t name,
		     uint32_t arg);

/* Appends to a row; times are absolute ns. false: out of memory. */
bool view_row_event(view_builder *b, view_row *r, uint64_t t, uint32_t name, uint32_t arg,
		    int32_t cpu, uint32_t stack, uint64_t weight);
bool view_row_span(view_builder *b, view_row *r, uint64_t start, uint64_t end, uint32_t name,
		   uint32_t arg);
bool view_row_counter(view_builder *b, view_row *r, uint64_t t, double value);

/* view_lod.c */
/* total: the row's entries so far, this one included */
void view_lod_add(view_lod *lod, uint64_t base, uint64_t start, uint64_t end, uint32_t name,
		  uint64_t total);
void view_lod_finish(view_lod *lod, uint64_t base, uint64_t n_entries);
void view_lod_free(view_lod *lod);
/* A time column entry: u32 delta or escape + overflow double (inline:
 * once or twice per entry). */
static inline bool view_put_u32e(view_col *c, view_col *ovf, uint64_t v)
{
	if (v < VIEW_ESCAPE)
		return view_col_u32(c, (uint32_t)v);
	return view_col_u32(c, VIEW_ESCAPE) && view_col_f64(ovf, (double)v);
}
static inline bool view_put_time(view_col *t, view_col *ovf, uint64_t prev, uint64_t v)
{
	if (v >= prev && v - prev < VIEW_ESCAPE)
		return view_col_u32(t, (uint32_t)(v - prev));
	double d = v >= prev ? (double)(v - prev) : -(double)(prev - v);
	return view_col_u32(t, VIEW_ESCAPE) && view_col_f64(ovf, d);
}

/* view_b64.c: standard base64 (with padding) of n bytes. */
void view_put_base64(tk_writer *w, const uint8_t *p, size_t n);

/* view_events.c: files one model event into the builder; ctx is the
 * input's model context (threads, symbols, counters), or NULL. */
tk_status view_add_event(view_builder *b, uint32_t input, tk_context *ctx, const tk_event *ev,
			 tk_error *err);
/* view_spans.c: the spans the context completed so far, onto span tracks. */
tk_status view_add_spans(view_builder *b, uint32_t input, tk_context *ctx, tk_error *err);
/* view_names.c: processes and threads named from the contexts (their
 * last names), before the page is written. */
void view_name_tracks(view_builder *b, tk_context *const *ctx);

/* view_html.c: writes the page. */
tk_status view_write_html(view_builder *b, tk_writer *w, tk_error *err);

/* view_assets.c (generated from viewer/ at build time). */
extern const char tk_view_asset_html[];
extern const size_t tk_view_asset_html_len;
extern const char tk_view_asset_css[];
extern const size_t tk_view_asset_css_len;
extern const char tk_view_asset_js[];
extern const size_t tk_view_asset_js_len;

#endif
