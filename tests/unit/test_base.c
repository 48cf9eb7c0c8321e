/* Unit tests for the base layer: writer formatting, input medium, arena,
 * hash map, error object. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "base/hashmap.h"
#include "base/input.h"
#include "base/writer.h"
#include "test_support.h"

static void expect_written(tk_writer *w, const char *want)
{
	size_t n;
	const char *got = tk_writer_data(w, &n);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(got, want, n);
}

static void test_writer_numbers(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_put_u64(w, 0);
	tk_put_char(w, ' ');
	tk_put_u64(w, UINT64_MAX);
	tk_put_char(w, ' ');
	tk_put_i64(w, INT64_MIN);
	tk_put_char(w, ' ');
	tk_put_hex(w, 0xdeadbeef);
	tk_put_char(w, ' ');
	tk_put_hex_pad(w, 0xab, 8);
	tk_put_char(w, ' ');
	tk_put_u64_pad(w, 42, 5, '0');
	tk_put_char(w, ' ');
	tk_put_i64_pad(w, -7, 4);
	tk_put_char(w, ' ');
	tk_put_oct(w, 8);
	expect_written(
	    w, "0 18446744073709551615 -9223372036854775808 deadbeef 000000ab 00042   -7 10");
	tk_writer_abort(w);
}

/* Hex digits as printf gives them, for every length and width: values
 * with each digit 0-f at each position, the boundaries, pseudo-random
 * ones. */
static void test_writer_hex_matches_printf(void **state)
{
	(void)state;
	uint64_t values[600];
	size_t n = 0;
	values[n++] = 0;
	values[n++] = UINT64_MAX;
	for (unsigned shift = 0; shift < 64; shift += 4)
		for (uint64_t d = 1; d < 16; d++)
			values[n++] = d << shift;
	for (unsigned bits = 1; bits < 64; bits++)
		values[n++] = (UINT64_C(1) << bits) - 1;
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	while (n < sizeof values / sizeof values[0]) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		values[n++] = x >> (x % 61); /* every length */
	}
	for (size_t i = 0; i < n; i++) {
		for (unsigned width = 0; width <= 16; width += 4) {
			tk_writer *w;
			assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
			char want[64];
			if (width) {
				tk_put_hex_pad(w, values[i], width);
				snprintf(want, sizeof want, "%0*llx", (int)width,
					 (unsigned long long)values[i]);
			} else {
				tk_put_hex(w, values[i]);
				snprintf(want, sizeof want, "%llx", (unsigned long long)values[i]);
			}
			tk_put_char(w, '|'); /* the bytes after the digits */
			strcat(want, "|");
			expect_written(w, want);
			tk_writer_abort(w);
		}
		char buf[24];
		size_t len = tk_fmt_hex(buf, values[i]);
		char want[24];
		assert_int_equal(len, (size_t)snprintf(want, sizeof want, "%llx",
						       (unsigned long long)values[i]));
		assert_memory_equal(buf, want, len);
	}
}

static void test_writer_json_escape(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	const char in[] = "a\"b\\c\n\x01\xc3\xa9\xff";
	tk_put_json_str(w, in, sizeof in - 1);
	expect_written(w, "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\\ufffd\"");
	tk_writer_abort(w);
}

/* Integers a double holds exactly (|v| <= 2^53) are JSON numbers, larger
 * ones strings; addresses are "0x..." strings. */
static void test_writer_json_numbers(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	const uint64_t lim = UINT64_C(9007199254740992); /* 2^53 */
	tk_put_json_u64(w, lim);
	tk_put_char(w, ' ');
	tk_put_json_u64(w, lim + 1);
	tk_put_char(w, ' ');
	tk_put_json_u64(w, UINT64_MAX);
	tk_put_char(w, ' ');
	tk_put_json_i64(w, -(int64_t)lim);
	tk_put_char(w, ' ');
	tk_put_json_i64(w, -(int64_t)lim - 1);
	tk_put_char(w, ' ');
	tk_put_json_i64(w, INT64_MIN);
	tk_put_char(w, ' ');
	tk_put_json_hex(w, 0xffffffff81000000ull);
	expect_written(w, "9007199254740992 \"9007199254740993\" \"18446744073709551615\" "
			  "-9007199254740992 \"-9007199254740993\" \"-9223372036854775808\" "
			  "\"0xffffffff81000000\"");
	tk_writer_abort(w);
}

