/* The logger's modes and its crash-safety rules, read back through
 * tracekit's reader: flight-recorder wrap, enable/disable, the trigger,
 * types that cannot be logged, torn and damaged slots in a file (skipped,
 * never misread), damaged headers (an error with the byte offset), and
 * two processes logging into one file. */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log_read.h"
#include "tracekit/log.h"

TK_LOG_TYPE(t_seq, "seq %lu", TK_LOG_U64);
TK_LOG_TYPE(t_mark, "mark %u", TK_LOG_U32);
TK_LOG_TYPE(t_too_big, "too big %s %s %lu", TK_LOG_STR, TK_LOG_STR, TK_LOG_U64);

static char path[64];
/* the clock of open_log(): every test runs on the default clock, then
 * again on TK_LOG_CLOCK_COARSE (its gate bit must not let an event past
 * a disabled log, a trigger or a full ring) */
static tk_log_clock test_clock;

static int setup(void **state)
{
	(void)state;
	strcpy(path, "/tmp/tk_log_core_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tk_log_close();
	unlink(path);
	return 0;
}

static void open_log(size_t ring, tk_log_mode mode)
{
	tk_log_config c = {
	    .path = path, .ring_events = ring, .max_threads = 4, .mode = mode, .clock = test_clock};
	assert_int_equal(tk_log_open(&c), 0);
}

static tk_elog_file *read_back(void)
{
	const char *why;
	uint64_t at;
	tk_elog_file *f = log_read(path, &why, &at);
	if (!f)
		fail_msg("%s at %llu", why, (unsigned long long)at);
	return f;
}

/* The first argument of event i. */
static uint64_t arg0(const tk_elog_file *f, uint32_t i)
{
	tk_fmt_arg a[TK_ELOG_MAX_ARGS];
	tk_elog_event_args(f, &f->events[i], a);
	return a[0].u;
}

static void test_flight_recorder_keeps_the_last(void **state)
{
	(void)state;
	open_log(16, TK_LOG_FLIGHT);
	for (uint64_t i = 0; i < 100; i++)
		TK_LOG(t_seq, i);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 16);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(arg0(f, i), 84 + i);
	tk_elog_close(f);
}

static void test_stop_when_full_counts_drops(void **state)
{
	(void)state;
	open_log(16, TK_LOG_STOP_WHEN_FULL);
	for (uint64_t i = 0; i < 100; i++)
		TK_LOG(t_seq, i);
	tk_log_stats st;
	tk_log_get_stats(&st);
	assert_int_equal(st.logged, 16);
	assert_int_equal(st.dropped, 84);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 16);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(arg0(f, i), i);
	tk_elog_close(f);
}

static void test_enable_disable(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	for (uint64_t i = 0; i < 30; i++) {
		tk_log_enable(i < 10 || i >= 20);
		TK_LOG(t_seq, i);
	}
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 20);
	for (uint32_t i = 0; i < 20; i++)
		assert_int_equal(arg0(f, i), i < 10 ? i : i + 10);
	tk_elog_close(f);
}

/* A type first used while logging is off (TK_LOG then returns inline,
 * registering nothing) is registered by its first event once it is on. */
static void test_first_use_while_disabled(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	tk_log_enable(0);
	TK_LOG(t_mark, 1u);
	tk_log_stats st;
	tk_log_get_stats(&st);
	assert_int_equal(st.logged + st.dropped, 0);
	tk_log_enable(1);
	TK_LOG(t_mark, 2u);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 1);
	assert_string_equal(f->types[f->events[0].type].format.s, "mark %u");
	assert_int_equal(arg0(f, 0), 2);
	tk_elog_close(f);
}

