/* Per-track time reports over any event source, after VPP's perftool:
 * - state (cpelstate): time between successive occurrences of EVENT on a
 *   track: N, mean, stdev, min, max, total per track and overall;
 * - latency (cpelatency): START -> END per track (an END closes the
 *   track's pending START; a second START restarts it): N, mean, stdev,
 *   min, max, total and the 50/90/99th percentiles (nearest rank);
 * - linreg (cpelinreg): per track, the START -> END intervals regressed
 *   against their index (y = intercept + slope * i), with the correlation
 *   coefficient r: a clear positive slope is work that grows with N.
 *
 * Events are named by class name or by numeric id (CPEL event code, elog
 * type). The track is the payload's "track" string when there is one
 * (CPEL, elog), else the thread, else the CPU, else the stream.
 * Times in ns; stdev is the sample standard deviation (n - 1).
 * Memory: per track a few counters, plus 8 bytes per latency sample (for
 * the percentiles). Not thread-safe. */
#ifndef TK_ANALYSIS_REPORT_H
#define TK_ANALYSIS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"

typedef enum tk_report_kind {
	TK_REPORT_STATE,
	TK_REPORT_LATENCY,
	TK_REPORT_LINREG,
} tk_report_kind;

typedef struct tk_report_track {
	const char *name;
	uint64_t n;
	double mean, m2; /* Welford */
	uint64_t min, max, total;
	/* state / latency bookkeeping */
	bool have_last;
	uint64_t last;
	/* latency samples */
	uint64_t *samples;
	size_t n_samples, cap_samples;
	/* linreg sums over (i, y) */
	double sx, sy, sxx, sxy, syy;
} tk_report_track;

typedef struct tk_report_result {
	uint64_t n;
	double mean, stdev;
	uint64_t min, max, total;
	uint64_t p50, p90, p99;     /* latency */
	double slope, intercept, r; /* linreg */
} tk_report_result;

typedef struct tk_report tk_report;

/* spec: "EVENT" for state, "START,END" for latency and linreg. */
tk_status tk_report_new(tk_report_kind kind, const char *spec, tk_report **out, tk_error *err);
void tk_report_free(tk_report *r); /* NULL is fine */

tk_status tk_report_add(tk_report *r, const tk_event *ev, tk_error *err);
/* The same with the pieces given directly (tests, other callers). */
tk_status tk_report_add_raw(tk_report *r, const char *track, size_t track_len, const char *name,
			    uint64_t id, uint64_t time_ns, tk_error *err);

size_t tk_report_n_tracks(const tk_report *r);
const char *tk_report_track_name(const tk_report *r, size_t i);
/* i == tk_report_n_tracks(r) gives the overall result. */
void tk_report_get(tk_report *r, size_t i, tk_report_result *out);

/* The text report: a header line, one line per track (in first-seen
 * order), then "all". */
void tk_report_write(tk_report *r, tk_writer *out);
/* The same with the tracks sorted (sort: NULL = first seen, "total",
 * "count", "mean", "max" (descending) or "name") and only the first `top`
 * (0 = all) shown before "all". A `top` without a sort key keeps the
 * largest totals. */
tk_status tk_report_write_sorted(tk_report *r, tk_writer *out, const char *sort, uint64_t top,
				 tk_error *err);

#endif
