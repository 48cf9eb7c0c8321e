/* Unit tests for DCPI reports: a profile database is written with the
 * writer API for an image compiled in the test (samples at known function
 * addresses, image id = its build id), then reported per symbol, image and
 * address; counts, percentages and cumulative percentages are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/profile_agg.h"
#include "base/writer.h"
#include "output/profile_report.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/tk-rep-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "cd %s && printf 'int hot(int x){return x*3+1;}\\nint warm(int x){return "
		 "x^7;}\\n' > l.c && "
		 "cc -O1 -fPIC -shared -Wl,--build-id=sha1 -o l.so l.c 2>/dev/null",
		 dir);
	if (system(cmd) != 0)
		dir[0] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	if (dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		(void)!system(cmd);
	}
	return 0;
}

static char *report(const char *db, const char *sort, uint64_t top, const char *events)
{
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_profile_report_options o = {.sort = sort, .top = top, .events = events};
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_profile_report_dcpi(db, &o, w, &err);
	if (st != TK_OK)
		fprintf(stderr, "report: %s\n", err.message);
	assert_int_equal(st, TK_OK);
	size_t n;
	const char *d = tk_writer_data(w, &n);
	char *s = strndup(d, n);
	tk_writer_abort(w);
	return s;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static void test_report_symbols(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	char so[128];
	snprintf(so, sizeof so, "%s/l.so", dir);
	tk_symtab *t;
	assert_int_equal(tk_symtab_load_elf(so, &t, NULL), TK_OK);
	uint64_t hot = 0, warm = 0, tv, ts, to;
	for (size_t i = 0; i < tk_symtab_count(t); i++) {
		const tk_symbol *s = tk_symtab_at(t, i);
		if (strcmp(s->name, "hot") == 0)
			hot = s->start;
		if (strcmp(s->name, "warm") == 0)
			warm = s->start;
	}
	assert_true(hot && warm);
	assert_true(tk_symtab_text(t, &tv, &ts, &to));
	uint8_t id[TK_BUILD_ID_MAX];
	char hex[2 * TK_BUILD_ID_MAX + 1];
	tk_build_id_hex(id, tk_symtab_build_id(t, id), hex);
	tk_symtab_free(t);

	char db[128];
	snprintf(db, sizeof db, "%s/db", dir);
	tk_dcpi_fields f = {
	    .image = hex,
	    .epoch = "2401021304",
	    .platform = "x86_64",
	    .event = "cycles",
	    .period = 1000,
	    .tstart = tv,
	    .tsize = ts,
	    .cpuspeed = 1000,
	    .path = so,
	};
	/* hot: 6 samples over two addresses, warm: 3, one address in no
	 * symbol (far past .text) */
	tk_dcpi_sample s[] = {{hot - tv, 4}, {hot - tv + 1, 2}, {warm - tv, 3}, {ts + 0x100000, 1}};
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_dcpi_db_write(db, "2401021304", "h", "l_cycles.prof", &f, s, 4, &err),
			 TK_OK);
	/* a second event for the same image */
	f.event = "imiss";
	tk_dcpi_sample s2[] = {{warm - tv, 5}};
	assert_int_equal(tk_dcpi_db_write(db, "2401021304", "h", "l_imiss.prof", &f, s2, 1, &err),
			 TK_OK);

	char *r = report(db, NULL, 0, "cycles");
	char want[512];
	snprintf(want, sizeof want, "        6   60.00%%   60.00%%  hot        %s", so);
	assert_true(has_line(r, want));
	snprintf(want, sizeof want, "        3   30.00%%   90.00%%  warm       %s", so);
	assert_true(has_line(r, want));
	snprintf(want, sizeof want, "        1   10.00%%  100.00%%  [unknown]  %s", so);
	assert_true(has_line(r, want));
	assert_null(strstr(r, "imiss"));
	free(r);

	r = report(db, "image", 0, NULL);
	snprintf(want, sizeof want, "       10  100.00%%  100.00%%  %s", so);
	assert_true(has_line(r, want)); /* cycles */
	snprintf(want, sizeof want, "        5  100.00%%  100.00%%  %s", so);
	assert_true(has_line(r, want)); /* imiss */
	free(r);

	r = report(db, "address", 1, "cycles");
	snprintf(want, sizeof want, "        4   40.00%%   40.00%%  0x%-16llx  hot        %s",
		 (unsigned long long)hot, so);
	assert_true(has_line(r, want));
	assert_null(strstr(r, "warm")); /* --top 1 */
	free(r);

	/* a rebuilt image (other build id) is not used for symbols */
	char cmd[256];
	snprintf(
	    cmd, sizeof cmd,
	    "cd %s && cc -O1 -fPIC -shared -Wl,--build-id=sha1 -DX=1 -o l.so -x c - </dev/null",
	    dir);
	assert_int_equal(system(cmd), 0);
	r = report(db, "symbol", 0, "imiss");
	snprintf(want, sizeof want, "        5  100.00%%  100.00%%  [unknown]  %s", so);
	assert_true(has_line(r, want));
	free(r);

	tk_profile_report_options bad = {.sort = "nonsense"};
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_int_equal(tk_profile_report_dcpi(db, &bad, w, &err), TK_ERR_USAGE);
	bad.sort = NULL;
	bad.events = "nothing*";
	assert_int_equal(tk_profile_report_dcpi(db, &bad, w, &err), TK_ERR_NOT_FOUND);
	tk_writer_abort(w);
}

static void test_aggregator(void **state)
{
	(void)state;
	tk_profile_agg *a = tk_profile_agg_new(TK_PROFILE_BY_SYMBOL);
	/* many distinct symbols: forces the table to grow and rehash */
	static char names[3000][8];
	for (int i = 0; i < 3000; i++) {
		snprintf(names[i], sizeof names[i], "f%d", i);
		assert_true(tk_profile_agg_add(a, "img", names[i], (uint64_t)i * 16,
					       (uint64_t)i * 16 + 1, (uint64_t)(i % 7) + 1));
	}
	assert_true(tk_profile_agg_add(a, "img", names[5], 80, 81, 100));
	assert_true(tk_profile_agg_add(a, "img", NULL, 0, 1, 2));
	assert_true(tk_profile_agg_add(a, "other", NULL, 0, 1, 3));
	size_t n;
	const tk_profile_row *rows = tk_profile_agg_rows(a, &n);
	assert_int_equal(n, 3002);
	assert_string_equal(rows[0].symbol, "f5");
	assert_int_equal(rows[0].count, 106);
	for (size_t i = 1; i < n; i++)
		assert_true(rows[i - 1].count >= rows[i].count);
	/* adding after sorting still merges into the right rows */
	assert_true(tk_profile_agg_add(a, "img", names[5], 80, 82, 1));
	rows = tk_profile_agg_rows(a, &n);
	assert_int_equal(n, 3002);
	assert_int_equal(rows[0].count, 107);
	tk_profile_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_report_symbols),
	    cmocka_unit_test(test_aggregator),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
