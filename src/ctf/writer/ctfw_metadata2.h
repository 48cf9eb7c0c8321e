/* CTF 2 metadata of the CTF writer (ctfw_metadata2.c): the JSON text
 * sequence describing what ctfw_stream.c and ctfw_encode.c write. Called by
 * ctfw_metadata_write at close, when every class is known. */
#ifndef TK_CTFW_METADATA2_H
#define TK_CTFW_METADATA2_H

#include "ctf/writer/ctfw_internal.h"

/* Appends every fragment (preamble first) to w. */
void ctfw_metadata2_put(ctfw_sink *s, tk_writer *w);

#endif
