/* perf report's --sort keys for the perf-style tables (report_children.c):
 * the list ("comm,dso,sym", any order), each key's column header, width
 * and cell text, as perf 6.1's util/sort.c and hist.c print them. */
#ifndef TK_OUTPUT_REPORT_SORT_H
#define TK_OUTPUT_REPORT_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"

typedef enum tk_rsort_key {
	TK_RSORT_PID,     /* "Pid:Command": the thread (tid), its last comm */
	TK_RSORT_COMM,    /* "Command": the comm at sample time */
	TK_RSORT_DSO,     /* "Shared Object": the image's short name */
	TK_RSORT_SYM,     /* "Symbol": [.] or [k] and the symbol */
	TK_RSORT_SRCLINE, /* "Source:Line": file:line of the sample's address */
} tk_rsort_key;

#define TK_RSORT_MAX 8

typedef struct tk_rsort {
	uint8_t keys[TK_RSORT_MAX];
	size_t n;
	unsigned mask; /* 1u << key for each key in the list */
} tk_rsort;

/* "pid,comm,dso,sym,srcline" in any order, no repeats; NULL gives "sym".
 * false for anything else. */
bool tk_rsort_parse(const char *text, tk_rsort *out);

/* true when text is such a list (what routes `report --sort` to the
 * perf-style table rather than the dcpiprof-style one). */
bool tk_rsort_is_perf_list(const char *text);

/* What one row shows in the key columns. */
typedef struct tk_rsort_cells {
	int32_t tid;
	const char *thread_comm; /* the thread's last comm (perf's thread__comm_str) */
	const char *comm;        /* the comm the row's samples had */
	const char *dso;         /* short name, NULL: none */
	char level;              /* '.' or 'k' */
	const char *sym;         /* as printed (an address when unresolved) */
	size_t sym_len;
	bool inlined;
	bool unresolved; /* no symbol: the dso column is at least 16 wide */
	const char *srcline;
} tk_rsort_cells;

const char *tk_rsort_header(tk_rsort_key k);
/* The column width this row asks for (perf's hists__calc_col_len). */
size_t tk_rsort_width(tk_rsort_key k, const tk_rsort_cells *c);
/* The cell, padded to width unless it is the last column. */
void tk_rsort_put_cell(tk_writer *w, tk_rsort_key k, const tk_rsort_cells *c, size_t width,
		       bool last);

#endif
