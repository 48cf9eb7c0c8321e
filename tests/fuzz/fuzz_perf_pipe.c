/* Fuzz target: pipe-mode perf.data. The input is the record stream; the
 * 16-byte pipe header is prepended (byte order chosen by the first byte),
 * so the fuzzer spends its time on records, not on the magic. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	bool big = data[0] & 1;
	bool raw = data[0] & 2;
	data++;
	size--;
	uint8_t *buf = malloc(size + 16);
	if (!buf)
		return 0;
	memcpy(buf, big ? "2ELIFREP" : "PERFILE2", 8);
	uint64_t hs = 16;
	if (big)
		hs = __builtin_bswap64(hs);
	memcpy(buf + 8, &hs, 8);
	memcpy(buf + 16, data, size);
	tk_perf_file *f;
	tk_error err;
	tk_perf_open_options opt = {.raw_order = raw};
	if (tk_perf_open_memory(buf, size + 16, "fuzz-pipe", &opt, &f, &err) == TK_OK) {
		const tk_perf_record *r;
		while (tk_perf_next(f, &r, &err) == TK_OK) {
			uint64_t acc = 0;
			for (uint32_t i = 0; i < r->size; i++)
				acc += r->data[i];
			sink += acc;
			if (r->type == TK_PERF_RECORD_SAMPLE) {
				tk_perf_sample s;
				if (tk_perf_parse_sample(f, r, &s, &err) == TK_OK && s.callchain_nr)
					sink +=
					    tk_perf_u64_at(s.callchain, s.callchain_nr - 1, s.swap);
			} else {
				tk_perf_event e;
				(void)tk_perf_parse_event(f, r, &e, &err);
			}
		}
		for (size_t i = 0; i < tk_perf_attr_count(f); i++)
			sink += tk_perf_attr_at(f, i)->name
				    ? (uint8_t)tk_perf_attr_at(f, i)->name[0]
				    : 0;
		tk_perf_close(f);
	}
	free(buf);
	return 0;
}
