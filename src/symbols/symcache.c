/* The image cache: one symbol table per (path, build id), loaded on first
 * use, failures remembered. Lookups hash the key (FNV-1a) into a tk_hashmap
 * of entry indexes; equal hashes are confirmed by comparing the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/hashmap.h"
#include "symbols/kallsyms_core.h"
#include "symbols/kernel_prefetch.h"
#include "symbols/kernel_syms.h"
#include "symbols/symcache_disk.h"
#include "symbols/symtab_internal.h"

typedef struct entry {
	char *key;      /* "path\0buildidhex" flattened as "path|hex" */
	tk_symtab *tab; /* NULL: tried and failed */
} entry;

struct tk_symcache {
	tk_symcache_options opt;
	char *debug_dir;
	entry *entries;
	size_t n, cap;
	tk_hashmap index; /* key hash -> entry index + 1 (chained through probing below) */
	tk_symtab *kernel;
	bool kernel_tried;
	tk_hashmap maps; /* pid -> entry index + 1 */
	uint64_t loads;
	tk_symdisk *disk; /* the persistent cache; NULL = off */
	/* the kernel's table loading in the background (kernel_prefetch.h),
	 * for tk_symcache_kernel(), kept until the end (it may still encode
	 * the table after handing it over); pf_taken: handed over */
	tk_kprefetch *pf;
	bool pf_taken;
	/* the running kernel's core symbols from perf's copy of kallsyms
	 * (kallsyms_core.h): copy_state 0 not looked for yet, 1 kcopy is
	 * its path, -1 none; copy_match: its head checked (1 same as
	 * /proc/kallsyms, -1 not); kernel_rest: the whole /proc/kallsyms
	 * table the core's lookups outside it go to, loaded then */
	int copy_state, copy_match;
	char kcopy[4096];
	tk_symtab *kernel_rest;
	bool rest_tried;
};

static uint64_t fnv1a(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

tk_symcache *tk_symcache_new(const tk_symcache_options *opt)
{
	tk_symcache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	if (opt)
		c->opt = *opt;
	const char *home = getenv("HOME");
	/* not PERF_BUILDID_DIR: perf 6.1 sets it for the scripts it runs
	 * (from buildid.dir or $HOME) but never reads it */
	if (c->opt.debug_dir)
		c->debug_dir = strdup(c->opt.debug_dir);
	else if (home && *home && (c->debug_dir = malloc(strlen(home) + 8)))
		sprintf(c->debug_dir, "%s/.debug", home);
	c->opt.root = dup_or_null(c->opt.root);
	c->opt.kallsyms = dup_or_null(c->opt.kallsyms);
	c->opt.perf_map_dir = dup_or_null(c->opt.perf_map_dir);
	c->opt.debug_dir = NULL;
	c->disk = tk_symdisk_open(c->opt.cache_dir, c->opt.no_symbol_cache);
	c->opt.cache_dir = NULL;
	tk_hashmap_init(&c->index);
	tk_hashmap_init(&c->maps);
	return c;
}

void tk_symcache_free(tk_symcache *c)
{
	if (!c)
		return;
	/* the threads still reading tables first: the prefetch encoding the
	 * kernel's, the writer encoding copies that point into the others */
	if (c->pf) {
		int whole_wrote = 2;
		tk_symdisk_count_write(c->disk, tk_kprefetch_finish(c->pf, &whole_wrote));
		tk_symdisk_count_write(c->disk, whole_wrote);
	}
	tk_symdisk_drain(c->disk);
	for (size_t i = 0; i < c->n; i++) {
		free(c->entries[i].key);
		tk_symtab_free(c->entries[i].tab);
	}
	free(c->entries);
	tk_hashmap_free(&c->index);
	tk_hashmap_free(&c->maps);
	tk_symtab_free(c->kernel);
	tk_symtab_free(c->kernel_rest);
	tk_symdisk_free(c->disk);
	free(c->debug_dir);
	free((char *)c->opt.root);
	free((char *)c->opt.kallsyms);
	free((char *)c->opt.perf_map_dir);
	free(c);
}

static void warn(tk_symcache *c, const tk_error *err, const char *what)
{
	if (!c->opt.log)
		return;
	char msg[900];
	/* The last candidate tried is named only when it is not `what`. */
	bool other = err->file[0] && strcmp(err->file, what) != 0;
	snprintf(msg, sizeof msg, "no symbols for %s: %s%s%s", what, other ? err->file : "",
		 other ? ": " : "", err->message);
	c->opt.log(c->opt.log_user, 0, msg);
}

static bool add_entry(tk_symcache *c, char *key, tk_symtab *tab, uint64_t hash)
{
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 32;
		entry *e = realloc(c->entries, ncap * sizeof *e);
		if (!e)
			return false;
		c->entries = e;
		c->cap = ncap;
	}
	c->entries[c->n] = (entry){key, tab};
	c->n++;
	/* Linear probing on the hash value itself keeps colliding keys apart. */
	while (tk_hashmap_get(&c->index, hash))
		hash++;
	/* Unindexed on failure: still owned (and freed) by the cache. */
	tk_hashmap_put(&c->index, hash, c->n);
	return true;
}

