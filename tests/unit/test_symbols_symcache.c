/* Unit tests for the persistent symbol cache (src/symbols/symcache_file.c,
 * symcache_disk.c): a table read back from its file is the table that was
 * written (every symbol, every lookup, perf's tree where symbols overlap,
 * the ELF facts); damaged files (truncated, any byte changed, another key,
 * bad counts or offsets) are refused with TK_ERR_FORMAT / TK_ERR_NOT_FOUND
 * and never crash; through tk_symcache a cold run writes, a warm run reads,
 * a damaged or stale file is rebuilt, and the switches turn it off. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/kernel_syms.h"
#include "symbols/symcache_file.h"
#include "symbols/symfile_maps.h"
#include "symbols/symtab_internal.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static char dir[64];

static const char ksyms[] = "ffffffff81000000 T _text\n"
			    "ffffffff81000000 T startup_64\n"
			    "ffffffff81000040 t secondary\n"
			    "ffffffff81000100 T _stext\n"
			    "ffffffff81000100 W weak_alias\n"
			    "ffffffff81000200 D some_data\n"
			    "ffffffff81000300 B bss_thing\n"
			    "ffffffff81000400 r skipped_ro\n"
			    "ffffffffc0000000 t mod_fn\t[mymod]\n"
			    "ffffffffc0000100 t mod_fn2\t[mymod]\n"
			    "ffffffffc0001000 T other_fn\t[other]\n";

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/tk-symc-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void same_symbol(const tk_symbol *a, const tk_symbol *b)
{
	assert_true(!a == !b);
	if (!a)
		return;
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->type, b->type);
	assert_string_equal(a->name, b->name);
	assert_true(!a->module == !b->module);
	if (a->module)
		assert_string_equal(a->module, b->module);
}

static void same_lookup(const tk_symtab *a, const tk_symtab *b, uint64_t addr)
{
	uint64_t oa = 7, ob = 7;
	same_symbol(tk_symtab_lookup(a, addr, &oa), tk_symtab_lookup(b, addr, &ob));
	assert_int_equal(oa, ob);
	if (a->use_tree)
		same_symbol(tk_symtab_lookup_tree(a, addr), tk_symtab_lookup_tree(b, addr));
}

/* b (read from a file) answers as a (built from the source) does. */
static void same_tables(const tk_symtab *a, const tk_symtab *b)
{
	size_t n = tk_symtab_count(a);
	assert_int_equal(n, tk_symtab_count(b));
	assert_string_equal(tk_symtab_name(a), tk_symtab_name(b));
	for (size_t i = 0; i < n; i++)
		same_symbol(tk_symtab_at(a, i), tk_symtab_at(b, i));
	for (size_t i = 0; i < n; i++) {
		const tk_symbol *s = tk_symtab_at(a, i);
		same_lookup(a, b, s->start);
		same_lookup(a, b, s->start - 1);
		same_lookup(a, b, s->start + s->size - 1);
		same_lookup(a, b, s->start + s->size);
	}
	uint8_t ia[TK_BUILD_ID_MAX], ib[TK_BUILD_ID_MAX];
	size_t la = tk_symtab_build_id(a, ia);
	assert_int_equal(la, tk_symtab_build_id(b, ib));
	assert_memory_equal(ia, ib, la);
	uint64_t v[3] = {0}, w[3] = {0};
	assert_int_equal(tk_symtab_text(a, &v[0], &v[1], &v[2]),
			 tk_symtab_text(b, &w[0], &w[1], &w[2]));
	assert_memory_equal(v, w, sizeof v);
	const tk_elf_segment *sa, *sb;
	size_t na = tk_symtab_segments(a, &sa);
	assert_int_equal(na, tk_symtab_segments(b, &sb));
	for (size_t i = 0; i < na; i++) {
		assert_int_equal(sa[i].vaddr, sb[i].vaddr);
		assert_int_equal(sa[i].offset, sb[i].offset);
		assert_int_equal(sa[i].filesz, sb[i].filesz);
		assert_int_equal(sa[i].memsz, sb[i].memsz);
		assert_int_equal(sa[i].exec, sb[i].exec);
	}
	assert_int_equal(tk_symtab_is_relocatable(a), tk_symtab_is_relocatable(b));
	const char *refs[] = {"_text", "_stext"};
	for (int r = 0; r < 2; r++) {
		uint64_t x = 0, y = 0;
		assert_int_equal(tk_kallsyms_function_start(a, refs[r], &x),
				 tk_kallsyms_function_start(b, refs[r], &y));
		assert_int_equal(x, y);
	}
}

