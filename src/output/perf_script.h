/* `tracekit print --format perf-script`: the default output of `perf
 * script` (perf 6.1), byte for byte: per sample the comm, tid, [cpu] when
 * sampled, time in seconds.microseconds, period, event name, then either
 * the tracepoint rendered through its print fmt, or ip sym+off (dso), or a
 * callchain block (one "\t%16x sym+off (dso)" line per frame and a blank
 * line). Non-sample records feed the thread / map model; they are printed
 * only when a --show-*-events option asks, as perf script does
 * (output/perf_script_events.c).
 * Per sample: no allocation and no printf (hand formatting into the
 * writer; symbols cached per image). */
#ifndef TK_OUTPUT_PERF_SCRIPT_H
#define TK_OUTPUT_PERF_SCRIPT_H

#include "base/writer.h"
#include "model/render.h"

tk_status tk_perf_script_print(const char *path, const tk_render_options *opt, tk_writer *w,
			       tk_error *err);

#endif
