/* tracekit diff on perf report's rows (--children, --no-children or a
 * --sort list): perf diff's Baseline / Delta Abs table, on Self (what
 * `perf diff` prints), or on Children and Self from the call chains. */
#ifndef TK_OUTPUT_REPORT_DIFF_H
#define TK_OUTPUT_REPORT_DIFF_H

#include "base/writer.h"
#include "output/report_children.h"

/* a: the baseline, b: the other file, both loaded with the same sort
 * keys (`sort_keys`, NULL = "sym"). Events are paired by name (the only
 * event of each when both have one). top: rows per table, 0 = all. */
tk_status tk_report_diff_write(const tk_report_rows *a, const tk_report_rows *b,
			       const char *sort_keys, bool children, uint64_t top, tk_writer *out,
			       tk_error *err);

#endif
