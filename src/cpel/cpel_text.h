/* CPEL datum text without a format interpreter per event.
 *
 * cpeldump prints each event's datum with fprintf(datum_format, datum).
 * The formats real files carry are almost all "literal %<conv> literal"
 * with one simple conversion; a plan made once per event definition turns
 * those into a few copies and a digit loop. Anything else falls back to
 * tk_safe_format() (same bytes, slower). Shared by the cpeldump renderer
 * and the model source so both print the datum the same way.
 *
 * A plan points into its format string: it lives as long as the format
 * (the file's string table). Thread-safe; allocates nothing. */
#ifndef TK_CPEL_CPEL_TEXT_H
#define TK_CPEL_CPEL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"

#define TK_CPEL_PLAN_COPY 16

typedef struct tk_cpel_datum_plan {
	const char *fmt; /* the whole format, for the fallback */
	size_t fmt_len;
	bool is_string; /* the datum is a string-table offset (cpeldump's test) */
	bool simple;    /* pre + one conversion + post */
	char conv;      /* d u x X s */
	bool zero;
	unsigned width; /* <= 20 */
	uint32_t pre_len, post_len;
	const char *pre, *post;
	/* copies of short pre/post literals, padded: copied in one go */
	char pre_copy[TK_CPEL_PLAN_COPY], post_copy[TK_CPEL_PLAN_COPY];
} tk_cpel_datum_plan;

/* Plans fmt (NUL-terminated) for a datum that is a string when is_string. */
void tk_cpel_plan_datum(const char *fmt, bool is_string, tk_cpel_datum_plan *p);

/* Appends the datum as printf(p->fmt, ...) would: str/len when the plan's
 * datum is a string (already checked by the caller), else the integer. */
void tk_cpel_put_datum(tk_writer *w, const tk_cpel_datum_plan *p, uint32_t datum, const char *str,
		       size_t len);

#endif
