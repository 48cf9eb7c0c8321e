/* Fuzz target: the CPEL reader and the cpeldump renderer on arbitrary bytes.
 * Must never crash, hang or allocate without bound; errors are fine. */
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "cpel/cpel_reader.h"
#include "output/cpel_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_error err;
	tk_cpel_file *f;
	tk_error_clear(&err);
	if (tk_cpel_open_memory(data, size, "fuzz", NULL, NULL, &f, &err) != TK_OK)
		return 0;
	tk_writer *w;
	if (tk_writer_open_memory(&w, &err) == TK_OK) {
		/* cap the events so a huge count in a tiny input stays fast */
		(void)tk_cpel_dump(f, w, 100000, &err);
		tk_writer_abort(w);
	}
	tk_cpel_close(f);
	return 0;
}
