/* ctf_put_escaped copies whole 16- and 8-byte blocks when none of their
 * bytes needs escaping; this checks it against a byte-at-a-time reference
 * of babeltrace2's print_escape_string rules on random strings whose
 * special bytes fall on every position around the block boundaries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/ctf_pretty.h"
#include "test_support.h"

/* babeltrace2: \a \b \t \n \v \f \r \e and \" \' \? \\ as two characters,
 * other bytes below 0x20 and 0x7f as \xNN, the rest copied; NUL ends. */
static size_t reference(const char *s, size_t n, char *out)
{
	size_t o = 0;
	out[o++] = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *two = strchr("\a\b\t\n\v\f\r\033\"'?\\", c);
		if (c == 0)
			break;
		if (two) {
			out[o++] = '\\';
			out[o++] = "abtnvfre\"'?\\"[two - "\a\b\t\n\v\f\r\033\"'?\\"];
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o++] = '"';
	return o;
}

static void test_random_strings(void **state)
{
	(void)state;
	static const unsigned char special[] = {0,   1,    7,    9,    10,   27,  31,  '"', '\'',
						'?', '\\', 0x7f, 0x80, 0xff, ' ', '~', 'a'};
	srand(12345);
	char in[80], want[400];
	/* One memory writer for every string (each one's bytes are the tail
	 * after the previous end): opening a 1 MiB writer per string took
	 * 11 minutes under ASan. */
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	size_t before = 0;
	for (int iter = 0; iter < 200000; iter++) {
		size_t n = (size_t)(rand() % 72);
		for (size_t i = 0; i < n; i++)
			in[i] = (char)('a' + rand() % 26);
		int k = rand() % 3; /* 0 to 2 special bytes anywhere */
		for (int j = 0; j < k && n; j++)
			in[rand() % n] = (char)special[rand() % (int)sizeof special];
		ctf_put_escaped(w, in, n);
		size_t total;
		const char *got = tk_writer_data(w, &total) + before;
		size_t got_len = total - before;
		before = total;
		size_t want_len = reference(in, n, want);
		if (got_len != want_len || memcmp(got, want, want_len) != 0) {
			print_message(
			    "differs for a %zu-byte string (iteration %d): got %.*s want %.*s\n", n,
			    iter, (int)got_len, got, (int)want_len, want);
			fail();
		}
	}
	tk_writer_abort(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_strings)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
