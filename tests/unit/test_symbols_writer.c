/* Unit tests for the symbol cache's background writer (symcache_writer.c):
 * with the thread and without it (TRACEKIT_THREADS=0), every queued file is
 * on disk, whole, once the writer is drained or freed; a pending file is
 * reported as such until written; a directory that cannot hold a
 * temporary file sets failed; no temporary file is left behind. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/symcache_writer.h"
#include "test_support.h"

static char *make_dir(void)
{
	char tmpl[] = "/tmp/tk-symwriter-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return strdup(d);
}

static void remove_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[4096];
	while (dp && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (dp)
		closedir(dp);
	rmdir(dir);
}

/* Files in dir, and those with ".tmp." in their name. */
static void count_files(const char *dir, size_t *n, size_t *tmp)
{
	*n = *tmp = 0;
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		(*n)++;
		if (strstr(e->d_name, ".tmp."))
			(*tmp)++;
	}
	closedir(dp);
}

/* File i's bytes: its size and content depend on i. */
static void *content(size_t i, size_t *len)
{
	*len = 1000 + i * 4099;
	unsigned char *b = malloc(*len);
	assert_non_null(b);
	for (size_t k = 0; k < *len; k++)
		b[k] = (unsigned char)(k * 31 + i);
	return b;
}

static void check_file(const char *dir, size_t i)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/f%zu.sym", dir, i);
	size_t len;
	unsigned char *want = content(i, &len);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	unsigned char *got = malloc(len + 1);
	assert_non_null(got);
	assert_int_equal(fread(got, 1, len + 1, f), len);
	fclose(f);
	assert_memory_equal(got, want, len);
	free(got);
	free(want);
}

static void run(const char *threads)
{
	setenv("TRACEKIT_THREADS", threads, 1);
	char *dir = make_dir();
	tk_symwriter *w = tk_symwriter_new();
	assert_non_null(w);
	enum { N = 24 };
	char path[4096];
	for (size_t i = 0; i < N; i++) {
		size_t len;
		void *b = content(i, &len);
		snprintf(path, sizeof path, "%s/f%zu.sym", dir, i);
		tk_symwriter_put(w, path, b, len);
	}
	tk_symwriter_drain(w);
	snprintf(path, sizeof path, "%s/f0.sym", dir);
	assert_false(tk_symwriter_pending(w, path));
	assert_int_equal(tk_symwriter_written(w), N);
	assert_false(tk_symwriter_failed(w));
	/* a last one, written by the time the writer is freed */
	size_t len;
	void *b = content(N, &len);
	snprintf(path, sizeof path, "%s/f%d.sym", dir, N);
	tk_symwriter_put(w, path, b, len);
	tk_symwriter_free(w);
	for (size_t i = 0; i <= N; i++)
		check_file(dir, i);
	size_t n, tmp;
	count_files(dir, &n, &tmp);
	assert_int_equal(n, N + 1);
	assert_int_equal(tmp, 0);
	remove_dir(dir);
	free(dir);
	unsetenv("TRACEKIT_THREADS");
}

static void test_thread(void **state)
{
	(void)state;
	run("1");
}

static void test_no_thread(void **state)
{
	(void)state;
	run("0");
}

static void test_unwritable(void **state)
{
	(void)state;
	tk_symwriter *w = tk_symwriter_new();
	assert_non_null(w);
	void *b = malloc(16);
	assert_non_null(b);
	memset(b, 1, 16);
	/* no such directory: the temporary file cannot be made */
	tk_symwriter_put(w, "/nonexistent-tk-dir/x/f.sym", b, 16);
	tk_symwriter_drain(w);
	assert_true(tk_symwriter_failed(w));
	assert_int_equal(tk_symwriter_written(w), 0);
	tk_symwriter_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_thread),
	    cmocka_unit_test(test_no_thread),
	    cmocka_unit_test(test_unwritable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