static void test_trigger_stops_after_n(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	assert_int_equal(tk_log_trigger(&t_mark, 3), 0);
	for (uint64_t i = 0; i < 5; i++)
		TK_LOG(t_seq, i);
	TK_LOG(t_mark, 7u);
	for (uint64_t i = 5; i < 20; i++)
		TK_LOG(t_seq, i);
	tk_log_close();
	tk_elog_file *f = read_back();
	/* 5 before, the trigger event, then 3 more */
	assert_int_equal(f->n_events, 9);
	assert_string_equal(f->types[f->events[5].type].format.s, "mark %u");
	assert_int_equal(arg0(f, 5), 7);
	assert_int_equal(arg0(f, 8), 7);
	tk_elog_close(f);
}

static void test_type_too_big_is_dropped(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	TK_LOG(t_too_big, "a", "b", (uint64_t)1); /* 7 words: cannot be logged */
	TK_LOG(t_seq, (uint64_t)5);
	tk_log_stats st;
	tk_log_get_stats(&st);
	assert_int_equal(st.logged, 1);
	assert_int_equal(st.dropped, 1);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 1);
	assert_int_equal(arg0(f, 0), 5);
	tk_elog_close(f);
}

/* The slot of event seq in the first ring of the file at base. */
static tk_log__slot *slot_of(uint8_t *base, uint64_t seq)
{
	tk_lg_header *h = (tk_lg_header *)base;
	tk_lg_ring_dir *d = (tk_lg_ring_dir *)(base + h->rings_dir_off);
	return (tk_log__slot *)(base + d->slots_off) + (seq & (h->ring_slots - 1));
}

static void rewrite(void (*damage)(uint8_t *base))
{
	size_t size;
	uint8_t *data = tk_test_read_file(path, &size);
	assert_non_null(data);
	damage(data);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, size, fp), size);
	fclose(fp);
	free(data);
}

static void torn_last(uint8_t *base)
{
	/* killed while writing event 9: commit word cleared, half the payload */
	tk_log__slot *s = slot_of(base, 9);
	atomic_store(&s->commit, 0);
	s->w[0] = 0xdeadbeef;
}

static void bad_type_last(uint8_t *base)
{
	tk_log__slot *s = slot_of(base, 9);
	s->type = 999; /* committed, but no such type: never shown */
}

static void stale_middle(uint8_t *base)
{
	tk_log__slot *s = slot_of(base, 4);
	atomic_store(&s->commit, 4 + 1 + 16); /* an older lap's commit word */
}

static void write_ten(void)
{
	open_log(16, TK_LOG_FLIGHT);
	for (uint64_t i = 0; i < 10; i++)
		TK_LOG(t_seq, i);
	tk_log_close();
}

static void test_torn_event_not_misread(void **state)
{
	(void)state;
	void (*damages[])(uint8_t *) = {torn_last, bad_type_last, stale_middle};
	for (unsigned k = 0; k < 3; k++) {
		write_ten();
		rewrite(damages[k]);
		tk_elog_file *f = read_back();
		assert_int_equal(f->n_events, 9);
		uint64_t skip = k == 2 ? 4 : 9;
		for (uint32_t i = 0, want = 0; i < 9; i++, want++) {
			want += want == skip;
			assert_int_equal(arg0(f, i), want);
		}
		tk_elog_close(f);
	}
}

static void cut_header(uint8_t *base)
{
	tk_lg_header *h = (tk_lg_header *)base;
	h->file_size += 64; /* as if the file lost its tail */
}

static void bad_ring_size(uint8_t *base)
{
	tk_lg_header *h = (tk_lg_header *)base;
	h->ring_slots = 12345;
}

static void test_damaged_header_is_an_error(void **state)
{
	(void)state;
	write_ten();
	rewrite(cut_header);
	const char *why;
	uint64_t at;
	assert_null(log_read(path, &why, &at));
	assert_int_equal(at, 16);
	assert_non_null(strstr(why, "file size"));
	write_ten();
	rewrite(bad_ring_size);
	assert_null(log_read(path, &why, &at));
	assert_int_equal(at, 88);
}

