/* dcpiprof-style reports over DCPI profiles and databases. Each profile's
 * addresses (tstart + offset + i, ELF virtual addresses of its image) are
 * attributed to symbols of the image named by its `path` line, found via
 * the image cache (the image id is used as a build id when it looks like
 * one, so a rebuilt binary is not silently used). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_agg.h"
#include "model/filter.h"
#include "output/report_columns.h"
#include "output/profile_report.h"

typedef struct event_table {
	char *event;
	uint64_t period;
	uint64_t profiles;
	tk_profile_agg *agg;
} event_table;

typedef struct report {
	tk_profile_key key;
	event_table *tables;
	size_t n, cap;
	tk_symcache *cache;
} report;

static bool parse_sort(const char *sort, tk_profile_key *key)
{
	static const struct {
		const char *name;
		tk_profile_key key;
	} names[] = {
	    {"symbol", TK_PROFILE_BY_SYMBOL},    {"sym", TK_PROFILE_BY_SYMBOL},
	    {"procedure", TK_PROFILE_BY_SYMBOL}, {"image", TK_PROFILE_BY_IMAGE},
	    {"dso", TK_PROFILE_BY_IMAGE},        {"address", TK_PROFILE_BY_ADDRESS},
	    {"addr", TK_PROFILE_BY_ADDRESS},
	};
	if (!sort) {
		*key = TK_PROFILE_BY_SYMBOL;
		return true;
	}
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(sort, names[i].name) == 0) {
			*key = names[i].key;
			return true;
		}
	return false;
}

static event_table *table_for(report *r, const tk_dcpi_header *h)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->tables[i].event, h->event) == 0)
			return &r->tables[i];
	if (r->n == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 4;
		event_table *nt = realloc(r->tables, ncap * sizeof *nt);
		if (!nt)
			return NULL;
		r->tables = nt;
		r->cap = ncap;
	}
	event_table *t = &r->tables[r->n];
	*t = (event_table){
	    .event = strdup(h->event), .period = h->period, .agg = tk_profile_agg_new(r->key)};
	if (!t->event || !t->agg) {
		free(t->event);
		tk_profile_agg_free(t->agg);
		return NULL;
	}
	r->n++;
	return t;
}

typedef struct add_ctx {
	event_table *t;
	const char *image;
	const tk_symtab *syms;
} add_ctx;

static tk_status add_count(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	add_ctx *c = user;
	const tk_symbol *s = c->syms ? tk_symtab_lookup(c->syms, addr, NULL) : NULL;
	if (!tk_profile_agg_add(c->t->agg, c->image, s ? s->name : NULL, s ? s->start : 0, addr,
				count))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

static tk_status add_profile(report *r, const tk_dcpi_profile *p, tk_error *err)
{
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	event_table *t = table_for(r, h);
	if (!t)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	t->profiles++;
	const char *image = h->path ? h->path : h->image;
	const tk_symtab *syms = NULL;
	if (r->key != TK_PROFILE_BY_IMAGE && h->path) {
		uint8_t id[TK_BUILD_ID_MAX];
		size_t id_len = tk_build_id_parse(h->image, id);
		syms = tk_symcache_image(r->cache, h->path, id, id_len);
	}
	add_ctx c = {t, image, syms};
	return tk_dcpi_each_count(p, add_count, &c, err);
}

/* The summary block dcpiprof starts with: every event, its total, period. */
static void put_summary(const report *r, tk_writer *out)
{
	tk_put_str(out, "Column                  Total  Period (for events)\n"
			"------                  -----  ------\n");
	for (size_t i = 0; i < r->n; i++) {
		const event_table *t = &r->tables[i];
		tk_report_put_padded(out, t->event, 16);
		tk_put_char(out, ' ');
		tk_put_u64_pad(out, tk_profile_agg_total(t->agg), 12, ' ');
		tk_put_str(out, "  ");
		tk_put_u64(out, t->period);
		tk_put_char(out, '\n');
	}
	tk_put_str(out, "\nThe numbers given below are the number of samples for each listed\n"
			"event type, with their share of the event's total (%) and the\n"
			"running share (cum%).\n"
			"===========================================================\n");
}

static int cmp_table(const void *a, const void *b)
{
	return strcmp(((const event_table *)a)->event, ((const event_table *)b)->event);
}

tk_status tk_profile_report_dcpi(const char *path, const tk_profile_report_options *opt,
				 tk_writer *out, tk_error *err)
{
	report r = {0};
	if (!parse_sort(opt ? opt->sort : NULL, &r.key))
		return tk_error_set(
		    err, TK_ERR_USAGE, TK_NO_OFFSET,
		    "unknown sort key '%s' for DCPI reports (symbol, image, address)", opt->sort);
	r.cache = opt && opt->symbols ? opt->symbols : NULL;
	tk_symcache *own = NULL;
	if (!r.cache) {
		tk_symcache_options so = {.log = opt ? opt->log : NULL,
					  .log_user = opt ? opt->log_user : NULL};
		r.cache = own = tk_symcache_new(&so);
		if (!own)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	char **paths = NULL;
	size_t n = 0;
	tk_status st = tk_dcpi_db_list(path, &paths, &n, err);
	for (size_t i = 0; i < n && st == TK_OK; i++) {
		tk_dcpi_profile *p;
		if ((st = tk_dcpi_open(paths[i], &p, err)) != TK_OK)
			break;
		const char *event = tk_dcpi_profile_header(p)->event;
		if (!opt || !opt->events || tk_filter_name_matches(opt->events, event))
			st = add_profile(&r, p, err);
		tk_dcpi_close(p);
	}
	if (st == TK_OK && r.n == 0)
		st = tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET,
				  "no profile matches --event %s",
				  opt && opt->events ? opt->events : "");
	if (st == TK_OK) {
		qsort(r.tables, r.n, sizeof *r.tables, cmp_table);
		put_summary(&r, out);
		for (size_t i = 0; i < r.n; i++) {
			if (i)
				tk_put_char(out, '\n');
			tk_report_put_profile_table(out, r.key, r.tables[i].event, r.tables[i].agg,
						    opt ? opt->top : 0, 9, 48);
		}
	}
	for (size_t i = 0; i < r.n; i++) {
		free(r.tables[i].event);
		tk_profile_agg_free(r.tables[i].agg);
	}
	free(r.tables);
	tk_dcpi_db_free_list(paths, n);
	tk_symcache_free(own);
	return st;
}