/* tk_symfile_encode_fd writes into a file what tk_symfile_encode gives
 * in memory, byte for byte. */
static void same_in_file(const tk_symtab *t, const void *buf, size_t len)
{
	char path[96];
	snprintf(path, sizeof path, "%s/fd-XXXXXX", dir);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(tk_symfile_encode_fd(t, "key", 3, fd));
	assert_int_equal(lseek(fd, 0, SEEK_END), len);
	unsigned char *got = malloc(len);
	assert_non_null(got);
	assert_int_equal(pread(fd, got, len, 0), len);
	assert_memory_equal(got, buf, len);
	free(got);
	close(fd);
	unlink(path);
}

/* Encodes t (fresh) and decodes it back into *back (over *buf). */
static void round_trip(const tk_symtab *t, void **buf, size_t *len, tk_symtab **back)
{
	assert_true(tk_symfile_encode(t, "key", 3, buf, len));
	same_in_file(t, *buf, *len);
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symfile_decode(*buf, *len, "key", 3, true, back, &err), TK_OK);
}

static void test_kallsyms_round_trip(void **state)
{
	(void)state;
	tk_symtab *a, *b;
	assert_int_equal(tk_symtab_load_kallsyms_memory(ksyms, strlen(ksyms), "k", &a, NULL),
			 TK_OK);
	void *buf;
	size_t len;
	round_trip(a, &buf, &len, &b);
	same_tables(a, b);
	tk_symtab_free(b);
	tk_symtab_free(a);
	free(buf);
}

/* A kernel-sized table: the file encoder's 64 KiB buffer fills many
 * times, and the file ends inside a 32-byte block of the checksum. */
static void test_large_kallsyms_round_trip(void **state)
{
	(void)state;
	size_t cap = 40000 * 48, n = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int i = 0; i < 40000; i++)
		n += (size_t)snprintf(text + n, cap - n, "ffffffff81%06x %c sym_%d%s\n", i * 16,
				      "TtDW"[i % 4], i, i % 7 ? "" : "_longer_name");
	n += (size_t)snprintf(text + n, cap - n, "ffffffffc0000000 t m\t[mod]\n");
	tk_symtab *a, *b;
	assert_int_equal(tk_symtab_load_kallsyms_memory(text, n, "big", &a, NULL), TK_OK);
	assert_true(tk_symtab_count(a) > 39000);
	void *buf;
	size_t len;
	round_trip(a, &buf, &len, &b);
	assert_true(len > 16 * 65536);
	assert_true((len - 40) % 32 != 0); /* the checksum's byte-wise tail */
	same_tables(a, b);
	tk_symtab_free(b);
	tk_symtab_free(a);
	free(buf);
	free(text);
}

/* ELF tables: the test binary itself (.symtab), and libc (.dynsym, PLT). */
static void elf_round_trip(const char *path)
{
	tk_symtab *a, *b;
	if (tk_symtab_load_elf(path, &a, NULL) != TK_OK)
		return; /* not on this system */
	void *buf;
	size_t len;
	round_trip(a, &buf, &len, &b);
	same_tables(a, b);
	tk_symtab_free(b);
	tk_symtab_free(a);
	free(buf);
}

static void test_elf_round_trip(void **state)
{
	(void)state;
	elf_round_trip("/proc/self/exe");
	elf_round_trip("/lib/x86_64-linux-gnu/libc.so.6");
	elf_round_trip("/lib/x86_64-linux-gnu/libelf.so.1");
}

/* A file that does not load: TK_ERR_FORMAT (or NOT_FOUND for another
 * key), no table. Copied to an aligned buffer of exactly len bytes so
 * ASan sees any read past the end. */
