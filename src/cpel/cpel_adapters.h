/* Model adapters: CPEL and elog as tk_source, CPEL as tk_sink. */
#ifndef TK_CPEL_ADAPTERS_H
#define TK_CPEL_ADAPTERS_H

#include "tracekit/tracekit.h"

/* Events in file order. Each event class is one event code (CPEL) or event
 * type (elog), named by its formatted name; the payload is
 * { track: string, code: int, datum: int or string, text: string }. */
tk_status tk_cpel_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err);
tk_status tk_elog_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err);

/* The elog source over an opened log (owned from then on, even on
 * failure); fmt is what the source reports (elog, or tklog for a recovered
 * logger file). */
typedef struct tk_elog_file tk_elog_file;
tk_status tk_elog_source_wrap(tk_elog_file *f, const char *path, tk_format fmt, tk_source **out,
			      tk_error *err);

/* A tracekit logger file recovered into elog bytes and opened as an elog
 * (tklog_format.c): the rings checked and merged in memory. */
tk_status tk_tklog_open_elog(const char *path, tk_elog_file **out, tk_error *err);
/* The logger file itself, mapped (a regular file, not a stream). */
typedef struct tk_input tk_input;
tk_status tk_tklog_open_input(const char *path, tk_input **in, tk_error *err);

/* Any events -> CPEL: a track per thread (opt->tracks "cpu": per CPU), an
 * event definition per event class (datum format "%s"), datum = the
 * event's payload as text in the string table, clock 1 GHz (time in ns). */
tk_status tk_cpel_sink_open(const char *path, const tk_trace_info *info, const tk_sink_options *opt,
			    tk_sink **out, tk_error *err);

#endif
