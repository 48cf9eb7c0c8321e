/* Sample histograms for profile reports: counts per symbol, per image or
 * per address, then sorted rows with %, cumulative % (dcpiprof, perf
 * report). Feeds: DCPI profiles (profile_report.c) or anything else that
 * has (image, address, count) triples.
 *
 * Strings handed to add() must outlive the aggregator, except `image`,
 * which is copied once per distinct image. Not thread-safe. */
#ifndef TK_ANALYSIS_PROFILE_AGG_H
#define TK_ANALYSIS_PROFILE_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tk_profile_key {
	TK_PROFILE_BY_SYMBOL,
	TK_PROFILE_BY_IMAGE,
	TK_PROFILE_BY_ADDRESS,
} tk_profile_key;

typedef struct tk_profile_row {
	const char *image;  /* interned */
	const char *symbol; /* NULL: no symbol known */
	uint64_t addr;      /* symbol start, or the address (BY_ADDRESS) */
	uint64_t count;
	bool unresolved; /* symbol is the address in hex (per-address unknowns) */
} tk_profile_row;

typedef struct tk_profile_agg tk_profile_agg;

tk_profile_agg *tk_profile_agg_new(tk_profile_key key);
void tk_profile_agg_free(tk_profile_agg *a);
/* By symbol: keep addresses without a symbol apart, one row per (image,
 * address) named "%#.16llx" as perf report names them, instead of one
 * "[unknown]" row per image. Call before the first add(). */
void tk_profile_agg_unknown_per_address(tk_profile_agg *a);
/* Adds count samples at addr of image, attributed to symbol (which starts
 * at sym_start) or to no symbol (symbol NULL; with per-address unknowns,
 * sym_start is then the address the row is keyed and named by). false: out
 * of memory. */
bool tk_profile_agg_add(tk_profile_agg *a, const char *image, const char *symbol,
			uint64_t sym_start, uint64_t addr, uint64_t count);
uint64_t tk_profile_agg_total(const tk_profile_agg *a);
/* Rows sorted by count (descending), then image, symbol, address, so the
 * order is deterministic. Valid until the next add() or free(). */
const tk_profile_row *tk_profile_agg_rows(tk_profile_agg *a, size_t *n);

/* "[unknown]" for a row without a symbol, as perf prints it. */
#define TK_PROFILE_UNKNOWN_SYMBOL "[unknown]"

#endif
