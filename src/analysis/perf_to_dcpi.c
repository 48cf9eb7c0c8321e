/* perf.data -> DCPI profile database (see perf_to_dcpi.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/perf_to_dcpi.h"
#include "context/threads_model.h"
#include "model/filter.h"

/* One profile being built: an (image, event) pair. */
typedef struct prof {
	const tk_dso *dso; /* NULL: [unknown] */
	const tk_perf_attr *attr;
	uint64_t tstart, tsize;
	bool from_elf;
	char id[2 * TK_BUILD_ID_MAX + 1];
	uint64_t period_sum, samples;
	tk_dcpi_builder *b;
} prof;

typedef struct conv {
	tk_threads th;
	prof *v;
	size_t n, cap;
	tk_hashmap by_key; /* hash(dso, attr) (+ probe) -> index + 1 */
	prof *last;        /* one-entry cache */
} conv;

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Image id: the build id, else a hash of path, size and mtime. */
static void image_id(tk_threads *th, const tk_dso *d, char *out)
{
	if (d && d->build_id_len) {
		tk_build_id_hex(d->build_id, d->build_id_len, out);
		return;
	}
	uint8_t id[TK_BUILD_ID_MAX];
	size_t n = (d && d->symtab) ? tk_symtab_build_id(d->symtab, id) : 0;
	if (n) {
		tk_build_id_hex(id, n, out);
		return;
	}
	(void)th;
	const char *path = d ? d->name : "[unknown]";
	uint64_t h = fnv(path, strlen(path), 1469598103934665603ull);
	struct stat st;
	if (d && stat(path, &st) == 0) {
		uint64_t size = (uint64_t)st.st_size, mtime = (uint64_t)st.st_mtime;
		h = fnv(&size, sizeof size, h);
		h = fnv(&mtime, sizeof mtime, h);
	}
	snprintf(out, 2 * TK_BUILD_ID_MAX + 1, "%016llx", (unsigned long long)h);
}

/* tstart/tsize: the image's executable segment when its ELF is readable
 * (so every profile of the image shares them), else the mapping. */
static void text_range(const tk_dso *d, const tk_map *m, prof *p)
{
	const tk_elf_segment *segs;
	size_t n =
	    (d && d->symtab && d->kind == TK_DSO_FILE) ? tk_symtab_segments(d->symtab, &segs) : 0;
	for (size_t i = 0; i < n; i++)
		if (segs[i].exec) {
			p->tstart = segs[i].vaddr;
			p->tsize = segs[i].memsz;
			p->from_elf = true;
			return;
		}
	if (m) {
		p->tstart = m->start;
		uint64_t len = m->end - m->start;
		p->tsize = len > 0xffffffffull ? 0xffffffffull : len;
	} else {
		p->tstart = 0;
		p->tsize = 1;
	}
}

static prof *prof_for(conv *c, const tk_addr_loc *loc, const tk_perf_attr *attr)
{
	const tk_dso *d = loc->map ? loc->map->dso : NULL;
	if (c->last && c->last->dso == d && c->last->attr == attr)
		return c->last;
	uint64_t h = fnv(&d, sizeof d, fnv(&attr, sizeof attr, 1469598103934665603ull));
	uint64_t key = h;
	for (;; key++) {
		uint64_t *idx = tk_hashmap_get(&c->by_key, key);
		if (!idx)
			break;
		prof *p = &c->v[*idx - 1];
		if (p->dso == d && p->attr == attr)
			return c->last = p;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		prof *nv = realloc(c->v, cap * sizeof *nv);
		if (!nv)
			return NULL;
		c->v = nv;
		c->cap = cap;
	}
	prof *p = &c->v[c->n];
	memset(p, 0, sizeof *p);
	p->dso = d;
	p->attr = attr;
	p->b = tk_dcpi_builder_new();
	if (!p->b || !tk_hashmap_put(&c->by_key, key, c->n + 1)) {
		tk_dcpi_builder_free(p->b);
		return NULL;
	}
	text_range(d, loc->map, p);
	image_id(&c->th, d, p->id);
	c->n++;
	c->last = NULL; /* v may have moved */
	return c->last = p;
}

static tk_status add_sample(conv *c, tk_perf_file *f, const tk_perf_record *rec, tk_error *err)
{
	tk_perf_sample s;
	tk_status st = tk_perf_parse_sample(f, rec, &s, err);
	if (st != TK_OK)
		return st;
	bool has_tid = (s.sample_type & TK_PERF_SAMPLE_TID) != 0;
	tk_thread *t = tk_threads_findnew(&c->th, has_tid ? (int32_t)s.pid : -1,
					  has_tid ? (int32_t)s.tid : -1);
	tk_addr_loc loc = {0};
	if (s.sample_type & TK_PERF_SAMPLE_IP)
		tk_threads_resolve(&c->th, t, rec->misc & 7u, s.ip, &loc);
	/* loads the image's symbols (ELF facts) before the profile is made */
	prof *p = prof_for(c, &loc, rec->attr);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	uint64_t off = 0;
	if (loc.map) {
		uint64_t va = loc.addr;
		if (p->from_elf) {
			if (!tk_symtab_offset_to_vaddr(p->dso->symtab, loc.addr, &va))
				va = loc.addr;
		} else {
			va = s.ip;
		}
		if (va >= p->tstart && va - p->tstart <= 0xffffffffull)
			off = va - p->tstart;
		/* an address outside the range still counts, at offset 0 */
	}
	p->samples++;
	p->period_sum += (s.sample_type & TK_PERF_SAMPLE_PERIOD) ? s.period : 0;
	if (!tk_dcpi_builder_add(p->b, off, 1))
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	return TK_OK;
}

