/* Unit tests for the safe formatter: agreement with printf on the
 * conversions it supports, vppinfra's quirks, and hostile formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "cpel/safe_format.h"
#include "test_support.h"

static char out_buf[1 << 16];

static const char *fmt_int(tk_fmt_dialect d, const char *fmt, uint64_t v)
{
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = v};
	tk_safe_format(w, d, fmt, strlen(fmt), &a, 1);
	size_t n;
	const char *p = tk_writer_data(w, &n);
	assert_true(n < sizeof out_buf);
	memcpy(out_buf, p, n);
	out_buf[n] = 0;
	tk_writer_abort(w);
	return out_buf;
}

static const char *fmt_str(tk_fmt_dialect d, const char *fmt, const char *s)
{
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_fmt_arg a = {.kind = TK_FMT_ARG_STRING, .s = s, .len = s ? strlen(s) : 0};
	tk_safe_format(w, d, fmt, strlen(fmt), &a, 1);
	size_t n;
	const char *p = tk_writer_data(w, &n);
	memcpy(out_buf, p, n);
	out_buf[n] = 0;
	tk_writer_abort(w);
	return out_buf;
}

/* Formats with one unsigned int argument: our output must equal printf's. */
static void test_matches_printf_int(void **state)
{
	(void)state;
	static const char *fmts[] = {
	    "%d",     "%i",     "%u",     "%x",   "%X",    "%o",      "%5d",    "%-5d|",
	    "%05d",   "%+d",    "% d",    "%.3d", "%8.3d", "%-8.3x|", "%#x",    "%#X",
	    "%#o",    "%#10x",  "%010u",  "%.0d", "%.0x",  "%c",      "%3c",    "%-3c|",
	    "0x%08x", "cpu %d", "pid:%d", "%hd",  "%hhu",  "%hx",     "a%%b%d", "%ld",
	    "%lu",    "%llx",   "%lld",   "%zu",  "%jd",   "%p",      "%20p",   "%-+6d|",
	};
	static const uint32_t vals[] = {0,     1,          7,           42,          255,
					65535, 0x7fffffff, 0x80000000u, 0xdeadbeefu, 0xffffffffu};
	char want[256];
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
			const char *f = fmts[i];
			uint32_t v = vals[k];
			if (strstr(f, "%c") || strstr(f, "3c"))
				v &= 0x7f; /* printable-ish bytes only */
			if (strchr(f, 'l') || strchr(f, 'z') || strchr(f, 'j'))
				snprintf(want, sizeof want, f, (unsigned long)v);
			else if (strchr(f, 'p'))
				snprintf(want, sizeof want, f, (void *)(uintptr_t)v);
			else
				snprintf(want, sizeof want, f, v);
			const char *got = fmt_int(TK_FMT_PRINTF, f, v);
			if (strcmp(got, want) != 0)
				fail_msg("format \"%s\" value %u: got \"%s\", printf gives \"%s\"",
					 f, v, got, want);
		}
	}
}

static void test_matches_printf_str_and_float(void **state)
{
	(void)state;
	char want[256];
	static const char *sf[] = {"%s", "[%10s]", "[%-10s]", "%.3s", "[%8.2s]", "x%sy"};
	for (size_t i = 0; i < sizeof sf / sizeof sf[0]; i++) {
		snprintf(want, sizeof want, sf[i], "hello, world");
		assert_string_equal(fmt_str(TK_FMT_PRINTF, sf[i], "hello, world"), want);
	}
	static const char *ff[] = {"%f", "%.2f", "%10.3f", "%e", "%g", "%-12.4e|", "%+.1f", "%G"};
	for (size_t i = 0; i < sizeof ff / sizeof ff[0]; i++) {
		tk_writer *w;
		assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
		tk_fmt_arg a = {.kind = TK_FMT_ARG_DOUBLE, .f = 3.14159265};
		tk_safe_format(w, TK_FMT_PRINTF, ff[i], strlen(ff[i]), &a, 1);
		size_t n;
		const char *p = tk_writer_data(w, &n);
		snprintf(want, sizeof want, ff[i], 3.14159265);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(p, want, n);
		tk_writer_abort(w);
	}
}

