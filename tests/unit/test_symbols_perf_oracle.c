/* Oracle test for the symbols layer: a program built here is recorded with
 * `perf record -e cpu-clock:u`, and for every user-space sample perf script
 * prints (ip, sym+off, dso) our image cache must give the same sym+off:
 * mapping ip through the MMAP2 record (file offset = ip - start + pgoff,
 * then the ELF segment to a virtual address) and looking the symbol up in
 * the image perf would use (build-id cache, debuginfo, path).
 * Skipped when perf or a compiler is missing or recording is not allowed.
 * PLT entries ("name@plt", synthesized as perf 6.1 does) are compared too. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "tracekit/tracekit.h"

static const char prog_src[] =
    "#include <string.h>\n"
    "static volatile int sink;\n"
    "__attribute__((noinline)) void spin_a(void) { for (int i = 0; i < 3000000; i++) sink += i; }\n"
    "__attribute__((noinline)) void spin_b(void) {\n"
    "  char buf[256]; memset(buf, 'a', 255); buf[255] = 0;\n"
    "  for (int i = 0; i < 200000; i++) sink += (int)strlen(buf + (i & 7));\n"
    "}\n"
    "int main(void) { for (int k = 0; k < 10; k++) { spin_a(); spin_b(); } return 0; }\n";

/* Calls through the PLT in a tight loop: many samples land on PLT entries,
 * some of which perf 6.1 reports as _init+off (size-less _init stretched
 * over .plt), others as name@plt, depending on its tree's shape. */
static const char plt_src[] = "#include <stdlib.h>\n#include <string.h>\n"
			      "static volatile long sink;\n"
			      "int main(void) {\n"
			      "  char a[4] = \"ab\", b[4] = \"ab\";\n"
			      "  for (long i = 0; i < 6000000; i++) {\n"
			      "    sink += strlen(a); sink += strcmp(a, b); sink += abs((int)i);\n"
			      "    sink += atoi(\"1\"); sink += memcmp(a, b, 2);\n"
			      "  }\n"
			      "  return 0;\n"
			      "}\n";

typedef struct map {
	int pid; /* maps are per process: ASLR puts each one's libc elsewhere */
	unsigned long long start, len, pgoff;
	char path[256];
} map;

typedef struct tally {
	int compared, plt, mismatches, own, kernel;
} tally;

/* Compares every user-space sample of DIR/script.txt with our lookup. */
static tally compare_script(const char *dir)
{
	tally r = {0};
	char path[600];
	snprintf(path, sizeof path, "%s/script.txt", dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static map maps[16384]; /* the kernel case runs 2000 processes */
	size_t n_maps = 0;
	tk_symcache *c = tk_symcache_new(NULL);
	assert_non_null(c);
	char line[2048];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *m = strstr(line, "PERF_RECORD_MMAP2");
		if (m) {
			map mp;
			char *b = strchr(m, '[');
			char *p = strstr(m, "]: ");
			if (b && p && n_maps < sizeof maps / sizeof maps[0] &&
			    sscanf(line, " %d", &mp.pid) == 1 &&
			    sscanf(b, "[%llx(%llx) @ %llx", &mp.start, &mp.len, &mp.pgoff) == 3 &&
			    (p = strchr(p + 3, ' '))) {
				snprintf(mp.path, sizeof mp.path, "%s", p + 1);
				maps[n_maps++] = mp;
			}
			continue;
		}
		int pid;
		unsigned long long ip;
		char rest[1024];
		if (sscanf(line, " %d %llx %1023[^\n]", &pid, &ip, rest) != 3)
			continue;
		char *open_paren = strrchr(rest, '(');
		if (!open_paren || open_paren == rest)
			continue;
		open_paren[-1] = '\0';
		const char *want = rest;
		char *dso = open_paren + 1;
		dso[strcspn(dso, ")")] = '\0';
		if (strcmp(dso, "[kernel.kallsyms]") == 0) {
			const tk_symtab *k = tk_symcache_kernel(c);
			uint64_t off;
			const tk_symbol *s = k ? tk_symtab_lookup(k, ip, &off) : NULL;
			char got[1024] = "[unknown]";
			if (s)
				snprintf(got, sizeof got, "%s+0x%llx", s->name,
					 (unsigned long long)off);
			r.kernel++;
			if (strcmp(got, want) != 0 && r.mismatches++ < 10)
				fprintf(stderr, "kernel ip %llx: perf says '%s', we say '%s'\n", ip,
					want, got);
			continue;
		}
		if (dso[0] == '[')
			continue; /* [vdso], [unknown], modules */
		r.plt += strstr(want, "@plt") != NULL;
		const map *mp = NULL;
		for (size_t i = n_maps; i-- > 0;)
			if (maps[i].pid == pid && ip >= maps[i].start &&
			    ip - maps[i].start < maps[i].len && strcmp(maps[i].path, dso) == 0) {
				mp = &maps[i];
				break;
			}
		if (!mp)
			continue;
		char got[1024] = "[unknown]";
		const tk_symtab *t = tk_symcache_image(c, dso, NULL, 0);
		uint64_t vaddr, off;
		if (t && tk_symtab_offset_to_vaddr(t, ip - mp->start + mp->pgoff, &vaddr)) {
			const tk_symbol *s = tk_symtab_lookup(t, vaddr, &off);
			if (s)
				snprintf(got, sizeof got, "%s+0x%llx", s->name,
					 (unsigned long long)off);
		}
		r.compared++;
		r.own += strstr(want, "spin_") != NULL;
		if (strcmp(got, want) != 0 && r.mismatches++ < 10)
			fprintf(stderr, "ip %llx in %s: perf says '%s', we say '%s'\n", ip, dso,
				want, got);
	}
	fclose(f);
	tk_symcache_free(c);
	return r;
}

