/* Fuzz target: perf script's dump of a bpf-output sample's RAW data
 * (src/output/perf_script_bpf.c) on any bytes of any length: the string
 * check after the dump reads up to a NUL it must have seen inside the
 * data, never past it. Every line but the string one is 17 + 6 + 3 * 8 +
 * 2 + 8 + 1 = 58 bytes, so the output length is checked too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "output/perf_script_bpf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	/* a copy of exactly size bytes, so ASan sees any read past the end */
	uint8_t *raw = malloc(size ? size : 1);
	if (!raw)
		return 0;
	if (size)
		memcpy(raw, data, size);
	tk_writer *w = NULL;
	if (tk_writer_open_memory(&w, NULL) != TK_OK) {
		free(raw);
		return 0;
	}
	tk_script_bpf_output(w, raw, (uint32_t)size);
	size_t n;
	const char *out = tk_writer_data(w, &n);
	size_t lines = (size + 7) / 8;
	size_t dump = size ? 1 + lines * 58 : 0;
	if (n < dump || (n > dump && memcmp(out + dump, "      BPF string: \"", 19) != 0))
		abort();
	tk_writer_abort(w);
	free(raw);
	return 0;
}
