/* Test driver for the logger's shell tests (tests/oracle/log_*.sh).
 *
 *   log_writer kinds DIR     logs every argument kind on three tracks into
 *                            DIR/log.tklog and dumps DIR/log.{elog,cpel,ctf};
 *                            DIR/expected holds "TRACK: TEXT" per event, the
 *                            text made here with snprintf
 *   log_writer kill FILE N   forks a child that logs (2 threads, stop-when-
 *                            full) "seq %lu of thread %u" into FILE; once both
 *                            threads logged N events the child writes a byte
 *                            to a pipe and keeps logging; the parent then
 *                            SIGKILLs it and prints how many events each
 *                            thread had logged at least ("min T N") */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracekit/log.h>

TK_LOG_TYPE(t_ints, "ints: u32 %u hex %x u64 %lu i64 %ld", TK_LOG_U32, TK_LOG_U32, TK_LOG_U64,
	    TK_LOG_I64);
TK_LOG_TYPE(t_float, "float %.6f exp %e", TK_LOG_F64, TK_LOG_F64);
TK_LOG_TYPE(t_str, "name %s len %d", TK_LOG_STR, TK_LOG_U32);
TK_LOG_TYPE(t_ref, "ref %s then %s", TK_LOG_SREF, TK_LOG_SREF);
TK_LOG_TYPE(t_none, "tick");
TK_LOG_TYPE(t_seq, "seq %lu of thread %u", TK_LOG_U64, TK_LOG_U32);

static FILE *expected, *expected_ctf;

/* The CTF event as babeltrace2 prints it after the time stamps. */
static void expect_ctf(const char *name, const char *track, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void expect_ctf(const char *name, const char *track, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(expected_ctf, "%s: { track = \"", name);
	for (const char *c = track; *c; c++) {
		if (*c == '"')
			fputc('\\', expected_ctf);
		fputc(*c, expected_ctf);
	}
	char payload[512];
	vsnprintf(payload, sizeof payload, fmt, ap);
	va_end(ap);
	fprintf(expected_ctf, "\" }, { %s%s}\n", payload, *payload ? " " : "");
}

static void expect(const char *track, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect(const char *track, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(expected, "%s: ", track);
	vfprintf(expected, fmt, ap);
	fputc('\n', expected);
	va_end(ap);
}

static int kinds(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/expected", dir);
	expected = fopen(path, "w");
	snprintf(path, sizeof path, "%s/expected_ctf", dir);
	expected_ctf = fopen(path, "w");
	snprintf(path, sizeof path, "%s/log.tklog", dir);
	if (!expected || !expected_ctf || tk_log_open_file(path, 8 << 20) != 0) {
		perror(path);
		return 1;
	}
	tk_log_thread_track("main thread");
	int worker = tk_log_track("worker 1");
	int rx = tk_log_track("rx \"queue\" 0");
	uint32_t r1 = tk_log_string("interned string");
	uint32_t r2 = tk_log_string("another one");
	const char *names[] = {"", "a", "exactly 23 bytes long!!",
			       "longer than twenty-three bytes"};
	for (unsigned i = 0; i < 40; i++) {
		uint32_t u = i * 2654435761u;
		uint64_t big = (uint64_t)i << 40 | u;
		int64_t neg = -(int64_t)big;
		TK_LOG(t_ints, u, u, big, neg);
		expect("main thread", "ints: u32 %u hex %x u64 %" PRIu64 " i64 %" PRId64, u, u, big,
		       neg);
		expect_ctf("ints:", "main thread",
			   "arg0 = %u, arg1 = %u, arg2 = %" PRIu64 ", arg3 = %" PRId64, u, u, big,
			   neg);
		double x = i * 1.0625 - 7.5, y = i * 1e17;
		TK_LOG_ON(worker, t_float, x, y);
		expect("worker 1", "float %.6f exp %e", x, y);
		expect_ctf("float", "worker 1", "arg0 = %g, arg1 = %g", x, y);
		const char *s = names[i % 4];
		TK_LOG(t_str, s, (uint32_t)strlen(s));
		expect("main thread", "name %.23s len %u", s, (unsigned)strlen(s));
		expect_ctf("name", "main thread", "arg0 = \"%.23s\", arg1 = %u", s,
			   (unsigned)strlen(s));
		TK_LOG_ON(rx, t_ref, i % 2 ? r1 : r2, r1);
		expect("rx \"queue\" 0", "ref %s then %s",
		       i % 2 ? "interned string" : "another one", "interned string");
		expect_ctf("ref", "rx \"queue\" 0", "arg0 = \"%s\", arg1 = \"%s\"",
			   i % 2 ? "interned string" : "another one", "interned string");
		TK_LOG_ON(rx, t_none);
		expect("rx \"queue\" 0", "tick");
		expect_ctf("tick", "rx \"queue\" 0", "%s", "");
	}
	fclose(expected);
	fclose(expected_ctf);
	tk_log_enable(0);
	static const struct {
		const char *ext;
		tk_log_format fmt;
	} dumps[] = {
	    {"elog", TK_LOG_DUMP_ELOG}, {"cpel", TK_LOG_DUMP_CPEL}, {"ctf", TK_LOG_DUMP_CTF}};
	for (unsigned i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/log.%s", dir, dumps[i].ext);
		if (tk_log_dump(path, dumps[i].fmt) != 0) {
			perror(path);
			return 1;
		}
	}
	tk_log_close();
	return 0;
}

static _Atomic uint64_t logged[2];
static int ready_fd;
static uint64_t kill_after;

static void *kill_thread(void *arg)
{
	unsigned me = (unsigned)(uintptr_t)arg;
	for (uint64_t seq = 0;; seq++) {
		TK_LOG(t_seq, seq, me);
		atomic_store(&logged[me], seq + 1);
		if (me == 0 && seq + 1 >= kill_after && atomic_load(&logged[1]) >= kill_after &&
		    ready_fd >= 0) {
			/* both threads are past N: tell the parent, keep logging */
			if (write(ready_fd, "x", 1) != 1)
				_exit(3);
			ready_fd = -1;
		}
	}
	return NULL;
}

static int kill_mode(const char *file, uint64_t n)
{
	int p[2];
	if (pipe(p) != 0)
		return 1;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(p[0]);
		tk_log_config c = {.path = file,
				   .ring_events = 1 << 16,
				   .max_threads = 4,
				   .mode = TK_LOG_STOP_WHEN_FULL};
		if (tk_log_open(&c) != 0)
			_exit(2);
		ready_fd = p[1];
		kill_after = n;
		pthread_t t;
		pthread_create(&t, NULL, kill_thread, (void *)(uintptr_t)1);
		kill_thread((void *)(uintptr_t)0);
		_exit(0);
	}
	close(p[1]);
	char b;
	ssize_t k;
	do
		k = read(p[0], &b, 1);
	while (k < 0 && errno == EINTR);
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	if (k != 1 || !WIFSIGNALED(status)) {
		fprintf(stderr, "child did not reach %" PRIu64 " events\n", n);
		return 1;
	}
	printf("min %" PRIu64 "\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "kinds") == 0)
		return kinds(argv[2]);
	if (argc == 4 && strcmp(argv[1], "kill") == 0)
		return kill_mode(argv[2], strtoull(argv[3], NULL, 10));
	fprintf(stderr, "usage: log_writer kinds DIR | kill FILE N\n");
	return 2;
}
