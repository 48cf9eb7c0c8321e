/* CTF 1.8 reader: traces found below a path, merged by time, as model
 * events (tk_event with packet context, stream event context, event
 * context and payload values).
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * Same contract as tk_source_open(): the source owns everything it
 * returns; an event stays valid until the next tk_source_next(). The
 * event's time_ns is the time from the clock origin in ns (negative
 * times are clamped to 0 and time_raw keeps the cycles). Warnings
 * (unknown metadata attributes, discarded events and packets) go to
 * opt->log. Not thread-safe. */
#ifndef TRACEKIT_CTF_H
#define TRACEKIT_CTF_H

#include "source.h"
#include "status.h"

/* path: a trace directory, its metadata file, or a directory holding
 * traces (multi-domain LTTng sessions, session rotation chunks). */
tk_status tk_ctf_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			     tk_error *err);

/* Seek: before the first tk_source_next(), skips whole packets that end
 * before begin_ns (ns from the clock origin, as tk_event.time_ns) without
 * decoding their events. Events of the first packet kept may still be
 * earlier: filter them by time. TK_ERR_USAGE when src is not a CTF source
 * or reading has started. */
tk_status tk_ctf_source_seek(tk_source *src, uint64_t begin_ns, tk_error *err);

#endif