/* Records `workload` (run in dir) and writes dir/script.txt; false when
 * perf or the compiler cannot do it here. */
static bool record(const char *dir, const char *event, const char *workload)
{
	char cmd[2048];
	snprintf(
	    cmd, sizeof cmd,
	    "cd %s && perf record -q -e %s -o perf.data %s >/dev/null 2>&1 && "
	    "perf script -i perf.data -F pid,ip,sym,symoff,dso --show-mmap-events > script.txt "
	    "2>/dev/null",
	    dir, event, workload);
	return system(cmd) == 0;
}

static void test_perf_symbols(void **state)
{
	(void)state;
	char dir[] = "/tmp/tk-symperf-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[1024], path[600];
	snprintf(path, sizeof path, "%s/prog.c", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(prog_src, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/plt.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(plt_src, f);
	fclose(f);
	snprintf(cmd, sizeof cmd,
		 "cd %s && cc -O1 -o prog prog.c 2>/dev/null && cc -O1 -fno-builtin -o plt plt.c",
		 dir);
	bool ok = system(cmd) == 0 && record(dir, "cpu-clock:u", "./prog");
	tally a = {0}, b = {0}, c = {0};
	if (ok) {
		/* our own program (with .symtab) and libc (symbols from its
		 * debuginfo when installed, as perf finds them) */
		a = compare_script(dir);
		if (record(dir, "cpu-clock:u", "./plt"))
			c = compare_script(dir);
		/* a stripped system binary: .dynsym only, and PLT entries */
		if (record(dir, "cpu-clock:u",
			   "sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'"))
			b = compare_script(dir);
	}
	/* kernel samples against /proc/kallsyms (when perf may record them) */
	tally k = {0};
	tk_symtab *kall;
	if (ok && tk_symtab_load_kallsyms(NULL, &kall, NULL) == TK_OK) {
		tk_symtab_free(kall);
		if (record(
			dir, "cpu-clock",
			"sh -c 'for i in $(seq 1 2000); do cat /proc/self/stat >/dev/null; done'"))
			k = compare_script(dir);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	(void)!system(cmd);
	if (!ok)
		skip();
	fprintf(stderr,
		"program: compared %d samples with perf (%d in spin_*), %d mismatches, %d of them "
		"@plt\n",
		a.compared, a.own, a.mismatches, a.plt);
	fprintf(stderr, "plt: compared %d samples with perf, %d mismatches, %d of them @plt\n",
		c.compared, c.mismatches, c.plt);
	fprintf(stderr, "shell: compared %d samples with perf, %d mismatches, %d of them @plt\n",
		b.compared, b.mismatches, b.plt);
	fprintf(stderr, "kernel: compared %d kernel and %d user samples with perf, %d mismatches\n",
		k.kernel, k.compared, k.mismatches);
	assert_int_equal(k.mismatches, 0);
	assert_true(a.compared >= 50);
	assert_true(a.own >= 25);
	assert_int_equal(a.mismatches, 0);
	assert_int_equal(b.mismatches, 0);
	assert_int_equal(c.mismatches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_perf_symbols),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
