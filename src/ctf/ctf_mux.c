/* Discovery of the traces below a path and the merge of all their streams
 * by time (a binary heap keyed on each stream's next event). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/bytes.h"
#include "ctf/ctf_reader.h"
#include "ctf/ctf_stream.h"

#define MAX_TRACES 4096
#define MAX_DEPTH  16

static bool is_dir(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static bool is_file(const char *p, uint64_t *size)
{
	struct stat sb;
	if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode))
		return false;
	if (size)
		*size = (uint64_t)sb.st_size;
	return true;
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	size_t n = la;
	if (n && s[n - 1] != '/')
		s[n++] = '/';
	memcpy(s + n, b, lb + 1);
	return s;
}

static bool has_metadata(const char *dir)
{
	char *m = join(dir, "metadata");
	bool ok = m && is_file(m, NULL);
	free(m);
	return ok;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of a directory's entries (no dot files). */
static tk_status list_dir(const char *dir, char ***out, size_t *n_out, tk_error *err)
{
	*out = NULL;
	*n_out = 0;
	DIR *d = opendir(dir);
	if (!d)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open directory %s: %s",
				    dir, strerror(errno));
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			char **nv = realloc(v, cap * sizeof *v);
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[n] = strdup(e->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof *v, cmp_str);
	*out = v;
	*n_out = n;
	return TK_OK;
nomem:
	closedir(d);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Collects trace directories below dir (sorted, depth-limited). */
static tk_status find_traces(const char *dir, unsigned depth, char ***dirs, size_t *n, size_t *cap,
			     tk_error *err)
{
	if (has_metadata(dir)) {
		if (*n == MAX_TRACES)
			return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "more than %d traces below the path", MAX_TRACES);
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 8;
			char **nd = realloc(*dirs, nc * sizeof *nd);
			if (!nd)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory");
			*dirs = nd;
			*cap = nc;
		}
		if (!((*dirs)[*n] = strdup(dir)))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		(*n)++;
		return TK_OK;
	}
	if (depth >= MAX_DEPTH)
		return TK_OK;
	char **names;
	size_t nn;
	tk_status st = list_dir(dir, &names, &nn, err);
	if (st != TK_OK)
		return st;
	for (size_t i = 0; i < nn && st == TK_OK; i++) {
		char *sub = join(dir, names[i]);
		if (!sub) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		if (is_dir(sub))
			st = find_traces(sub, depth + 1, dirs, n, cap, err);
		free(sub);
	}
	free_list(names, nn);
	return st;
}

bool ctf_path_is_ctf(const char *path)
{
	uint64_t size;
	if (is_file(path, &size)) {
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		return strcmp(base, "metadata") == 0;
	}
	if (!is_dir(path))
		return false;
	if (has_metadata(path))
		return true;
	char **dirs = NULL;
	size_t n = 0, cap = 0;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = find_traces(path, 1, &dirs, &n, &cap, &err);
	free_list(dirs, n);
	return st == TK_OK && n > 0;
}

static void stream_free(ctf_stream *s)
{
	if (!s)
		return;
	free(s->index);
	tk_input_close(s->in);
	free_list(s->files, s->n_files);
	free(s->name);
	tk_arena_free(&s->pkt_arena);
	tk_arena_free(&s->ev_arena);
	free(s->ev_fast);
	ctf_decoder_fini(&s->dec);
	free(s);
}

static void trace_free(ctf_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_streams; i++)
		stream_free(t->streams[i]);
	free(t->streams);
	ctf_trace_class_free(t->tc);
	free(t->dir);
	free(t->name);
	free(t);
}

/* Reads dir/index/NAME.idx (LTTng): big-endian header (magic 0xC1F1DCC1,
 * major, minor, entry size), then one entry per packet. An index that does
 * not fit the data file is ignored: the packet scan needs none. */
