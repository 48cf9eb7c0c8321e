/* Fuzz target: perf.data in file mode (or whatever the header says)
 * through tk_perf_open_memory, every record read in time order and parsed
 * (samples and typed views), arrays touched so overreads show. Then
 * tracekit stats' lean scan (src/perf/perf_stats_scan.c) against the full
 * path: counts, status, error and warnings must be the same, or it aborts. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../support/perf_stats_check.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const uint8_t *p, uint64_t n)
{
	uint64_t acc = 0;
	for (uint64_t i = 0; p && i < n; i++)
		acc += p[i];
	sink += acc;
}

static void drain(tk_perf_file *f)
{
	const tk_perf_record *r;
	tk_error err;
	while (tk_perf_next(f, &r, &err) == TK_OK) {
		touch(r->data, r->size);
		touch(r->extra, r->extra ? r->extra_size : 0);
		if (r->type == TK_PERF_RECORD_SAMPLE) {
			tk_perf_sample s;
			if (tk_perf_parse_sample(f, r, &s, &err) == TK_OK) {
				touch(s.callchain, s.callchain_nr * 8);
				touch(s.raw, s.raw_size);
				touch(s.branches, s.branch_nr * 24);
				touch(s.read_values, s.read_nr * s.read_stride * 8);
				touch(s.regs_user, s.regs_user_n * 8);
				touch(s.stack_user, s.stack_user_size);
				touch(s.aux, s.aux_size);
			}
		} else {
			tk_perf_event e;
			if (tk_perf_parse_event(f, r, &e, &err) == TK_OK &&
			    r->type == TK_PERF_RECORD_NAMESPACES)
				touch(e.u.namespaces.entries, e.u.namespaces.nr * 16);
		}
	}
}

static void stats_lean_vs_full(const uint8_t *data, size_t size)
{
	psc_run lean, full;
	psc_count(data, size, "fuzz", true, &lean);
	psc_count(data, size, "fuzz", false, &full);
	const char *diff = psc_diff(&lean, &full);
	if (diff) {
		fprintf(stderr, "stats lean scan and full path differ: %s\n", diff);
		abort();
	}
	psc_run_free(&lean);
	psc_run_free(&full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_perf_file *f;
	tk_error err;
	tk_perf_open_options opt = {.raw_order = size > 0 && (data[size - 1] & 1)};
	if (tk_perf_open_memory(data, size, "fuzz", &opt, &f, &err) != TK_OK)
		return 0;
	const tk_perf_features *ft = tk_perf_get_features(f);
	for (size_t i = 0; i < ft->n_raw; i++)
		touch(ft->raw[i].data, ft->raw[i].size);
	drain(f);
	tk_perf_close(f);
	stats_lean_vs_full(data, size);
	return 0;
}
