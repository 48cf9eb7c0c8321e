/* The perf.data pass behind sample, stack_frame, callsite and mapping
 * (thread and process come from the model context, sql_model_pass.c): one
 * read of the records in perf's order through a tk_session, with the
 * threads, maps and symbols of src/context/threads_model.c (the model
 * `perf report` and `perf script` agree with), so a sample's image and
 * symbol are the ones `tracekit report` and `perf script` show.
 *
 * Frames are interned per (image, map-relative address); callsites per
 * (parent, frame), rooted at the outermost frame, as Perfetto's
 * stack_profile_callsite: a sample's callsite_id is its innermost frame's
 * callsite. */
#ifdef TK_HAVE_SQLITE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_unwind.h"
#include "context/perf_callchain.h"
#include "context/threads_model.h"
#include "sql/sql_internal.h"

typedef struct perf_pass {
	tk_sql_derived *d;
	tk_threads th;
	tk_hashmap event_of_attr; /* attr index -> event index + 1 */
	tk_callchain *cc;
} perf_pass;

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
	h ^= b + 0x94d049bb133111ebull + (h << 6) + (h >> 2);
	return h * 0x94d049bb133111ebull;
}

/* Frame id for (image, address), interned. -1 when out of memory. The
 * image is keyed by its tk_dso (NULL: no map), so its name is interned
 * only for a new frame. */
static int64_t frame_id(perf_pass *p, const tk_addr_loc *loc, uint64_t ip)
{
	tk_sql_derived *d = p->d;
	const void *image = loc->map ? (const void *)loc->map->dso : NULL;
	uint64_t addr = loc->map ? loc->addr : ip;
	uint64_t key = mix((uintptr_t)image, addr);
	for (;; key++) {
		uint64_t *v = tk_hashmap_get(&d->frame_by_key, key);
		if (!v)
			break;
		const tk_sql_frame *f = TK_SQL_AT(d->frames, tk_sql_frame, *v);
		if (f->image == image && f->address == addr)
			return (int64_t)*v;
	}
	tk_sql_frame *f = tk_sql_vec_push(&d->frames, sizeof *f);
	if (!f)
		return -1;
	const char *dso_name = tk_addr_loc_dso_name(loc);
	f->image = image;
	f->dso = tk_sql_intern(&d->strings, dso_name, strlen(dso_name));
	f->address = addr;
	f->sym_offset = loc->sym ? loc->sym_off : 0;
	if (!f->dso)
		return -1;
	if (loc->name) {
		f->name = tk_sql_intern(&d->strings, loc->name, loc->name_len);
		if (!f->name)
			return -1;
	}
	return tk_hashmap_put(&d->frame_by_key, key, d->frames.n - 1) ? (int64_t)d->frames.n - 1
								      : -1;
}

static int64_t callsite_id(tk_sql_derived *d, int64_t parent, uint32_t depth, int64_t frame)
{
	uint64_t key0 = mix((uint64_t)parent, (uint64_t)frame);
	uint64_t key = key0;
	for (;; key++) {
		uint64_t *v = tk_hashmap_get(&d->callsite_by_key, key);
		if (!v)
			break;
		const tk_sql_callsite *c = TK_SQL_AT(d->callsites, tk_sql_callsite, *v);
		if (c->parent == parent && c->frame == (uint32_t)frame)
			return (int64_t)*v;
	}
	tk_sql_callsite *c = tk_sql_vec_push(&d->callsites, sizeof *c);
	if (!c)
		return -1;
	c->parent = parent;
	c->depth = depth;
	c->frame = (uint32_t)frame;
	return tk_hashmap_put(&d->callsite_by_key, key, d->callsites.n - 1)
		   ? (int64_t)d->callsites.n - 1
		   : -1;
}

