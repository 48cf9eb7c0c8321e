/* libtracekit: read, write, convert and report perf.data, CTF, CPEL and
 * DCPI files. This umbrella header is the only one to include. */
#ifndef TRACEKIT_TRACEKIT_H
#define TRACEKIT_TRACEKIT_H

#ifdef __cplusplus
extern "C" {
#endif

#include "status.h"
#include "model.h"
#include "source.h"
#include "sink.h"
#include "perf.h"
#include "perf_writer.h"
#include "ctf.h"
#include "ctf_writer.h"
#include "cpel.h"
#include "dcpi.h"
#include "symbols.h"
#include "sql.h"
#include "context.h"
#include "session.h"
#include "context.h"
#include "view.h"

#define TRACEKIT_VERSION "0.1.0"

#ifdef __cplusplus
}
#endif

#endif
