/* Per-track time reports; see report.h. */
#include "analysis/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hashmap.h"

typedef struct matcher {
	const char *name;
	bool has_id;
	uint64_t id;
} matcher;

struct tk_report {
	tk_report_kind kind;
	matcher start, end; /* state: start only */
	tk_arena arena;
	tk_report_track *tracks;
	size_t n_tracks, cap_tracks;
	tk_report_track all;
	tk_hashmap by_hash; /* FNV of the track name (probed) -> index */
	/* per-class caches: whether it matches, where its "track" member is */
	const tk_event_class *last_cls;
	int last_match; /* 0 none, 1 start, 2 end, 3 both */
	const tk_field_class *last_payload;
	long track_member; /* -1: none */
	char keybuf[32];
};

static void matcher_init(matcher *m, char *s)
{
	m->name = s;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	m->has_id = *s && *end == 0 && s[0] >= '0' && s[0] <= '9';
	m->id = v;
}

static bool matches(const matcher *m, const char *name, uint64_t id)
{
	return (name && strcmp(name, m->name) == 0) || (m->has_id && id == m->id);
}

tk_status tk_report_new(tk_report_kind kind, const char *spec, tk_report **out, tk_error *err)
{
	*out = NULL;
	if (!spec || !*spec)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "an event name is required");
	tk_report *r = calloc(1, sizeof *r);
	if (!r)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	r->kind = kind;
	tk_arena_init(&r->arena, 16384);
	tk_hashmap_init(&r->by_hash);
	r->all.name = "all";
	r->all.min = UINT64_MAX;
	char *copy = tk_arena_strdup(&r->arena, spec);
	if (!copy) {
		tk_report_free(r);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	if (kind == TK_REPORT_STATE) {
		matcher_init(&r->start, copy);
	} else {
		char *comma = strchr(copy, ',');
		if (!comma || comma == copy || !comma[1]) {
			tk_report_free(r);
			return tk_error_set(
			    err, TK_ERR_USAGE, TK_NO_OFFSET,
			    "expected START,END (two event names or codes), got '%s'", spec);
		}
		*comma = 0;
		matcher_init(&r->start, copy);
		matcher_init(&r->end, comma + 1);
	}
	*out = r;
	return TK_OK;
}

void tk_report_free(tk_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_tracks; i++)
		free(r->tracks[i].samples);
	free(r->all.samples);
	free(r->tracks);
	tk_hashmap_free(&r->by_hash);
	tk_arena_free(&r->arena);
	free(r);
}

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

static tk_report_track *find_track(tk_report *r, const char *name, size_t len)
{
	uint64_t h = fnv1a(name, len);
	for (;; h++) {
		const uint64_t *v = tk_hashmap_get(&r->by_hash, h);
		if (!v)
			break;
		tk_report_track *t = &r->tracks[*v];
		if (strlen(t->name) == len && memcmp(t->name, name, len) == 0)
			return t;
	}
	if (r->n_tracks == r->cap_tracks) {
		size_t nc = r->cap_tracks ? r->cap_tracks * 2 : 16;
		tk_report_track *nt = realloc(r->tracks, nc * sizeof *nt);
		if (!nt)
			return NULL;
		r->tracks = nt;
		r->cap_tracks = nc;
	}
	char *copy = tk_arena_strndup(&r->arena, name, len);
	if (!copy || !tk_hashmap_put(&r->by_hash, h, r->n_tracks))
		return NULL;
	tk_report_track *t = &r->tracks[r->n_tracks++];
	memset(t, 0, sizeof *t);
	t->name = copy;
	t->min = UINT64_MAX;
	return t;
}

static bool sample(tk_report *r, tk_report_track *t, uint64_t v)
{
	double x = (double)t->n; /* linreg: the interval's index on its track */
	t->n++;
	double d = (double)v - t->mean;
	t->mean += d / (double)t->n;
	t->m2 += d * ((double)v - t->mean);
	t->min = v < t->min ? v : t->min;
	t->max = v > t->max ? v : t->max;
	t->total += v;
	if (r->kind == TK_REPORT_LINREG) {
		double y = (double)v;
		t->sx += x;
		t->sy += y;
		t->sxx += x * x;
		t->sxy += x * y;
		t->syy += y * y;
	}
	if (r->kind == TK_REPORT_LATENCY) {
		if (t->n_samples == t->cap_samples) {
			size_t nc = t->cap_samples ? t->cap_samples * 2 : 64;
			uint64_t *ns = realloc(t->samples, nc * sizeof *ns);
			if (!ns)
				return false;
			t->samples = ns;
			t->cap_samples = nc;
		}
		t->samples[t->n_samples++] = v;
	}
	return true;
}

