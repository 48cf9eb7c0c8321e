/* DCPI profiles as a tk_source: one event per address with samples, in
 * profile order (sorted paths for a database) then address order. Each
 * profile is an event class named after its event; payload
 * { image: string, address: u64 (hex, IP), count: u64 }. DCPI has no time:
 * events carry none. Profiles are opened one at a time, so memory stays
 * flat over large databases. */
#ifndef TK_DCPI_SOURCE_H
#define TK_DCPI_SOURCE_H

#include "tracekit/tracekit.h"

tk_status tk_dcpi_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err);

#endif
