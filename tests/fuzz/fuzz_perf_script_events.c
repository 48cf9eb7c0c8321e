/* Fuzz target: perf script's side-band record printer
 * (src/output/perf_script_events.c) on every non-sample record of a
 * perf.data image, every --show option on, with the thread model fed as
 * the perf-script printer feeds it. The last byte picks file or time
 * order and a --cpu filter. Symbol lookups (TEXT_POKE) see no files. */
#include <stddef.h>
#include <stdint.h>

#include "output/perf_script_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t knob = size ? data[size - 1] : 0;
	tk_perf_open_options po = {.raw_order = knob & 1};
	tk_perf_file *f;
	tk_error err;
	if (tk_perf_open_memory(data, size, "fuzz", &po, &f, &err) != TK_OK)
		return 0;
	tk_symcache_options so = {.debug_dir = "/nonexistent",
				  .root = "/nonexistent",
				  .kallsyms = "/nonexistent",
				  .perf_map_dir = "/nonexistent",
				  .no_debug_cache = true};
	tk_threads t;
	tk_writer *w = NULL;
	if (!tk_threads_init(&t, &so) || tk_writer_open_memory(&w, NULL) != TK_OK)
		goto out;
	tk_render_options opt = {.script_show = ~0u};
	if (knob & 2)
		opt.cpu = tk_id_set_one((knob >> 2) & 3);
	const tk_perf_record *r;
	while (tk_perf_next(f, &r, &err) == TK_OK) {
		if (r->type == TK_PERF_RECORD_SAMPLE)
			continue;
		if (tk_perf_script_side_band(&t, f, r, &opt, w, &err) != TK_OK)
			break;
		if (w->pos > (1u << 20))
			w->pos = 0; /* a memory writer: keep the fuzzer's memory flat */
	}
out:
	tk_writer_abort(w);
	tk_threads_free(&t);
	tk_perf_close(f);
	return 0;
}
