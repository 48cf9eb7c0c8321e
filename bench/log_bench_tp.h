/* LTTng-UST tracepoint with the payload of bench/log_bench.c's events:
 * a u32 and two u64. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER tk_bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./log_bench_tp.h"

#if !defined(TK_BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TK_BENCH_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(tk_bench, rx, TP_ARGS(uint32_t, q, uint64_t, pkts, uint64_t, bytes),
		 TP_FIELDS(ctf_integer(uint32_t, q, q) ctf_integer(uint64_t, pkts, pkts)
			       ctf_integer(uint64_t, bytes, bytes)))

#endif

#include <lttng/tracepoint-event.h>