static entry *find_entry(tk_symcache *c, const char *key, uint64_t hash)
{
	uint64_t *v;
	while ((v = tk_hashmap_get(&c->index, hash))) {
		entry *e = &c->entries[*v - 1];
		if (strcmp(e->key, key) == 0)
			return e;
		hash++;
	}
	return NULL;
}

/* The files one image's candidates resolved to: perf's build-id cache
 * hard-links its copy to the original when it can, and loading the same
 * inode twice gives the same table twice. */
typedef struct seen_files {
	dev_t dev[6];
	ino_t ino[6];
	size_t n;
} seen_files;

/* Loads path when it exists, and, given a build id, only if it matches;
 * NULL (not found) for a file already tried for this image. */
static tk_symtab *try_candidate(tk_symcache *c, const char *path, const uint8_t *id, size_t id_len,
				seen_files *seen, tk_error *err)
{
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		tk_error_set_file(err, path);
		tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET, "not found");
		return NULL;
	}
	for (size_t i = 0; i < seen->n; i++)
		if (seen->dev[i] == sb.st_dev && seen->ino[i] == sb.st_ino)
			return NULL;
	if (seen->n < sizeof seen->dev / sizeof seen->dev[0]) {
		seen->dev[seen->n] = sb.st_dev;
		seen->ino[seen->n++] = sb.st_ino;
	}
	tk_symtab *t;
	if (tk_symtab_load_elf(path, &t, err) != TK_OK)
		return NULL;
	c->loads++;
	if (id_len && (t->build_id_len != id_len || memcmp(t->build_id, id, id_len) != 0)) {
		tk_error_set(err, TK_ERR_NOT_FOUND, TK_NO_OFFSET,
			     "build id differs from the recorded one (the file changed since)");
		tk_symtab_free(t);
		return NULL;
	}
	return t;
}

/* Where an image's symbols may come from, in perf's order
 * (binary_type_symtab[] in perf's symbol.c): the build-id cache's copy of
 * the image, its "debug" file, the system debuginfo by build id, then the
 * path itself; old_layout: the older build-id cache layout, where the
 * link is the file (tried when the first candidate is missing). */
typedef struct candidates {
	char path[4][4096];
	size_t n;
	char old_layout[4096]; /* "" = none */
} candidates;

