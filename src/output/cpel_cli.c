/* Registry entry for cpel. Placeholder until the cpel reader lands: the
 * format is known by name but has no capabilities yet. */
#include "convert/formats.h"

const tk_format_ops tk_cpel_format_ops = {
	.format = TK_FORMAT_CPEL,
	.name = "cpel",
};
