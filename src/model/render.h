/* What a renderer is asked for, whoever asks (the CLI, Python, a library
 * caller): print style, record selection, filters, clock display, warnings.
 * A plain value type; the CLI parses its options into one (tools/tracekit),
 * renderers and format entries only read it. */
#ifndef TK_MODEL_RENDER_H
#define TK_MODEL_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "model/filter.h"
#include "tracekit/tracekit.h"

typedef struct tk_render_options {
	const char *style; /* print style: "text", "json", "babeltrace", ... */
	bool all_records;  /* every record, not only samples/events */
	bool raw_order;    /* file order instead of time order */
	uint64_t limit;    /* at most this many events, 0 = none */
	bool has_begin, has_end;
	uint64_t begin_ns, end_ns;
	const char *events;      /* event globs, comma separated, or NULL */
	tk_id_set pid, tid, cpu; /* empty = any */
	bool quiet, verbose;
	bool clock_gmt;  /* babeltrace's --clock-gmt */
	bool wall_clock; /* perf's clock offset to the time of day (--tod) */
	/* side-band records of the perf-script style: TK_SHOW_* bits
	 * (output/perf_script_events.h) */
	unsigned script_show;
	tk_log_fn log; /* warnings; NULL = none */
	void *log_user;
} tk_render_options;

/* The event filter the options describe (time range, event globs, pid,
 * tid, cpu): one place builds it for every command and renderer. */
tk_filter tk_render_filter(const tk_render_options *opt);

#endif
