/* Registry entry for VPP event logs (elog v0): detection and the model
 * adapter. Native renderers (elog, cpeldump, info): src/output/elog_cli.c. */
#include "cpel/cpel_adapters.h"
#include "cpel/elog_reader.h"
#include "model/format_ops.h"

static bool elog_detect(const uint8_t *head, size_t n)
{
	return tk_elog_detect(head, n);
}

const tk_format_ops tk_elog_format_ops = {
    .format = TK_FORMAT_ELOG,
    .name = "elog",
    .detect_file = elog_detect,
    .source_open = tk_elog_source_open,
};