static void load_index(ctf_stream *s, const char *dir, const char *name)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/index/%s.idx", dir, name) >= sizeof path)
		return;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	uint8_t h[16];
	uint64_t fsize = 0;
	is_file(s->files[0], &fsize);
	if (fread(h, 1, 16, f) == 16 && tk_load_be32(h) == 0xC1F1DCC1u) {
		uint32_t elen = tk_load_be32(h + 12);
		if (elen >= 56 && elen <= 4096) {
			uint8_t e[4096];
			ctf_index_entry *v = NULL;
			size_t n = 0, cap = 0;
			bool ok = true;
			while (fread(e, 1, elen, f) == elen) {
				if (n == cap) {
					cap = cap ? cap * 2 : 64;
					ctf_index_entry *nv = realloc(v, cap * sizeof *v);
					if (!nv) {
						ok = false;
						break;
					}
					v = nv;
				}
				ctf_index_entry *x = &v[n++];
				x->offset = tk_load_be64(e);
				x->packet_bits = tk_load_be64(e + 8);
				x->ts_begin = tk_load_be64(e + 24);
				x->ts_end = tk_load_be64(e + 32);
				x->discarded = tk_load_be64(e + 40);
				x->seq = elen >= 72 ? tk_load_be64(e + 64) : UINT64_MAX;
				if (x->offset >= fsize || (n > 1 && x->offset <= v[n - 2].offset))
					ok = false;
			}
			if (ok && n) {
				s->index = v;
				s->n_index = n;
			} else {
				free(v);
			}
		}
	}
	fclose(f);
}

typedef struct file_head {
	ctf_stream *s;
	ctf_stream_head h;
} file_head;

static int cmp_head(const void *a, const void *b)
{
	const file_head *x = a, *y = b;
	if (x->h.ts_begin != y->h.ts_begin)
		return x->h.ts_begin < y->h.ts_begin ? -1 : 1;
	return x->s->order < y->s->order ? -1 : 1;
}

/* LTTng tracefile rotation splits one stream over several files (chan_0_0,
 * chan_0_1, ...): files whose first packet has the same stream class and
 * stream_instance_id become one stream, read in timestamp_begin order. */
static tk_status group_rotated_files(ctf_trace *t, tk_error *err)
{
	if (t->n_streams < 2)
		return TK_OK;
	file_head *fh = calloc(t->n_streams, sizeof *fh);
	if (!fh)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = TK_OK;
	for (size_t i = 0; i < t->n_streams; i++) {
		fh[i].s = t->streams[i];
		tk_error e2;
		tk_error_clear(&e2);
		/* an unreadable first packet is reported when the stream is read */
		if (ctf_stream_peek(t->streams[i], &fh[i].h, &e2) != TK_OK)
			fh[i].h.valid = false;
	}
	qsort(fh, t->n_streams, sizeof *fh, cmp_head);
	size_t n_out = 0;
	for (size_t i = 0; i < t->n_streams; i++) {
		if (!fh[i].s)
			continue;
		ctf_stream *lead = fh[i].s;
		size_t n_files = 1;
		for (size_t j = i + 1; j < t->n_streams; j++)
			if (fh[j].s && fh[i].h.valid && fh[i].h.has_instance && fh[j].h.valid &&
			    fh[j].h.has_instance && fh[j].h.stream_class == fh[i].h.stream_class &&
			    fh[j].h.instance == fh[i].h.instance)
				n_files++;
		if (n_files > 1) {
			char **files = calloc(n_files, sizeof *files);
			if (!files) {
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
				break;
			}
			files[0] = lead->files[0];
			size_t k = 1;
			for (size_t j = i + 1; j < t->n_streams; j++)
				if (fh[j].s && fh[j].h.valid && fh[j].h.has_instance &&
				    fh[j].h.stream_class == fh[i].h.stream_class &&
				    fh[j].h.instance == fh[i].h.instance) {
					files[k++] = fh[j].s->files[0];
					fh[j].s->files[0] = NULL;
					stream_free(fh[j].s);
					fh[j].s = NULL;
				}
			free(lead->files);
			lead->files = files;
			lead->n_files = n_files;
		}
		fh[i].s = NULL;
		t->streams[n_out++] = lead;
	}
	/* keep discovery order (file names) for the merge's tie-breaks */
	for (size_t i = 1; i < n_out; i++)
		for (size_t j = i; j > 0 && t->streams[j - 1]->order > t->streams[j]->order; j--) {
			ctf_stream *x = t->streams[j];
			t->streams[j] = t->streams[j - 1];
			t->streams[j - 1] = x;
		}
	for (size_t i = 0; i < n_out; i++)
		t->streams[i]->stream_id = i;
	t->n_streams = n_out;
	free(fh);
	return st;
}