static tk_status decode_copy(const void *buf, size_t len, const char *key, bool sum)
{
	void *copy = NULL;
	assert_int_equal(posix_memalign(&copy, 8, len ? len : 8), 0);
	memcpy(copy, buf, len);
	tk_symtab *t = (tk_symtab *)1;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symfile_decode(copy, len, key, strlen(key), sum, &t, &err);
	if (st == TK_OK) {
		for (size_t i = 0; i < tk_symtab_count(t); i++)
			tk_symtab_lookup(t, tk_symtab_at(t, i)->start, NULL);
		tk_symtab_free(t);
	} else {
		assert_null(t);
		assert_true(err.offset == TK_NO_OFFSET || err.offset <= len);
	}
	free(copy);
	return st;
}

static void test_damaged_files(void **state)
{
	(void)state;
	tk_symtab *a;
	assert_int_equal(tk_symtab_load_kallsyms_memory(ksyms, strlen(ksyms), "k", &a, NULL),
			 TK_OK);
	void *buf;
	size_t len;
	assert_true(tk_symfile_encode(a, "key", 3, &buf, &len));
	tk_symtab_free(a);
	assert_int_equal(decode_copy(buf, len, "key", true), TK_OK);
	/* every truncation */
	for (size_t cut = 0; cut < len; cut++)
		assert_int_equal(decode_copy(buf, cut, "key", true), TK_ERR_FORMAT);
	/* any byte changed: the checksum (or an earlier check) refuses it */
	unsigned char *b = buf;
	for (size_t i = 0; i < len; i++) {
		b[i] ^= 0x10;
		assert_int_equal(decode_copy(buf, len, "key", true), TK_ERR_FORMAT);
		b[i] ^= 0x10;
	}
	/* another key: sound but not ours */
	assert_int_equal(decode_copy(buf, len, "kez", true), TK_ERR_NOT_FOUND);
	assert_int_equal(decode_copy(buf, len, "key2", true), TK_ERR_NOT_FOUND);
	/* without the checksum the structural checks still hold: every byte
	 * of the header and the first sections set to extremes never gets
	 * past them into an unsafe table */
	size_t limit = len < 1024 ? len : 1024;
	for (size_t i = 40; i < limit; i++) {
		unsigned char old = b[i];
		b[i] = 0xff;
		decode_copy(buf, len, "key", false);
		b[i] = 0x80;
		decode_copy(buf, len, "key", false);
		b[i] = old;
	}
	/* not 8-byte aligned */
	unsigned char *odd = malloc(len + 1);
	assert_non_null(odd);
	memcpy(odd + 1, buf, len);
	tk_symtab *t;
	assert_int_equal(tk_symfile_decode(odd + 1, len, "key", 3, true, &t, NULL), TK_ERR_FORMAT);
	free(odd);
	free(buf);
}

/* ---- through tk_symcache ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The single file in the cache directory, or "" when there is none. */
static void cache_file(const char *cdir, char *out, size_t room)
{
	out[0] = '\0';
	DIR *d = opendir(cdir);
	if (!d)
		return;
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(out, room, "%s/%s", cdir, e->d_name);
		n++;
	}
	closedir(d);
	assert_true(n <= 1);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	return tk_test_read_file(path, len);
}

typedef struct run {
	uint64_t hits, writes;
	size_t count;
	char first[64];
} run;

static run kernel_run(const char *ks, const char *cdir, bool off)
{
	tk_symcache_options o = {.kallsyms = ks, .cache_dir = cdir, .no_symbol_cache = off};
	tk_symcache *c = tk_symcache_new(&o);
	assert_non_null(c);
	const tk_symtab *k = tk_symcache_kernel(c);
	run r = {0};
	assert_non_null(k);
	r.count = tk_symtab_count(k);
	const tk_symbol *s = tk_symtab_lookup(k, 0xffffffff81000050ull, NULL);
	snprintf(r.first, sizeof r.first, "%s", s ? s->name : "-");
	r.hits = tk_symcache_persistent_hits(c);
	r.writes = tk_symcache_persistent_writes(c);
	tk_symcache_free(c);
	return r;
}

