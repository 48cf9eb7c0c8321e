/* Unit tests of the view's columns and levels of detail (src/view):
 * the time encoding round-trips (escapes, negative deltas), every level's
 * counts add up to the row's entries, its entries are one per non-empty
 * bucket with the right first start and last end, and levels much larger
 * than a row's eighth are not kept. */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "view/view_internal.h"

static uint32_t u32_at(const view_col *c, size_t i)
{
	uint32_t v;
	memcpy(&v, c->p + 4 * i, 4);
	return v;
}

static double f64_at(const view_col *c, size_t i)
{
	double v;
	memcpy(&v, c->p + 8 * i, 8);
	return v;
}

static void test_time_encoding(void **state)
{
	(void)state;
	view_col t = {0}, ovf = {0};
	const uint64_t times[] = {100, 105, 105 + (UINT64_C(1) << 40), 90, 90};
	uint64_t prev = times[0];
	for (size_t i = 0; i < 5; i++) {
		assert_true(view_put_time(&t, &ovf, prev, times[i]));
		prev = times[i];
	}
	assert_int_equal(t.n, 5 * 4);
	assert_int_equal(u32_at(&t, 0), 0);
	assert_int_equal(u32_at(&t, 1), 5);
	assert_int_equal(u32_at(&t, 2), VIEW_ESCAPE);
	assert_int_equal(u32_at(&t, 3), VIEW_ESCAPE);
	assert_int_equal(u32_at(&t, 4), 0);
	assert_int_equal(ovf.n, 2 * 8);
	assert_true(f64_at(&ovf, 0) == (double)(UINT64_C(1) << 40));
	assert_true(f64_at(&ovf, 1) == -(double)(105 + (UINT64_C(1) << 40) - 90));
	view_col_free(&t);
	view_col_free(&ovf);
}

/* Decodes level l's starts, ends and counts. */
static void level_of(const view_lod_level *lv, uint64_t base, uint64_t *start, uint64_t *end,
		     uint64_t *count)
{
	double cur = (double)base;
	size_t k = 0, kd = 0;
	for (size_t i = 0; i < lv->n; i++) {
		uint32_t d = u32_at(&lv->t, i);
		cur += d == VIEW_ESCAPE ? f64_at(&lv->tovf, k++) : d;
		uint32_t e = u32_at(&lv->dur, i);
		double dur = e == VIEW_ESCAPE ? f64_at(&lv->durovf, kd++) : e;
		start[i] = (uint64_t)cur;
		end[i] = (uint64_t)(cur + dur);
		count[i] = u32_at(&lv->count, i);
	}
}

static void test_levels(void **state)
{
	(void)state;
	/* 100 000 instants: a burst of 50 000 one ns apart, then 50 000 every
	 * 100 us */
	enum { N = 100000 };
	uint64_t *t = malloc(N * sizeof *t);
	assert_non_null(t);
	for (size_t i = 0; i < N; i++)
		t[i] = 1000 + (i < N / 2 ? i : N / 2 + (i - N / 2) * 100000);
	view_lod lod;
	memset(&lod, 0, sizeof lod);
	for (size_t i = 0; i < N; i++)
		view_lod_add(&lod, t[0], t[i], t[i], (uint32_t)(i % 7), i + 1);
	view_lod_finish(&lod, t[0], N);
	int kept = 0;
	uint64_t *s = malloc(N * sizeof *s), *e = malloc(N * sizeof *e), *c = malloc(N * sizeof *c);
	assert_true(s && e && c);
	for (int l = 0; l < VIEW_LOD_LEVELS; l++) {
		const view_lod_level *lv = &lod.lv[l];
		if (lv->dropped || !lv->n)
			continue;
		kept++;
		assert_true(lv->n * 8 <= N); /* only levels much smaller than the row */
		level_of(lv, t[0], s, e, c);
		unsigned shift = VIEW_LOD_SHIFT0 + 2 * (unsigned)l;
		uint64_t sum = 0;
		size_t i = 0;
		for (size_t k = 0; k < lv->n; k++) {
			/* entry k = the instants of one bucket, in order */
			uint64_t bucket = (t[i] - t[0]) >> shift;
			assert_int_equal(s[k], t[i]);
			size_t j = i;
			while (j < N && ((t[j] - t[0]) >> shift) == bucket)
				j++;
			assert_int_equal(c[k], j - i);
			assert_int_equal(e[k], t[j - 1]);
			sum += c[k];
			i = j;
		}
		assert_int_equal(i, N);
		assert_int_equal(sum, N);
	}
	assert_true(kept >= 3);
	view_lod_free(&lod);
	free(s);
	free(e);
	free(c);
	free(t);
}

static void test_unsorted_row_has_no_levels(void **state)
{
	(void)state;
	view_lod lod;
	memset(&lod, 0, sizeof lod);
	view_lod_add(&lod, 1000, 1000, 1000, 1, 1);
	view_lod_add(&lod, 1000, 5000, 5000, 1, 2);
	lod.invalid = true; /* as view_build.c marks a row whose times go back */
	view_lod_add(&lod, 1000, 2000, 2000, 1, 3);
	view_lod_finish(&lod, 1000, 3);
	for (int l = 0; l < VIEW_LOD_LEVELS; l++)
		assert_true(lod.lv[l].dropped || !lod.lv[l].n);
	view_lod_free(&lod);
}

/* Every (group, thread) pair gets its own track and every process its own
 * group. The old key combine sent thread 3920 of group 2 and thread 3985 of
 * group 1 to one track (a flaky browser test, depending on the tids the
 * recording got). */
static void test_tracks_do_not_share_keys(void **state)
{
	(void)state;
	view_builder *b = calloc(1, sizeof *b);
	assert_non_null(b);
	assert_true(view_builder_init(b));
	enum { PROCS = 64, TIDS = 200 };
	uint32_t g[PROCS];
	for (int p = 0; p < PROCS; p++) {
		g[p] = view_group_get(b, VIEW_GROUP_PROCESS, 0, 3900 + p, "process");
		assert_int_equal(g[p], p); /* a new group each time */
	}
	for (int p = 0; p < PROCS; p++)
		for (int t = 0; t < TIDS; t++) {
			uint32_t id = view_track_get(b, g[p], (uint64_t)(3900 + t), "thread",
						     VIEW_ROW_EVENTS, 3900 + t, -1);
			assert_int_equal(id, (uint32_t)(p * TIDS + t)); /* never an old one */
		}
	view_builder_free(b);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_time_encoding),
	    cmocka_unit_test(test_levels),
	    cmocka_unit_test(test_unsorted_row_has_no_levels),
	    cmocka_unit_test(test_tracks_do_not_share_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
