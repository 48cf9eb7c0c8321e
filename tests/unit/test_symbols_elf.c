/* Unit tests for ELF symbols: a tiny library is compiled in the test (cc
 * -shared / -c into a temp dir) and our table is checked against nm and
 * readelf; then stripped images (.dynsym only), build ids, the build-id
 * cache layout perf uses, and the image cache. Skipped without cc or nm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "tracekit/tracekit.h"

static char dir[64];

static const char lib_src[] =
    "int tk_global_fn(int x) { return x * 3 + 1; }\n"
    "static int __attribute__((noinline)) tk_local_fn(int x) { return (x ^ 5) * x; }\n"
    "int tk_calls_local(int x) { return tk_local_fn(x) + 2; }\n"
    "__attribute__((weak)) int tk_weak_fn(void) { return 7; }\n"
    "int tk_data_object = 5;\n";

static int sh(const char *fmt, const char *a)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, fmt, a, a, a, a);
	return system(cmd);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/tk-syms-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char path[128];
	snprintf(path, sizeof path, "%s/lib.c", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(lib_src, f);
	fclose(f);
	if (sh("cd %s && cc -O1 -fPIC -shared -Wl,--build-id=sha1 -o lib.so lib.c 2>/dev/null && "
	       "cc -O1 -fPIC -shared -s -Wl,--build-id=sha1 -o stripped.so lib.c && "
	       "cc -O1 -c -o lib.o lib.c",
	       dir) != 0)
		dir[0] = '\0'; /* no compiler: tests skip */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (strncmp(dir, "/tmp/tk-syms-", 13) == 0)
		sh("rm -rf %s", dir);
	return 0;
}

static const char *in_dir(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

/* Function symbols nm lists for file: name -> address, in arrays. */
typedef struct nm_sym {
	char name[128];
	unsigned long long addr;
	char type;
} nm_sym;

static size_t run_nm(const char *file, const char *flags, nm_sym *out, size_t cap)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "nm %s --defined-only %s 2>/dev/null", flags, file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	size_t n = 0;
	char line[512];
	while (n < cap && fgets(line, sizeof line, p)) {
		nm_sym s;
		if (sscanf(line, "%llx %c %127s", &s.addr, &s.type, s.name) == 3)
			out[n++] = s;
	}
	pclose(p);
	return n;
}

static const nm_sym *nm_find(const nm_sym *syms, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(syms[i].name, name) == 0)
			return &syms[i];
	return NULL;
}

static void test_lookup_matches_nm(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	nm_sym nm[512];
	size_t n_nm = run_nm(in_dir("lib.so"), "", nm, 512);
	if (n_nm == 0)
		skip();
	tk_symtab *t;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_elf(in_dir("lib.so"), &t, &err), TK_OK);
	assert_true(tk_symtab_is_relocatable(t));
	const char *fns[] = {"tk_global_fn", "tk_local_fn", "tk_calls_local", "tk_weak_fn"};
	for (size_t i = 0; i < 4; i++) {
		const nm_sym *s = nm_find(nm, n_nm, fns[i]);
		assert_non_null(s);
		uint64_t off = 99;
		const tk_symbol *hit = tk_symtab_lookup(t, s->addr, &off);
		assert_non_null(hit);
		assert_string_equal(hit->name, fns[i]);
		assert_int_equal(off, 0);
		if (hit->size > 1) {
			hit = tk_symtab_lookup(t, s->addr + 1, &off);
			assert_string_equal(hit->name, fns[i]);
			assert_int_equal(off, 1);
		}
	}
	/* binding shows in the type letter as nm shows it */
	uint64_t off;
	assert_int_equal(tk_symtab_lookup(t, nm_find(nm, n_nm, "tk_local_fn")->addr, &off)->type,
			 't');
	assert_int_equal(tk_symtab_lookup(t, nm_find(nm, n_nm, "tk_weak_fn")->addr, &off)->type,
			 'W');
	/* data objects are kept too, as perf keeps them (perf mem) */
	const nm_sym *data = nm_find(nm, n_nm, "tk_data_object");
	assert_non_null(data);
	const tk_symbol *hit = tk_symtab_lookup(t, data->addr, &off);
	assert_non_null(hit);
	assert_string_equal(hit->name, "tk_data_object");
	assert_int_equal(hit->type, 'D');
	/* every symbol we keep is one nm lists at the same address */
	for (size_t i = 0; i < tk_symtab_count(t); i++) {
		const tk_symbol *s = tk_symtab_at(t, i);
		const nm_sym *m = nm_find(nm, n_nm, s->name);
		if (!m)
			fprintf(stderr, "not in nm: %s\n", s->name);
		assert_non_null(m);
		assert_true(m->addr == s->start);
		assert_true(i == 0 || tk_symtab_at(t, i - 1)->start < s->start);
	}
	/* below the first symbol: nothing */
	assert_null(tk_symtab_lookup(t, 0, NULL));
	/* .text holds the functions */
	uint64_t tv, ts, to;
	assert_true(tk_symtab_text(t, &tv, &ts, &to));
	const nm_sym *g = nm_find(nm, n_nm, "tk_global_fn");
	assert_true(g->addr >= tv && g->addr < tv + ts);
	/* a file offset inside the executable segment maps back to vaddr */
	const tk_elf_segment *segs;
	size_t ns = tk_symtab_segments(t, &segs);
	bool mapped = false;
	for (size_t i = 0; i < ns; i++)
		if (segs[i].exec && g->addr >= segs[i].vaddr &&
		    g->addr - segs[i].vaddr < segs[i].filesz) {
			uint64_t v;
			assert_true(tk_symtab_offset_to_vaddr(
			    t, g->addr - segs[i].vaddr + segs[i].offset, &v));
			assert_true(v == g->addr);
			mapped = true;
		}
	assert_true(mapped);
	tk_symtab_free(t);
}

