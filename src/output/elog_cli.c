/* Registry entry for elog. Placeholder until the elog reader lands: the
 * format is known by name but has no capabilities yet. */
#include "convert/formats.h"

const tk_format_ops tk_elog_format_ops = {
	.format = TK_FORMAT_ELOG,
	.name = "elog",
};