static tk_status add(tk_report *r, tk_report_track *t, int match, uint64_t now, tk_error *err)
{
	if (!t)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	bool ok = true;
	if (r->kind == TK_REPORT_STATE) {
		if (t->have_last && now >= t->last)
			ok = sample(r, t, now - t->last) && sample(r, &r->all, now - t->last);
		t->have_last = true;
		t->last = now;
	} else {
		/* END first: an event that is both START and END closes, then opens */
		if ((match & 2) && t->have_last) {
			if (now >= t->last)
				ok = sample(r, t, now - t->last) &&
				     sample(r, &r->all, now - t->last);
			t->have_last = false;
		}
		if (match & 1) {
			t->have_last = true;
			t->last = now;
		}
	}
	return ok ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
}

static int match_of(const tk_report *r, const char *name, uint64_t id)
{
	int m = matches(&r->start, name, id) ? 1 : 0;
	if (r->kind != TK_REPORT_STATE && matches(&r->end, name, id))
		m |= 2;
	return m;
}

tk_status tk_report_add_raw(tk_report *r, const char *track, size_t track_len, const char *name,
			    uint64_t id, uint64_t time_ns, tk_error *err)
{
	int m = match_of(r, name, id);
	if (!m)
		return TK_OK;
	return add(r, find_track(r, track, track_len), m, time_ns, err);
}

tk_status tk_report_add(tk_report *r, const tk_event *ev, tk_error *err)
{
	if (!ev->cls || !ev->has_time)
		return TK_OK;
	if (ev->cls != r->last_cls) {
		r->last_cls = ev->cls;
		r->last_match = match_of(r, ev->cls->name, ev->cls->id);
	}
	if (!r->last_match)
		return TK_OK;
	const char *track = NULL;
	size_t len = 0;
	const tk_value *p = ev->payload;
	if (p && p->cls && p->cls->kind == TK_TYPE_STRUCT) {
		if (p->cls != r->last_payload) {
			r->last_payload = p->cls;
			r->track_member = -1;
			for (size_t i = 0; i < p->cls->n_members; i++)
				if (strcmp(p->cls->members[i].name, "track") == 0 &&
				    p->cls->members[i].cls->kind == TK_TYPE_STRING)
					r->track_member = (long)i;
		}
		if (r->track_member >= 0 && (size_t)r->track_member < p->v.list.n) {
			track = p->v.list.items[r->track_member].v.str.ptr;
			len = p->v.list.items[r->track_member].v.str.len;
		}
	}
	if (!track) {
		const char *prefix;
		int64_t v;
		if (ev->tid != TK_PID_NONE) {
			prefix = "tid ";
			v = ev->tid;
		} else if (ev->cpu != TK_CPU_NONE) {
			prefix = "cpu ";
			v = ev->cpu;
		} else {
			prefix = "stream ";
			v = (int64_t)ev->stream_instance;
		}
		size_t n = strlen(prefix);
		memcpy(r->keybuf, prefix, n);
		if (v < 0) {
			r->keybuf[n++] = '-';
			v = -v;
		}
		n += tk_fmt_u64(r->keybuf + n, (uint64_t)v);
		track = r->keybuf;
		len = n;
	}
	return add(r, find_track(r, track, len), r->last_match, ev->time_ns, err);
}

size_t tk_report_n_tracks(const tk_report *r)
{
	return r->n_tracks;
}

