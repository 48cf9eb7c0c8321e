/* CPEL text fast paths against their oracles:
 * - the datum plans (cpel_text.c) print what C's printf prints for the
 *   formats they take, and what tk_safe_format prints for every format;
 * - cpeldump's time column (kept per second, ms/us from tables) equals
 *   cpeldump's own arithmetic printed with printf, over second, minute and
 *   hour boundaries and a clock that goes backwards (u64 wrap-around). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "cpel/cpel_reader.h"
#include "cpel/cpel_text.h"
#include "cpel/cpel_writer.h"
#include "cpel/safe_format.h"
#include "output/cpel_dump.h"
#include "test_support.h"

/* the formats come from data, as in cpeldump: printf is the oracle */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static const char *const int_formats[] = {
    "%d",   "%u",    "%x",   "%X",    "0x%08x", "%08X",   "%5d",
    "%05d", "%-5d|", "%20d", "%020u", "[%3x]",  "v=%d s", "%d%%",
    "%+d",  "%ld",   "%.3d", "%c",    "plain",  "%d %d",  "%21d",
    "%s",   "%o",    "%lu",  "%",     "abc%",   "%0d",    "%12x--",
    "%1d",  "%2u",   "%10X", "%x%",   "%-08d",  "% d",    "%#x",
    "%hd",  "%hhu",  "%lld", "%zu",   "%9s",    "%-s",    "pre %u post with a long tail text"};

static const uint32_t values[] = {0,          1,          9,          10,         99,
				  100,        12345,      99999,      100000,     2147483647,
				  2147483648, 4294967295, 4294967286, 0x80000001, 0xdeadbeef,
				  0x0000ffff, 0x00010000, 42,         1000000000, 999999999};

/* The reader's test for a string datum: an 's' anywhere after a '%'. */
static bool is_string_format(const char *f)
{
	const char *p = strchr(f, '%');
	return p && strchr(p, 's');
}

static void put_planned(tk_writer *w, const char *fmt, uint32_t v, const char *s)
{
	tk_cpel_datum_plan plan;
	tk_cpel_plan_datum(fmt, is_string_format(fmt), &plan);
	w->pos = 0;
	tk_cpel_put_datum(w, &plan, v, s, s ? strlen(s) : 0);
}

static void put_safe(tk_writer *w, const char *fmt, uint32_t v, const char *s)
{
	tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = v};
	if (is_string_format(fmt)) {
		a.kind = TK_FMT_ARG_STRING;
		a.s = s;
		a.len = s ? strlen(s) : 0;
	}
	w->pos = 0;
	tk_safe_format(w, TK_FMT_PRINTF, fmt, strlen(fmt), &a, 1);
}

static void test_plans_match(void **state)
{
	(void)state;
	tk_writer *a, *b;
	assert_int_equal(tk_writer_open_memory(&a, NULL), TK_OK);
	assert_int_equal(tk_writer_open_memory(&b, NULL), TK_OK);
	size_t n_simple = 0;
	for (size_t i = 0; i < sizeof int_formats / sizeof *int_formats; i++) {
		const char *fmt = int_formats[i];
		tk_cpel_datum_plan plan;
		tk_cpel_plan_datum(fmt, is_string_format(fmt), &plan);
		n_simple += plan.simple;
		for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
			const char *strs[] = {"hello", "",
					      "a longer string datum of 40 characters."};
			for (size_t j = 0; j < 3; j++) {
				const char *s = is_string_format(fmt) ? strs[j] : NULL;
				put_planned(a, fmt, values[k], s);
				put_safe(b, fmt, values[k], s);
				assert_int_equal(a->pos, b->pos);
				assert_memory_equal(a->buf, b->buf, a->pos);
				if (!plan.simple)
					continue;
				/* the planned formats: what printf makes of the u32 */
				char want[128];
				int n = s ? snprintf(want, sizeof want, fmt, s)
					: plan.conv == 'd'
					    ? snprintf(want, sizeof want, fmt, (int)values[k])
					    : snprintf(want, sizeof want, fmt, values[k]);
				assert_int_equal((size_t)n, a->pos);
				assert_memory_equal(a->buf, want, a->pos);
			}
		}
	}
	printf("%zu of %zu formats planned\n", n_simple, sizeof int_formats / sizeof *int_formats);
	assert_true(n_simple >= 15); /* the fast path is taken, not only the fallback */
	tk_writer_abort(a);
	tk_writer_abort(b);
}

