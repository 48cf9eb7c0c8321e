/* perf.data -> pprof profile.proto, gzip-compressed (see pprof_perf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/profile_walk.h"
#include "base/intern.h"
#include "base/pb.h"
#include "model/filter.h"
#include "output/pprof_perf.h"
#include "output/report_perf.h"

/* bytes of interned keys (strings, stacks, ...) a hostile file may cost */
#define PPROF_MEMORY_LIMIT (1024u << 20)
#define PPROF_MAX_EVENTS   64

/* names are string indexes: the threads model (and its dsos) is gone
 * by the time the profile is encoded */
typedef struct map_key {
	uint64_t file, build_id; /* string indexes */
	uint64_t start, end, pgoff;
} map_key;

typedef struct func_key {
	uint64_t name, system, file; /* string indexes */
	uint64_t start;
} func_key;

typedef struct loc_key {
	uint64_t mapping; /* mapping index + 1, 0: none */
	uint64_t address;
	uint64_t function; /* function index */
} loc_key;

/* What names a frame while the threads model is alive: looked up first,
 * so strings are hashed and printed once per symbol and map, not per
 * frame */
typedef struct frame_key {
	const void *dso, *sym; /* sym NULL: unresolved, start is the address */
	uint64_t start, map_start, map_end, pgoff;
	uint64_t name_hash; /* the name shown: inline frames share their function's symbol */
} frame_key;

typedef struct frame_val {
	size_t function;
	size_t mapping; /* index + 1, 0: none */
} frame_val;

typedef struct pprof_state {
	tk_intern strings, maps, funcs, locs, stacks, frames;
	frame_val *frame_vals;
	size_t cap_frames;
	uint64_t *counts, *weights; /* per stack */
	size_t cap_stacks;
	size_t n_events;
	size_t event_name[PPROF_MAX_EVENTS];     /* string index */
	uint64_t event_period[PPROF_MAX_EVENTS]; /* attr's fixed period, 0: none */
	bool more_events;
} pprof_state;

static bool str_index(pprof_state *p, const char *s, size_t *idx)
{
	return tk_intern_get(&p->strings, s, strlen(s), idx, NULL);
}

/* The function and mapping of a frame not met before, named as report
 * names it. */
static bool frame_names(pprof_state *p, const tk_addr_loc *loc, uint64_t start, frame_val *out)
{
	func_key fk = {.start = start};
	size_t idx;
	if (!str_index(p, loc->map ? loc->map->dso->name : "[unknown]", &idx))
		return false;
	fk.file = idx;
	char hex[24];
	const char *name = loc->name;
	if (!loc->sym || !name) {
		snprintf(hex, sizeof hex, "%#.16llx", (unsigned long long)start);
		name = hex;
	}
	if (!str_index(p, name, &idx))
		return false;
	fk.name = idx;
	/* system_name: the symbol as the image has it, only when it differs
	 * (a mangled name). pprof takes a function whose system_name equals
	 * its name as not yet demangled and strips "<...>" and "(...)" from
	 * C++-looking names, so report's names would not come through. */
	if (loc->sym && loc->name && loc->sym->name && strcmp(loc->sym->name, loc->name) != 0) {
		if (!str_index(p, loc->sym->name, &idx))
			return false;
		fk.system = idx;
	}
	if (!tk_intern_get(&p->funcs, &fk, sizeof fk, &idx, NULL))
		return false;
	out->function = idx;
	out->mapping = 0;
	if (loc->map) {
		const tk_dso *dso = loc->map->dso;
		char id[2 * TK_BUILD_ID_MAX + 1];
		size_t id_len =
		    dso->build_id_len < TK_BUILD_ID_MAX ? dso->build_id_len : TK_BUILD_ID_MAX;
		for (size_t k = 0; k < id_len; k++)
			snprintf(id + 2 * k, 3, "%02x", dso->build_id[k]);
		id[2 * id_len] = 0;
		map_key mk = {.file = fk.file,
			      .start = loc->map->start,
			      .end = loc->map->end,
			      .pgoff = loc->map->pgoff};
		if (!str_index(p, id, &idx))
			return false;
		mk.build_id = idx;
		if (!tk_intern_get(&p->maps, &mk, sizeof mk, &idx, NULL))
			return false;
		out->mapping = idx + 1;
	}
	return true;
}

