/* Test-only: tracekit stats' counts of one perf.data input taken twice,
 * by the lean scan (tk_perf_counts_scan) and by the full path (every
 * record tk_perf_next hands out, counted), each with its status, error and
 * warnings, and what differs between the two. Header-only so the unit test
 * and the fuzz target share it without a build change. */
#ifndef TK_TEST_PERF_STATS_CHECK_H
#define TK_TEST_PERF_STATS_CHECK_H

#include <stdio.h>
#include <string.h>

#include "perf/perf_stats_scan.h"
#include "tracekit/tracekit.h"

typedef struct psc_run {
	tk_status open_st, st;
	tk_error err;
	tk_perf_counts c;
	char log[2048]; /* warnings, one per line, cut when full */
	size_t log_n;
} psc_run;

static inline void psc_log(void *user, int level, const char *msg)
{
	(void)level;
	psc_run *r = user;
	int n = snprintf(r->log + r->log_n, sizeof r->log - r->log_n, "%s\n", msg);
	if (n > 0)
		r->log_n +=
		    (size_t)n < sizeof r->log - r->log_n ? (size_t)n : sizeof r->log - r->log_n - 1;
}

/* data NULL: opens the file name (mapped, or a directory); else the image
 * in memory. Leaves r->c to psc_run_free. */
static inline void psc_count(const uint8_t *data, size_t size, const char *name, bool lean,
			     psc_run *r)
{
	memset(r, 0, sizeof *r);
	tk_perf_open_options opt = {.raw_order = true, .log = psc_log, .log_user = r};
	tk_perf_file *f;
	r->open_st = data ? tk_perf_open_memory(data, size, name, &opt, &f, &r->err)
			  : tk_perf_open(name, &opt, &f, &r->err);
	if (r->open_st != TK_OK)
		return;
	r->st = tk_perf_counts_init(&r->c, &r->err);
	if (r->st == TK_OK && lean) {
		r->st = tk_perf_counts_scan(&r->c, f, &r->err);
	} else if (r->st == TK_OK) {
		const tk_perf_record *rec;
		while ((r->st = tk_perf_next(f, &rec, &r->err)) == TK_OK &&
		       (r->st = tk_perf_counts_add(&r->c, f, rec, &r->err)) == TK_OK)
			;
		if (r->st == TK_END)
			r->st = TK_OK;
	}
	tk_perf_close(f);
}

static inline void psc_run_free(psc_run *r)
{
	tk_perf_counts_free(&r->c);
}

static inline bool psc_same_array(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	for (size_t i = 0; i < na || i < nb; i++)
		if ((i < na ? a[i] : 0) != (i < nb ? b[i] : 0))
			return false;
	return true;
}

/* NULL when the two runs agree in everything stats shows or returns; else
 * the first thing that differs. */
static inline const char *psc_diff(const psc_run *a, const psc_run *b)
{
	if (a->open_st != b->open_st)
		return "open status";
	if (a->open_st != TK_OK)
		return NULL;
	if (a->st != b->st)
		return "status";
	if (a->st != TK_OK &&
	    (a->err.offset != b->err.offset || strcmp(a->err.message, b->err.message) != 0))
		return "error offset or message";
	if (strcmp(a->log, b->log) != 0)
		return "warnings";
	const tk_perf_counts *x = &a->c, *y = &b->c;
	if (x->total != y->total || x->n_big != y->n_big || x->big_other != y->big_other ||
	    x->samples_no_attr != y->samples_no_attr || x->samples_no_cpu != y->samples_no_cpu ||
	    x->lost_events != y->lost_events || x->lost_samples != y->lost_samples)
		return "totals";
	if (x->has_time != y->has_time ||
	    (x->has_time && (x->first_time != y->first_time || x->last_time != y->last_time)))
		return "time span";
	if (!psc_same_array(x->per_type, TK_PERF_COUNTS_TYPES, y->per_type, TK_PERF_COUNTS_TYPES))
		return "records per type";
	for (size_t i = 0; i < x->n_big; i++)
		if (x->big_type[i] != y->big_type[i] || x->big_count[i] != y->big_count[i])
			return "large record types";
	if (!psc_same_array(x->per_attr, x->n_attr_cap, y->per_attr, y->n_attr_cap))
		return "samples per event";
	if (!psc_same_array(x->lost_per_attr, x->n_lost_attr_cap, y->lost_per_attr,
			    y->n_lost_attr_cap))
		return "lost samples per event";
	if (!psc_same_array(x->per_cpu, x->n_cpu_cap, y->per_cpu, y->n_cpu_cap))
		return "samples per cpu";
	return NULL;
}

#endif
