/* Fuzz target: the VPP elog reader, the elog event text formatter and the
 * c2cpel conversion on arbitrary bytes. Must never crash, hang or allocate
 * without bound. */
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "cpel/cpel_convert.h"
#include "cpel/elog_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_error err;
	tk_elog_file *f;
	tk_error_clear(&err);
	if (tk_elog_open_memory(data, size, "fuzz", &f, &err) != TK_OK)
		return 0;
	tk_writer *w;
	if (tk_writer_open_memory(&w, &err) == TK_OK) {
		for (uint32_t i = 0; i < f->n_events; i++) {
			w->pos = 0;
			tk_elog_event_text(w, f, &f->events[i]);
		}
		tk_writer_abort(w);
	}
	tk_cpel_writer *cw = tk_cpel_writer_new();
	if (cw)
		(void)tk_cpel_build_from_elog(f, cw, &err);
	tk_cpel_writer_free(cw);
	tk_elog_close(f);
	return 0;
}
