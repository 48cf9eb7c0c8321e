/* `tracekit report --children` for perf.data: perf report's --children
 * table (--sort sym) with optional call-graph trees, from the samples'
 * callchains (frame-pointer, LBR-less) and DWARF-unwound user stacks.
 *
 * Rows are perf's hist entries keyed as sort__sym_cmp() keys them: a
 * symbol by (image, start, end), an inline frame by (image, name, its
 * function), an address without a symbol by its map-relative address.
 * Self: the period of the samples whose IP is in the row; Children: the
 * period of the samples with the row anywhere in their chain (once per
 * sample, as perf's he_cache does). Percentages of the event's total
 * period, rows by Children, then Self, then name (perf orders ties by
 * symbol address; the oracle compares ties as sets).
 *
 * Call graphs (graph = caller or callee): under each row, the tree of the
 * chains through it, caller first (root down to the row) or callee first
 * (the row up to the root), branches with their share of the total
 * period, those below percent_limit (perf's 0.5 default) left out. */
#ifndef TK_OUTPUT_REPORT_CHILDREN_H
#define TK_OUTPUT_REPORT_CHILDREN_H

#include "base/writer.h"
#include "output/profile_report.h"

typedef enum tk_report_graph {
	TK_REPORT_GRAPH_NONE,
	TK_REPORT_GRAPH_CALLER,
	TK_REPORT_GRAPH_CALLEE,
} tk_report_graph;

typedef struct tk_report_children_options {
	const tk_profile_report_options *base; /* filters, --top, log */
	bool children; /* Children column (else self only, like --no-children) */
	tk_report_graph graph;
	double percent_limit; /* graph branches below this % are hidden */
	/* perf's --sort list ("comm,dso,sym", report_sort.h); NULL = "sym".
	 * Rows are keyed by every key, ties ordered key by key. */
	const char *sort_keys;
	/* one table per thread and event (what `perf report --tid T` shows
	 * for each thread), headed "# Thread: comm pid/tid" */
	bool per_thread;
} tk_report_children_options;

tk_status tk_perf_report_children(const char *path, const tk_report_children_options *opt,
				  tk_writer *out, tk_error *err);

/* The same rows without printing them (for diff): per event, each row's
 * key as its columns print it ("[.] main", "comm\tdso\t[.] main": cells
 * joined by tabs, unpadded), its Self and Children periods. */
typedef struct tk_report_row {
	char *key;
	uint64_t self, children;
	bool unresolved; /* sym is a key and the row has no symbol: */
	uint64_t addr;   /* the address its sym cell shows */
	bool no_sym;     /* its first sample had no symbol, whatever the --sort
			  * keys: the dso column is at least 16 wide */
} tk_report_row;

typedef struct tk_report_rows_table {
	char *event;
	uint64_t samples, total;
	tk_report_row *rows;
	size_t n;
} tk_report_rows_table;

typedef struct tk_report_rows {
	tk_report_rows_table *tables;
	size_t n;
} tk_report_rows;

tk_status tk_perf_report_rows(const char *path, const tk_report_children_options *opt,
			      tk_report_rows *out, tk_error *err);
void tk_report_rows_free(tk_report_rows *r);

#endif