/* What file formats must not be able to do. */
static void test_hostile_formats(void **state)
{
	(void)state;
	/* %n writes nothing and is shown as text */
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "a%nb", 5), "a%nb");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "a%nb", 5), "a%nb");
	/* unknown conversions and '*' are text, and consume no argument */
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "%*d|%d", 7), "%*d|7");
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "%k %U %v", 7), "%k %U %v");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%U%v", 7), "%U%v");
	/* huge widths are clamped */
	const char *s = fmt_int(TK_FMT_PRINTF, "%999999d", 1);
	assert_int_equal(strlen(s), TK_FMT_MAX_WIDTH);
	assert_int_equal(s[TK_FMT_MAX_WIDTH - 1], '1');
	s = fmt_int(TK_FMT_PRINTF, "%.99999999999999999999d", 1);
	assert_int_equal(strlen(s), TK_FMT_MAX_WIDTH);
	s = fmt_str(TK_FMT_PRINTF, "%99999999s", "x");
	assert_int_equal(strlen(s), TK_FMT_MAX_WIDTH);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_fmt_arg a = {.kind = TK_FMT_ARG_DOUBLE, .f = 1e308};
	tk_safe_format(w, TK_FMT_PRINTF, "%999999.999999f", 15, &a, 1);
	size_t n;
	tk_writer_data(w, &n);
	assert_true(n >= 309 && n <= TK_FMT_MAX_WIDTH + 400);
	tk_writer_abort(w);
	/* long runs of % */
	char run[4001];
	memset(run, '%', 4000);
	run[4000] = 0;
	s = fmt_int(TK_FMT_PRINTF, run, 3);
	assert_int_equal(strlen(s), 2000);
	run[3999] = 'd';
	s = fmt_int(TK_FMT_PRINTF, run, 3); /* 1999 x "%%" then "%d" */
	assert_int_equal(strlen(s), 1999 + 1);
	assert_int_equal(s[1999], '3');
	/* more conversions than arguments: 0 and (null), never stack data */
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "%d %d %s %x", 9), "9 0 (null) 0");
	/* a number given to %s is printed as a number, not dereferenced */
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "%s", 0x41414141), "1094795585");
	/* a trailing lone % and a cut conversion */
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "50%", 1), "50%");
	assert_string_equal(fmt_int(TK_FMT_PRINTF, "%08l", 1), "%08l");
	/* the format ends at its first NUL */
	tk_writer *w2;
	assert_int_equal(tk_writer_open_memory(&w2, NULL), TK_OK);
	tk_safe_format(w2, TK_FMT_PRINTF, "ab\0%d", 5, NULL, 0);
	tk_writer_data(w2, &n);
	assert_int_equal(n, 2);
	tk_writer_abort(w2);
}

/* vppinfra format(): widths also cut, '=' centres, '0' pads either side. */
static void test_vppinfra_dialect(void **state)
{
	(void)state;
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "cpu %d", 3), "cpu 3");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%d", 0xffffffffu), "-1");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%u", 0xffffffffu), "4294967295");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%x", 0xdeadbeefu), "deadbeef");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%X", 0xdeadbeefu), "DEADBEEF");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "[%5d]", 42), "[   42]");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "[%-5d]", 42), "[42   ]");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "[%=6d]", 42), "[  42  ]");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "[%05d]", 42), "[00042]");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "[%2d]", 12345), "[12]");
	assert_string_equal(fmt_int(TK_FMT_VPPINFRA, "%p", 0x1000), "0x1000");
	assert_string_equal(fmt_str(TK_FMT_VPPINFRA, "[%-8s]", "up"), "[up      ]");
	assert_string_equal(fmt_str(TK_FMT_VPPINFRA, "%S", "a_b_c"), "a b c");
	assert_string_equal(fmt_str(TK_FMT_VPPINFRA, "%s", NULL), "(nil)");
	assert_string_equal(fmt_str(TK_FMT_PRINTF, "%s", NULL), "(null)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_matches_printf_int),
	    cmocka_unit_test(test_matches_printf_str_and_float),
	    cmocka_unit_test(test_hostile_formats),
	    cmocka_unit_test(test_vppinfra_dialect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