static void image_candidates(const tk_symcache *c, const char *path, const uint8_t *id,
			     size_t id_len, candidates *cd)
{
	char hex[2 * TK_BUILD_ID_MAX + 1];
	size_t n = 0;
	cd->old_layout[0] = '\0';
	if (id_len) {
		tk_build_id_hex(id, id_len, hex);
		if (c->debug_dir && !c->opt.no_debug_cache) {
			/* .build-id/xx/rest links to DIR/<id>/ holding "elf" and
			 * "debug" (perf >= 4.5), or straight to the file (older). */
			snprintf(cd->path[n++], sizeof cd->path[0], "%s/.build-id/%.2s/%s/elf",
				 c->debug_dir, hex, hex + 2);
			snprintf(cd->path[n++], sizeof cd->path[0], "%s/.build-id/%.2s/%s/debug",
				 c->debug_dir, hex, hex + 2);
			snprintf(cd->old_layout, sizeof cd->old_layout, "%s/.build-id/%.2s/%s",
				 c->debug_dir, hex, hex + 2);
		}
		snprintf(cd->path[n++], sizeof cd->path[0],
			 "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	}
	if (path && *path)
		snprintf(cd->path[n++], sizeof cd->path[0], "%s%s", c->opt.root ? c->opt.root : "",
			 path);
	cd->n = n;
}

/* Like perf, the first candidate with a .symtab gives the symbols;
 * program headers (for address mapping) come from the first loadable
 * image when the symbol file lacks them. */
static tk_symtab *load_image(tk_symcache *c, const candidates *cd, const uint8_t *id, size_t id_len,
			     tk_error *err)
{
	tk_symtab *syms = NULL, *runtime = NULL;
	seen_files seen = {.n = 0};
	for (size_t i = 0; i < cd->n && !(syms && syms->from_symtab); i++) {
		tk_symtab *t = try_candidate(c, cd->path[i], id, id_len, &seen, err);
		if (!t && i == 0 && cd->old_layout[0])
			t = try_candidate(c, cd->old_layout, id, id_len, &seen, err);
		if (!t)
			continue;
		/* Loadable: an executable segment with bytes in the file (a
		 * separate debug file keeps the program headers, but with
		 * p_filesz 0 and meaningless offsets). */
		bool is_runtime = false;
		for (size_t k = 0; k < t->n_segs; k++)
			is_runtime |= t->segs[k].exec && t->segs[k].filesz > 0;
		if (!syms || (t->from_symtab && !syms->from_symtab) || (syms->n == 0 && t->n > 0)) {
			if (syms != runtime)
				tk_symtab_free(syms);
			syms = t;
		}
		if (!runtime && is_runtime)
			runtime = t;
		if (t != syms && t != runtime)
			tk_symtab_free(t);
	}
	if (!syms)
		return runtime;
	if (runtime && runtime != syms) {
		/* PLT entries exist only in the loadable image. */
		if (syms->n_plt == 0 && !tk_symtab_merge_plt(syms, runtime)) {
			tk_symtab_free(runtime);
			tk_symtab_free(syms);
			tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			return NULL;
		}
		free(syms->segs);
		syms->segs = runtime->segs;
		syms->n_segs = runtime->n_segs;
		runtime->segs = NULL;
		/* A debug file's .text is NOBITS at the same address: the
		 * image's file offset is the one that is right. */
		if (syms->has_text && runtime->has_text)
			syms->text_offset = runtime->text_offset;
		tk_symtab_free(runtime);
	}
	return syms;
}

const tk_symtab *tk_symcache_image(tk_symcache *c, const char *path, const uint8_t *build_id,
				   size_t build_id_len)
{
	char hex[2 * TK_BUILD_ID_MAX + 1] = "";
	if (build_id_len > TK_BUILD_ID_MAX)
		build_id_len = TK_BUILD_ID_MAX;
	if (build_id_len)
		tk_build_id_hex(build_id, build_id_len, hex);
	size_t plen = path ? strlen(path) : 0;
	char *key = malloc(plen + strlen(hex) + 2);
	if (!key)
		return NULL;
	memcpy(key, path ? path : "", plen);
	key[plen] = '|';
	strcpy(key + plen + 1, hex);
	uint64_t hash = fnv1a(key, 0xcbf29ce484222325ull);
	entry *e = find_entry(c, key, hash);
	if (e) {
		free(key);
		return e->tab;
	}
	tk_error err;
	tk_error_clear(&err);
	uint8_t file_id[TK_BUILD_ID_MAX];
	if (!build_id_len && path && *path) {
		/* perf reads the build id from the file when the recording has
		 * none, then searches the caches with it. */
		char full[4096];
		snprintf(full, sizeof full, "%s%s", c->opt.root ? c->opt.root : "", path);
		build_id_len = tk_elf_build_id(full, file_id);
		build_id = file_id;
	}
	candidates *cd = malloc(sizeof *cd);
	if (!cd) {
		free(key);
		return NULL;
	}
	image_candidates(c, path, build_id, build_id_len, cd);
	tk_symtab *t = NULL;
	/* The persistent cache, for images with a build id: the key names
	 * every candidate file as it is now, so an installed debug file or
	 * a rebuilt image makes a new table. */
	tk_symkey pkey;
	bool keyed = c->disk && build_id_len;
	char fname[2 * TK_BUILD_ID_MAX + 32];
	if (keyed) {
		char idhex[2 * TK_BUILD_ID_MAX + 1];
		tk_build_id_hex(build_id, build_id_len, idhex);
		tk_symkey_init(&pkey, c->disk, "elf");
		tk_symkey_add(&pkey, "build-id", idhex);
		/* one file per (build id, candidate paths): one image reached
		 * by two paths (/bin and /usr/bin) must not evict itself */
		uint64_t ph = 0xcbf29ce484222325ull;
		for (size_t i = 0; i < cd->n; i++) {
			tk_symkey_add_file(&pkey, "candidate", cd->path[i]);
			ph = fnv1a(cd->path[i], ph ^ 0x0a);
		}
		snprintf(fname, sizeof fname, "elf-%s-%08llx.sym", idhex,
			 (unsigned long long)(ph & 0xffffffffu));
		if (cd->old_layout[0])
			tk_symkey_add_file(&pkey, "old-layout", cd->old_layout);
		t = tk_symdisk_load(c->disk, fname, &pkey);
	}
	if (!t) {
		t = load_image(c, cd, build_id, build_id_len, &err);
		if (!t)
			warn(c, &err, path && *path ? path : hex);
		else if (keyed)
			tk_symdisk_store(c->disk, fname, &pkey, t);
	}
	if (keyed)
		tk_symkey_free(&pkey);
	free(cd);
	if (!add_entry(c, key, t, hash)) {
		/* Out of memory for the cache: handing the table out would
		 * leak it; report nothing instead (once its copy is encoded). */
		free(key);
		tk_symdisk_drain(c->disk);
		tk_symtab_free(t);
		return NULL;
	}
	return t;
}

/* A kallsyms table through the persistent cache. The running kernel's
 * (/proc/...) is keyed by what /proc/kallsyms depends on (its build id,
 * the boot, the user's view, the modules), a file by its identity. */
/* The cache key and file name of kallsyms file path (NULL: /proc/kallsyms);
 * false when it cannot be keyed (then it is not cached). */
static bool kallsyms_key(tk_symcache *c, const char *path, tk_symkey *key, char fname[64])
{
	bool keyed;
	tk_symkey_init(key, c->disk, "kallsyms");
	if (!path || strncmp(path, "/proc/", 6) == 0) {
		tk_symkey_add(key, "path", path ? path : "/proc/kallsyms");
		keyed = tk_symkey_add_running_kernel(key);
		snprintf(fname, 64, "kallsyms-running-%016llx.sym",
			 (unsigned long long)fnv1a(path ? path : "", 0xcbf29ce484222325ull));
	} else {
		tk_symkey_add_file(key, "file", path);
		keyed = true;
		snprintf(fname, 64, "kallsyms-file-%016llx.sym",
			 (unsigned long long)fnv1a(path, 0xcbf29ce484222325ull));
	}
	return keyed;
}

static bool same_path(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The prefetched table of path, when one was started for it: waits until
 * it is built (the thread may go on writing its cache file). false: none
 * for this path. */
static bool take_prefetch(tk_symcache *c, const char *path, bool core, tk_symtab **out,
			  tk_status *st, tk_error *err)
{
	if (!c->pf || c->pf_taken || !same_path(tk_kprefetch_path(c->pf), path) ||
	    tk_kprefetch_core(c->pf) != core)
		return false;
	c->pf_taken = true;
	*st = tk_kprefetch_take(c->pf, out, err);
	if (*st == TK_OK)
		c->loads++;
	return true;
}

static tk_status load_kallsyms(tk_symcache *c, const char *path, tk_symtab **out, tk_error *err)
{
	tk_symkey key;
	char fname[64];
	bool keyed = false;
	*out = NULL;
	tk_status pst;
	if (take_prefetch(c, path, false, out, &pst, err))
		return pst;
	if (c->disk) {
		keyed = kallsyms_key(c, path, &key, fname);
		if (keyed)
			*out = tk_symdisk_load(c->disk, fname, &key);
	}
	tk_status st = TK_OK;
	if (!*out) {
		st = tk_symtab_load_kallsyms(path, out, err);
		if (st == TK_OK) {
			c->loads++;
			if (keyed)
				tk_symdisk_store(c->disk, fname, &key, *out);
		}
	}
	if (c->disk)
		tk_symkey_free(&key);
	return st;
}

/* perf's copy of the running kernel's kallsyms (kallsyms_core.h), when
 * it may be used: not with a user-given kallsyms file, the build-id
 * cache ignored, or TRACEKIT_NO_KALLSYMS_COPY set; NULL when missing. */
static const char *running_copy(tk_symcache *c)
{
	if (c->copy_state != 0)
		return c->copy_state > 0 ? c->kcopy : NULL;
	c->copy_state = -1;
	const char *off = getenv("TRACEKIT_NO_KALLSYMS_COPY");
	if (c->opt.kallsyms || !c->debug_dir || c->opt.no_debug_cache ||
	    (off && *off && strcmp(off, "0") != 0))
		return NULL;
	uint8_t id[TK_BUILD_ID_MAX];
	size_t id_len = tk_sysfs_build_id(NULL, id);
	char hex[2 * TK_BUILD_ID_MAX + 1];
	struct stat sb;
	if (!id_len)
		return NULL;
	tk_build_id_hex(id, id_len, hex);
	if ((size_t)snprintf(c->kcopy, sizeof c->kcopy, "%s/[kernel.kallsyms]/%s/kallsyms",
			     c->debug_dir, hex) >= sizeof c->kcopy ||
	    stat(c->kcopy, &sb) != 0 || !S_ISREG(sb.st_mode))
		return NULL;
	c->copy_state = 1;
	return c->kcopy;
}

/* The copy's head is /proc/kallsyms's now (checked once). */
static bool copy_matches(tk_symcache *c)
{
	if (c->copy_match == 0)
		c->copy_match = tk_kallsyms_copy_matches(c->kcopy, NULL) ? 1 : -1;
	return c->copy_match > 0;
}

/* The cache key of the core table: the copy as a file, and the running
 * kernel without its modules (they are not in the table). */
static bool core_key(tk_symcache *c, tk_symkey *key, char fname[64])
{
	tk_symkey_init(key, c->disk, "kallsyms-core");
	tk_symkey_add_file(key, "copy", c->kcopy);
	snprintf(fname, 64, "kallsyms-core-%016llx.sym",
		 (unsigned long long)fnv1a(c->kcopy, 0xcbf29ce484222325ull));
	return tk_symkey_add_running_core(key);
}

/* Lookups outside the core are likely: modules are loaded (a test hook
 * too: TRACEKIT_KALLSYMS_CORE_TEST=half sends half the core there). */
static bool whole_likely(void)
{
	const char *env = getenv("TRACEKIT_KALLSYMS_CORE_TEST");
	if (env && strcmp(env, "half") == 0)
		return true;
	FILE *f = fopen("/proc/modules", "r");
	if (!f)
		return false;
	bool any = fgetc(f) != EOF;
	fclose(f);
	return any;
}

/* The whole /proc/kallsyms table, for the core table's lookups outside
 * the core (tk_symtab_set_rest), loaded on the first one. */
static const tk_symtab *kernel_rest(void *ctx)
{
	tk_symcache *c = ctx;
	if (!c->rest_tried) {
		c->rest_tried = true;
		tk_error err;
		tk_error_clear(&err);
		tk_status st;
		/* loading beside the core's prefetch when modules are there */
		if (c->pf && tk_kprefetch_has_whole(c->pf)) {
			st = tk_kprefetch_take_whole(c->pf, &c->kernel_rest, &err);
			if (st == TK_OK)
				c->loads++;
		} else {
			st = load_kallsyms(c, NULL, &c->kernel_rest, &err);
		}
		if (st != TK_OK)
			warn(c, &err, "the kernel's modules");
	}
	return c->kernel_rest;
}

/* The running kernel's core table from perf's copy, its lookups outside
 * the core going to the whole table; NULL when the copy cannot be used
 * (the caller then loads /proc/kallsyms). */
static tk_symtab *load_core(tk_symcache *c)
{
	const char *copy = running_copy(c);
	if (!copy || !copy_matches(c))
		return NULL;
	tk_symtab *t = NULL;
	tk_status st;
	tk_error err;
	tk_error_clear(&err);
	if (take_prefetch(c, copy, true, &t, &st, &err)) {
		if (st != TK_OK)
			t = NULL;
	} else {
		tk_symkey key;
		char fname[64];
		bool keyed = false;
		if (c->disk) {
			keyed = core_key(c, &key, fname);
			if (keyed)
				t = tk_symdisk_load(c->disk, fname, &key);
		}
		if (!t && tk_symtab_load_kallsyms_core(copy, &t, &err) == TK_OK) {
			c->loads++;
			if (keyed)
				tk_symdisk_store(c->disk, fname, &key, t);
		}
		if (c->disk)
			tk_symkey_free(&key);
	}
	if (t)
		tk_symtab_set_rest(t, kernel_rest, c);
	return t;
}

const tk_symtab *tk_symcache_kernel(tk_symcache *c)
{
	if (!c->kernel_tried) {
		c->kernel_tried = true;
		tk_error err;
		tk_error_clear(&err);
		c->kernel = load_core(c);
		if (!c->kernel && load_kallsyms(c, c->opt.kallsyms, &c->kernel, &err) != TK_OK)
			warn(c, &err, "the kernel");
	}
	return c->kernel;
}

void tk_symcache_prefetch_kernel(tk_symcache *c, const uint8_t *build_id, size_t build_id_len,
				 const char *notes, bool cached_only)
{
	if (c->kernel_tried || c->pf || !tk_symbols_threads_enabled())
		return;
	/* only when tk_symcache_kernel_for() would use tk_symcache_kernel() */
	if (!c->opt.kallsyms && build_id_len) {
		uint8_t host[TK_BUILD_ID_MAX];
		size_t host_len = tk_sysfs_build_id(notes, host);
		if (!host_len || !tk_build_id_equal(build_id, build_id_len, host, host_len))
			return;
	}
	/* the core table from perf's copy, as load_core() would */
	bool core = running_copy(c) && copy_matches(c);
	const char *path = core ? c->kcopy : c->opt.kallsyms;
	tk_symkey key;
	bool keyed = false;
	char name[64], file[4096];
	if (c->disk) {
		keyed = core ? core_key(c, &key, name) : kallsyms_key(c, path, &key, name);
		/* a warm cache: the table is one mmap away, no thread needed
		 * (loaded now rather than at the first kernel frame) */
		tk_symtab *t = keyed ? tk_symdisk_load(c->disk, name, &key) : NULL;
		if (t) {
			if (core)
				tk_symtab_set_rest(t, kernel_rest, c);
			c->kernel = t;
			c->kernel_tried = true;
			tk_symkey_free(&key);
			return;
		}
	}
	if (cached_only) {
		if (c->disk)
			tk_symkey_free(&key);
		return;
	}
	keyed = keyed && !key.oom && tk_symdisk_file_path(c->disk, name, file);
	/* the whole /proc/kallsyms too, beside the core, when the run may
	 * well need it (module frames); its cache file as load_kallsyms()
	 * would write it */
	tk_kprefetch_whole whole = {0};
	tk_symkey wkey;
	char wname[64], wfile[4096];
	bool want_whole = core && whole_likely();
	bool wkeyed = want_whole && c->disk && kallsyms_key(c, NULL, &wkey, wname);
	if (wkeyed && !wkey.oom && tk_symdisk_file_path(c->disk, wname, wfile))
		whole = (tk_kprefetch_whole){.key = wkey.buf, .key_len = wkey.n, .file = wfile};
	c->pf = tk_kprefetch_start(path, core, keyed ? key.buf : NULL, keyed ? key.n : 0,
				   keyed ? file : NULL, want_whole ? &whole : NULL);
	if (c->disk)
		tk_symkey_free(&key);
	if (want_whole && c->disk)
		tk_symkey_free(&wkey);
}

const tk_symtab *tk_symcache_kernel_loaded(tk_symcache *c)
{
	return c->kernel_tried || c->pf ? tk_symcache_kernel(c) : NULL;
}

bool tk_symcache_adopt_kernel(tk_symcache *c, const tk_symtab *from)
{
	if (c->kernel_tried || c->pf)
		return false;
	tk_symtab *v = tk_symtab_view(from);
	if (!v)
		return false;
	/* lookups outside the core go to this cache's whole table */
	if (from->rest)
		tk_symtab_set_rest(v, kernel_rest, c);
	c->kernel = v;
	c->kernel_tried = true;
	return true;
}

bool tk_symcache_kernel_pending(const tk_symcache *c)
{
	if (!c->pf || c->pf_taken)
		return false;
	/* a test hook: pending until asked for, however fast the load, so
	 * tests reach the deferred paths whatever the machine's speed */
	static int always = -1;
	if (always < 0) {
		const char *env = getenv("TRACEKIT_KERNEL_DEFER");
		always = env && strcmp(env, "always") == 0;
	}
	return always || !tk_kprefetch_ready(c->pf);
}

/* A kallsyms file other than the default one (the build-id cache's copy
 * of a recorded kernel's), loaded once; failures are remembered. */
static const tk_symtab *kallsyms_file(tk_symcache *c, const char *path)
{
	static const char prefix[] = "kallsyms|";
	size_t plen = strlen(path);
	char *key = malloc(sizeof prefix + plen);
	if (!key)
		return NULL;
	memcpy(key, prefix, sizeof prefix - 1);
	memcpy(key + sizeof prefix - 1, path, plen + 1);
	uint64_t hash = fnv1a(key, 0x6c62272e07bb0142ull);
	entry *e = find_entry(c, key, hash);
	if (e) {
		free(key);
		return e->tab;
	}
	tk_symtab *t = NULL;
	tk_error err;
	tk_error_clear(&err);
	if (load_kallsyms(c, path, &t, &err) != TK_OK)
		warn(c, &err, path);
	if (!add_entry(c, key, t, hash)) {
		free(key);
		tk_symtab_free(t);
		return NULL;
	}
	return t;
}

const tk_symtab *tk_symcache_kernel_for(tk_symcache *c, const uint8_t *build_id,
					size_t build_id_len, const char *notes)
{
	/* like perf --kallsyms: the user's file and only it */
	if (c->opt.kallsyms || build_id_len == 0)
		return tk_symcache_kernel(c);
	uint8_t host[TK_BUILD_ID_MAX];
	size_t host_len = tk_sysfs_build_id(notes, host);
	if (host_len && tk_build_id_equal(build_id, build_id_len, host, host_len))
		return tk_symcache_kernel(c);
	if (!c->debug_dir || c->opt.no_debug_cache)
		return NULL;
	char hex[2 * TK_BUILD_ID_MAX + 1], path[4096];
	tk_build_id_hex(build_id, build_id_len, hex);
	snprintf(path, sizeof path, "%s/[kernel.kallsyms]/%s/kallsyms", c->debug_dir, hex);
	return kallsyms_file(c, path);
}

const char *tk_symcache_debug_dir(const tk_symcache *c)
{
	return c ? c->debug_dir : NULL;
}

/* [vdso] in /proc/self/maps: "start-end r-xp 00000000 00:00 0   [vdso]" */
static bool find_self_vdso(uint64_t *start, uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (n < 6 || strcmp(line + n - 6, "[vdso]") != 0)
			continue;
		unsigned long long a, b;
		found = sscanf(line, "%llx-%llx", &a, &b) == 2 && b > a;
		*start = a;
		*end = b;
	}
	fclose(f);
	return found;
}

const tk_symtab *tk_symcache_host_vdso(tk_symcache *c)
{
	static const char key_text[] = "host|[vdso]";
	uint64_t hash = fnv1a(key_text, 0xcbf29ce484222325ull);
	entry *e = find_entry(c, key_text, hash);
	if (e)
		return e->tab;
	tk_symtab *t = NULL;
	uint64_t start, end;
	if (find_self_vdso(&start, &end)) {
		tk_error err;
		tk_error_clear(&err);
		if (tk_symtab_load_elf_memory((const void *)(uintptr_t)start, end - start, "[vdso]",
					      &t, &err) != TK_OK)
			warn(c, &err, "[vdso]");
		else
			c->loads++;
	}
	char *key = strdup(key_text);
	if (!key || !add_entry(c, key, t, hash)) {
		free(key);
		tk_symtab_free(t);
		return NULL;
	}
	return t;
}

const tk_symtab *tk_symcache_perf_map(tk_symcache *c, int pid)
{
	uint64_t key = (uint64_t)(uint32_t)pid;
	uint64_t *v = tk_hashmap_get(&c->maps, key);
	if (v)
		return *v ? c->entries[*v - 1].tab : NULL;
	char path[4096];
	snprintf(path, sizeof path, "%s/perf-%d.map",
		 c->opt.perf_map_dir ? c->opt.perf_map_dir : "/tmp", pid);
	tk_symtab *t = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symtab_load_perf_map(path, &t, &err);
	if (st != TK_OK && st != TK_ERR_NOT_FOUND)
		warn(c, &err, path);
	if (st == TK_OK)
		c->loads++;
	char *name = strdup(path);
	if (!name) {
		tk_symtab_free(t);
		return NULL;
	}
	/* Stored as an entry too, so it is freed with the cache; the map
	 * key is the pid, the entry key a name no image can have. */
	uint64_t hash = fnv1a(name, 0x84222325cbf29ce4ull);
	if (!add_entry(c, name, t, hash)) {
		free(name);
		tk_symtab_free(t);
		return NULL;
	}
	tk_hashmap_put(&c->maps, key, c->n); /* unindexed on failure: reloaded next time */
	return t;
}

uint64_t tk_symcache_loads(const tk_symcache *c)
{
	return c->loads;
}

uint64_t tk_symcache_persistent_hits(const tk_symcache *c)
{
	return tk_symdisk_hits(c->disk);
}

uint64_t tk_symcache_persistent_writes(const tk_symcache *c)
{
	return tk_symdisk_writes(c->disk);
}
