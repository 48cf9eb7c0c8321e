/* stackcollapse-perf.pl over perf.data, without the text round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_walk.h"
#include "base/arena.h"
#include "base/hashmap.h"
#include "model/filter.h"
#include "output/folded_perf.h"
#include "output/report_perf.h"

#define KEY_MAX 65536
/* distinct stacks kept in memory; a hostile file cannot make it grow past */
#define FOLDED_MEMORY_LIMIT (1024u << 20)

typedef struct stack_entry {
	const char *key;
	size_t len;
	uint64_t count;
} stack_entry;

typedef struct folder {
	tk_arena arena;
	tk_hashmap by_hash; /* hash (+ probe) -> index + 1 */
	stack_entry *v;
	size_t n, cap;
	char key[KEY_MAX];
	size_t len;
	bool truncated;
	char event[128];     /* the one event folded */
	char others[8][128]; /* the other events met, for the warning */
	size_t n_others;
	bool more_others;
} folder;

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (uint8_t)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static bool folder_count(folder *fo, uint64_t weight)
{
	uint64_t h = hash_bytes(fo->key, fo->len);
	for (uint64_t probe = 0;; probe++) {
		uint64_t k = h + probe * 0x9e3779b97f4a7c15ull;
		uint64_t *idx = tk_hashmap_get(&fo->by_hash, k);
		if (!idx) {
			if (fo->n == fo->cap) {
				size_t ncap = fo->cap ? fo->cap * 2 : 1024;
				stack_entry *nv = realloc(fo->v, ncap * sizeof *nv);
				if (!nv)
					return false;
				fo->v = nv;
				fo->cap = ncap;
			}
			char *copy = tk_arena_strndup(&fo->arena, fo->key, fo->len);
			if (!copy || !tk_hashmap_put(&fo->by_hash, k, fo->n + 1))
				return false;
			fo->v[fo->n++] = (stack_entry){copy, fo->len, weight};
			return true;
		}
		stack_entry *e = &fo->v[*idx - 1];
		if (e->len == fo->len && memcmp(e->key, fo->key, fo->len) == 0) {
			e->count += weight;
			return true;
		}
	}
}

/* Remembers an event that was not folded (once per name; names are cut
 * to fit, as they only go into the warning). */
static void note_other(folder *fo, const char *name)
{
	for (size_t i = 0; i < fo->n_others; i++)
		if (strncmp(fo->others[i], name, sizeof fo->others[i] - 1) == 0)
			return;
	if (fo->n_others == sizeof fo->others / sizeof fo->others[0]) {
		fo->more_others = true;
		return;
	}
	snprintf(fo->others[fo->n_others++], sizeof fo->others[0], "%s", name);
}

static void key_char(folder *fo, char c)
{
	if (fo->len < KEY_MAX - 1)
		fo->key[fo->len++] = c;
	else
		fo->truncated = true;
}

/* One frame as stackcollapse-perf's tidy_generic leaves it. */
static void key_func(folder *fo, const tk_addr_loc *loc)
{
	if (loc->name && loc->name[0] == '(')
		return; /* the script skips such lines (it takes them for process names) */
	key_char(fo, ';');
	if (!loc->sym) {
		const char *name = "unknown";
		if (loc->map) {
			const char *d = loc->map->dso->name;
			const char *slash = strrchr(d, '/');
			name = slash ? slash + 1 : d;
		}
		key_char(fo, '[');
		for (const char *p = name; *p; p++)
			if (*p != '"' && *p != '\'')
				key_char(fo, *p == ';' ? ':' : *p);
		key_char(fo, ']');
		return;
	}
	const char *name = loc->name;
	/* cut at the first "(" that does not open "(anonymous namespace)", unless the name looks
	 * like .(...). (Java) */
	const char *cut = NULL;
	const char *open = strchr(name, '(');
	if (open) {
		const char *dotparen = strstr(name, ".(");
		bool java_like = dotparen && strstr(dotparen + 2, ").") != NULL;
		if (!java_like) {
			for (const char *p = open; p; p = strchr(p + 1, '('))
				if (strncmp(p + 1, "anonymous namespace)", 20) != 0) {
					cut = p;
					break;
				}
		}
	}
	for (const char *p = name; *p && p != cut; p++)
		if (*p != '"' && *p != '\'')
			key_char(fo, *p == ';' ? ':' : *p);
}

/* What folding keeps across samples (the walk's user pointer). */
typedef struct fold_ctx {
	folder *fo;
	const tk_perf_attr *first;
} fold_ctx;

