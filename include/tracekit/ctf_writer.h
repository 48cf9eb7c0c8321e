/* CTF 1.8 writer: a tk_sink that writes model events as a CTF trace
 * directory (TSDL metadata, one data stream file per stream class and stream
 * instance or CPU, LTTng-style index files).
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * The trace is written into a hidden temporary directory beside `dir`
 * (".NAME.tk-XXXXXX") and renamed to `dir` by tk_sink_close(), so `dir`
 * appears complete or not at all; tk_sink_abort(), or a close after a write
 * error, removes the temporary directory. `dir` must not exist, or be an
 * empty directory.
 *
 * `info` must stay valid until the sink is closed: event classes may be
 * added to it while writing (the metadata is generated at close).
 * opt may be NULL (defaults: native byte order, 1 MiB packets, text
 * metadata). Not thread-safe. */
#ifndef TRACEKIT_CTF_WRITER_H
#define TRACEKIT_CTF_WRITER_H

#include "model.h"
#include "sink.h"
#include "status.h"

tk_status tk_ctf_sink_open(const char *dir, const tk_trace_info *info, const tk_sink_options *opt,
			   tk_sink **out, tk_error *err);

#endif
