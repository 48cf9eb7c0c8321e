/* A printf-like formatter for format strings that come from files (CPEL
 * event/track/datum formats, VPP elog event formats).
 *
 * VPP's own tools hand such strings straight to printf or vppinfra's
 * format(): a hostile file is a format-string attack. Here the format is only
 * data: arguments come from a caller-built array, never from va_args, so a
 * conversion can never read memory it was not given.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %f %e %g (and %E %G %F), flags
 * "-+ #0", width, precision ('*' is not supported: printed literally),
 * length modifiers h hh l ll L q j z t w. Width and precision are clamped
 * to TK_FMT_MAX_WIDTH. `%%` prints '%'. `%n` and every unknown conversion
 * are printed literally. A conversion with no argument left gets 0 (or
 * "(null)" for %s).
 *
 * Dialects: TK_FMT_PRINTF follows C printf (what cpeldump's fprintf does
 * with the datum). TK_FMT_VPPINFRA follows vppinfra's format() (what
 * cpeldump uses for track and event names, and elog for event text): the
 * only flags are '-' (left), '+' (right, the default) and '=' (centre), a
 * width also truncates longer output, and %d/%x ignore the precision.
 *
 * Integer arguments without a length modifier are taken as 32-bit (int or
 * unsigned int), as printf would read the u32 the tools pass; with l/ll/j/z
 * the full 64-bit value is used. Thread-safe; allocates nothing. */
#ifndef TK_CPEL_SAFE_FORMAT_H
#define TK_CPEL_SAFE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"

#define TK_FMT_MAX_WIDTH 1024

typedef enum tk_fmt_dialect {
	TK_FMT_PRINTF,
	TK_FMT_VPPINFRA,
} tk_fmt_dialect;

typedef enum tk_fmt_arg_kind {
	TK_FMT_ARG_INT,    /* u: the bits of the integer */
	TK_FMT_ARG_DOUBLE, /* f */
	TK_FMT_ARG_STRING, /* s/len; u: the number a numeric conversion prints */
} tk_fmt_arg_kind;

typedef struct tk_fmt_arg {
	tk_fmt_arg_kind kind;
	uint64_t u;
	double f;
	const char *s; /* NULL: printed as "(null)" ("(nil)" for vppinfra) */
	size_t len;
} tk_fmt_arg;

/* Appends fmt[0..fmt_len) formatted with args to w. Stops at a NUL in fmt. */
void tk_safe_format(tk_writer *w, tk_fmt_dialect dialect, const char *fmt, size_t fmt_len,
		    const tk_fmt_arg *args, size_t n_args);

/* Convenience: one integer argument; fmt is NUL-terminated. */
void tk_safe_format_u32(tk_writer *w, tk_fmt_dialect dialect, const char *fmt, uint32_t v);

#endif