/* The location of one frame at ip. */
static bool frame_location(pprof_state *p, const tk_addr_loc *loc, uint64_t ip, size_t *out)
{
	frame_key k;
	memset(&k, 0, sizeof k);
	bool named = loc->sym && loc->name;
	k.sym = named ? loc->sym : NULL;
	/* report's rows: the symbol's start, else per-address unknowns
	 * (report_perf.c, profile_agg.c) */
	k.start = named                                              ? loc->sym->start
		  : loc->map && loc->map->dso->kind == TK_DSO_MODULE ? ip - loc->map->start
								     : loc->addr;
	if (named) {
		uint64_t h = 1469598103934665603ull;
		for (size_t i = 0; i < loc->name_len; i++)
			h = (h ^ (uint8_t)loc->name[i]) * 1099511628211ull;
		k.name_hash = h;
	}
	if (loc->map) {
		k.dso = loc->map->dso;
		k.map_start = loc->map->start;
		k.map_end = loc->map->end;
		k.pgoff = loc->map->pgoff;
	}
	size_t fi;
	bool added;
	if (!tk_intern_get(&p->frames, &k, sizeof k, &fi, &added))
		return false;
	if (fi >= p->cap_frames) {
		size_t ncap = p->cap_frames ? p->cap_frames * 2 : 1024;
		frame_val *nv = realloc(p->frame_vals, ncap * sizeof *nv);
		if (!nv)
			return false;
		p->frame_vals = nv;
		p->cap_frames = ncap;
	}
	if (added && !frame_names(p, loc, k.start, &p->frame_vals[fi]))
		return false;
	loc_key lk = {.mapping = p->frame_vals[fi].mapping,
		      .address = ip,
		      .function = p->frame_vals[fi].function};
	return tk_intern_get(&p->locs, &lk, sizeof lk, out, NULL);
}

static bool event_index(pprof_state *p, const tk_perf_attr *attr, const char *event, size_t *ev)
{
	size_t name;
	if (!str_index(p, event, &name))
		return false;
	for (size_t i = 0; i < p->n_events; i++)
		if (p->event_name[i] == name) {
			*ev = i;
			return true;
		}
	if (p->n_events == PPROF_MAX_EVENTS) {
		p->more_events = true;
		*ev = SIZE_MAX;
		return true;
	}
	p->event_name[p->n_events] = name;
	p->event_period[p->n_events] =
	    !tk_perf_attr_flag(attr, TK_PERF_ATTR_FREQ) ? attr->sample_period : 0;
	*ev = p->n_events++;
	return true;
}

static bool count_stack(pprof_state *p, const uint64_t *key, size_t n, uint64_t weight)
{
	size_t idx;
	bool added;
	if (!tk_intern_get(&p->stacks, key, n * sizeof *key, &idx, &added))
		return false;
	if (idx >= p->cap_stacks) {
		size_t ncap = p->cap_stacks ? p->cap_stacks * 2 : 1024;
		uint64_t *c = realloc(p->counts, ncap * sizeof *c);
		if (!c)
			return false;
		p->counts = c;
		uint64_t *w = realloc(p->weights, ncap * sizeof *w);
		if (!w)
			return false;
		p->weights = w;
		p->cap_stacks = ncap;
	}
	if (added)
		p->counts[idx] = p->weights[idx] = 0;
	p->counts[idx]++;
	p->weights[idx] += weight;
	return true;
}

static bool over_limit(const pprof_state *p)
{
	return p->strings.arena.total + p->maps.arena.total + p->funcs.arena.total +
		   p->locs.arena.total + p->stacks.arena.total + p->frames.arena.total >
	       PPROF_MEMORY_LIMIT;
}

typedef struct collect_ctx {
	pprof_state *p;
	uint64_t *key; /* event, then location indexes leaf first */
} collect_ctx;

static tk_status collect_sample(void *user, const tk_profile_sample *ps, tk_error *err)
{
	collect_ctx *c = user;
	pprof_state *p = c->p;
	const tk_perf_record *rec = ps->rec;
	const tk_perf_sample *s = ps->s;
	const tk_callchain *chain = ps->chain;
	uint64_t *key = c->key;
	size_t ev = 0, li = 0, n = 0;
	bool ok = event_index(p, rec->attr, ps->event, &ev);
	if (ok && ev == SIZE_MAX)
		return TK_OK;
	key[n++] = ev;
	/* the leaf as report keys it: the IP with the sample's cpumode */
	tk_addr_loc loc;
	uint64_t ip = (s->sample_type & TK_PERF_SAMPLE_IP) ? s->ip : 0;
	tk_profile_sample_leaf(ps, &loc);
	ok = ok && frame_location(p, &loc, ip, &li);
	key[n++] = li;
	/* the chain normally starts with the IP itself; an unwound leaf
	 * comes with its inline frames (same address), which report's leaf
	 * stands for */
	size_t first = chain->n && chain->frames[0].ip == ip ? 1 : 0;
	while (first && first < chain->n && chain->frames[first - 1].inlined &&
	       chain->frames[first].ip == ip)
		first++;
	for (size_t i = first; ok && i < chain->n; i++) {
		ok = frame_location(p, &chain->frames[i].loc, chain->frames[i].ip, &li);
		key[n++] = li;
	}
	ok = ok && count_stack(p, key, n, ps->weight);
	if (over_limit(p))
		return tk_error_set(err, TK_ERR_LIMIT, rec->offset,
				    "pprof: more than %u MiB of distinct stacks and names",
				    PPROF_MEMORY_LIMIT >> 20);
	if (!ok)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	return TK_OK;
}

