/* The two lanes' sequencer (src/output/print_lanes.c): chunks published by
 * two threads in any interleaving reach the writer in chunk order; a stop
 * drops every chunk after it; two cursors walking the same stream of
 * records, each writing only its own chunks, give the stream's text in
 * order (side-band records go with the chunk of the samples before
 * them), also when lane 1 joins late (lane 0 writing alone to the
 * output up to the join); a once-a-run warning is logged once. The threads yield at
 * random points (a seeded generator), so many interleavings are tried;
 * no assertion depends on which one happens. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "output/print_lanes.h"

#define N_CHUNKS 60

/* (cmocka's assertions only on the main thread: threads note failures) */
typedef struct publisher {
	tk_lanes *l;
	unsigned lane;
	unsigned seed;
	bool failed;
} publisher;

static void jitter(unsigned *seed)
{
	for (int n = rand_r(seed) % 4; n > 0; n--)
		sched_yield();
}

static void *publish_chunks(void *arg)
{
	publisher *p = arg;
	for (uint64_t c = p->lane; c < N_CHUNKS; c += 2) {
		tk_writer *b = tk_lanes_take(p->l, c);
		if (!b) {
			p->failed = true;
			return NULL;
		}
		for (uint64_t k = 0; k <= c % 7; k++) {
			tk_put_fmt(b, "chunk %llu line %llu\n", (unsigned long long)c,
				   (unsigned long long)k);
			jitter(&p->seed);
		}
		tk_lanes_publish(p->l, c);
	}
	return NULL;
}

static char *expected_chunks(uint64_t last)
{
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	for (uint64_t c = 0; c <= last; c++)
		for (uint64_t k = 0; k <= c % 7; k++)
			tk_put_fmt(w, "chunk %llu line %llu\n", (unsigned long long)c,
				   (unsigned long long)k);
	size_t len;
	const char *d = tk_writer_data(w, &len);
	char *s = strndup(d, len);
	tk_writer_abort(w);
	return s;
}

static void test_chunks_in_order(void **state)
{
	(void)state;
	char *want = expected_chunks(N_CHUNKS - 1);
	for (unsigned round = 0; round < 20; round++) {
		tk_writer *out;
		assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
		tk_lanes *l = tk_lanes_new(out, NULL, NULL);
		assert_non_null(l);
		publisher p0 = {l, 0, round * 2 + 1, false}, p1 = {l, 1, round * 2 + 2, false};
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, publish_chunks, &p1), 0);
		publish_chunks(&p0);
		pthread_join(t, NULL);
		tk_lanes_free(l);
		assert_false(p0.failed);
		assert_false(p1.failed);
		size_t len;
		const char *got = tk_writer_data(out, &len);
		assert_int_equal(len, strlen(want));
		assert_memory_equal(got, want, len);
		tk_writer_abort(out);
	}
	free(want);
}

static void test_stop_drops_later_chunks(void **state)
{
	(void)state;
	tk_writer *out;
	assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
	tk_lanes *l = tk_lanes_new(out, NULL, NULL);
	assert_non_null(l);
	/* lane 1 is in chunk 3 (taken) when lane 0 stops inside chunk 2 */
	tk_writer *b[4];
	for (uint64_t c = 0; c < 4; c++) {
		b[c] = tk_lanes_take(l, c);
		assert_non_null(b[c]);
		tk_put_fmt(b[c], "chunk %llu\n", (unsigned long long)c);
	}
	tk_lanes_stop(l, 2);
	for (uint64_t c = 4; c-- > 0;)
		tk_lanes_publish(l, c); /* 3 first: it must never be written */
	/* the lanes' next chunks are past the stop */
	assert_null(tk_lanes_take(l, 4));
	assert_null(tk_lanes_take(l, 5));
	tk_lanes_free(l);
	size_t len;
	const char *got = tk_writer_data(out, &len);
	const char *want = "chunk 0\nchunk 1\nchunk 2\n";
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
	tk_writer_abort(out);
}

/* A stream of records: every fifth is a side-band record, the rest are
 * samples; record i's text is "i\n". */
#define N_RECORDS 700
static bool is_sample(int i)
{
	return i % 5 != 3;
}

