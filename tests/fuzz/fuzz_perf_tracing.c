/* Fuzz target for HEADER_TRACING_DATA parsing, tracepoint RAW decoding and
 * print-fmt rendering: the input is parsed as a tracing section; when it
 * parses, the same bytes (and their tail) are decoded and rendered as RAW
 * payloads of every format, so __data_loc / __rel_loc words and fixed
 * fields see hostile values; decoded values also go through the view of
 * perf's CTF converter (perf_tp_view.c), whose strings run to a NUL past
 * their field. Decoder, view and renderer must report errors,
 * never read outside the payload (libtraceevent is not instrumented, but
 * ASan's printf interceptors check the strings it prints). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "perf/perf_tp_view.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decode_all(const tk_perf_tracing *tr, const uint8_t *raw, uint32_t raw_size,
		       tk_arena *arena)
{
	for (size_t i = 0; i < tk_perf_tracing_count(tr); i++) {
		const tk_perf_tp_format *f = tk_perf_tracing_format_at(tr, i);
		tk_value *vals =
		    tk_arena_calloc(arena, f->n_fields ? f->n_fields : 1, sizeof *vals);
		tk_value *view_vals =
		    tk_arena_calloc(arena, f->n_fields ? f->n_fields : 1, sizeof *view_vals);
		const tk_member taken[] = {{"perf_ip", NULL}, {"perf_tid", NULL}};
		tp_view *view = perf_tp_view_build(arena, f, taken, 2);
		if (!vals || !view_vals || !view)
			return;
		tk_error err;
		/* copy so ASan sees any read past raw_size */
		uint8_t *copy = malloc(raw_size ? raw_size : 1);
		if (!copy)
			return;
		memcpy(copy, raw, raw_size);
		char text[512];
		size_t len;
		(void)tk_perf_tp_render(tr, f, copy, raw_size, 0, text, sizeof text, &len, &err);
		if (tk_perf_tp_decode(tr, f, copy, raw_size, arena, vals, &err) == TK_OK) {
			/* touch every string so out-of-bounds pointers fault */
			volatile size_t sum = 0;
			for (size_t k = 0; k < f->n_fields; k++)
				if (vals[k].cls->kind == TK_TYPE_STRING ||
				    vals[k].cls->kind == TK_TYPE_BYTES)
					for (size_t c = 0; c < vals[k].v.str.len; c++)
						sum += (unsigned char)vals[k].v.str.ptr[c];
			if (perf_tp_view_values(view, vals, copy, raw_size, arena, view_vals))
				for (size_t k = 0; k < f->n_fields; k++)
					if (view_vals[k].cls->kind == TK_TYPE_STRING)
						for (size_t c = 0; c < view_vals[k].v.str.len; c++)
							sum += (unsigned char)view_vals[k]
								   .v.str.ptr[c];
			(void)sum;
		}
		(void)perf_tp_view_values(view, NULL, copy, raw_size, arena, view_vals);
		free(copy);
		tk_arena_reset(arena);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_perf_tracing *tr = NULL;
	tk_error err;
	if (tk_perf_tracing_parse(data, size, 0, &tr, &err) != TK_OK)
		return 0;
	tk_arena arena;
	tk_arena_init(&arena, 0);
	arena.limit = 64u << 20;
	uint32_t n = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	decode_all(tr, data, n, &arena);
	uint32_t tail = n > 256 ? 256 : n;
	decode_all(tr, data + n - tail, tail, &arena);
	tk_arena_free(&arena);
	tk_perf_tracing_free(tr);
	return 0;
}
