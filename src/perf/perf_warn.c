/* Warnings of the perf.data reader through the caller's log callback. Its
 * own file because every stage of the reader (open, features, metadata,
 * records, ordering) warns, and perf_open.c calls those stages: defined
 * there, it made all five files one circle. */
#include <stdarg.h>
#include <stdio.h>

#include "perf/perf_internal.h"

void tk_perf_warn(tk_perf_file *f, const char *fmt, ...)
{
	if (!f->opt.log)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	f->opt.log(f->opt.log_user, 0, msg);
}
