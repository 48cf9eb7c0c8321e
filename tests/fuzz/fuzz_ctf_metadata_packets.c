/* Fuzz target: packetized metadata (37-byte packet headers, concatenated
 * TSDL text), then the TSDL parser on the unpacked text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ctf/ctf_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_error err;
	char *text;
	size_t len;
	tk_error_clear(&err);
	if (ctf_metadata_unpack(data, size, &text, &len, &err) != TK_OK)
		return 0;
	ctf_trace_class *tc;
	if (ctf_trace_class_parse(text, len, "fuzz", NULL, NULL, &tc, &err) == TK_OK)
		ctf_trace_class_free(tc);
	free(text);
	return 0;
}