static tk_status collect(const char *in, const tk_render_options *opt, pprof_state *p,
			 tk_error *err)
{
	collect_ctx c = {.p = p, .key = malloc((TK_CALLCHAIN_CAP + 2) * sizeof *c.key)};
	if (!c.key)
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	tk_status st = tk_profile_walk(in, opt, collect_sample, &c, err); /* filters as report */
	if (st == TK_OK && p->more_events && opt->log)
		opt->log(opt->log_user, 0, "pprof: more than 64 events; the others were left out");
	free(c.key);
	return st;
}

static void value_type(tk_pb *b, tk_pb *tmp, unsigned field, uint64_t type, uint64_t unit)
{
	tk_pb_reset(tmp);
	tk_pb_uint(tmp, 1, type);
	tk_pb_uint(tmp, 2, unit);
	tk_pb_sub(b, field, tmp);
}

/* cpu-clock and task-clock count nanoseconds ("cpu-clock:u" too) */
static bool is_clock(const char *name)
{
	size_t n = strcspn(name, ":");
	return (n == 9 && strncmp(name, "cpu-clock", 9) == 0) ||
	       (n == 10 && strncmp(name, "task-clock", 10) == 0);
}

/* profile.proto field numbers (google/pprof proto/profile.proto) */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
};

static bool encode(pprof_state *p, tk_pb *b)
{
	tk_pb tmp = {0}, packed = {0}, line = {0};
	size_t s_samples, s_count, s_cpu, s_ns, s_empty;
	bool ok = str_index(p, "", &s_empty) && str_index(p, "samples", &s_samples) &&
		  str_index(p, "count", &s_count) && str_index(p, "cpu", &s_cpu) &&
		  str_index(p, "nanoseconds", &s_ns);
	/* "" must be string 0: interned first in tk_perf_pprof_to */
	size_t n_types = 2 * p->n_events;
	uint64_t *period_type = calloc(p->n_events + 1, sizeof *period_type);
	if (!ok || !period_type) {
		free(period_type);
		return false;
	}
	for (size_t e = 0; e < p->n_events; e++) {
		const char *name = p->strings.v[p->event_name[e]].key;
		bool clock = is_clock(name);
		period_type[e] = clock ? s_cpu : p->event_name[e];
		value_type(b, &tmp, PROFILE_SAMPLE_TYPE, s_samples, s_count);
		value_type(b, &tmp, PROFILE_SAMPLE_TYPE, period_type[e], clock ? s_ns : s_count);
	}
	for (size_t i = 0; i < p->stacks.n; i++) {
		const uint64_t *key = p->stacks.v[i].key;
		size_t n = p->stacks.v[i].len / sizeof *key;
		tk_pb_reset(&tmp);
		tk_pb_reset(&packed);
		for (size_t k = 1; k < n; k++)
			tk_pb_varint(&packed, key[k] + 1);
		tk_pb_sub(&tmp, 1, &packed);
		tk_pb_reset(&packed);
		for (size_t t = 0; t < n_types; t++)
			tk_pb_varint(&packed, t == 2 * key[0]       ? p->counts[i]
					      : t == 2 * key[0] + 1 ? p->weights[i]
								    : 0);
		tk_pb_sub(&tmp, 2, &packed);
		tk_pb_sub(b, PROFILE_SAMPLE, &tmp);
	}
	for (size_t i = 0; i < p->maps.n; i++) {
		map_key mk;
		memcpy(&mk, p->maps.v[i].key, sizeof mk);
		tk_pb_reset(&tmp);
		tk_pb_uint(&tmp, 1, i + 1);
		tk_pb_uint(&tmp, 2, mk.start);
		tk_pb_uint(&tmp, 3, mk.end);
		tk_pb_uint(&tmp, 4, mk.pgoff);
		tk_pb_uint(&tmp, 5, mk.file);
		tk_pb_uint(&tmp, 6, mk.build_id);
		tk_pb_uint(&tmp, 7, 1); /* has_functions: no re-symbolization */
		tk_pb_sub(b, PROFILE_MAPPING, &tmp);
	}
	for (size_t i = 0; i < p->locs.n; i++) {
		loc_key lk;
		memcpy(&lk, p->locs.v[i].key, sizeof lk);
		tk_pb_reset(&tmp);
		tk_pb_uint(&tmp, 1, i + 1);
		tk_pb_uint(&tmp, 2, lk.mapping);
		tk_pb_uint(&tmp, 3, lk.address);
		tk_pb_reset(&line);
		tk_pb_uint(&line, 1, lk.function + 1);
		tk_pb_sub(&tmp, 4, &line);
		tk_pb_sub(b, PROFILE_LOCATION, &tmp);
	}
	for (size_t i = 0; i < p->funcs.n; i++) {
		func_key fk;
		memcpy(&fk, p->funcs.v[i].key, sizeof fk);
		tk_pb_reset(&tmp);
		tk_pb_uint(&tmp, 1, i + 1);
		tk_pb_uint(&tmp, 2, fk.name);
		tk_pb_uint(&tmp, 3, fk.system);
		tk_pb_uint(&tmp, 4, fk.file);
		tk_pb_sub(b, PROFILE_FUNCTION, &tmp);
	}
	if (p->n_events) {
		bool clock = is_clock(p->strings.v[p->event_name[0]].key);
		value_type(b, &tmp, PROFILE_PERIOD_TYPE, period_type[0], clock ? s_ns : s_count);
		tk_pb_uint(b, PROFILE_PERIOD, p->event_period[0]);
		tk_pb_uint(b, PROFILE_DEFAULT_SAMPLE_TYPE, period_type[0]);
	}
	for (size_t i = 0; i < p->strings.n; i++)
		tk_pb_lenfield(b, PROFILE_STRING_TABLE, p->strings.v[i].key, p->strings.v[i].len);
	bool failed = tmp.failed || packed.failed || line.failed;
	tk_pb_free(&tmp);
	tk_pb_free(&packed);
	tk_pb_free(&line);
	free(period_type);
	return ok && !failed && !b->failed;
}

