/* Folded stacks from perf.data, as FlameGraph's stackcollapse-perf.pl
 * makes them from `perf script` output (default options): one line per
 * distinct stack "comm;root;...;leaf weight", sorted as strings. The
 * weight is the sum of the samples' periods (the attr's fixed period when
 * the samples carry none, as perf script prints it). comm has spaces
 * turned into '_'; a frame is its symbol name, or "[<dso basename>]" when
 * the symbol is unknown but the image is not, else "[unknown]"; ';' in
 * names becomes ':', a '(' and what follows is cut (except "(anonymous
 * namespace)") and quotes are dropped. Samples without a call chain, or
 * with an empty one, give "comm;leaf" from their IP; frames whose name
 * starts with "(" are skipped, as the script takes them for process names.
 * One event is folded: the first met among those --event selects (all
 * without --event); the others are named in one warning. Memory: one
 * arena copy per distinct stack. */
#ifndef TK_OUTPUT_FOLDED_PERF_H
#define TK_OUTPUT_FOLDED_PERF_H

#include "base/writer.h"
#include "model/render.h"

tk_status tk_perf_folded_write(const char *in, const char *out_path, const tk_render_options *opt,
			       tk_error *err);
/* The same into an open writer (tests). */
tk_status tk_perf_folded_to(const char *in, const tk_render_options *opt, tk_writer *w,
			    tk_error *err);
/* The same, also naming the event folded in event[0..event_cap) ("" when
 * none was). */
tk_status tk_perf_folded_to_event(const char *in, const tk_render_options *opt, tk_writer *w,
				  char *event, size_t event_cap, tk_error *err);

#endif
