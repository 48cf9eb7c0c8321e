/* Source lines (src/analysis/srcline.c) against binutils' addr2line, which
 * perf report --sort srcline asks: for addresses spread over the text of
 * the dynamic loader and of libc (with glibc's detached debug info from
 * libc6-dbg), "file:line" is the same, file by its base name. Their
 * DWARF 5 line tables have rows whose file register was never set in
 * their sequence, which addr2line names by entry 0 (dl-cacheinfo.h's
 * rows in dl-get-cpu-features.c's table); libdw's own answer differs
 * there. Skipped without addr2line or without line tables for them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "analysis/srcline.h"

#if TK_HAVE_LIBDW
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

/* The executable PT_LOAD whose file offsets equal its addresses (both
 * tools are then asked about one number). */
static bool text_range(const char *path, uint64_t *lo, uint64_t *hi)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t n = 0;
	bool found = false;
	if (elf && elf_getphdrnum(elf, &n) == 0)
		for (size_t i = 0; i < n && !found; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    (ph.p_flags & PF_X) && ph.p_offset == ph.p_vaddr) {
				*lo = ph.p_offset;
				*hi = ph.p_offset + ph.p_filesz;
				found = true;
			}
		}
	elf_end(elf);
	close(fd);
	return found;
}

/* libc's real path (the lookups key on it) and its text range; false
 * when either is missing (the test is skipped). */
static bool libc_text(char path[PATH_MAX], uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	return realpath("/lib/x86_64-linux-gnu/libc.so.6", path) && text_range(path, lo, hi);
}