/* gzip container around the encoded profile, as pprof expects (.pb.gz). */
static tk_status put_gzip(tk_writer *w, const tk_pb *b, tk_error *err)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "zlib: deflateInit2 failed");
	uint8_t out[65536];
	size_t done = 0;
	int zr;
	do {
		size_t chunk = b->len - done > (1u << 30) ? (1u << 30) : b->len - done;
		zs.next_in = b->buf ? b->buf + done : (Bytef *)out;
		zs.avail_in = (uInt)chunk;
		bool last = done + chunk == b->len;
		do {
			zs.next_out = out;
			zs.avail_out = sizeof out;
			zr = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
			tk_put_mem(w, out, sizeof out - zs.avail_out);
		} while (zs.avail_out == 0);
		done += chunk;
	} while (done < b->len);
	deflateEnd(&zs);
	if (zr != Z_STREAM_END)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "zlib: deflate failed (%d)", zr);
	return TK_OK;
}

tk_status tk_perf_pprof_to(const char *in, const tk_render_options *opt, tk_writer *w,
			   tk_error *err)
{
	pprof_state *p = calloc(1, sizeof *p);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	tk_intern_init(&p->strings, 0);
	tk_intern_init(&p->maps, 0);
	tk_intern_init(&p->funcs, 0);
	tk_intern_init(&p->locs, 0);
	tk_intern_init(&p->stacks, 0);
	tk_intern_init(&p->frames, 0);
	size_t empty;
	tk_status st = str_index(p, "", &empty)
			   ? collect(in, opt, p, err)
			   : tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	if (st == TK_OK && p->n_events == 0)
		st = tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "no samples%s%s",
				  opt->events ? " match --event " : "",
				  opt->events ? opt->events : "");
	if (st == TK_OK) {
		tk_pb b = {0};
		st = encode(p, &b) ? put_gzip(w, &b, err)
				   : tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		tk_pb_free(&b);
	}
	free(p->counts);
	free(p->weights);
	tk_intern_free(&p->strings);
	tk_intern_free(&p->maps);
	tk_intern_free(&p->funcs);
	tk_intern_free(&p->locs);
	tk_intern_free(&p->stacks);
	tk_intern_free(&p->frames);
	free(p->frame_vals);
	free(p);
	return st;
}

tk_status tk_perf_pprof_write(const char *in, const char *out_path, const tk_render_options *opt,
			      tk_error *err)
{
	tk_writer *w;
	tk_status st = strcmp(out_path, "-") == 0 ? tk_writer_open_fd(1, "stdout", &w, err)
						  : tk_writer_open_atomic(out_path, &w, err);
	if (st != TK_OK)
		return st;
	st = tk_perf_pprof_to(in, opt, w, err);
	if (st != TK_OK) {
		tk_writer_abort(w);
		return st;
	}
	return tk_writer_commit(w, err);
}
