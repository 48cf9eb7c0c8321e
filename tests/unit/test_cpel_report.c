/* Unit tests for the per-track reports (state, latency, linreg) on crafted
 * event sequences with known answers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "test_support.h"

static void add(tk_report *r, const char *track, const char *name, uint64_t id, uint64_t t)
{
	tk_error err;
	assert_int_equal(tk_report_add_raw(r, track, strlen(track), name, id, t, &err), TK_OK);
}

static void test_state(void **state)
{
	(void)state;
	tk_report *r;
	tk_error err;
	assert_int_equal(tk_report_new(TK_REPORT_STATE, "TICK", &r, &err), TK_OK);
	/* track a: intervals 10, 20, 30; track b: 5; other events ignored */
	add(r, "a", "TICK", 1, 100);
	add(r, "b", "TICK", 1, 1000);
	add(r, "a", "OTHER", 2, 105);
	add(r, "a", "TICK", 1, 110);
	add(r, "a", "TICK", 1, 130);
	add(r, "b", "TICK", 1, 1005);
	add(r, "a", "TICK", 1, 160);
	assert_int_equal(tk_report_n_tracks(r), 2);
	assert_string_equal(tk_report_track_name(r, 0), "a");
	tk_report_result o;
	tk_report_get(r, 0, &o);
	assert_int_equal(o.n, 3);
	assert_true(fabs(o.mean - 20.0) < 1e-9);
	assert_true(fabs(o.stdev - 10.0) < 1e-9); /* sample stdev of 10,20,30 */
	assert_int_equal(o.min, 10);
	assert_int_equal(o.max, 30);
	assert_int_equal(o.total, 60);
	tk_report_get(r, 1, &o);
	assert_int_equal(o.n, 1);
	assert_int_equal(o.total, 5);
	assert_true(o.stdev == 0);
	tk_report_get(r, 2, &o); /* overall: 10, 5, 20, 30 */
	assert_int_equal(o.n, 4);
	assert_true(fabs(o.mean - 16.25) < 1e-9);
	assert_int_equal(o.min, 5);
	assert_int_equal(o.total, 65);
	tk_report_free(r);
}

static void test_latency(void **state)
{
	(void)state;
	tk_report *r;
	tk_error err;
	/* names or numeric codes */
	assert_int_equal(tk_report_new(TK_REPORT_LATENCY, "7,END", &r, &err), TK_OK);
	add(r, "t", "BEGIN", 7, 0);
	add(r, "t", "END", 8, 4); /* 4 */
	add(r, "t", "END", 8, 9); /* no pending start: ignored */
	add(r, "t", "BEGIN", 7, 10);
	add(r, "t", "BEGIN", 7, 12); /* restarts */
	add(r, "t", "END", 8, 20);   /* 8 */
	add(r, "u", "END", 8, 21);   /* other track, nothing pending */
	add(r, "u", "BEGIN", 7, 30);
	add(r, "t", "END", 8, 31);  /* t has nothing pending */
	add(r, "u", "END", 8, 130); /* 100 */
	tk_report_result o;
	tk_report_get(r, 0, &o);
	assert_int_equal(o.n, 2);
	assert_int_equal(o.min, 4);
	assert_int_equal(o.max, 8);
	assert_true(fabs(o.mean - 6) < 1e-9);
	tk_report_get(r, 2, &o);
	assert_int_equal(o.n, 3);
	assert_int_equal(o.p50, 8);
	assert_int_equal(o.p90, 100);
	assert_int_equal(o.total, 112);
	tk_report_free(r);

	/* percentiles by nearest rank over 1..100 */
	assert_int_equal(tk_report_new(TK_REPORT_LATENCY, "S,E", &r, &err), TK_OK);
	for (uint64_t i = 1; i <= 100; i++) {
		add(r, "x", "S", 0, i * 1000);
		add(r, "x", "E", 0, i * 1000 + (101 - i));
	}
	tk_report_get(r, 0, &o);
	assert_int_equal(o.p50, 50);
	assert_int_equal(o.p90, 90);
	assert_int_equal(o.p99, 99);
	assert_int_equal(o.min, 1);
	assert_int_equal(o.max, 100);
	tk_report_free(r);
}

