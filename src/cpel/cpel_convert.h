/* elog -> CPEL as VPP's c2cpel does it, on an already open log and a
 * writer, so tests and fuzzers can run it without files. The file-level
 * entry point is tk_cpel_convert_elog() in <tracekit/cpel.h>. */
#ifndef TK_CPEL_CONVERT_H
#define TK_CPEL_CONVERT_H

#include "cpel/cpel_writer.h"
#include "cpel/elog_reader.h"

/* Adds c2cpel's strings, event and track definitions and events to cw
 * (tracks sorted by name, times relative to the first event, in ns). */
tk_status tk_cpel_build_from_elog(const tk_elog_file *f, tk_cpel_writer *cw, tk_error *err);

#endif
