/* Fuzz target: the TSDL lexer, parser and resolve passes on arbitrary
 * metadata text. Must never crash, hang or allocate without bound. */
#include <stddef.h>
#include <stdint.h>

#include "ctf/ctf_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_error err;
	ctf_trace_class *tc;
	tk_error_clear(&err);
	if (ctf_trace_class_parse((const char *)data, size, "fuzz", NULL, NULL, &tc, &err) == TK_OK)
		ctf_trace_class_free(tc);
	return 0;
}