#define USEC_PER_MS     1000ULL
#define USEC_PER_SECOND (1000 * USEC_PER_MS)
#define USEC_PER_MINUTE (60 * USEC_PER_SECOND)
#define USEC_PER_HOUR   (60 * USEC_PER_MINUTE)

/* cpeldump.c's time column, as it computes and prints it. */
static int cpeldump_time(char *buf, size_t cap, uint64_t delta)
{
	uint32_t hours = (uint32_t)(delta / USEC_PER_HOUR);
	delta -= (uint64_t)hours * USEC_PER_HOUR;
	uint32_t minutes = (uint32_t)(delta / USEC_PER_MINUTE);
	delta -= (uint64_t)minutes * USEC_PER_MINUTE;
	uint32_t seconds = (uint32_t)(delta / USEC_PER_SECOND);
	delta -= (uint64_t)seconds * USEC_PER_SECOND;
	uint32_t msec = (uint32_t)(delta / USEC_PER_MS);
	delta -= (uint64_t)msec * USEC_PER_MS;
	uint32_t usec = (uint32_t)delta;
	return snprintf(buf, cap, "%.03d:%.02d:%.02d:%.03d:%.03d ", (int)hours, (int)minutes,
			(int)seconds, (int)msec, (int)usec);
}

/* cpeldump: d = ticks; d /= ticks_per_us; now = (u64)d (1 tick per us here;
 * every time below converts without overflow) */
static uint64_t ticks_to_us(uint64_t ticks)
{
	return (uint64_t)((double)ticks / 1.0);
}

static void test_dump_times(void **state)
{
	(void)state;
	/* a 1 MHz clock: ticks are microseconds */
	static const uint64_t times[] = {5000000,
					 5000001,
					 5999999,
					 6000000,
					 6000999,
					 6001000,
					 65000000,
					 65999999,
					 66000000,
					 3605000000ULL,
					 3605000001ULL,
					 3604999999ULL,
					 1,
					 5000000,
					 86400000000ULL * 400,
					 4000000,
					 0xffffffffffffULL,
					 5000000 + 999,
					 0x7fffffffffffffffULL,
					 0xfffffffffff00000ULL,
					 5000000 + 1000000};
	size_t n = sizeof times / sizeof *times;
	tk_cpel_writer *cw = tk_cpel_writer_new();
	assert_non_null(cw);
	uint32_t name, datum, track;
	assert_true(tk_cpel_writer_string(cw, "E", 1, &name));
	assert_true(tk_cpel_writer_string(cw, "%d", 2, &datum));
	assert_true(tk_cpel_writer_string(cw, "T", 1, &track));
	assert_true(tk_cpel_writer_event_def(cw, 1, name, datum));
	assert_true(tk_cpel_writer_track_def(cw, 2, track));
	for (size_t i = 0; i < n; i++)
		assert_true(tk_cpel_writer_event(cw, times[i], 2, 1, (uint32_t)i));
	tk_writer *mem, *out;
	assert_int_equal(tk_writer_open_memory(&mem, NULL), TK_OK);
	assert_int_equal(tk_cpel_writer_emit(cw, mem, false, 0, 1000000, NULL), TK_OK);
	size_t size;
	const char *bytes = tk_writer_data(mem, &size);
	tk_cpel_file *f;
	tk_error err;
	assert_int_equal(tk_cpel_open_memory(bytes, size, "times", NULL, NULL, &f, &err), TK_OK);
	assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
	assert_int_equal(tk_cpel_dump(f, out, 0, &err), TK_OK);
	size_t len;
	const char *text = tk_writer_data(out, &len);
	const char *p = text;
	for (size_t i = 0; i < n; i++) {
		char want[128];
		int w =
		    cpeldump_time(want, sizeof want, ticks_to_us(times[i]) - ticks_to_us(times[0]));
		snprintf(want + w, sizeof want - (size_t)w, "T     E     %zu\n", i);
		size_t wl = strlen(want);
		assert_true((size_t)(p - text) + wl <= len);
		if (memcmp(p, want, wl) != 0)
			fail_msg("event %zu: got '%.*s', want '%s'", i, (int)wl, p, want);
		p += wl;
	}
	assert_int_equal((size_t)(p - text), len);
	tk_writer_abort(out);
	tk_cpel_close(f);
	tk_writer_abort(mem);
	tk_cpel_writer_free(cw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plans_match),
	    cmocka_unit_test(test_dump_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
