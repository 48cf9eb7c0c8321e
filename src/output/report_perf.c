/* Profile reports over perf.data (see report_perf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/threads_model.h"
#include "model/filter.h"
#include "output/report_columns.h"
#include "output/report_perf.h"

static tk_profile_agg *agg_for(tk_perf_profile *p, tk_profile_key key, const char *event,
			       bool unknown_per_address)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->events[i], event) == 0)
			return p->aggs[i];
	size_t n = p->n + 1;
	char **ev = realloc(p->events, n * sizeof *ev);
	if (!ev)
		return NULL;
	p->events = ev;
	tk_profile_agg **ag = realloc(p->aggs, n * sizeof *ag);
	if (!ag)
		return NULL;
	p->aggs = ag;
	uint64_t *sm = realloc(p->samples, n * sizeof *sm);
	if (!sm)
		return NULL;
	p->samples = sm;
	char *name = strdup(event);
	tk_profile_agg *a = tk_profile_agg_new(key);
	if (a && unknown_per_address)
		tk_profile_agg_unknown_per_address(a);
	if (!name || !a) {
		free(name);
		tk_profile_agg_free(a);
		return NULL;
	}
	p->events[p->n] = name;
	p->aggs[p->n] = a;
	p->samples[p->n] = 0;
	p->n++;
	return a;
}

void tk_perf_profile_free(tk_perf_profile *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->events[i]);
		tk_profile_agg_free(p->aggs[i]);
	}
	free(p->events);
	free(p->aggs);
	free(p->samples);
	if (p->priv) {
		tk_threads_free(p->priv);
		free(p->priv);
	}
	tk_context_free(p->context);
	memset(p, 0, sizeof *p);
}

tk_status tk_perf_profile_load(const char *path, tk_profile_key key, const char *events,
			       bool by_period, bool unknown_per_address, tk_perf_profile *out,
			       tk_error *err)
{
	tk_filter f = {.events = events};
	return tk_perf_profile_load_filtered(path, key, &f, by_period, unknown_per_address, out,
					     err);
}

typedef struct load_ctx {
	tk_perf_profile *out;
	tk_profile_key key;
	bool by_period, unknown_per_address;
} load_ctx;

static tk_status load_sample(void *user, tk_threads *th, const tk_perf_record *rec,
			     const char *event, const tk_perf_sample *s, tk_error *err)
{
	load_ctx *c = user;
	tk_perf_profile *out = c->out;
	tk_profile_agg *a = agg_for(out, c->key, event, c->unknown_per_address);
	if (!a)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	for (size_t i = 0; i < out->n; i++)
		if (out->aggs[i] == a)
			out->samples[i]++;
	tk_thread *t = tk_perf_sample_thread(th, s);
	tk_addr_loc loc = {0};
	if (s->sample_type & TK_PERF_SAMPLE_IP)
		tk_threads_resolve(th, t, rec->misc & 7u, s->ip, &loc);
	const char *image = loc.map ? loc.map->dso->name : "[unknown]";
	const char *sym = loc.name;
	uint64_t weight = c->by_period ? tk_perf_sample_weight(rec->attr, s) : 1;
	/* one row per symbol, whatever the process; without a symbol, one
	 * per address as perf report keys it: al->addr, which is relative
	 * to the map for a kernel module (perf maps those with pgoff 0)
	 * though its symbols are looked up by kernel address */
	uint64_t sym_start = loc.sym ? loc.sym->start
			     : loc.map && loc.map->dso->kind == TK_DSO_MODULE
				 ? s->ip - loc.map->start
				 : loc.addr;
	if (!tk_profile_agg_add(a, image, sym, sym_start, s->ip, weight))
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	return TK_OK;
}

tk_status tk_perf_profile_load_filtered(const char *path, tk_profile_key key,
					const tk_filter *filter, bool by_period,
					bool unknown_per_address, tk_perf_profile *out,
					tk_error *err)
{
	memset(out, 0, sizeof *out);
	/* the shared model context: symbol names stay valid in it */
	tk_status st = tk_perf_samples_context(&out->context, err);
	if (st != TK_OK)
		return st;
	load_ctx c = {out, key, by_period, unknown_per_address};
	tk_perf_samples_options so = {.filter = filter, .context = out->context};
	st = tk_perf_samples_run(path, &so, load_sample, &c, err);
	if (st != TK_OK)
		tk_perf_profile_free(out);
	return st;
}

typedef struct dcpi_load {
	tk_perf_profile *out;
	tk_profile_agg *a;
	size_t ai;
	const char *image;
	const tk_symtab *syms;
	tk_threads *th;
} dcpi_load;

