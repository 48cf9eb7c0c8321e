/* The counts behind `tracekit stats` (records per type, samples per event
 * and per CPU, lost records, the time span) and the lean scan that gathers
 * them straight from a mapped data section.
 *
 * Every count is order-free, so the scan walks the records in file order
 * and reads of a sample only what the counts need: the id (to find the
 * attr), the time and the cpu, at fixed offsets for the attr's sample_type.
 * A record the lean loop cannot count exactly as the reader would
 * (metadata, compressed data, an unknown type, a damaged or cut record,
 * the end of the data) is read by tk_perf_next instead, so warnings,
 * errors and the partial-file behaviour are the reader's own. */
#ifndef TK_PERF_PERF_STATS_SCAN_H
#define TK_PERF_PERF_STATS_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

#define TK_PERF_COUNTS_TYPES     65536 /* per_type counters, by record type */
#define TK_PERF_COUNTS_BIG_TYPES 16
#define TK_PERF_COUNTS_MAX_CPU   (1u << 20) /* larger cpu numbers are damage */

typedef struct tk_perf_counts {
	uint64_t total;
	uint64_t *per_type;                           /* TK_PERF_COUNTS_TYPES */
	uint32_t big_type[TK_PERF_COUNTS_BIG_TYPES];  /* types >= that seen, with */
	uint64_t big_count[TK_PERF_COUNTS_BIG_TYPES]; /* their counts */
	size_t n_big;
	uint64_t big_other; /* beyond TK_PERF_COUNTS_BIG_TYPES distinct ones */
	uint64_t *per_attr; /* samples per attr index */
	size_t n_attr_cap;
	uint64_t *lost_per_attr; /* LOST_SAMPLES' lost counts per attr index */
	size_t n_lost_attr_cap;
	uint64_t *per_cpu; /* samples per cpu */
	size_t n_cpu_cap;
	uint64_t samples_no_attr, samples_no_cpu;
	uint64_t lost_events, lost_samples;
	uint64_t first_time, last_time;
	bool has_time;
} tk_perf_counts;

tk_status tk_perf_counts_init(tk_perf_counts *c, tk_error *err);
void tk_perf_counts_free(tk_perf_counts *c);

/* Counts one record as tk_perf_next returned it (attr and sid classified). */
tk_status tk_perf_counts_add(tk_perf_counts *c, tk_perf_file *f, const tk_perf_record *r,
			     tk_error *err);

/* Counts every record of f from where its reader stands to the end: the
 * lean loop where it can be exact, tk_perf_next for the rest. f must be
 * open in file order (raw_order); otherwise every record goes through
 * tk_perf_next. TK_OK at the end, else the reader's error (the counts so
 * far are kept, as the full path keeps them). */
tk_status tk_perf_counts_scan(tk_perf_counts *c, tk_perf_file *f, tk_error *err);

#endif