/* The stream's whole text (the caller aborts the writer). */
static tk_writer *stream_text(const char **text, size_t *len)
{
	tk_writer *want;
	assert_int_equal(tk_writer_open_memory(&want, NULL), TK_OK);
	for (int i = 0; i < N_RECORDS; i++)
		tk_put_fmt(want, "%d\n", i);
	*text = tk_writer_data(want, len);
	return want;
}

typedef struct walker {
	tk_lanes *l;
	unsigned lane;
	unsigned seed;
	tk_status st;
} walker;

static void *walk(void *arg)
{
	walker *wk = arg;
	tk_lane_cursor c;
	if (!tk_lane_cursor_init(&c, wk->l, wk->lane)) {
		wk->st = TK_ERR_NOMEM;
		return NULL;
	}
	tk_writer *w = c.sink;
	tk_status st = TK_OK;
	for (int i = 0; i < N_RECORDS && st == TK_OK; i++) {
		st = tk_lane_step(&c, is_sample(i), &w, NULL);
		if (st != TK_OK)
			break;
		tk_put_fmt(w, "%d\n", i);
		jitter(&wk->seed);
	}
	wk->st = tk_lane_end(&c, st == TK_END ? TK_OK : st, NULL);
	tk_lane_cursor_free(&c);
	return NULL;
}

static void test_cursors_give_the_stream(void **state)
{
	(void)state;
	size_t want_len;
	const char *want_text;
	tk_writer *want = stream_text(&want_text, &want_len);
	/* TRACEKIT_LANE_CHUNK: chunks of 1, 4 and 32 samples */
	const char *bits[] = {"0", "2", "5"};
	for (size_t b = 0; b < 3; b++) {
		setenv("TRACEKIT_LANE_CHUNK", bits[b], 1);
		tk_writer *out;
		assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
		tk_lanes *l = tk_lanes_new(out, NULL, NULL);
		assert_non_null(l);
		walker w0 = {l, 0, 7 + (unsigned)b, TK_OK}, w1 = {l, 1, 99 + (unsigned)b, TK_OK};
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, walk, &w1), 0);
		walk(&w0);
		pthread_join(t, NULL);
		tk_lanes_free(l);
		assert_int_equal(w0.st, TK_OK);
		assert_int_equal(w1.st, TK_OK);
		size_t len;
		const char *got = tk_writer_data(out, &len);
		assert_int_equal(len, want_len);
		assert_memory_equal(got, want_text, len);
		tk_writer_abort(out);
	}
	unsetenv("TRACEKIT_LANE_CHUNK");
	tk_writer_abort(want);
}

/* Late lanes through tk_lanes_run: lane 0 alone (writing to the output
 * itself) lets lane 1 join at record join_at (-1: never). */
typedef struct late_walk {
	tk_writer *out;
	int join_at;
	unsigned seed[2];
	atomic_bool joined;    /* lane 1 has set the join */
	atomic_bool lane1_end; /* lane 1 has ended */
	int lane1_chunks;      /* chunks lane 1 printed */
} late_walk;

static void walk_late(tk_lane_run *r)
{
	late_walk *lw = r->user;
	r->st = TK_OK;
	r->stop = UINT64_MAX;
	unsigned *seed = &lw->seed[r->lane];
	/* lane 0: cold (the kernel's table would be loading) */
	if (tk_lanes_agree(r->lanes, r->lane, false) != TK_LANES_LATE) {
		r->st = TK_ERR_UNSUPPORTED;
		return;
	}
	const struct tk_symtab *kernel;
	if (r->lane == 1 && !tk_lanes_await_join(r->lanes, &kernel)) {
		atomic_store(&lw->lane1_end, true);
		return; /* lane 0 printed it all */
	}
	tk_lane_cursor c;
	if (!tk_lane_cursor_init(&c, r->lanes, r->lane)) {
		r->st = TK_ERR_NOMEM;
		atomic_store(&lw->lane1_end, true);
		return;
	}
	tk_writer *w = r->lane == 0 ? lw->out : c.sink;
	tk_status st = TK_OK;
	uint64_t printing = UINT64_MAX;
	for (int i = 0; i < N_RECORDS; i++) {
		st = tk_lane_step(&c, is_sample(i), &w, NULL);
		if (st != TK_OK)
			break;
		if (r->lane == 0 && i == lw->join_at) {
			tk_lanes_join(&c, NULL);
			/* lane 0 waits here until lane 1 has set the join (it
			 * reads up to lane 0's chunk), so that lane 1 does join
			 * however the threads run */
			while (!atomic_load(&lw->joined) && !atomic_load(&lw->lane1_end))
				sched_yield();
		}
		if (r->lane == 1 && c.join != UINT64_MAX)
			atomic_store(&lw->joined, true);
		if (r->lane == 1 && w == c.text && c.open != printing) {
			printing = c.open;
			lw->lane1_chunks++;
		}
		tk_put_fmt(w, "%d\n", i);
		jitter(seed);
	}
	r->st = tk_lane_end(&c, st == TK_END ? TK_OK : st, NULL);
	r->stop = c.chunk;
	tk_lane_cursor_free(&c);
	if (r->lane == 1)
		atomic_store(&lw->lane1_end, true);
}