static void test_writer_atomic(void **state)
{
	(void)state;
	char dir[] = "/tmp/tk-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/out.txt", dir);
	tk_writer *w;
	assert_int_equal(tk_writer_open_atomic(path, &w, NULL), TK_OK);
	tk_put_str(w, "hello");
	assert_int_equal(access(path, F_OK), -1); /* not there before commit */
	assert_int_equal(tk_writer_commit(w, NULL), TK_OK);
	size_t n;
	uint8_t *got = tk_test_read_file(path, &n);
	assert_non_null(got);
	assert_int_equal(n, 5);
	free(got);
	/* An aborted writer leaves nothing behind. */
	snprintf(path, sizeof path, "%s/aborted.txt", dir);
	assert_int_equal(tk_writer_open_atomic(path, &w, NULL), TK_OK);
	tk_put_str(w, "x");
	tk_writer_abort(w);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static void test_input_memory_bounds(void **state)
{
	(void)state;
	static const uint8_t data[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	tk_input *in;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_input_open_memory(data, sizeof data, "mem", &in, &err), TK_OK);
	const uint8_t *p;
	assert_int_equal(tk_input_fetch(in, 2, 4, &p, &err), TK_OK);
	assert_int_equal(p[0], 3);
	assert_int_equal(tk_input_fetch(in, 10, 1, &p, &err), TK_END);
	assert_int_equal(tk_input_fetch(in, 8, 4, &p, &err), TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 8);
	assert_int_equal(tk_input_fetch(in, UINT64_MAX - 1, 4, &p, &err), TK_ERR_TRUNCATED);
	tk_input_close(in);
}

static void test_input_stream(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	uint8_t data[3000];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)i;
	assert_int_equal(write(fds[1], data, sizeof data), (ssize_t)sizeof data);
	close(fds[1]);
	tk_input *in;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_input_open_fd_stream(fds[0], "pipe", &in, &err), TK_OK);
	assert_true(tk_input_is_stream(in));
	const uint8_t *p;
	assert_int_equal(tk_input_fetch(in, 0, 16, &p, &err), TK_OK);
	assert_int_equal(p[15], 15);
	assert_int_equal(tk_input_fetch(in, 1000, 100, &p, &err), TK_OK);
	assert_int_equal(p[0], (uint8_t)1000);
	assert_int_equal(tk_input_fetch(in, 500, 1, &p, &err), TK_ERR_USAGE); /* released */
	assert_int_equal(tk_input_fetch(in, 2990, 20, &p, &err), TK_ERR_TRUNCATED);
	tk_input_close(in);
	close(fds[0]);
}

/* Strings are packed, other blocks 16-byte aligned even after an odd
 * string, and a block larger than the chunk gets its own. */
static void test_arena_packs_strings(void **state)
{
	(void)state;
	tk_arena a;
	tk_arena_init(&a, 256);
	char *s1 = tk_arena_strndup(&a, "abcdefgh", 3);
	char *s2 = tk_arena_strdup(&a, "xy");
	assert_string_equal(s1, "abc");
	assert_string_equal(s2, "xy");
	assert_ptr_equal(s2, s1 + 4);
	void *b = tk_arena_alloc(&a, 24);
	assert_non_null(b);
	assert_int_equal((uintptr_t)b % 16, 0);
	assert_true((char *)b > s2 + 2 && (char *)b <= s2 + 3 + 15);
	char *s3 = tk_arena_strdup(&a, "z");
	assert_ptr_equal(s3, (char *)b + 24);
	/* strings that fill the chunk: the next one starts a new chunk whole */
	char name[64];
	char *last = NULL;
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof name, "name_%d", i);
		last = tk_arena_strdup(&a, name);
		assert_string_equal(last, name);
	}
	assert_string_equal(s1, "abc"); /* earlier chunks stay */
	assert_string_equal(s3, "z");
	void *big = tk_arena_alloc(&a, 1000);
	assert_non_null(big);
	assert_int_equal((uintptr_t)big % 16, 0);
	memset(big, 0xab, 1000);
	assert_string_equal(last, "name_99");
	tk_arena_free(&a);
}

