/* The logger under load: 2 and 4 threads each log 10^7 events into a
 * stop-when-full log of 65536 events per thread ring. Read back through
 * tracekit's reader, every kept event must be intact (its check word
 * matches its thread and sequence number), each thread's events must be
 * in order and be the first 65536 it logged, and kept + dropped must equal
 * what was logged. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "log_read.h"
#include "tracekit/log.h"

#define PER_THREAD 10000000u
#define RING       65536u

TK_LOG_TYPE(t_load, "load thread %u seq %lu check %lx", TK_LOG_U32, TK_LOG_U64, TK_LOG_U64);

static uint64_t check_of(uint32_t thread, uint64_t seq)
{
	return (seq * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)thread << 56);
}

static uint64_t per_thread_events = PER_THREAD;

static void *run(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg;
	for (uint64_t seq = 0; seq < per_thread_events; seq++)
		TK_LOG(t_load, me, seq, check_of(me, seq));
	return NULL;
}

static void load_mode(unsigned n_threads, int shared, uint64_t per_thread, tk_log_clock clock);

static void load(unsigned n_threads)
{
	load_mode(n_threads, 0, PER_THREAD, TK_LOG_CLOCK_DEFAULT);
}

static void load_mode(unsigned n_threads, int shared, uint64_t per_thread, tk_log_clock clock)
{
	per_thread_events = per_thread;
	char path[] = "/tmp/tk_log_threads_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	tk_log_config c = {.path = path,
			   .ring_events = RING,
			   .max_threads = 8,
			   .mode = TK_LOG_STOP_WHEN_FULL,
			   .clock = clock,
			   .shared_ring = shared};
	assert_int_equal(tk_log_open(&c), 0);
	pthread_t t[4];
	for (unsigned i = 0; i < n_threads; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run, (void *)(uintptr_t)i), 0);
	for (unsigned i = 0; i < n_threads; i++)
		pthread_join(t[i], NULL);
	tk_log_stats st;
	tk_log_get_stats(&st);
	tk_log_close();
	assert_int_equal(st.rings, shared ? 1 : n_threads);
	assert_int_equal(st.logged + st.dropped, (uint64_t)n_threads * per_thread);

	const char *why;
	uint64_t at;
	tk_elog_file *f = log_read(path, &why, &at);
	if (!f)
		fail_msg("%s at %llu", why, (unsigned long long)at);
	uint64_t next[4] = {0};
	tk_fmt_arg args[TK_ELOG_MAX_ARGS];
	for (uint32_t i = 0; i < f->n_events; i++) {
		const tk_elog_event *e = &f->events[i];
		assert_string_equal(log_type_format(f, e), "load thread %u seq %lu check %lx");
		assert_int_equal(tk_elog_event_args(f, e, args), 3);
		uint32_t th = (uint32_t)args[0].u;
		assert_true(th < n_threads);
		assert_int_equal(args[1].u, next[th]); /* in order, no gap */
		assert_int_equal(args[2].u, check_of(th, args[1].u));
		next[th]++;
	}
	uint64_t kept = 0;
	for (unsigned i = 0; i < n_threads; i++) {
		if (!shared)
			assert_int_equal(next[i], RING); /* the first RING events of each */
		kept += next[i];
	}
	if (shared)
		assert_int_equal(kept, RING); /* the first RING events of all */
	assert_int_equal(kept, f->n_events);
	assert_int_equal(kept, st.logged);
	tk_elog_close(f);
	unlink(path);
}

static void test_two_threads(void **state)
{
	(void)state;
	load(2);
}

static void test_four_threads(void **state)
{
	(void)state;
	load(4);
}

/* elog's way: one ring, an atomic index; each thread keeps a prefix */
static void test_shared_ring_two_threads(void **state)
{
	(void)state;
	load_mode(2, 1, 1000000, TK_LOG_CLOCK_DEFAULT);
}

/* TK_LOG_CLOCK_COARSE: many events share a time stamp (one kernel tick),
 * yet each thread's events read back in order, intact, counted. */
