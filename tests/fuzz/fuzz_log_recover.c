/* Fuzz target: the recovery reader of tracekit logger files (damaged,
 * cut or hostile mapped logs): the checked view, the time merge, the elog
 * serialization read back by the elog reader, and the CPEL dump with its
 * event text formatter. Must never crash, hang or allocate without bound.
 * Seeds: tests/fuzz/gen_log_recover_corpus.c. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "cpel/elog_reader.h"
#include "log/log_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the region is read with aligned atomic loads, as from a mapping */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	uint8_t *elog;
	size_t n;
	const char *why;
	uint64_t at;
	if (tk_lg_recover_elog(copy, size, &elog, &n, &why, &at)) {
		tk_elog_file *f;
		tk_error err;
		if (tk_elog_open_owned(elog, n, "fuzz", &f, &err) == TK_OK) {
			tk_writer *w;
			if (tk_writer_open_memory(&w, &err) == TK_OK) {
				for (uint32_t i = 0; i < f->n_events; i++) {
					w->pos = 0;
					tk_elog_event_text(w, f, &f->events[i]);
				}
				tk_writer_abort(w);
			}
			tk_elog_close(f);
		}
		tk_lg_view *v = malloc(sizeof *v);
		tk_lg_iter *it = malloc(sizeof *it);
		tk_lg_out *o = malloc(sizeof *o);
		if (v && it && o && tk_lg_view_open(v, copy, size, &why, &at)) {
			tk_lg_out_mem(o);
			(void)tk_lg_emit_cpel(o, v, it, 0);
			free(o->mem);
		}
		free(v);
		free(it);
		free(o);
	}
	free(copy);
	return 0;
}