static tk_status fold_sample(void *user, const tk_profile_sample *ps, tk_error *err)
{
	fold_ctx *c = user;
	const tk_perf_record *rec = ps->rec;
	const tk_perf_sample *s = ps->s;
	/* one event only, as the script folds (the first it meets, or
	 * the one --event names): stacks of different events do not add */
	if (!c->first) {
		c->first = rec->attr;
		snprintf(c->fo->event, sizeof c->fo->event, "%s", ps->event);
	} else if (rec->attr != c->first && strcmp(ps->event, c->fo->event) != 0) {
		note_other(c->fo, ps->event);
		return TK_OK;
	}
	tk_thread *t = ps->thread;
	c->fo->len = 0;
	for (const char *p = t ? t->comm : ":-1"; *p; p++)
		key_char(c->fo, *p == ' ' ? '_' : *p);
	if ((s->sample_type & TK_PERF_SAMPLE_CALLCHAIN) && ps->chain->n) {
		for (size_t i = ps->chain->n; i-- > 0;)
			key_func(c->fo, &ps->chain->frames[i].loc);
	} else if (s->sample_type & TK_PERF_SAMPLE_IP) {
		/* no call chain (not recorded, or empty: a user-mode sample
		 * of --kernel-callchains, a failed unwind): the sample's own
		 * IP is the leaf, so its time is not charged to the comm */
		tk_addr_loc loc;
		tk_profile_sample_leaf(ps, &loc);
		key_func(c->fo, &loc);
	}
	if (c->fo->arena.total > FOLDED_MEMORY_LIMIT)
		return tk_error_set(err, TK_ERR_LIMIT, rec->offset,
				    "folded stacks: more than %u MiB of distinct stacks",
				    FOLDED_MEMORY_LIMIT >> 20);
	if (!folder_count(c->fo, ps->weight))
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory folding stacks");
	return TK_OK;
}

static tk_status fold_all(const char *in, const tk_render_options *opt, folder *fo, tk_error *err)
{
	/* --begin/--end/--time, --pid/--tid/--cpu as report applies them */
	fold_ctx c = {.fo = fo};
	return tk_profile_walk(in, opt, fold_sample, &c, err);
}

static int cmp_entry(const void *pa, const void *pb)
{
	const stack_entry *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->key, b->key, n);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

tk_status tk_perf_folded_to(const char *in, const tk_render_options *opt, tk_writer *w,
			    tk_error *err)
{
	return tk_perf_folded_to_event(in, opt, w, NULL, 0, err);
}

tk_status tk_perf_folded_to_event(const char *in, const tk_render_options *opt, tk_writer *w,
				  char *event, size_t event_cap, tk_error *err)
{
	folder *fo = calloc(1, sizeof *fo);
	if (!fo)
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	tk_arena_init(&fo->arena, 256 * 1024);
	tk_hashmap_init(&fo->by_hash);
	tk_status st = fold_all(in, opt, fo, err);
	if (event && event_cap)
		snprintf(event, event_cap, "%s", fo->event);
	if (st == TK_OK) {
		if (fo->n)
			qsort(fo->v, fo->n, sizeof *fo->v, cmp_entry);
		for (size_t i = 0; i < fo->n; i++) {
			tk_put_mem(w, fo->v[i].key, fo->v[i].len);
			tk_put_char(w, ' ');
			tk_put_u64(w, fo->v[i].count);
			tk_put_char(w, '\n');
		}
		if (fo->truncated && opt->log)
			opt->log(opt->log_user, 0,
				 "some stacks were longer than 64 KiB and were cut");
		if (fo->n_others && opt->log) {
			char msg[1400];
			int k = snprintf(
			    msg, sizeof msg,
			    "folded stacks of event '%s' only; also in the file:", fo->event);
			for (size_t i = 0; i < fo->n_others && k > 0 && (size_t)k < sizeof msg; i++)
				k += snprintf(msg + k, sizeof msg - (size_t)k, "%s %s",
					      i ? "," : "", fo->others[i]);
			if (k > 0 && (size_t)k < sizeof msg)
				snprintf(msg + k, sizeof msg - (size_t)k,
					 "%s (choose one with --event)",
					 fo->more_others ? ", ..." : "");
			opt->log(opt->log_user, 0, msg);
		}
	}
	free(fo->v);
	tk_hashmap_free(&fo->by_hash);
	tk_arena_free(&fo->arena);
	free(fo);
	return st;
}

tk_status tk_perf_folded_write(const char *in, const char *out_path, const tk_render_options *opt,
			       tk_error *err)
{
	tk_writer *w;
	tk_status st = strcmp(out_path, "-") == 0 ? tk_writer_open_fd(1, "stdout", &w, err)
						  : tk_writer_open_atomic(out_path, &w, err);
	if (st != TK_OK)
		return st;
	st = tk_perf_folded_to(in, opt, w, err);
	if (st != TK_OK) {
		tk_writer_abort(w);
		return st;
	}
	return tk_writer_commit(w, err);
}