/* A memory writer starts small and doubles: 3 MB written in pieces of
 * every size reads back whole. */
static void test_memory_writer_grows(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	size_t total = 0, piece = 1;
	unsigned char block[4096];
	while (total < ((size_t)3 << 20)) {
		for (size_t i = 0; i < piece; i++)
			block[i] = (unsigned char)((total + i) * 131 >> 3);
		tk_put_mem(w, block, piece);
		total += piece;
		piece = piece % sizeof block + 1 + piece / 3;
		if (piece > sizeof block)
			piece = 7;
	}
	size_t n;
	const unsigned char *got = (const unsigned char *)tk_writer_data(w, &n);
	assert_int_equal(n, total);
	for (size_t i = 0; i < n; i++)
		if (got[i] != (unsigned char)(i * 131 >> 3))
			fail_msg("byte %zu differs", i);
	tk_writer_abort(w);
}

static void test_arena_and_hashmap(void **state)
{
	(void)state;
	tk_arena a;
	tk_arena_init(&a, 128);
	char *s = tk_arena_strdup(&a, "hello");
	assert_string_equal(s, "hello");
	void *big = tk_arena_alloc(&a, 10000);
	assert_non_null(big);
	assert_int_equal((uintptr_t)big % 8, 0);
	tk_arena_reset(&a);
	assert_non_null(tk_arena_alloc(&a, 64));
	tk_arena_free(&a);

	tk_hashmap m;
	tk_hashmap_init(&m);
	for (uint64_t k = 0; k < 1000; k++)
		assert_true(tk_hashmap_put(&m, k * 7919, k));
	for (uint64_t k = 0; k < 1000; k++) {
		uint64_t *v = tk_hashmap_get(&m, k * 7919);
		assert_non_null(v);
		assert_int_equal(*v, k);
	}
	assert_null(tk_hashmap_get(&m, 3));
	tk_hashmap_free(&m);
}

static void test_bytes_and_status(void **state)
{
	(void)state;
	const uint8_t be[4] = {0x12, 0x34, 0x56, 0x78};
	assert_int_equal(tk_load_be32(be), 0x12345678);
	assert_int_equal(tk_load_le32(be), 0x78563412);
	assert_int_equal(tk_reverse_bits8(0x01), 0x80);
	assert_int_equal(tk_reverse_bits8(0x0f), 0xf0);
	assert_false(tk_range_ok(UINT64_MAX, 2, 100));
	assert_true(tk_range_ok(98, 2, 100));
	assert_string_equal(tk_status_str(TK_ERR_TRUNCATED), "truncated input");
	assert_string_equal(tk_status_str((tk_status)1234), "unknown status");
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_error_set(&err, TK_ERR_FORMAT, 0x1f40, "size %d", 0), TK_ERR_FORMAT);
	assert_string_equal(err.message, "size 0");
	assert_int_equal(err.offset, 0x1f40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_writer_numbers),
	    cmocka_unit_test(test_writer_hex_matches_printf),
	    cmocka_unit_test(test_writer_json_escape),
	    cmocka_unit_test(test_writer_json_numbers),
	    cmocka_unit_test(test_writer_atomic),
	    cmocka_unit_test(test_input_memory_bounds),
	    cmocka_unit_test(test_input_stream),
	    cmocka_unit_test(test_arena_and_hashmap),
	    cmocka_unit_test(test_arena_packs_strings),
	    cmocka_unit_test(test_memory_writer_grows),
	    cmocka_unit_test(test_bytes_and_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