static size_t readelf_build_id(const char *file, char *hex, size_t cap)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "readelf -n %s 2>/dev/null", file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	char line[512];
	size_t n = 0;
	while (fgets(line, sizeof line, p)) {
		char *b = strstr(line, "Build ID: ");
		if (b && sscanf(b + 10, "%127s", hex) == 1 && strlen(hex) < cap)
			n = strlen(hex);
	}
	pclose(p);
	return n;
}

static void test_build_id_and_stripped(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	uint8_t id[TK_BUILD_ID_MAX], id2[TK_BUILD_ID_MAX];
	size_t n = tk_elf_build_id(in_dir("lib.so"), id);
	assert_int_equal(n, 20); /* sha1 */
	char hex[2 * TK_BUILD_ID_MAX + 1], want[160];
	tk_build_id_hex(id, n, hex);
	if (readelf_build_id(in_dir("lib.so"), want, sizeof want))
		assert_string_equal(hex, want);
	/* stripped: only .dynsym, which still has the exported functions */
	tk_symtab *t;
	assert_int_equal(tk_symtab_load_elf(in_dir("stripped.so"), &t, NULL), TK_OK);
	assert_int_equal(tk_symtab_build_id(t, id2), 20);
	nm_sym nm[256];
	size_t n_nm = run_nm(in_dir("stripped.so"), "-D", nm, 256);
	const nm_sym *g = nm_find(nm, n_nm, "tk_global_fn");
	if (g) {
		const tk_symbol *s = tk_symtab_lookup(t, g->addr, NULL);
		assert_non_null(s);
		assert_string_equal(s->name, "tk_global_fn");
	}
	for (size_t i = 0; i < tk_symtab_count(t); i++)
		assert_string_not_equal(tk_symtab_at(t, i)->name, "tk_local_fn");
	tk_symtab_free(t);
	/* relocatable object */
	assert_int_equal(tk_symtab_load_elf(in_dir("lib.o"), &t, NULL), TK_OK);
	assert_true(tk_symtab_count(t) >= 3);
	tk_symtab_free(t);
	/* from memory: same table as from the file */
	size_t size;
	uint8_t *bytes = tk_test_read_file(in_dir("lib.so"), &size);
	assert_non_null(bytes);
	tk_symtab *m, *f;
	assert_int_equal(tk_symtab_load_elf_memory(bytes, size, "lib.so", &m, NULL), TK_OK);
	assert_int_equal(tk_symtab_load_elf(in_dir("lib.so"), &f, NULL), TK_OK);
	assert_int_equal(tk_symtab_count(m), tk_symtab_count(f));
	for (size_t i = 0; i < tk_symtab_count(m); i++)
		assert_string_equal(tk_symtab_at(m, i)->name, tk_symtab_at(f, i)->name);
	tk_symtab_free(m);
	tk_symtab_free(f);
	/* truncated ELF and non-ELF input fail cleanly */
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symtab_load_elf_memory(bytes, 40, "cut", &m, &err);
	assert_true(st != TK_OK || tk_symtab_count(m) == 0);
	if (st == TK_OK)
		tk_symtab_free(m);
	assert_int_equal(tk_symtab_load_elf_memory("hello", 5, "txt", &m, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "not an ELF"));
	assert_int_equal(tk_symtab_load_elf(in_dir("lib.c"), &m, &err), TK_ERR_FORMAT);
	assert_int_equal(tk_symtab_load_elf(in_dir("missing.so"), &m, &err), TK_ERR_IO);
	free(bytes);
}