static void test_late_join_gives_the_stream(void **state)
{
	(void)state;
	size_t want_len;
	const char *want_text;
	tk_writer *want = stream_text(&want_text, &want_len);
	/* the join early, late, at a side-band record, past the last chunk
	 * lane 1 could print, never; chunks of 1 and 4 samples */
	const int joins[] = {0, 1, 3, 57, 400, 690, 699, -1};
	const char *bits[] = {"0", "2"};
	/* late lanes whatever the input's size (the test hook; the join is
	 * made here, at join_at) */
	setenv("TRACEKIT_LANE_JOIN", "0", 1);
	for (size_t b = 0; b < 2; b++) {
		setenv("TRACEKIT_LANE_CHUNK", bits[b], 1);
		for (size_t j = 0; j < sizeof joins / sizeof *joins; j++) {
			tk_writer *out;
			assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
			tk_lanes *l = tk_lanes_new(out, NULL, NULL);
			assert_non_null(l);
			late_walk lw = {.out = out,
					.join_at = joins[j],
					.seed = {(unsigned)(3 + j), (unsigned)(50 + b)}};
			atomic_init(&lw.joined, false);
			atomic_init(&lw.lane1_end, false);
			tk_lane_run r0 = {.run = walk_late, .user = &lw}, r1 = r0;
			assert_int_equal(tk_lanes_run(l, &r0, &r1, NULL), TK_OK);
			/* let in, lane 1 set the join; with the stream's most
			 * after it, it printed some of it */
			assert_int_equal(atomic_load(&lw.joined), joins[j] >= 0);
			if (joins[j] >= 0 && joins[j] <= 400)
				assert_true(lw.lane1_chunks > 0);
			size_t len;
			const char *got = tk_writer_data(out, &len);
			assert_int_equal(len, want_len);
			assert_memory_equal(got, want_text, len);
			tk_writer_abort(out);
		}
	}
	unsetenv("TRACEKIT_LANE_CHUNK");
	unsetenv("TRACEKIT_LANE_JOIN");
	tk_writer_abort(want);
}

static int n_logged;
static void count_log(void *user, int level, const char *msg)
{
	(void)user;
	(void)level;
	(void)msg;
	n_logged++;
}

static void test_log_once(void **state)
{
	(void)state;
	tk_writer *out;
	assert_int_equal(tk_writer_open_memory(&out, NULL), TK_OK);
	tk_lanes *l = tk_lanes_new(out, count_log, NULL);
	assert_non_null(l);
	n_logged = 0;
	tk_lanes_log_once(l, 0, "tracepoint format not understood");
	tk_lanes_log_once(l, 0, "tracepoint format not understood");
	assert_int_equal(n_logged, 1);
	tk_lanes_log_once(l, 0, "another warning");
	assert_int_equal(n_logged, 2);
	/* a reader's warnings go out every time */
	tk_lanes_log(l, 0, "record at offset 0x10 is short");
	tk_lanes_log(l, 0, "record at offset 0x10 is short");
	assert_int_equal(n_logged, 4);
	tk_lanes_free(l);
	tk_writer_abort(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chunks_in_order),
	    cmocka_unit_test(test_stop_drops_later_chunks),
	    cmocka_unit_test(test_cursors_give_the_stream),
	    cmocka_unit_test(test_late_join_gives_the_stream),
	    cmocka_unit_test(test_log_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
