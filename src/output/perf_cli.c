/* Registry entry for perf.data: detection now; info/stats/print follow the
 * reader. */
#include <string.h>

#include "convert/formats.h"

static bool perf_detect(const uint8_t *head, size_t n)
{
	return n >= 8 && (memcmp(head, "PERFILE2", 8) == 0 || memcmp(head, "2ELIFREP", 8) == 0);
}

const tk_format_ops tk_perf_format_ops = {
	.format = TK_FORMAT_PERF,
	.name = "perf",
	.detect_file = perf_detect,
};
