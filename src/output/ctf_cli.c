/* Registry entry for ctf. Placeholder until the ctf reader lands: the
 * format is known by name but has no capabilities yet. */
#include "convert/formats.h"

const tk_format_ops tk_ctf_format_ops = {
	.format = TK_FORMAT_CTF,
	.name = "ctf",
};
