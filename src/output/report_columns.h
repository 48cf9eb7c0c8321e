/* Column helpers shared by the profile reports (dcpiprof-style tables). */
#ifndef TK_OUTPUT_REPORT_COLUMNS_H
#define TK_OUTPUT_REPORT_COLUMNS_H

#include <stdio.h>
#include <string.h>

#include "analysis/profile_agg.h"
#include "base/writer.h"

/* s, then spaces up to width. */
static inline void tk_report_put_padded(tk_writer *out, const char *s, size_t width)
{
	size_t n = strlen(s);
	tk_put_str(out, s);
	if (n < width)
		tk_put_spaces(out, (unsigned)(width - n));
}

/* part/total as "12.34%", right-aligned in 8 columns (0% when total is 0). */
static inline void tk_report_put_percent(tk_writer *out, uint64_t part, uint64_t total)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.2f%%", total ? 100.0 * (double)part / (double)total : 0.0);
	tk_put_spaces(out, (unsigned)(strlen(buf) < 8 ? 8 - strlen(buf) : 0));
	tk_put_str(out, buf);
}

/* One event's table: count, %, cum%, then the address (by address), the
 * procedure (but by image) and the image, the top rows (0 = all). The
 * count column is at least count_min_width wide (dcpiprof 9, perf.data
 * reports 12), the procedure column at most name_max_width (48, 60). */
void tk_report_put_profile_table(tk_writer *out, tk_profile_key key, const char *event,
				 tk_profile_agg *agg, uint64_t top, size_t count_min_width,
				 size_t name_max_width);

#endif
