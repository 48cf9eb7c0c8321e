/* The format registry: what each input format offers the CLI and the
 * pipeline. Each format module (through its output renderers) fills one
 * tk_format_ops; detection walks the table in order.
 *
 * Every function pointer may be NULL when the format lacks the capability;
 * callers then report "not supported for FORMAT". */
#ifndef TK_CONVERT_FORMATS_H
#define TK_CONVERT_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/writer.h"
#include "model/filter.h"
#include "tracekit/tracekit.h"

/* What the CLI asks of a format, beyond the model: print styles, filters. */
typedef struct tk_cli_options {
	const char *style; /* print style: "text", "json", "babeltrace", ... */
	bool all_records;  /* --all */
	bool raw_order;    /* --raw-order */
	uint64_t limit;    /* --limit, 0 = none */
	bool has_begin, has_end;
	uint64_t begin_ns, end_ns;
	const char *events;      /* --event globs, comma separated, or NULL */
	tk_id_set pid, tid, cpu; /* --pid/--tid/--cpu lists; empty = any */
	bool quiet, verbose;
	bool clock_gmt;  /* babeltrace --clock-gmt */
	bool wall_clock; /* --tod: perf's clock offset to the time of day */
	/* --show-*-events of print --format perf-script: TK_SHOW_* bits
	 * (output/perf_script_events.h) */
	unsigned script_show;
	tk_log_fn log; /* warnings to the CLI */
	void *log_user;
} tk_cli_options;

/* The event filter the options describe (time range, event globs, pid,
 * tid, cpu): one place builds it for every command and renderer. */
tk_filter tk_cli_filter(const tk_cli_options *opt);

typedef struct tk_format_ops {
	tk_format format;
	const char *name;
	/* Content detection. head: the first bytes of a file (n may be small). */
	bool (*detect_file)(const uint8_t *head, size_t n);
	/* A directory (or a file inside one) holding this format. */
	bool (*detect_dir)(const char *path);
	tk_status (*source_open)(const char *path, const tk_open_options *opt, tk_source **out,
				 tk_error *err);
	tk_status (*info)(const char *path, const tk_cli_options *opt, tk_writer *out,
			  tk_error *err);
	tk_status (*stats)(const char *path, const tk_cli_options *opt, tk_writer *out,
			   tk_error *err);
	/* Native print styles; TK_ERR_UNSUPPORTED when opt->style is not one of
	 * this format's, so the caller falls back to the generic model printer. */
	tk_status (*print)(const char *path, const tk_cli_options *opt, tk_writer *out,
			   tk_error *err);
	/* Lossless native copy (perf -> perf, CPEL -> CPEL, DCPI -> DCPI). */
	tk_status (*copy)(const char *in, const char *out, const tk_sink_options *opt,
			  tk_error *err);
	tk_status (*sink_open)(const char *path, const tk_trace_info *info,
			       const tk_sink_options *opt, tk_sink **out, tk_error *err);
} tk_format_ops;

/* Registry lookups; NULL when unknown. */
const tk_format_ops *tk_format_ops_for(tk_format fmt);
/* Detects from content; TK_FORMAT_UNKNOWN with err set when nothing matches. */
tk_format tk_detect_path(const char *path, tk_error *err);

/* Provided by each format (src/output/<fmt>_cli.c). */
extern const tk_format_ops tk_perf_format_ops;
extern const tk_format_ops tk_ctf_format_ops;
extern const tk_format_ops tk_cpel_format_ops;
extern const tk_format_ops tk_elog_format_ops;
extern const tk_format_ops tk_dcpi_format_ops;
extern const tk_format_ops tk_tklog_format_ops;

#endif
