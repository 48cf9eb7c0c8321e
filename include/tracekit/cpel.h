/* CPEL and VPP event logs: conversions the CLI and programs call directly.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * Reading goes through tk_source_open() (formats TK_FORMAT_CPEL and
 * TK_FORMAT_ELOG), writing through tk_sink_open(TK_FORMAT_CPEL). The calls
 * below are the lossless paths that do not go through the event model.
 * Outputs are written atomically: complete or not at all. */
#ifndef TRACEKIT_CPEL_H
#define TRACEKIT_CPEL_H

#include "sink.h"
#include "status.h"

/* Converts a VPP event log to CPEL exactly as VPP's c2cpel does (one string
 * table "FileStrtab", event names cut at the first ' ', '(' or '%', the rest
 * of the text as a %s datum, tracks sorted by name, 1 GHz clock, times
 * relative to the first event); only the 4-byte file date differs.
 * opt->byte_order "little" writes the little-endian form instead. */
tk_status tk_cpel_convert_elog(const char *in, const char *out, const tk_sink_options *opt,
			       tk_error *err);

/* Copies a CPEL file after validating it: byte-identical (unknown sections
 * included) unless opt->byte_order asks for the other byte order, in which
 * case every known section is rewritten in that order. */
tk_status tk_cpel_copy(const char *in, const char *out, const tk_sink_options *opt, tk_error *err);

#endif
