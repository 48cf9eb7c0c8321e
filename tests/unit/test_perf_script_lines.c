/* perf script's line cache (src/output/perf_script_lines.c) past its
 * first table: 300 000 distinct addresses (the first table holds 91 750
 * lines, one huge page of slots) make the table double, then reach its
 * bound and start over; every line written is the one rendered for that
 * address, before and after, in the cache's JSON mode too. No symbols are
 * loaded: the addresses resolve to "[unknown]" (JSON: the ip alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "base/writer.h"
#include "context/threads_model.h"
#include "output/perf_script_lines.h"

#define N_ADDRS 300000
#define ADDR(i) (0x400000ull + 16 * (uint64_t)(i))

/* The text written for ip, into buf (NUL-terminated). */
static void line_of(tk_line_cache *c, tk_threads *t, tk_writer *w, uint64_t ip, char *buf,
		    size_t cap)
{
	w->pos = 0;
	tk_line_cache_put_ip(c, t, NULL, TK_CPUMODE_USER, ip, w);
	assert_true(w->pos < cap);
	memcpy(buf, w->buf, w->pos);
	buf[w->pos] = '\0';
}

static void run(bool json)
{
	tk_threads t;
	assert_true(tk_threads_init(&t, NULL));
	tk_line_cache c;
	if (json)
		assert_true(tk_line_cache_init_json(&c));
	else
		tk_line_cache_init(&c);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	char got[256], hex[32];
	char(*first)[96] = malloc((size_t)N_ADDRS * sizeof *first);
	assert_non_null(first);
	/* the first sighting renders; the line must name the address */
	for (size_t i = 0; i < N_ADDRS; i++) {
		line_of(&c, &t, w, ADDR(i), got, sizeof got);
		snprintf(hex, sizeof hex, json ? "0x%llx" : "%llx", (unsigned long long)ADDR(i));
		if (!strstr(got, hex) || (!json && !strstr(got, "[unknown]")))
			fail_msg("address %zu: \"%s\" does not name %s", i, got, hex);
		assert_true(strlen(got) < sizeof first[i]);
		strcpy(first[i], got);
	}
	/* the first rendering is a fresh cache's (checked below for some) */
	tk_line_cache fresh;
	for (size_t i = 0; i < N_ADDRS; i += 9973) {
		if (json)
			assert_true(tk_line_cache_init_json(&fresh));
		else
			tk_line_cache_init(&fresh);
		line_of(&fresh, &t, w, ADDR(i), got, sizeof got);
		tk_line_cache_free(&fresh);
		assert_string_equal(got, first[i]);
	}
	/* every address again, twice (the second from the hot table): the
	 * same bytes, whether from the grown table, after a restart, or
	 * rendered anew */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < N_ADDRS; i++) {
			line_of(&c, &t, w, ADDR(i), got, sizeof got);
			if (strcmp(got, first[i]) != 0)
				fail_msg("address %zu, pass %d: \"%s\", first \"%s\"", i, pass, got,
					 first[i]);
		}
	free(first);
	tk_writer_abort(w);
	tk_line_cache_free(&c);
	tk_threads_free(&t);
}

static void test_text_lines_past_growth(void **state)
{
	(void)state;
	run(false);
}

static void test_json_frames_past_growth(void **state)
{
	(void)state;
	run(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_lines_past_growth),
	    cmocka_unit_test(test_json_frames_past_growth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