/* addr2line's answer, base name only, " (discriminator N)" cut */
static void base_of(const char *line, char *out, size_t cap)
{
	const char *slash = strrchr(line, '/');
	snprintf(out, cap, "%s", slash ? slash + 1 : line);
	char *d = strstr(out, " (discriminator");
	if (d)
		*d = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* Compares every step-th address of path's text; returns the number of
 * addresses where both tools name a line (0: nothing to compare). */
static size_t compare_image(const char *link, uint64_t step)
{
	char path[PATH_MAX];
	uint64_t lo = 0, hi = 0;
	if (!realpath(link, path) || !text_range(path, &lo, &hi))
		return 0;
	char list[64], cmd[PATH_MAX + 128];
	snprintf(list, sizeof list, "/tmp/tk-srcline-%d.txt", (int)getpid());
	FILE *f = fopen(list, "w");
	assert_non_null(f);
	for (uint64_t a = lo; a < hi; a += step)
		fprintf(f, "%#llx\n", (unsigned long long)a);
	fclose(f);
	snprintf(cmd, sizeof cmd, "addr2line -e '%s' < %s", path, list);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	tk_srcline *s = tk_srcline_new();
	assert_non_null(s);
	size_t compared = 0, differ = 0, zero_lines = 0;
	char line[PATH_MAX + 64], want[PATH_MAX + 64];
	for (uint64_t a = lo; a < hi && fgets(line, sizeof line, p); a += step) {
		base_of(line, want, sizeof want);
		const char *got = tk_srcline_get(s, path, a, false);
		/* addr2line's "??:0" (nothing found: perf falls back to
		 * sym+off) is NULL; "f.c:?" (a line-table row of line 0, or
		 * no row but a local function symbol after the file symbol
		 * "f.c") is "f.c:0" in perf, whose filename_split() reads the
		 * "?" with strtoul; so is ":?" (the empty file symbol before
		 * the linker's local copies of hidden symbols) ":0", and
		 * "??:?" (a function symbol without a file) "??:0" */
		bool none = strcmp(want, "??:0") == 0;
		size_t wl = strlen(want);
		if (wl >= 2 && strcmp(want + wl - 2, ":?") == 0) {
			want[wl - 1] = '0';
			zero_lines++;
		}
		if (none || !got) {
			if (none != !got && differ++ < 5)
				print_message("%s %#llx: addr2line %s, tracekit %s\n", path,
					      (unsigned long long)a, none ? "??:0 (none)" : want,
					      got ? got : "(none)");
			continue;
		}
		compared++;
		if (strcmp(want, got) != 0 && differ++ < 5)
			print_message("%s %#llx: addr2line %s, tracekit %s\n", path,
				      (unsigned long long)a, want, got);
	}
	pclose(p);
	unlink(list);
	tk_srcline_free(s);
	print_message("%s: %zu addresses of line 0\n", path, zero_lines);
	assert_int_equal(differ, 0);
	return compared;
}

static void test_like_addr2line(void **state)
{
	(void)state;
	if (system("addr2line --version >/dev/null 2>&1") != 0)
		skip();
	/* the loader's text is small: every 13th byte; libc's every 509th */
	size_t n = compare_image("/lib64/ld-linux-x86-64.so.2", 13);
	n += compare_image("/lib/x86_64-linux-gnu/libc.so.6", 509);
	if (n == 0)
		skip(); /* no line tables here (libc6-dbg not installed) */
	print_message("compared %zu addresses\n", n);
}

/* perf's A2L_FAIL_LIMIT: an image whose first 123 lookups all fail is not
 * asked again; one success before stops the counting. Failures here are
 * offsets past the file's loadable bytes. */
static void test_fail_limit(void **state)
{
	(void)state;
	char path[PATH_MAX];
	uint64_t lo, hi;
	if (!libc_text(path, &lo, &hi))
		skip();
	uint64_t good = lo + (hi - lo) / 2;
	tk_srcline *free_run = tk_srcline_new();
	assert_non_null(free_run);
	const char *want = tk_srcline_get(free_run, path, good, false);
	tk_srcline_free(free_run);
	if (!want)
		skip(); /* no line there without libc6-dbg */
	for (int fails = 122; fails <= 123; fails++) {
		tk_srcline *s = tk_srcline_new();
		assert_non_null(s);
		tk_srcline_fail_limit(s, true);
		for (int i = 0; i < fails; i++)
			assert_null(
			    tk_srcline_get(s, path, ((uint64_t)1 << 40) + (uint64_t)i, false));
		const char *got = tk_srcline_get(s, path, good, false);
		if (fails < 123)
			assert_non_null(got);
		else
			assert_null(got); /* not asked any more */
		tk_srcline_free(s);
	}
	/* a success first: failures are not counted after it */
	tk_srcline *s = tk_srcline_new();
	assert_non_null(s);
	tk_srcline_fail_limit(s, true);
	assert_non_null(tk_srcline_get(s, path, good, false));
	for (int i = 0; i < 300; i++)
		assert_null(tk_srcline_get(s, path, ((uint64_t)1 << 40) + (uint64_t)i, false));
	assert_non_null(tk_srcline_get(s, path, good + 1, false));
	tk_srcline_free(s);
}

/* Damaged images: cut inside its headers, its ELF header overwritten,
 * not ELF at all. No line, no crash: NULL (perf's fallback), as for an
 * unreadable file. tests/fuzz/fuzz_srcline.c goes further. */
static void test_damaged_images(void **state)
{
	(void)state;
	char path[PATH_MAX];
	uint64_t lo, hi;
	if (!libc_text(path, &lo, &hi))
		skip();
	FILE *in = fopen(path, "rb");
	assert_non_null(in);
	static unsigned char head[65536];
	size_t n = fread(head, 1, sizeof head, in);
	fclose(in);
	assert_true(n == sizeof head);
	char tmp[] = "/tmp/tk-srcline-damaged-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	for (int kind = 0; kind < 3; kind++) {
		unsigned char buf[sizeof head];
		memcpy(buf, head, sizeof buf);
		size_t len = kind == 0 ? 100 : sizeof buf;
		if (kind == 1)
			memset(buf + 16, 0xff, 48); /* e_type .. e_shstrndx */
		if (kind == 2)
			memset(buf, 'x', sizeof buf);
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
		tk_srcline *s = tk_srcline_new();
		assert_non_null(s);
		tk_srcline_fail_limit(s, true);
		for (uint64_t off = 0; off < 2 * sizeof buf; off += 4099)
			assert_null(tk_srcline_get(s, tmp, off, false));
		tk_srcline_free(s);
	}
	close(fd);
	unlink(tmp);
}
#else
static void test_damaged_images(void **state)
{
	(void)state;
	skip();
}

static void test_like_addr2line(void **state)
{
	(void)state;
	skip();
}

static void test_fail_limit(void **state)
{
	(void)state;
	skip();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_like_addr2line),
	    cmocka_unit_test(test_fail_limit),
	    cmocka_unit_test(test_damaged_images),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