static int warnings;
static void count_warning(void *user, int level, const char *msg)
{
	(void)user;
	(void)msg;
	warnings += level == 0;
}

static void test_symcache_build_id_cache(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	uint8_t id[TK_BUILD_ID_MAX];
	size_t n = tk_elf_build_id(in_dir("lib.so"), id);
	assert_int_equal(n, 20);
	char hex[41];
	tk_build_id_hex(id, n, hex);
	/* perf's layout: .build-id/xx/rest -> ../../path/<id>, holding elf */
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p debug/.build-id/%.2s debug/gone/lib.so/%s && "
		 "cp lib.so debug/gone/lib.so/%s/elf && "
		 "ln -s ../../gone/lib.so/%s debug/.build-id/%.2s/%s",
		 dir, hex, hex, hex, hex, hex, hex + 2);
	assert_int_equal(system(cmd), 0);
	char debug[128];
	snprintf(debug, sizeof debug, "%s/debug", dir);
	tk_symcache_options opt = {.debug_dir = debug, .log = count_warning};
	tk_symcache *c = tk_symcache_new(&opt);
	assert_non_null(c);
	warnings = 0;
	/* the recorded path is gone; the build id finds the cached copy */
	const tk_symtab *t = tk_symcache_image(c, "/nonexistent/lib.so", id, n);
	assert_non_null(t);
	assert_true(tk_symtab_count(t) >= 4);
	uint64_t loads = tk_symcache_loads(c);
	assert_ptr_equal(tk_symcache_image(c, "/nonexistent/lib.so", id, n), t);
	assert_int_equal(tk_symcache_loads(c), loads); /* cached */
	/* a wrong build id rejects the file at the path, once */
	uint8_t wrong[20] = {1, 2, 3};
	assert_null(tk_symcache_image(c, in_dir("lib.so"), wrong, 20));
	assert_int_equal(warnings, 1);
	assert_null(tk_symcache_image(c, in_dir("lib.so"), wrong, 20));
	assert_int_equal(warnings, 1); /* remembered, not retried */
	/* no build id: the path as is */
	assert_non_null(tk_symcache_image(c, in_dir("lib.so"), NULL, 0));
	/* perf maps by pid, from the configured directory */
	tk_symcache_free(c);

	char mapdir[128];
	snprintf(mapdir, sizeof mapdir, "%s", dir);
	snprintf(
	    cmd, sizeof cmd,
	    "printf '7f0000001000 40 jit_fn one\\n7f0000001040 10 jit_two\\n' > %s/perf-4242.map",
	    dir);
	assert_int_equal(system(cmd), 0);
	tk_symcache_options o2 = {.perf_map_dir = mapdir, .kallsyms = in_dir("no-kallsyms")};
	c = tk_symcache_new(&o2);
	const tk_symtab *m = tk_symcache_perf_map(c, 4242);
	assert_non_null(m);
	uint64_t off;
	const tk_symbol *s = tk_symtab_lookup(m, 0x7f0000001044, &off);
	assert_string_equal(s->name, "jit_two");
	assert_int_equal(off, 4);
	assert_string_equal(tk_symtab_lookup(m, 0x7f0000001000, NULL)->name, "jit_fn one");
	assert_ptr_equal(tk_symcache_perf_map(c, 4242), m);
	assert_null(tk_symcache_perf_map(c, 4243));
	assert_null(tk_symcache_perf_map(c, 4243));
	assert_null(tk_symcache_kernel(c));
	tk_symcache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lookup_matches_nm),
	    cmocka_unit_test(test_build_id_and_stripped),
	    cmocka_unit_test(test_symcache_build_id_cache),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
