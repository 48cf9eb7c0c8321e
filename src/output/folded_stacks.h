/* Folded stacks (folded_perf.h) as data, for the exporters that draw
 * them (speedscope, flame graph SVG): the same stacks and weights as
 * `convert --to folded`, so the three agree by construction. Stacks are
 * sorted frame by frame (root first), so stacks sharing a prefix are
 * adjacent and a flame graph merges them. */
#ifndef TK_OUTPUT_FOLDED_STACKS_H
#define TK_OUTPUT_FOLDED_STACKS_H

#include "base/writer.h"
#include "model/render.h"

typedef struct tk_folded_stack {
	const char **frames; /* root (comm) first; NUL-terminated names */
	size_t n;
	uint64_t weight;
} tk_folded_stack;

typedef struct tk_folded_stacks {
	tk_folded_stack *v;
	size_t n;
	size_t max_depth; /* most frames in one stack */
	uint64_t total;   /* sum of weights (saturating) */
	char event[128];  /* the event folded */
	bool nanoseconds; /* its period is time: cpu-clock, task-clock */
	char *text;       /* the folded text the frames point into */
	const char **frame_store;
} tk_folded_stacks;

tk_status tk_folded_stacks_load(const char *in, const tk_render_options *opt, tk_folded_stacks *out,
				tk_error *err);
void tk_folded_stacks_free(tk_folded_stacks *s);

/* Writers over the loaded stacks (speedscope_perf.c, flamegraph_svg.c).
 * `title` names the profile (the input's name). false: out of memory. */
bool tk_speedscope_put(tk_writer *w, const tk_folded_stacks *s, const char *title);
bool tk_flamegraph_svg_put(tk_writer *w, const tk_folded_stacks *s, const char *title);

/* convert -o: load, write with `put` into out_path ("-": stdout). */
tk_status tk_folded_export_write(const char *in, const char *out_path, const tk_render_options *opt,
				 bool (*put)(tk_writer *, const tk_folded_stacks *, const char *),
				 tk_error *err);

#endif