const char *tk_report_track_name(const tk_report *r, size_t i)
{
	return i < r->n_tracks ? r->tracks[i].name : "all";
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t rank(const uint64_t *v, size_t n, unsigned pct)
{
	if (!n)
		return 0;
	size_t k = (size_t)ceil((double)pct / 100.0 * (double)n);
	return v[k ? k - 1 : 0];
}

void tk_report_get(tk_report *r, size_t i, tk_report_result *o)
{
	tk_report_track *t = i < r->n_tracks ? &r->tracks[i] : &r->all;
	memset(o, 0, sizeof *o);
	o->n = t->n;
	if (!t->n)
		return;
	o->mean = t->mean;
	o->stdev = t->n > 1 ? sqrt(t->m2 / (double)(t->n - 1)) : 0;
	o->min = t->min;
	o->max = t->max;
	o->total = t->total;
	if (r->kind == TK_REPORT_LATENCY) {
		qsort(t->samples, t->n_samples, sizeof *t->samples, cmp_u64);
		o->p50 = rank(t->samples, t->n_samples, 50);
		o->p90 = rank(t->samples, t->n_samples, 90);
		o->p99 = rank(t->samples, t->n_samples, 99);
	}
	if (r->kind == TK_REPORT_LINREG) {
		double n = (double)t->n;
		double vx = n * t->sxx - t->sx * t->sx;
		double vy = n * t->syy - t->sy * t->sy;
		double cov = n * t->sxy - t->sx * t->sy;
		o->slope = vx > 0 ? cov / vx : 0;
		o->intercept = (t->sy - o->slope * t->sx) / n;
		o->r = vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : 0;
	}
}

static void write_rows(tk_report *r, tk_writer *out, const size_t *order, size_t n_rows);

/* qsort has no context argument; reports are written from one thread. */
static const tk_report *sort_ctx_r;
static int sort_ctx_key;
static tk_report_result *sort_ctx_res;

static int cmp_tracks(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const tk_report_result *x = &sort_ctx_res[i], *y = &sort_ctx_res[j];
	int c = 0;
	switch (sort_ctx_key) {
	case 1: c = (x->total < y->total) - (x->total > y->total); break;
	case 2: c = (x->n < y->n) - (x->n > y->n); break;
	case 3: c = (x->mean < y->mean) - (x->mean > y->mean); break;
	case 4: c = (x->max < y->max) - (x->max > y->max); break;
	case 5: c = strcmp(sort_ctx_r->tracks[i].name, sort_ctx_r->tracks[j].name); break;
	}
	return c ? c : (i > j) - (i < j); /* stable: first seen first */
}

tk_status tk_report_write_sorted(tk_report *r, tk_writer *out, const char *sort, uint64_t top,
				 tk_error *err)
{
	static const char *keys[] = {"", "total", "count", "mean", "max", "name"};
	int key = 0;
	if (sort) {
		for (int k = 1; k < 6; k++)
			if (strcmp(sort, keys[k]) == 0)
				key = k;
		if (!key)
			return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
					    "unknown sort key '%s' for time reports (total, count, "
					    "mean, max, name)",
					    sort);
	}
	/* --top N alone means the N largest tracks, not the first N met */
	if (!key && top)
		key = 1;
	size_t *order = malloc((r->n_tracks + 1) * sizeof *order);
	tk_report_result *res = malloc((r->n_tracks + 1) * sizeof *res);
	if (!order || !res) {
		free(order);
		free(res);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < r->n_tracks; i++) {
		order[i] = i;
		tk_report_get(r, i, &res[i]);
	}
	if (key) {
		sort_ctx_r = r;
		sort_ctx_key = key;
		sort_ctx_res = res;
		qsort(order, r->n_tracks, sizeof *order, cmp_tracks);
	}
	size_t shown = top && top < r->n_tracks ? (size_t)top : r->n_tracks;
	order[shown] = r->n_tracks; /* then "all" */
	write_rows(r, out, order, shown + 1);
	free(order);
	free(res);
	return TK_OK;
}

void tk_report_write(tk_report *r, tk_writer *out)
{
	(void)tk_report_write_sorted(r, out, NULL, 0, NULL);
}

static void write_rows(tk_report *r, tk_writer *out, const size_t *order, size_t n_rows)
{
	size_t width = 5;
	for (size_t i = 0; i < r->n_tracks; i++) {
		size_t n = strlen(r->tracks[i].name);
		width = n > width ? n : width;
	}
	int w = (int)(width > 64 ? 64 : width);
	switch (r->kind) {
	case TK_REPORT_STATE:
		tk_put_fmt(out, "# time between successive '%s' events per track (ns)\n",
			   r->start.name);
		tk_put_fmt(out, "%-*s %10s %16s %16s %14s %14s %18s\n", w, "track", "n", "mean",
			   "stdev", "min", "max", "total");
		break;
	case TK_REPORT_LATENCY:
		tk_put_fmt(out, "# latency '%s' -> '%s' per track (ns)\n", r->start.name,
			   r->end.name);
		tk_put_fmt(out, "%-*s %10s %16s %16s %14s %14s %18s %14s %14s %14s\n", w, "track",
			   "n", "mean", "stdev", "min", "max", "total", "p50", "p90", "p99");
		break;
	case TK_REPORT_LINREG:
		tk_put_fmt(out,
			   "# '%s' -> '%s' intervals vs their index per track: y = intercept + "
			   "slope * i (ns)\n",
			   r->start.name, r->end.name);
		tk_put_fmt(out, "%-*s %10s %16s %16s %16s %10s\n", w, "track", "n", "mean", "slope",
			   "intercept", "r");
		break;
	}
	for (size_t k = 0; k < n_rows; k++) {
		size_t i = order[k];
		tk_report_result o;
		tk_report_get(r, i, &o);
		const char *name = tk_report_track_name(r, i);
		if (o.n == 0) {
			tk_put_fmt(out, "%-*s %10d\n", w, name, 0);
			continue;
		}
		if (r->kind == TK_REPORT_LINREG) {
			tk_put_fmt(out, "%-*s %10llu %16.3f %16.3f %16.3f %10.6f\n", w, name,
				   (unsigned long long)o.n, o.mean, o.slope, o.intercept, o.r);
			continue;
		}
		tk_put_fmt(out, "%-*s %10llu %16.3f %16.3f %14llu %14llu %18llu", w, name,
			   (unsigned long long)o.n, o.mean, o.stdev, (unsigned long long)o.min,
			   (unsigned long long)o.max, (unsigned long long)o.total);
		if (r->kind == TK_REPORT_LATENCY)
			tk_put_fmt(out, " %14llu %14llu %14llu", (unsigned long long)o.p50,
				   (unsigned long long)o.p90, (unsigned long long)o.p99);
		tk_put_char(out, '\n');
	}
}