/* The profile's file in the database: <image>-<id>_<event>.prof. Two
 * images can share it: copies of one binary at two paths have the same
 * base name and build id (two test directories each with their own
 * ./workload, say), and unsafe characters fold to '_'. A later profile
 * then gets -2, -3 ... after its image part rather than overwriting the
 * earlier one and losing its samples. */
static bool unique_file_name(tk_hashmap *names, const prof *p, const char *dir, char *path,
			     size_t cap)
{
	const char *name = p->dso ? p->dso->short_name : "[unknown]";
	if (!*name)
		name = p->dso->name;
	char image[176], file[512];
	for (unsigned n = 1;; n++) {
		if (n == 1)
			snprintf(image, sizeof image, "%.120s-%.8s", name, p->id);
		else
			snprintf(image, sizeof image, "%.120s-%.8s-%u", name, p->id, n);
		tk_dcpi_db_file_name(image, p->attr->name, file, sizeof file);
		uint64_t h = fnv(file, strlen(file), 1469598103934665603ull);
		if (!tk_hashmap_get(names, h)) {
			if (!tk_hashmap_put(names, h, 1))
				return false;
			break;
		}
	}
	snprintf(path, cap, "%s/%s", dir, file);
	return true;
}

static void recording_epoch(const char *path, const tk_perf_features *ft, char buf[11])
{
	time_t t = 0;
	if (ft && ft->clock_wall_ns)
		t = (time_t)(ft->clock_wall_ns / 1000000000ull);
	else {
		struct stat st;
		if (stat(path, &st) == 0)
			t = st.st_mtime;
	}
	tk_dcpi_format_epoch(t, buf);
}

typedef struct dcpi_run {
	conv *c;
	const char *events;
	uint64_t total;
} dcpi_run;

static tk_status dcpi_sample(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	dcpi_run *r = user;
	if (!rec->attr || (r->events && !tk_filter_name_matches(r->events, rec->attr->name)))
		return TK_OK;
	r->total++;
	return add_sample(r->c, tk_session_perf(ses), rec, err);
}

static tk_status dcpi_side_band(tk_session *ses, const tk_perf_record *rec, void *user,
				tk_error *err)
{
	dcpi_run *r = user;
	return tk_threads_process(&r->c->th, tk_session_perf(ses), rec, err);
}

tk_status tk_perf_to_dcpi(const char *in, const char *db, const tk_perf_dcpi_options *opt,
			  tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_PERF,
			      .log = opt ? opt->log : NULL,
			      .log_user = opt ? opt->log_user : NULL};
	tk_session *ses;
	tk_status st = tk_session_open(in, &oo, TK_SESSION_NATIVE, &ses, err);
	if (st != TK_OK)
		return st;
	tk_perf_file *f = tk_session_perf(ses);
	conv c = {0};
	tk_hashmap_init(&c.by_key);
	if (!tk_threads_init(&c.th, NULL)) {
		st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	dcpi_run r = {.c = &c, .events = opt ? opt->events : NULL};
	tk_session_tool tool = {.perf_sample = dcpi_sample, .perf_other = dcpi_side_band};
	if ((st = tk_session_run(ses, &tool, &r, err)) != TK_OK)
		goto out;
	if (r.total == 0) {
		st = tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "no samples to write");
		goto out;
	}
	const tk_perf_features *ft = tk_perf_get_features(f);
	char epoch[16];
	if (opt && opt->epoch)
		snprintf(epoch, sizeof epoch, "%s", opt->epoch);
	else
		recording_epoch(in, ft, epoch);
	const char *host = ft && ft->hostname && *ft->hostname ? ft->hostname : "unknown";
	char *dir = NULL;
	if ((st = tk_dcpi_db_mkdir(db, epoch, host, &dir, err)) != TK_OK)
		goto out;
	tk_hashmap names; /* hash of each file name written -> 1 */
	tk_hashmap_init(&names);
	for (size_t i = 0; i < c.n && st == TK_OK; i++) {
		prof *p = &c.v[i];
		char path[4096];
		if (!unique_file_name(&names, p, dir, path, sizeof path)) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		bool freq = tk_perf_attr_flag(p->attr, TK_PERF_ATTR_FREQ);
		tk_dcpi_fields fields = {
		    .image = p->id,
		    .epoch = epoch,
		    .platform = ft && ft->arch && *ft->arch ? ft->arch : "unknown",
		    .event = p->attr->name,
		    /* the sampling period; in frequency mode the mean period seen */
		    .period = freq ? (p->samples ? p->period_sum / p->samples : 0)
				   : p->attr->sample_period,
		    .tstart = p->tstart,
		    .tsize = p->tsize,
		    .path = p->dso ? p->dso->name : "[unknown]",
		    .has_cpucount = ft && ft->nr_cpus_online,
		    .cpucount = ft ? ft->nr_cpus_online : 0,
		};
		st = tk_dcpi_builder_write(p->b, path, &fields, err);
	}
	tk_hashmap_free(&names);
	free(dir);
out:
	for (size_t i = 0; i < c.n; i++)
		tk_dcpi_builder_free(c.v[i].b);
	free(c.v);
	tk_hashmap_free(&c.by_key);
	tk_threads_free(&c.th);
	tk_session_close(ses);
	return st;
}