static tk_status open_trace(ctf_reader *r, const char *dir, const char *rel_name, uint64_t *order,
			    ctf_trace **out, tk_error *err)
{
	*out = NULL;
	ctf_trace *t = calloc(1, sizeof *t);
	if (!t || !(t->dir = strdup(dir))) {
		free(t);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	t->reader = r;
	char *mpath = join(dir, "metadata");
	char *text = NULL;
	size_t len;
	bool packetized;
	tk_status st = mpath ? ctf_metadata_read_file(mpath, &text, &len, &packetized, err)
			     : tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (st == TK_OK) {
		tk_error_set_file(err, mpath);
		st = ctf_trace_class_parse(text, len, mpath, r->log, r->log_user, &t->tc, err);
	}
	free(text);
	free(mpath);
	if (st != TK_OK)
		goto fail;
	/* babeltrace2's trace name: hostname, then the path below the common parent */
	const char *host = NULL;
	for (size_t i = 0; i < t->tc->n_env; i++)
		if (!strcmp(t->tc->env[i].key, "hostname") && !t->tc->env[i].is_int)
			host = t->tc->env[i].str;
	size_t nl = (host ? strlen(host) : 0) + strlen(rel_name) + 2;
	t->name = malloc(nl);
	if (!t->name) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto fail;
	}
	snprintf(t->name, nl, "%s%s%s", host ? host : "", host && rel_name[0] ? "/" : "", rel_name);
	char **names;
	size_t nn;
	if ((st = list_dir(dir, &names, &nn, err)) != TK_OK)
		goto fail;
	t->streams = calloc(nn + 1, sizeof *t->streams);
	if (!t->streams) {
		free_list(names, nn);
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nn; i++) {
		if (!strcmp(names[i], "metadata"))
			continue;
		char *p = join(dir, names[i]);
		uint64_t size;
		if (!p || !is_file(p, &size) || size == 0) {
			free(p);
			if (!p) {
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
				break;
			}
			continue;
		}
		ctf_stream *s = calloc(1, sizeof *s);
		char **files = malloc(sizeof *files);
		char *name = strdup(p);
		if (!s || !files || !name) {
			free(s);
			free(files);
			free(name);
			free(p);
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		files[0] = p;
		s->files = files;
		s->n_files = 1;
		s->name = name;
		s->trace = t;
		s->order = (*order)++;
		s->prev_disc = s->prev_seq = s->prev_begin = s->prev_end = UINT64_MAX;
		tk_arena_init(&s->pkt_arena, 16 * 1024);
		tk_arena_init(&s->ev_arena, 16 * 1024);
		s->pkt_arena.limit = s->ev_arena.limit = (size_t)1 << 30;
		s->stream_id = t->n_streams;
		load_index(s, dir, names[i]);
		t->streams[t->n_streams++] = s;
	}
	free_list(names, nn);
	if (st == TK_OK)
		st = group_rotated_files(t, err);
	if (st != TK_OK)
		goto fail;
	*out = t;
	return TK_OK;
fail:
	trace_free(t);
	return st;
}

void ctf_reader_close(ctf_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_traces; i++)
		trace_free(r->traces[i]);
	free(r->traces);
	free(r->heap);
	free(r);
}

