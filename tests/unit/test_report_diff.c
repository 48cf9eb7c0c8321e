/* perf diff's row order (src/output/report_diff.c) where two rows have
 * the same |delta|: perf falls back to the --sort keys' se_sort, which
 * for sym (sort__sym_sort) puts a row without a symbol after the named
 * ones and orders names without their "[.] " level. A plain strcmp of
 * the keys put "[.] 0x..." first ('0' < '_'): oracle/diff_perf caught
 * it only when a recording happened to tie. */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "base/writer.h"
#include "output/report_diff.h"

/* rows of B only (no baseline): the delta is B's share */
static char *diff_of(tk_report_row *rows, size_t n, const char *sort)
{
	tk_report_rows_table ta = {.event = "cpu-clock:u", .total = 10};
	tk_report_rows_table tb = {.event = "cpu-clock:u", .total = 10, .rows = rows, .n = n};
	tk_report_rows a = {.tables = &ta, .n = 1}, b = {.tables = &tb, .n = 1};
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_int_equal(tk_report_diff_write(&a, &b, sort, false, 0, w, NULL), TK_OK);
	size_t len;
	const char *d = tk_writer_data(w, &len);
	char *s = strndup(d, len);
	tk_writer_abort(w);
	return s;
}

/* the row lines' last column, in printed order, joined by '|' */
static void expect_order(const char *text, const char *want)
{
	char got[256] = "";
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		const char *e = strchr(l, '\n');
		if (l[0] != '#' && e > l) {
			const char *c = e;
			while (c > l && c[-1] != ' ' && c[-1] != '\t')
				c--;
			if (got[0])
				strcat(got, "|");
			strncat(got, c, (size_t)(e - c));
		}
	}
	assert_string_equal(got, want);
}

static void test_unresolved_after_named(void **state)
{
	(void)state;
	tk_report_row rows[] = {
	    {.key = "[.] 0x00000000000050c6", .self = 4, .unresolved = true, .addr = 0x50c6},
	    {.key = "[.] _PyEval_EvalFrameDefault", .self = 4},
	    {.key = "[.] PyList_Append", .self = 2},
	};
	char *out = diff_of(rows, 3, "sym");
	expect_order(out, "_PyEval_EvalFrameDefault|0x00000000000050c6|PyList_Append");
	free(out);
}

static void test_names_without_level(void **state)
{
	(void)state;
	/* by name: "[k] a" before "[.] b" although '.' < 'k' */
	tk_report_row rows[] = {
	    {.key = "[.] b", .self = 3},
	    {.key = "[k] a", .self = 3},
	};
	char *out = diff_of(rows, 2, "sym");
	expect_order(out, "a|b");
	free(out);
}

static void test_keys_in_order(void **state)
{
	(void)state;
	/* dso first: the unresolved rule applies only within one dso */
	tk_report_row rows[] = {
	    {.key = "python3\t[.] 0x0000000000001000", .self = 2, .unresolved = true},
	    {.key = "libc.so.6\t[.] 0x0000000000002000", .self = 2, .unresolved = true},
	    {.key = "python3\t[.] main", .self = 2},
	};
	char *out = diff_of(rows, 3, "dso,sym");
	expect_order(out, "0x0000000000002000|main|0x0000000000001000");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unresolved_after_named),
	    cmocka_unit_test(test_names_without_level),
	    cmocka_unit_test(test_keys_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
