/* One JSON callchain entry of print --format json on perf.data (its own
 * module so that the line cache, perf_script_lines.c, can use it without a
 * file cycle). */
#ifndef TK_OUTPUT_PERF_JSON_FRAME_H
#define TK_OUTPUT_PERF_JSON_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "context/threads_model.h"

/* A JSON callchain entry, leaf first, as print --format json writes it:
 * {"ip":"0x<ip>","symbol":<name>,"sym_off":<n>,"dso":<short name>,
 * "dso_off":"0x<map-relative address>"} followed by a comma; "symbol" and
 * "sym_off" only with a symbol, "dso" and "dso_off" only with a map (the
 * keys of convert --to json's callchain); name/name_len override loc's
 * symbol name (an inline frame, then also "inlined":true). */
void tk_json_frame_render(tk_writer *w, const tk_addr_loc *loc, uint64_t ip, const char *name,
			  size_t name_len, bool inlined);

#endif