static void test_cache_through_symcache(void **state)
{
	(void)state;
	char ks[128], cdir[128], file[512];
	snprintf(ks, sizeof ks, "%s/kallsyms", dir);
	snprintf(cdir, sizeof cdir, "%s/cache/tracekit", dir);
	write_file(ks, ksyms);
	run cold = kernel_run(ks, cdir, false);
	if (cold.writes == 0)
		skip(); /* built without a build id: no persistent cache */
	assert_int_equal(cold.hits, 0);
	cache_file(cdir, file, sizeof file);
	assert_true(file[0]);
	size_t len0;
	uint8_t *orig = slurp(file, &len0);
	assert_non_null(orig);
	run warm = kernel_run(ks, cdir, false);
	assert_int_equal(warm.hits, 1);
	assert_int_equal(warm.writes, 0);
	assert_int_equal(warm.count, cold.count);
	assert_string_equal(warm.first, cold.first);

	/* damaged: a byte changed, then cut short, then empty; each time
	 * the table is rebuilt, the same, and the file written again whole */
	for (int how = 0; how < 3; how++) {
		FILE *f = fopen(file, "r+b");
		assert_non_null(f);
		if (how == 0) {
			fseek(f, (long)(len0 / 2), SEEK_SET);
			fputc(0x5a ^ orig[len0 / 2], f);
		}
		fclose(f);
		if (how > 0)
			assert_int_equal(truncate(file, how == 1 ? (off_t)(len0 - 3) : 0), 0);
		run r = kernel_run(ks, cdir, false);
		assert_int_equal(r.hits, 0);
		assert_int_equal(r.writes, 1);
		assert_int_equal(r.count, cold.count);
		assert_string_equal(r.first, cold.first);
		size_t len1;
		uint8_t *again = slurp(file, &len1);
		assert_non_null(again);
		assert_int_equal(len1, len0);
		assert_memory_equal(again, orig, len0);
		free(again);
	}

	/* the source changed: the old file's key no longer matches */
	sleep(0); /* mtime resolution is ns; the size changes anyway */
	write_file(ks, "ffffffff81000000 T _text\nffffffff81000040 T only_one\n");
	run changed = kernel_run(ks, cdir, false);
	assert_int_equal(changed.hits, 0);
	assert_int_equal(changed.writes, 1);
	assert_string_equal(changed.first, "only_one");

	/* off: by option, and by TRACEKIT_NO_SYMCACHE */
	char cdir2[160];
	snprintf(cdir2, sizeof cdir2, "%s/cache2", dir);
	run off = kernel_run(ks, cdir2, true);
	assert_int_equal(off.hits + off.writes, 0);
	setenv("TRACEKIT_NO_SYMCACHE", "1", 1);
	off = kernel_run(ks, cdir2, false);
	unsetenv("TRACEKIT_NO_SYMCACHE");
	assert_int_equal(off.hits + off.writes, 0);
	struct stat sb;
	assert_int_not_equal(stat(cdir2, &sb), 0); /* nothing created */
	free(orig);
}

/* Two caches over one directory (print's two lanes): the second load of
 * the kernel's file takes the first's mapping, each table works alone
 * once the other is freed, and the last free unmaps. A file replaced
 * meanwhile (a new inode) gets a mapping of its own. */