static tk_status dcpi_count(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	dcpi_load *l = user;
	uint64_t off = 0;
	const tk_symbol *sym = l->syms ? tk_symtab_lookup(l->syms, addr, &off) : NULL;
	const char *name = sym ? tk_demangle(&l->th->demangler, sym->name) : NULL;
	l->out->samples[l->ai] += count;
	if (!tk_profile_agg_add(l->a, l->image, name, sym ? sym->start : addr, addr, count))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

tk_status tk_dcpi_profile_load(const char *path, tk_profile_key key, const char *events,
			       tk_perf_profile *out, tk_error *err)
{
	memset(out, 0, sizeof *out);
	tk_threads *th = calloc(1, sizeof *th);
	if (!th || !tk_threads_init(th, NULL)) {
		if (th)
			tk_threads_free(th);
		free(th);
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	}
	out->priv = th;
	char **paths = NULL;
	size_t n = 0;
	tk_status st = tk_dcpi_db_list(path, &paths, &n, err);
	for (size_t k = 0; k < n && st == TK_OK; k++) {
		tk_dcpi_profile *p;
		if ((st = tk_dcpi_open(paths[k], &p, err)) != TK_OK)
			break;
		const tk_dcpi_header *h = tk_dcpi_profile_header(p);
		if (events && !tk_filter_name_matches(events, h->event)) {
			tk_dcpi_close(p);
			continue;
		}
		tk_profile_agg *a = agg_for(out, key, h->event, false);
		if (!a) {
			tk_dcpi_close(p);
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		size_t ai = 0;
		while (out->aggs[ai] != a)
			ai++;
		const char *image = h->path ? h->path : h->image;
		const tk_symtab *syms = NULL;
		if (h->path && h->path[0] == '[' && strcmp(h->path, "[unknown]") != 0 &&
		    strcmp(h->path, "[vdso]") != 0)
			syms = tk_symcache_kernel(
			    th->symbols); /* kernel and modules: kallsyms addresses */
		else if (h->path) {
			uint8_t id[TK_BUILD_ID_MAX];
			size_t id_len = tk_build_id_parse(h->image, id);
			char vdso[4096];
			const char *file = h->path;
			if (strcmp(h->path, "[vdso]") == 0 && id_len) {
				/* perf's cache keeps the recorded vdso image by build id */
				const char *home = getenv("HOME");
				snprintf(vdso, sizeof vdso, "%s/.debug/[vdso]/%s/vdso",
					 home ? home : "", h->image);
				file = vdso;
			}
			syms = tk_symcache_image(th->symbols, file, id_len ? id : NULL, id_len);
		}
		dcpi_load l = {out, a, ai, image, syms, th};
		st = tk_dcpi_each_count(p, dcpi_count, &l, err);
		tk_dcpi_close(p);
	}
	tk_dcpi_db_free_list(paths, n);
	if (st != TK_OK)
		tk_perf_profile_free(out);
	return st;
}

bool tk_perf_parse_sort(const char *sort, tk_profile_key *key)
{
	if (!sort || strcmp(sort, "symbol") == 0 || strcmp(sort, "sym") == 0 ||
	    strcmp(sort, "procedure") == 0)
		*key = TK_PROFILE_BY_SYMBOL;
	else if (strcmp(sort, "image") == 0 || strcmp(sort, "dso") == 0)
		*key = TK_PROFILE_BY_IMAGE;
	else if (strcmp(sort, "address") == 0 || strcmp(sort, "addr") == 0)
		*key = TK_PROFILE_BY_ADDRESS;
	else
		return false;
	return true;
}

tk_status tk_perf_profile_report(const char *path, const tk_profile_report_options *opt,
				 tk_writer *out, tk_error *err)
{
	tk_profile_key key;
	if (!tk_perf_parse_sort(opt ? opt->sort : NULL, &key))
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown sort key '%s' (symbol, image, address)", opt->sort);
	tk_perf_profile p;
	tk_filter none = {.events = opt ? opt->events : NULL};
	tk_status st = tk_perf_profile_load_filtered(
	    path, key, opt && opt->filter ? opt->filter : &none, true, true, &p, err);
	if (st != TK_OK)
		return st;
	if (p.n == 0) {
		tk_perf_profile_free(&p);
		return tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "no samples%s%s",
				    opt && opt->events ? " match --event " : "",
				    opt && opt->events ? opt->events : "");
	}
	tk_put_str(out, "Column                  Samples  Total period (for events)\n"
			"------                  -------  ------------\n");
	for (size_t i = 0; i < p.n; i++) {
		tk_report_put_padded(out, p.events[i], 22);
		tk_put_char(out, ' ');
		tk_put_u64_pad(out, p.samples[i], 8, ' ');
		tk_put_str(out, "  ");
		tk_put_u64(out, tk_profile_agg_total(p.aggs[i]));
		tk_put_char(out, '\n');
	}
	tk_put_str(out, "\nThe numbers given below are the sample periods for each listed event\n"
			"(the number of samples when the event has no period), with their share\n"
			"of the event's total (%) and the running share (cum%).\n"
			"===========================================================\n");
	for (size_t i = 0; i < p.n; i++) {
		if (i)
			tk_put_char(out, '\n');
		tk_report_put_profile_table(out, key, p.events[i], p.aggs[i], opt ? opt->top : 0,
					    12, 60);
	}
	tk_perf_profile_free(&p);
	return TK_OK;
}