static void test_two_processes_one_file(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the child leaves the parent's mapping and joins the file */
		tk_log_close();
		if (tk_log_join_file(path) != 0)
			_exit(2);
		for (uint64_t i = 0; i < 20; i++)
			TK_LOG(t_mark, (uint32_t)(1000 + i));
		_exit(0);
	}
	for (uint64_t i = 0; i < 20; i++)
		TK_LOG(t_seq, i);
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 40);
	assert_int_equal(f->n_tracks, 2);
	uint32_t seen_seq = 0, seen_mark = 0;
	for (uint32_t i = 0; i < 40; i++) {
		bool mark = strcmp(f->types[f->events[i].type].format.s, "mark %u") == 0;
		assert_int_equal(arg0(f, i), mark ? 1000 + seen_mark++ : seen_seq++);
	}
	assert_int_equal(seen_mark, 20);
	tk_elog_close(f);
	close(p[0]);
	close(p[1]);
}

static int sig_fd = -1;
static volatile sig_atomic_t sig_rc = -2;

static void on_usr1(int sig)
{
	(void)sig;
	sig_rc = tk_log_dump_fd(sig_fd, TK_LOG_DUMP_ELOG);
}

static tk_elog_file *read_elog(const char *file)
{
	tk_elog_file *f;
	tk_error err;
	if (tk_elog_open(file, &f, &err) != TK_OK)
		fail_msg("%s: offset %llu: %s", file, (unsigned long long)err.offset, err.message);
	return f;
}

/* The dump from a signal handler, while the log is open and enabled. */
static void test_dump_from_signal_handler(void **state)
{
	(void)state;
	char out[] = "/tmp/tk_log_sig_XXXXXX";
	sig_fd = mkstemp(out);
	assert_true(sig_fd >= 0);
	open_log(64, TK_LOG_FLIGHT);
	for (uint64_t i = 0; i < 10; i++)
		TK_LOG(t_seq, i);
	struct sigaction sa = {.sa_handler = on_usr1};
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	close(sig_fd);
	assert_int_equal(sig_rc, 0);
	tk_elog_file *f = read_elog(out);
	assert_int_equal(f->n_events, 10);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(arg0(f, i), i);
	tk_elog_close(f);
	unlink(out);
}

/* tk_log_dump_at_exit: a child logs and returns from main (exit). */
static void test_dump_at_exit(void **state)
{
	(void)state;
	char out[] = "/tmp/tk_log_exit_XXXXXX";
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (tk_log_open(NULL) != 0 || tk_log_dump_at_exit(out, TK_LOG_DUMP_ELOG) != 0)
			_exit(2);
		for (uint64_t i = 0; i < 7; i++)
			TK_LOG(t_seq, i);
		exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tk_elog_file *f = read_elog(out);
	assert_int_equal(f->n_events, 7);
	assert_int_equal(arg0(f, 6), 6);
	tk_elog_close(f);
	unlink(out);
}

static void test_cpu_track(void **state)
{
	(void)state;
	open_log(64, TK_LOG_STOP_WHEN_FULL);
	/* pinned, so the CPU cannot change under the test */
	cpu_set_t old, one;
	assert_int_equal(sched_getaffinity(0, sizeof old, &old), 0);
	int cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	int track = tk_log_cpu_track();
	assert_true(track >= 0);
	assert_int_equal(tk_log_cpu_track(), track);
	TK_LOG_ON(track, t_mark, 1u);
	sched_setaffinity(0, sizeof old, &old);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 1);
	char want[32];
	snprintf(want, sizeof want, "cpu %d", cpu);
	assert_string_equal(f->tracks[f->events[0].track].s, want);
	tk_elog_close(f);
}

