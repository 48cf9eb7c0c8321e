/* Registry entry for CPEL: detection, the model adapter, the lossless copy
 * and the writer (cpel_sink.c). Native renderers (cpeldump, info, stats):
 * src/output/cpel_cli.c. */
#include "cpel/cpel_adapters.h"
#include "cpel/cpel_convert.h"
#include "cpel/cpel_reader.h"
#include "model/format_ops.h"

static bool cpel_detect(const uint8_t *head, size_t n)
{
	return tk_cpel_detect(head, n);
}

const tk_format_ops tk_cpel_format_ops = {
    .format = TK_FORMAT_CPEL,
    .name = "cpel",
    .detect_file = cpel_detect,
    .source_open = tk_cpel_source_open,
    .copy = tk_cpel_copy,
    .sink_open = tk_cpel_sink_open,
};