tk_status ctf_reader_open(const char *path, tk_log_fn log, void *log_user, ctf_reader **out,
			  tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	ctf_reader *r = calloc(1, sizeof *r);
	if (!r)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	r->log = log;
	r->log_user = log_user;
	char *root = NULL;
	uint64_t size;
	if (is_file(path, &size)) {
		/* a metadata file names its directory */
		const char *slash = strrchr(path, '/');
		root = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	} else {
		root = strdup(path);
	}
	char **dirs = NULL;
	size_t n = 0, cap = 0;
	tk_status st =
	    root ? TK_OK : tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (st == TK_OK && !is_dir(root))
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "not a directory: %s", root);
	if (st == TK_OK)
		st = find_traces(root, 0, &dirs, &n, &cap, err);
	if (st == TK_OK && n == 0)
		st = tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET,
				  "no CTF trace (no metadata file) below %s", root);
	if (st == TK_OK) {
		r->traces = calloc(n, sizeof *r->traces);
		if (!r->traces)
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	/* names relative to the common parent when there are several traces */
	size_t common = 0;
	if (st == TK_OK && n > 1) {
		common = strlen(dirs[0]);
		for (size_t i = 1; i < n; i++) {
			size_t k = 0;
			while (k < common && dirs[i][k] == dirs[0][k])
				k++;
			common = k;
		}
		while (common > 0 && dirs[0][common - 1] != '/')
			common--;
	}
	uint64_t order = 0;
	for (size_t i = 0; st == TK_OK && i < n; i++) {
		const char *rel = n > 1 ? dirs[i] + common : "";
		st = open_trace(r, dirs[i], rel, &order, &r->traces[i], err);
		if (st == TK_OK)
			r->n_traces++;
	}
	free_list(dirs, n);
	free(root);
	if (st != TK_OK) {
		ctf_reader_close(r);
		return st;
	}
	size_t total = 0;
	for (size_t i = 0; i < r->n_traces; i++)
		total += r->traces[i]->n_streams;
	r->heap = calloc(total + 1, sizeof *r->heap);
	if (!r->heap) {
		ctf_reader_close(r);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	*out = r;
	return TK_OK;
}

/* ---- merge ---- */

/* A stream's sort key: its first pending discard report, else its event. */
static bool key_of(const ctf_stream *s, int64_t *ns)
{
	if (s->n_pending && s->pending[0].has_range) {
		*ns = s->pending[0].begin_ns;
		return true;
	}
	if (s->has_event && s->ev.has_clock) {
		*ns = s->ev.ns;
		return true;
	}
	return false;
}

static inline bool before(const ctf_stream *a, const ctf_stream *b)
{
	if (__builtin_expect(!a->n_pending && !b->n_pending && a->has_event && b->has_event &&
				 a->ev.has_clock && b->ev.has_clock,
			     1)) {
		/* the usual case: both keys are event times */
		if (a->ev.ns != b->ev.ns)
			return a->ev.ns < b->ev.ns;
		return a->order < b->order;
	}
	int64_t ta = 0, tb = 0;
	bool ha = key_of(a, &ta), hb = key_of(b, &tb);
	if (ha && hb && ta != tb)
		return ta < tb;
	return a->order < b->order;
}

static void sift_down(ctf_reader *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < r->heap_n && before(r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->heap_n && before(r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		ctf_stream *t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static void sift_up(ctf_reader *r, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(r->heap[i], r->heap[p]))
			return;
		ctf_stream *t = r->heap[i];
		r->heap[i] = r->heap[p];
		r->heap[p] = t;
		i = p;
	}
}

static void heap_remove_top(ctf_reader *r)
{
	r->heap[0] = r->heap[--r->heap_n];
	if (r->heap_n)
		sift_down(r, 0);
}

/* Delivers the pending discard reports at the top of the heap, then the
 * first event. */
static tk_status settle(ctf_reader *r, const ctf_event_out **out)
{
	for (;;) {
		if (!r->heap_n)
			return TK_END;
		ctf_stream *s = r->heap[0];
		if (!s->n_pending)
			break;
		ctf_discard d = s->pending[0];
		s->pending[0] = s->pending[1];
		s->n_pending--;
		if (r->on_discard)
			r->on_discard(r->discard_user, &d);
		if (!s->has_event && !s->n_pending)
			heap_remove_top(r);
		else
			sift_down(r, 0);
	}
	*out = &r->heap[0]->ev;
	return TK_OK;
}

/* The top stream has just advanced (status st): puts it back in order. */
static __attribute__((noinline)) tk_status reorder(ctf_reader *r, tk_status st,
						   const ctf_event_out **out, tk_error *err)
{
	ctf_stream *s = r->heap[0];
	if (st != TK_OK && st != TK_END) {
		r->heap_n = 0;
		return st;
	}
	(void)err;
	if (st == TK_END && !s->n_pending)
		heap_remove_top(r);
	else
		sift_down(r, 0);
	return settle(r, out);
}

static __attribute__((noinline)) tk_status first_events(ctf_reader *r, const ctf_event_out **out,
							tk_error *err)
{
	tk_status st;
	r->started = true;
	for (size_t i = 0; i < r->n_traces; i++)
		for (size_t j = 0; j < r->traces[i]->n_streams; j++) {
			ctf_stream *s = r->traces[i]->streams[j];
			st = ctf_stream_advance(s, err);
			if (st != TK_OK && st != TK_END)
				return st;
			if (st == TK_END && !s->n_pending)
				continue;
			r->heap[r->heap_n++] = s;
			sift_up(r, r->heap_n - 1);
		}
	return settle(r, out);
}

static inline __attribute__((always_inline)) tk_status
next_event(ctf_reader *r, const ctf_event_out **out, tk_error *err)
{
	if (__builtin_expect(!r->started, 0))
		return first_events(r, out, err);
	if (!r->heap_n)
		return TK_END;
	/* the event returned last time is consumed: advance its stream */
	ctf_stream *s = r->heap[0];
	tk_status st = ctf_stream_advance(s, err);
	/* the usual case: no report to deliver and the stream stays first
	 * (it is the only one, or its next event still comes before the other
	 * streams' heads): no heap work */
	if (__builtin_expect(st == TK_OK && !s->n_pending, 1) &&
	    (r->heap_n == 1 ||
	     (before(s, r->heap[1]) && (r->heap_n == 2 || before(s, r->heap[2]))))) {
		*out = &s->ev;
		return TK_OK;
	}
	return reorder(r, st, out, err);
}

tk_status ctf_reader_next(ctf_reader *r, const ctf_event_out **out, tk_error *err)
{
	if (tk_interrupt_pending())
		return tk_error_set(err, TK_ERR_INTERRUPTED, TK_NO_OFFSET, "interrupted");
	return next_event(r, out, err);
}

tk_status ctf_reader_each(ctf_reader *r, ctf_event_fn fn, void *user, tk_error *err)
{
	const ctf_event_out *ev;
	tk_status st;
	for (;;) {
		if (__builtin_expect(tk_interrupt_pending(), 0))
			return tk_error_set(err, TK_ERR_INTERRUPTED, TK_NO_OFFSET, "interrupted");
		if ((st = next_event(r, &ev, err)) != TK_OK || (st = fn(user, ev, err)) != TK_OK)
			return st;
	}
}

/* The bound ctf_stream_run_lean may run the top stream to: the heads of
 * the next two streams of the heap, which next_event would compare it
 * with. False when one of them has no event time as its key (a pending
 * discard report, no clock): then every event goes through next_event. */
static bool run_bound(const ctf_reader *r, ctf_run_bound *b)
{
	b->bounded = false;
	for (size_t i = 1; i < 3 && i < r->heap_n; i++) {
		const ctf_stream *h = r->heap[i];
		if (h->n_pending || !h->has_event || !h->ev.has_clock)
			return false;
		if (!b->bounded || h->ev.ns < b->ns || (h->ev.ns == b->ns && h->order < b->order)) {
			b->bounded = true;
			b->ns = h->ev.ns;
			b->order = h->order;
		}
	}
	return true;
}

/* Whether some stream class of the reader's traces can take the lean run
 * (ctf_stream_run_lean): only then does ctf_reader_span look for it. */
static bool any_lean_run(const ctf_reader *r)
{
	if (!r->lean)
		return false;
	for (size_t i = 0; i < r->n_traces; i++) {
		const ctf_trace_class *tc = r->traces[i]->tc;
		for (size_t k = 0; k < tc->n_streams; k++)
			if (tc->streams[k]->all_fast)
				return true;
	}
	return false;
}

tk_status ctf_reader_span(ctf_reader *r, ctf_span *span, tk_error *err)
{
	const ctf_event_out *ev;
	tk_status st;
	uint64_t n = 0, n_timed = 0;
	int64_t first = INT64_MAX, last = INT64_MIN;
	bool runs = any_lean_run(r);
	ctf_run_bound b;
#define COUNT(ev)                                                                                  \
	do {                                                                                       \
		n++;                                                                               \
		if ((ev)->has_clock) {                                                             \
			int64_t ns_ = (ev)->ns;                                                    \
			n_timed++;                                                                 \
			first = ns_ < first ? ns_ : first;                                         \
			last = ns_ > last ? ns_ : last;                                            \
		}                                                                                  \
	} while (0)
	/* the same merge as ctf_reader_next, inlined: no call per event */
	if (!runs) {
		while ((st = next_event(r, &ev, err)) == TK_OK)
			COUNT(ev);
		goto out;
	}
	/* the top stream's events that the lean fast path decodes and that
	 * stay first are counted in a loop of their own */
	st = next_event(r, &ev, err);
	while (st == TK_OK) {
		COUNT(ev);
		ctf_stream *s = r->heap[0]; /* ev's stream */
		if (s->lean_run && run_bound(r, &b)) {
			ctf_span acc = {n, n_timed, first, last};
			int rc = ctf_stream_run_lean(s, &b, &acc);
			n = acc.n_events;
			n_timed = acc.n_timed;
			first = acc.first_ns;
			last = acc.last_ns;
			if (rc == CTF_RUN_REORDER) {
				st = reorder(r, TK_OK, &ev, err);
				continue;
			}
		}
		st = next_event(r, &ev, err);
	}
#undef COUNT
out:
	span->n_events = n;
	span->n_timed = n_timed;
	span->first_ns = first;
	span->last_ns = last;
	return st == TK_END ? TK_OK : st;
}

tk_status ctf_reader_open_memory(const char *metadata, size_t mlen, const uint8_t *stream,
				 size_t size, tk_log_fn log, void *log_user, ctf_reader **out,
				 tk_error *err)
{
	*out = NULL;
	ctf_reader *r = calloc(1, sizeof *r);
	ctf_trace *t = calloc(1, sizeof *t);
	ctf_stream *s = calloc(1, sizeof *s);
	if (r)
		r->traces = calloc(1, sizeof *r->traces);
	if (t) {
		t->streams = calloc(1, sizeof *t->streams);
		t->dir = strdup("memory");
		t->name = strdup("");
	}
	if (s) {
		s->files = calloc(1, sizeof *s->files);
		s->name = strdup("memory");
		if (s->files)
			s->files[0] = strdup("memory");
	}
	if (!r || !t || !s || !r->traces || !t->streams || !t->dir || !t->name || !s->files ||
	    !s->name || !s->files[0]) {
		if (s && s->files)
			free(s->files[0]);
		if (s) {
			free(s->files);
			free(s->name);
		}
		free(s);
		trace_free(t);
		ctf_reader_close(r);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	r->log = log;
	r->log_user = log_user;
	r->traces[0] = t;
	r->n_traces = 1;
	t->reader = r;
	s->n_files = 1;
	s->mem = stream;
	s->mem_size = size;
	s->trace = t;
	s->prev_disc = s->prev_seq = s->prev_begin = s->prev_end = UINT64_MAX;
	tk_arena_init(&s->pkt_arena, 16 * 1024);
	tk_arena_init(&s->ev_arena, 16 * 1024);
	s->pkt_arena.limit = s->ev_arena.limit = (size_t)64 << 20;
	if (size)
		t->streams[t->n_streams++] = s;
	else
		stream_free(s);
	tk_status st =
	    ctf_trace_class_parse(metadata, mlen, "metadata", log, log_user, &t->tc, err);
	if (st == TK_OK) {
		r->heap = calloc(2, sizeof *r->heap);
		if (!r->heap)
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	if (st != TK_OK) {
		ctf_reader_close(r);
		return st;
	}
	*out = r;
	return TK_OK;
}
