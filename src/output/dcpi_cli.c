/* Registry entry for dcpi. Placeholder until the dcpi reader lands: the
 * format is known by name but has no capabilities yet. */
#include "convert/formats.h"

const tk_format_ops tk_dcpi_format_ops = {
	.format = TK_FORMAT_DCPI,
	.name = "dcpi",
};
