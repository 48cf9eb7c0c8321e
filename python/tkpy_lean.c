/* The lean reader behind Source.columns() when every column asked for
 * comes from the event's header (ts, cpu, name, offset; perf.data also pid,
 * tid, period): the library's tk_lean (context/lean_reader.h), the events
 * the source would return, in the same order and with the same errors,
 * without building model values. A source switches to it only before its
 * first event; from then on it is read by columns() alone. */
#include "context/lean_reader.h"
#include "tkpy.h"

bool tkpy_lean_serves(tk_format format, unsigned columns, const tk_filter *f)
{
	unsigned perf = TKPY_LEAN_TS | TKPY_LEAN_CPU | TKPY_LEAN_NAME | TKPY_LEAN_OFFSET |
			TKPY_LEAN_PID | TKPY_LEAN_TID | TKPY_LEAN_PERIOD;
	unsigned ctf = TKPY_LEAN_TS | TKPY_LEAN_CPU | TKPY_LEAN_NAME | TKPY_LEAN_OFFSET;
	if (format == TK_FORMAT_PERF)
		return (columns & ~perf) == 0;
	if (format == TK_FORMAT_CTF)
		return (columns & ~ctf) == 0 && tk_id_set_any(&f->pid) && tk_id_set_any(&f->tid);
	return false;
}

tk_status tkpy_lean_open(const char *path, tk_format format, tk_log_fn log, void *log_user,
			 tkpy_lean **out, tk_error *err)
{
	tk_lean_options lo = {.log = log, .log_user = log_user};
	return tk_lean_open(path, format, &lo, out, err);
}

void tkpy_lean_close(tkpy_lean *l)
{
	tk_lean_close(l);
}

tk_status tkpy_lean_next(tkpy_lean *l, const tk_event **out, uint64_t *period, tk_error *err)
{
	return tk_lean_next(l, out, period, err);
}