static tk_status on_sample(perf_pass *p, tk_perf_file *f, const tk_perf_record *rec, tk_error *err)
{
	tk_sql_derived *d = p->d;
	tk_perf_sample s;
	tk_status st = tk_perf_parse_sample(f, rec, &s, err);
	if (st != TK_OK)
		return st;
	uint64_t *ev = tk_hashmap_get(&p->event_of_attr, rec->attr->index);
	uint32_t event;
	if (ev) {
		event = (uint32_t)(*ev - 1);
	} else {
		const char *name = rec->attr->name ? rec->attr->name : "";
		const char **slot = tk_sql_vec_push(&d->event_names, sizeof *slot);
		if (!slot || !(*slot = tk_sql_intern(&d->strings, name, strlen(name))) ||
		    !tk_hashmap_put(&p->event_of_attr, rec->attr->index, d->event_names.n))
			goto nomem;
		event = (uint32_t)d->event_names.n - 1;
	}
	bool has_tid = (s.sample_type & TK_PERF_SAMPLE_TID) != 0;
	bool has_ts = (s.sample_type & TK_PERF_SAMPLE_TIME) != 0;
	tk_thread *t = tk_threads_findnew(&p->th, has_tid ? (int32_t)s.pid : -1,
					  has_tid ? (int32_t)s.tid : -1);
	if (!t)
		goto nomem;
	tk_callchain *cc = p->cc;
	cc->n = 0;
	if (s.callchain_nr)
		tk_callchain_resolve(&p->th, t, &s, cc);
	tk_callchain_append_unwound(&p->th, t, rec->attr, &s, cc);
	if (cc->n == 0 && (s.sample_type & TK_PERF_SAMPLE_IP)) {
		cc->frames[0].ip = s.ip;
		cc->frames[0].inlined = false;
		tk_threads_resolve(&p->th, t, rec->misc & 7u, s.ip, &cc->frames[0].loc);
		cc->n = 1;
	}
	int64_t parent = -1;
	uint32_t depth = 0;
	for (size_t i = cc->n; i-- > 0;) {
		/* frames are addresses here: an unwound address's inline frames
		 * (same address) stay in its one frame */
		if (cc->frames[i].inlined)
			continue;
		int64_t fr = frame_id(p, &cc->frames[i].loc, cc->frames[i].ip);
		if (fr < 0)
			goto nomem;
		parent = callsite_id(d, parent, depth++, fr);
		if (parent < 0)
			goto nomem;
	}
	tk_sql_sample *row = tk_sql_vec_push(&d->samples, sizeof *row);
	if (!row)
		goto nomem;
	row->ts = s.time;
	row->has_ts = has_ts;
	row->period = s.sample_type & TK_PERF_SAMPLE_PERIOD ? s.period : 0;
	row->ip = s.ip;
	row->callsite = parent;
	row->cpu = s.sample_type & TK_PERF_SAMPLE_CPU ? (int32_t)s.cpu : -1;
	row->pid = has_tid ? (int32_t)s.pid : -1;
	row->tid = has_tid ? (int32_t)s.tid : -1;
	row->event = event;
	return TK_OK;
nomem:
	return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
}

/* Threads, processes and maps once every record is in. */
static tk_status finish(perf_pass *p, const tk_perf_file *f, tk_error *err)
{
	tk_sql_derived *d = p->d;
	tk_threads *th = &p->th;
	(void)f;
	/* a mapping belongs to the pid whose threads share its maps */
	tk_hashmap pid_of_maps;
	tk_hashmap_init(&pid_of_maps);
	for (size_t i = 0; i < th->n_threads; i++) {
		const tk_thread *t = th->threads[i];
		if (t->tid >= 0 && t->maps && t->pid >= 0)
			tk_hashmap_put(&pid_of_maps, (uintptr_t)t->maps,
				       (uint64_t)(uint32_t)t->pid);
	}
	for (size_t m = 0; m <= th->n_all_maps; m++) {
		const tk_maps *maps = m == 0 ? &th->kernel : th->all_maps[m - 1];
		uint64_t *pid = m == 0 ? NULL : tk_hashmap_get(&pid_of_maps, (uintptr_t)maps);
		for (size_t k = 0; k < maps->n; k++) {
			const tk_map *mp = &maps->v[k];
			tk_sql_mapping *r = tk_sql_vec_push(&d->mappings, sizeof *r);
			if (!r)
				goto nomem_maps;
			r->start = mp->start;
			r->end = mp->end;
			r->pgoff = mp->pgoff;
			r->pid = pid ? (int32_t)*pid : -1;
			r->dso = tk_sql_intern(&d->strings, mp->dso->name, mp->dso->name_len);
			if (mp->dso->build_id_len) {
				char hex[2 * TK_BUILD_ID_MAX + 1];
				tk_build_id_hex(mp->dso->build_id, mp->dso->build_id_len, hex);
				r->build_id = tk_sql_intern(&d->strings, hex, strlen(hex));
			}
			if (!r->dso)
				goto nomem_maps;
		}
	}
	tk_hashmap_free(&pid_of_maps);
	return TK_OK;
nomem_maps:
	tk_hashmap_free(&pid_of_maps);
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
}

static tk_status pass_sample(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	if (!rec->attr)
		return TK_OK;
	return on_sample(user, tk_session_perf(ses), rec, err);
}

static tk_status pass_other(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	perf_pass *p = user;
	return tk_threads_process(&p->th, tk_session_perf(ses), rec, err);
}

tk_status tk_sql_perf_pass(tk_sql_ctx *ctx, tk_sql_input *in, tk_error *err)
{
	tk_open_options oo = {
	    .format = TK_FORMAT_PERF, .log = ctx->opt.log, .log_user = ctx->opt.log_user};
	tk_session *ses;
	tk_status st = tk_session_open(in->path, &oo, TK_SESSION_NATIVE, &ses, err);
	if (st != TK_OK)
		return st;
	tk_perf_file *f = tk_session_perf(ses);
	perf_pass p = {.d = &in->d};
	tk_symcache_options so = {.log = ctx->opt.log, .log_user = ctx->opt.log_user};
	tk_hashmap_init(&p.event_of_attr);
	p.cc = malloc(sizeof *p.cc);
	if (!p.cc || !tk_threads_init(&p.th, &so)) {
		free(p.cc);
		tk_session_close(ses);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	p.th.features = tk_perf_get_features(f);
	tk_session_tool tool = {.perf_sample = pass_sample, .perf_other = pass_other};
	if ((st = tk_session_run(ses, &tool, &p, err)) == TK_OK)
		st = finish(&p, f, err);
	free(p.cc);
	tk_hashmap_free(&p.event_of_attr);
	tk_threads_free(&p.th);
	tk_session_close(ses);
	return st;
}

#endif /* TK_HAVE_SQLITE */
