/* Reading a log file left by a process (running, exited or killed): the
 * region is checked by tk_lg_view_open() and serialized as elog bytes in
 * memory, which the elog reader then reads like any elog file. */
#include <stdlib.h>

#include "log/log_impl.h"

bool tk_lg_recover_elog(const void *base, uint64_t size, uint8_t **out, size_t *out_len,
			const char **why, uint64_t *at)
{
	*out = NULL;
	*out_len = 0;
	tk_lg_view *v = malloc(sizeof *v);
	tk_lg_iter *it = malloc(sizeof *it);
	tk_lg_out *o = malloc(sizeof *o);
	bool ok = v && it && o;
	if (!ok) {
		*why = "out of memory";
		*at = 0;
	}
	if (ok)
		ok = tk_lg_view_open(v, base, size, why, at);
	if (ok) {
		tk_lg_out_mem(o);
		ok = tk_lg_emit_elog(o, v, it) && tk_lg_out_finish(o);
		if (ok) {
			*out = o->mem;
			*out_len = (size_t)o->pos;
		} else {
			free(o->mem);
			*why = "out of memory";
			*at = 0;
		}
	}
	free(v);
	free(it);
	free(o);
	return ok;
}