static void test_linreg(void **state)
{
	(void)state;
	tk_report *r;
	tk_error err;
	assert_int_equal(tk_report_new(TK_REPORT_LINREG, "S,E", &r, &err), TK_OK);
	/* track g: interval i takes 50 + 10 i (grows with N); track f: flat 70 */
	uint64_t t = 0;
	for (uint64_t i = 0; i < 20; i++) {
		add(r, "g", "S", 0, t);
		add(r, "g", "E", 0, t + 50 + 10 * i);
		add(r, "f", "S", 0, t);
		add(r, "f", "E", 0, t + 70);
		t += 1000;
	}
	tk_report_result o;
	tk_report_get(r, 0, &o);
	assert_string_equal(tk_report_track_name(r, 0), "g");
	assert_int_equal(o.n, 20);
	assert_true(fabs(o.slope - 10) < 1e-9);
	assert_true(fabs(o.intercept - 50) < 1e-9);
	assert_true(fabs(o.r - 1) < 1e-12);
	tk_report_get(r, 1, &o);
	assert_true(fabs(o.slope) < 1e-12);
	assert_true(fabs(o.intercept - 70) < 1e-9);
	assert_true(o.r == 0); /* no variance in y */
	tk_report_free(r);
}

static void test_sorted_output(void **state)
{
	(void)state;
	tk_report *r;
	tk_error err;
	assert_int_equal(tk_report_new(TK_REPORT_STATE, "T", &r, &err), TK_OK);
	add(r, "b", "T", 0, 0);
	add(r, "b", "T", 0, 10); /* b: total 10 */
	add(r, "a", "T", 0, 0);
	add(r, "a", "T", 0, 5);
	add(r, "a", "T", 0, 105); /* a: total 105, count 2 */
	add(r, "c", "T", 0, 0);   /* c: nothing */
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_int_equal(tk_report_write_sorted(r, w, "total", 2, &err), TK_OK);
	size_t n;
	const char *data = tk_writer_data(w, &n);
	char *text = strndup(data, n);
	char *rows[8];
	size_t k = 0;
	for (char *save, *l = strtok_r(text, "\n", &save); l && k < 8;
	     l = strtok_r(NULL, "\n", &save))
		rows[k++] = l;
	assert_int_equal(k, 5); /* comment, header, a, b, all */
	assert_true(rows[2][0] == 'a' && rows[3][0] == 'b' && strncmp(rows[4], "all", 3) == 0);
	free(text);
	w->pos = 0;
	assert_int_equal(tk_report_write_sorted(r, w, "name", 0, &err), TK_OK);
	data = tk_writer_data(w, &n);
	text = strndup(data, n);
	k = 0;
	for (char *save, *l = strtok_r(text, "\n", &save); l && k < 8;
	     l = strtok_r(NULL, "\n", &save))
		rows[k++] = l;
	assert_int_equal(k, 6);
	assert_true(rows[2][0] == 'a' && rows[3][0] == 'b' && rows[4][0] == 'c');
	free(text);
	assert_int_equal(tk_report_write_sorted(r, w, "bogus", 0, &err), TK_ERR_USAGE);
	tk_writer_abort(w);
	tk_report_free(r);
}

static void test_bad_specs(void **state)
{
	(void)state;
	tk_report *r;
	tk_error err;
	assert_int_equal(tk_report_new(TK_REPORT_LATENCY, "ONLY", &r, &err), TK_ERR_USAGE);
	assert_int_equal(tk_report_new(TK_REPORT_LINREG, ",E", &r, &err), TK_ERR_USAGE);
	assert_int_equal(tk_report_new(TK_REPORT_LINREG, "S,", &r, &err), TK_ERR_USAGE);
	assert_int_equal(tk_report_new(TK_REPORT_STATE, "", &r, &err), TK_ERR_USAGE);
	assert_null(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_state),     cmocka_unit_test(test_latency),
	    cmocka_unit_test(test_linreg),    cmocka_unit_test(test_sorted_output),
	    cmocka_unit_test(test_bad_specs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