static void test_lanes_share_mapping(void **state)
{
	(void)state;
	char ks[128], cdir[128];
	snprintf(ks, sizeof ks, "%s/kallsyms-shared", dir);
	snprintf(cdir, sizeof cdir, "%s/cache-shared", dir);
	write_file(ks, ksyms);
	if (kernel_run(ks, cdir, false).writes == 0)
		skip(); /* built without a build id: no persistent cache */
	assert_int_equal(tk_symfile_maps_held(), 0);
	tk_symcache_options o = {.kallsyms = ks, .cache_dir = cdir};
	tk_symcache *a = tk_symcache_new(&o), *b = tk_symcache_new(&o);
	assert_non_null(a);
	assert_non_null(b);
	const tk_symtab *ka = tk_symcache_kernel(a), *kb = tk_symcache_kernel(b);
	assert_non_null(ka);
	assert_non_null(kb);
	assert_int_equal(tk_symcache_persistent_hits(a), 1);
	assert_int_equal(tk_symcache_persistent_hits(b), 1);
	assert_true(ka != kb);
	assert_non_null(ka->map_base);
	assert_ptr_equal(ka->map_base, kb->map_base);
	assert_int_equal(tk_symfile_maps_held(), 1);
	tk_symcache_free(a);
	assert_int_equal(tk_symfile_maps_held(), 1);
	const tk_symbol *s = tk_symtab_lookup(kb, 0xffffffff81000050ull, NULL);
	assert_non_null(s);
	assert_string_equal(s->name, "secondary");

	/* the file replaced by rename (as writers do) while b holds it */
	char file[512], tmp[600];
	cache_file(cdir, file, sizeof file);
	assert_true(file[0]);
	snprintf(tmp, sizeof tmp, "%s.copy", file);
	size_t len;
	uint8_t *bytes = slurp(file, &len);
	assert_non_null(bytes);
	FILE *f = fopen(tmp, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
	free(bytes);
	assert_int_equal(rename(tmp, file), 0);
	tk_symcache *c = tk_symcache_new(&o);
	assert_non_null(c);
	const tk_symtab *kc = tk_symcache_kernel(c);
	assert_non_null(kc);
	assert_int_equal(tk_symcache_persistent_hits(c), 1);
	assert_ptr_not_equal(kc->map_base, kb->map_base);
	assert_int_equal(tk_symfile_maps_held(), 2);
	tk_symcache_free(b);
	tk_symcache_free(c);
	assert_int_equal(tk_symfile_maps_held(), 0);
}

/* An ELF image through tk_symcache_image (the test binary, build id read
 * from the file): cold writes, warm reads, both answer the same. */
static void test_image_through_symcache(void **state)
{
	(void)state;
	char cdir[128], ddir[128];
	snprintf(cdir, sizeof cdir, "%s/cache-elf", dir);
	snprintf(ddir, sizeof ddir, "%s/no-debug", dir);
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	tk_symtab *fresh;
	assert_int_equal(tk_symtab_load_elf(exe, &fresh, NULL), TK_OK);
	for (int pass = 0; pass < 2; pass++) {
		tk_symcache_options o = {.cache_dir = cdir, .debug_dir = ddir};
		tk_symcache *c = tk_symcache_new(&o);
		assert_non_null(c);
		const tk_symtab *t = tk_symcache_image(c, exe, NULL, 0);
		assert_non_null(t);
		if (pass == 0 && tk_symcache_persistent_writes(c) == 0) {
			tk_symcache_free(c);
			tk_symtab_free(fresh);
			skip();
		}
		assert_int_equal(tk_symcache_persistent_hits(c), (uint64_t)pass);
		same_tables(fresh, t);
		tk_symcache_free(c);
	}
	tk_symtab_free(fresh);
}

/* A rebuilt or replaced image (here: the same bytes, a new mtime) is a
 * new input: the table is built again, once, then read. */
static void test_image_inputs_change(void **state)
{
	(void)state;
	char cdir[128], ddir[128], copy[128], cmd[512];
	snprintf(cdir, sizeof cdir, "%s/cache-stale", dir);
	snprintf(ddir, sizeof ddir, "%s/debug-stale", dir);
	snprintf(copy, sizeof copy, "%s/exe-copy", dir);
	snprintf(cmd, sizeof cmd, "cp /proc/self/exe %s && touch -d '2020-01-01' %s", copy, copy);
	assert_int_equal(system(cmd), 0);
	uint64_t want_hits[4] = {0, 1, 0, 1}, want_writes[4] = {1, 0, 1, 0};
	for (int pass = 0; pass < 4; pass++) {
		if (pass == 2) {
			snprintf(cmd, sizeof cmd, "touch -d '2021-01-01' %s", copy);
			assert_int_equal(system(cmd), 0);
		}
		tk_symcache_options o = {.cache_dir = cdir, .debug_dir = ddir};
		tk_symcache *c = tk_symcache_new(&o);
		assert_non_null(c);
		assert_non_null(tk_symcache_image(c, copy, NULL, 0));
		if (pass == 0 && tk_symcache_persistent_writes(c) == 0) {
			tk_symcache_free(c);
			skip(); /* no persistent cache in this build */
		}
		assert_int_equal(tk_symcache_persistent_hits(c), want_hits[pass]);
		assert_int_equal(tk_symcache_persistent_writes(c), want_writes[pass]);
		tk_symcache_free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kallsyms_round_trip),
	    cmocka_unit_test(test_large_kallsyms_round_trip),
	    cmocka_unit_test(test_elf_round_trip),
	    cmocka_unit_test(test_damaged_files),
	    cmocka_unit_test(test_cache_through_symcache),
	    cmocka_unit_test(test_lanes_share_mapping),
	    cmocka_unit_test(test_image_through_symcache),
	    cmocka_unit_test(test_image_inputs_change),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