static void test_two_threads_coarse_clock(void **state)
{
	(void)state;
	load_mode(2, 0, 1000000, TK_LOG_CLOCK_COARSE);
}

/* Dumps while two threads log into small flight-recorder rings: every
 * dump reads back, every event in it is intact and each thread's events
 * are in order, whatever the writers overwrote during the dump. */
static _Atomic int stop_logging;

static void *run_until_stopped(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg;
	for (uint64_t seq = 0; !atomic_load_explicit(&stop_logging, memory_order_relaxed); seq++)
		TK_LOG(t_load, me, seq, check_of(me, seq));
	return NULL;
}

static void test_dump_while_logging(void **state)
{
	(void)state;
	tk_log_config c = {.ring_events = 4096, .max_threads = 4, .mode = TK_LOG_FLIGHT};
	assert_int_equal(tk_log_open(&c), 0);
	atomic_store(&stop_logging, 0);
	pthread_t t[2];
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(
		    pthread_create(&t[i], NULL, run_until_stopped, (void *)(uintptr_t)i), 0);
	char path[] = "/tmp/tk_log_live_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	uint64_t total = 0;
	for (int round = 0; round < 20; round++) {
		assert_int_equal(tk_log_dump(path, TK_LOG_DUMP_ELOG), 0);
		tk_elog_file *f;
		tk_error err;
		if (tk_elog_open(path, &f, &err) != TK_OK)
			fail_msg("dump %d: offset %llu: %s", round, (unsigned long long)err.offset,
				 err.message);
		uint64_t last[2] = {0, 0};
		bool seen[2] = {false, false};
		tk_fmt_arg a[TK_ELOG_MAX_ARGS];
		for (uint32_t i = 0; i < f->n_events; i++) {
			tk_elog_event_args(f, &f->events[i], a);
			uint32_t th = (uint32_t)a[0].u;
			assert_true(th < 2);
			assert_int_equal(a[2].u, check_of(th, a[1].u));
			if (seen[th])
				assert_true(a[1].u > last[th]);
			seen[th] = true;
			last[th] = a[1].u;
		}
		total += f->n_events;
		tk_elog_close(f);
	}
	atomic_store(&stop_logging, 1);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	tk_log_close();
	unlink(path);
	assert_true(total > 0);
}

/* A thread that logged into one log and logs again after the log was
 * closed and another opened gets a ring in the new log (its old ring is
 * unmapped: writing there would crash). */
static pthread_barrier_t phase;

static void *log_twice(void *arg)
{
	(void)arg;
	TK_LOG(t_load, 7u, (uint64_t)1, check_of(7, 1));
	pthread_barrier_wait(&phase); /* main closes the log, opens another */
	pthread_barrier_wait(&phase);
	TK_LOG(t_load, 7u, (uint64_t)2, check_of(7, 2));
	return NULL;
}

static void test_thread_outlives_log(void **state)
{
	(void)state;
	char path[] = "/tmp/tk_log_reopen_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tk_log_open(NULL), 0);
	pthread_barrier_init(&phase, NULL, 2);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, log_twice, NULL), 0);
	pthread_barrier_wait(&phase);
	tk_log_close();
	tk_log_config c = {.path = path, .ring_events = 64, .mode = TK_LOG_STOP_WHEN_FULL};
	assert_int_equal(tk_log_open(&c), 0);
	pthread_barrier_wait(&phase);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&phase);
	tk_log_close();
	const char *why;
	uint64_t at;
	tk_elog_file *f = log_read(path, &why, &at);
	if (!f)
		fail_msg("%s at %llu", why, (unsigned long long)at);
	assert_int_equal(f->n_events, 1);
	tk_fmt_arg a[TK_ELOG_MAX_ARGS];
	tk_elog_event_args(f, &f->events[0], a);
	assert_int_equal(a[1].u, 2);
	tk_elog_close(f);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_threads),
	    cmocka_unit_test(test_four_threads),
	    cmocka_unit_test(test_shared_ring_two_threads),
	    cmocka_unit_test(test_two_threads_coarse_clock),
	    cmocka_unit_test(test_dump_while_logging),
	    cmocka_unit_test(test_thread_outlives_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
