/* Instantiates the tracepoint probe of log_bench_tp.h. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "log_bench_tp.h"