/* Pages of the calling thread's ring that are resident. */
static size_t resident_ring_pages(size_t *pages)
{
	uint8_t *ring = (uint8_t *)tk_log__t.slots;
	size_t len = (size_t)(tk_log__t.mask + 1) * sizeof(tk_log__slot);
	assert_non_null(ring);
	assert_int_equal(len, 4096 * 64);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *a = (uint8_t *)((uintptr_t)ring & ~(uintptr_t)(page - 1));
	size_t n = (size_t)(ring + len - a + page - 1) / page;
	unsigned char *vec = malloc(n);
	assert_non_null(vec);
	assert_int_equal(mincore(a, (size_t)(ring + len - a), vec), 0);
	size_t resident = 0;
	for (size_t i = 0; i < n; i++)
		resident += vec[i] & 1;
	free(vec);
	*pages = n;
	return resident;
}

/* With .prefault a thread's ring is faulted in, writable, when it is made
 * (its first event), not one page at a time during its first lap: every
 * page of it is resident after one event (without, one page here; not
 * asserted: transparent huge pages may fault in more). In anonymous
 * memory, where mincore() tells which pages were touched (for a file it
 * tells the page cache's). */
static void test_ring_prefaulted(void **state)
{
	(void)state;
	size_t pages;
	tk_log_config c = {
	    .ring_events = 4096, .max_threads = 4, .clock = test_clock, .prefault = 1};
	assert_int_equal(tk_log_open(&c), 0); /* rings of 256 KiB: 64 pages */
	TK_LOG(t_seq, (uint64_t)1);
	size_t resident = resident_ring_pages(&pages);
	assert_int_equal(resident, pages);
	tk_log_close();
}

/* Time stamps of every clock (CLOCK_MONOTONIC, the TSC converted by its
 * calibration, CLOCK_MONOTONIC_COARSE): seconds since open, increasing, and
 * at least as far apart as a sleep (less 2.5% for the TSC's 5 ms
 * calibration, less one tick for the coarse clock). */
static void check_clock(tk_log_clock clock)
{
	tk_log_config c = {.path = path, .ring_events = 64, .clock = clock};
	assert_int_equal(tk_log_open(&c), 0);
	TK_LOG(t_seq, (uint64_t)0);
	struct timespec d = {0, 20000000}; /* 20 ms */
	nanosleep(&d, NULL);
	TK_LOG(t_seq, (uint64_t)1);
	tk_log_close();
	tk_elog_file *f = read_back();
	assert_int_equal(f->n_events, 2);
	assert_true(f->events[0].time >= 0 && f->events[0].time < 1);
	double gap = f->events[1].time - f->events[0].time;
	double least = clock == TK_LOG_CLOCK_MONOTONIC ? 0.020 : 0.0195;
	if (clock == TK_LOG_CLOCK_COARSE) {
		struct timespec res;
		assert_int_equal(clock_getres(CLOCK_MONOTONIC_COARSE, &res), 0);
		least = 0.020 - ((double)res.tv_sec + (double)res.tv_nsec * 1e-9);
	}
	assert_true(gap >= least && gap < 5);
	tk_elog_close(f);
}

static void test_clocks(void **state)
{
	(void)state;
	check_clock(TK_LOG_CLOCK_MONOTONIC);
	check_clock(TK_LOG_CLOCK_COARSE);
#if defined(__x86_64__)
	check_clock(TK_LOG_CLOCK_TSC);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_flight_recorder_keeps_the_last, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stop_when_full_counts_drops, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_enable_disable, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_first_use_while_disabled, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trigger_stops_after_n, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_type_too_big_is_dropped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_event_not_misread, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_damaged_header_is_an_error, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_two_processes_one_file, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dump_from_signal_handler, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dump_at_exit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cpu_track, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clocks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ring_prefaulted, setup, teardown),
	};
	int failed = cmocka_run_group_tests_name("log_core", tests, NULL, NULL);
	test_clock = TK_LOG_CLOCK_COARSE;
	return failed + cmocka_run_group_tests_name("log_core_coarse_clock", tests, NULL, NULL);
}
