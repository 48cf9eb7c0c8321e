/* Registry entry for perf.data: detection by magic (file, or a `perf record
 * --threads` directory), the model adapter, the lossless copy and the
 * writer. Native renderers: src/output/perf_cli.c. */
#include <stdio.h>
#include <string.h>

#include "model/format_ops.h"
#include "tracekit/perf_writer.h"

static bool perf_detect(const uint8_t *head, size_t n)
{
	return n >= 8 && (memcmp(head, "PERFILE2", 8) == 0 || memcmp(head, "2ELIFREP", 8) == 0);
}

/* A `perf record --threads` directory: it holds a perf.data file named "data". */
static bool perf_detect_dir(const char *path)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/data", path);
	FILE *f = fopen(p, "rb");
	if (!f)
		return false;
	uint8_t head[8];
	bool ok = fread(head, 1, 8, f) == 8 && perf_detect(head, 8);
	fclose(f);
	return ok;
}

const tk_format_ops tk_perf_format_ops = {
    .format = TK_FORMAT_PERF,
    .name = "perf",
    .detect_file = perf_detect,
    .detect_dir = perf_detect_dir,
    .source_open = tk_perf_source_open,
    .copy = tk_perf_copy,
    .sink_open = tk_perf_sink_open,
};
