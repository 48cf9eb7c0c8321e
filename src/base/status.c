/* Status strings and the caller-owned error object. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tracekit/status.h"

const char *tk_status_str(tk_status status)
{
	switch (status) {
#define TK_STATUS_CASE(name, value, text)                                                          \
	case name: return text;
		TK_STATUS_LIST(TK_STATUS_CASE)
#undef TK_STATUS_CASE
	}
	return "unknown status";
}

void tk_error_clear(tk_error *err)
{
	if (!err)
		return;
	err->status = TK_OK;
	err->offset = TK_NO_OFFSET;
	err->file[0] = '\0';
	err->message[0] = '\0';
}

void tk_error_set_file(tk_error *err, const char *file)
{
	if (!err || !file)
		return;
	/* an empty path is named '' so that messages still say which file */
	snprintf(err->file, sizeof err->file, "%s", *file ? file : "''");
}

tk_status tk_error_setv(tk_error *err, tk_status status, uint64_t offset, const char *fmt,
			va_list ap)
{
	if (!err)
		return status;
	err->status = status;
	err->offset = offset;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	return status;
}

tk_status tk_error_set(tk_error *err, tk_status status, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tk_error_setv(err, status, offset, fmt, ap);
	va_end(ap);
	return status;
}

/* sig_atomic_t: written by a signal handler, read by the reading loops. */
static volatile sig_atomic_t interrupt_flag;

void tk_interrupt(void)
{
	interrupt_flag = 1;
}

bool tk_interrupt_pending(void)
{
	return interrupt_flag != 0;
}

void tk_interrupt_reset(void)
{
	interrupt_flag = 0;
}
