/* The output formats tk_convert knows (convert_outputs.c): the names that
 * imply each, the profiles only perf.data samples make, the ones that
 * cannot stream to standard output. One line per output format. */
#ifndef TK_CONVERT_CONVERT_OUTPUTS_H
#define TK_CONVERT_CONVERT_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracekit.h"

/* What the stdout rules look at. */
typedef struct tk_output_request {
	const char *const *inputs;
	size_t n_inputs;
	tk_format in; /* the first input's format */
	bool limit;   /* --limit given */
} tk_output_request;

typedef struct tk_output_entry {
	tk_format format;
	const char *suffix; /* the end of OUT's name that implies it, or NULL */
	bool whole_suffix;  /* matched as a suffix (double extensions), else as
			     * the name's last extension */
	bool needs_perf;    /* made from perf.data samples and mappings only */
	bool no_limit;      /* --limit refused: a profile of the first N
			     * records would mislead */
	/* why OUT "-" cannot be written, or NULL when it can (NULL: always) */
	const char *(*stdout_refusal)(const tk_output_request *r);
	/* the model sink of an output-only format (NULL: the format entry's
	 * writer, or none) */
	tk_status (*sink_open)(const char *path, const tk_trace_info *info,
			       const tk_sink_options *opt, tk_sink **out, tk_error *err);
} tk_output_entry;

/* The entry of fmt, or NULL (formats written only through the model). */
const tk_output_entry *tk_output_entry_for(tk_format fmt);

/* The output format: `to` (a --to name) when given, else from the output's
 * name (an existing directory or no extension: CTF; .data, .cpel, .json,
 * .jsonl, .folded, .prof, .pb.gz, .speedscope.json, .svg).
 * TK_FORMAT_UNKNOWN when neither tells. */
tk_format tk_convert_output_format(const char *to, const char *output);

#endif
