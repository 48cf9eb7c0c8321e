/* tk_input_populate_ahead (src/base/input.c): the helper thread maps pages
 * ahead of a forward reader without changing what the reader sees; it ends
 * on its own when the file is cut short under it (madvise fails with
 * EFAULT where a load would raise SIGBUS), and close joins it whether it
 * ran to the end, waits for the reader or was never started. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/input.h"
#include "test_support.h"

#define MIB (1u << 20)

/* A file of n MiB whose byte i is (i * 7) & 0xff; returns its path. */
static const char *make_file(char *path, size_t cap, unsigned n)
{
	snprintf(path, cap, "/tmp/tk_populate_%d_%u", (int)getpid(), n);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	uint8_t *buf = malloc(MIB);
	assert_non_null(buf);
	for (unsigned m = 0; m < n; m++) {
		for (size_t i = 0; i < MIB; i++)
			buf[i] = (uint8_t)(((size_t)m * MIB + i) * 7);
		assert_int_equal(fwrite(buf, 1, MIB, fp), MIB);
	}
	free(buf);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static void test_reads_same_bytes(void **state)
{
	(void)state;
	char path[128];
	make_file(path, sizeof path, 40);
	tk_input *in;
	tk_error err;
	assert_int_equal(tk_input_open(path, &in, &err), TK_OK);
	tk_input_populate_ahead(in);
	tk_input_populate_ahead(in); /* a second call starts nothing more */
	uint64_t bad = 0;
	for (uint64_t off = 0; off < 40ull * MIB; off += 4096) {
		const uint8_t *p;
		assert_int_equal(tk_input_fetch(in, off, 4096, &p, &err), TK_OK);
		for (size_t i = 0; i < 4096; i += 511)
			bad += p[i] != (uint8_t)((off + i) * 7);
		tk_input_release(in, off);
	}
	assert_int_equal(bad, 0);
	tk_input_close(in);
	unlink(path);
}

/* The reader stops early (stats ended with an error): close must wake the
 * helper waiting POP_AHEAD in front of it and join it. */
static void test_close_while_waiting(void **state)
{
	(void)state;
	char path[128];
	make_file(path, sizeof path, 24);
	tk_input *in;
	tk_error err;
	assert_int_equal(tk_input_open(path, &in, &err), TK_OK);
	tk_input_populate_ahead(in);
	usleep(20000); /* let it reach its bound */
	tk_input_close(in);
	unlink(path);
}

/* The file shrinks after the helper started: it stops at the first chunk
 * past the new end instead of faulting; the reader's pages before the cut
 * are intact. */
static void test_file_cut_short(void **state)
{
	(void)state;
	char path[128];
	make_file(path, sizeof path, 16);
	tk_input *in;
	tk_error err;
	assert_int_equal(tk_input_open(path, &in, &err), TK_OK);
	assert_int_equal(truncate(path, 2 * MIB), 0);
	tk_input_populate_ahead(in);
	const uint8_t *p;
	assert_int_equal(tk_input_fetch(in, MIB, 16, &p, &err), TK_OK);
	assert_int_equal(p[3], (uint8_t)((MIB + 3) * 7));
	tk_input_release(in, 2 * MIB);
	usleep(20000);
	tk_input_close(in);
	unlink(path);
}

/* Small files, memory and streams get no helper (nothing to join). */
static void test_no_helper(void **state)
{
	(void)state;
	char path[128];
	make_file(path, sizeof path, 1);
	tk_input *in;
	tk_error err;
	assert_int_equal(tk_input_open(path, &in, &err), TK_OK);
	tk_input_populate_ahead(in);
	tk_input_close(in);
	static const uint8_t mem[64];
	assert_int_equal(tk_input_open_memory(mem, sizeof mem, "mem", &in, &err), TK_OK);
	tk_input_populate_ahead(in);
	tk_input_close(in);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(tk_input_open_fd_stream(fds[0], "pipe", &in, &err), TK_OK);
	tk_input_populate_ahead(in);
	tk_input_close(in);
	close(fds[0]);
	close(fds[1]);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reads_same_bytes),
	    cmocka_unit_test(test_close_while_waiting),
	    cmocka_unit_test(test_file_cut_short),
	    cmocka_unit_test(test_no_helper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
