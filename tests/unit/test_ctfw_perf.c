/* perf -> CTF through the model: recordings made here with `perf record`
 * are converted by the perf source + CTF writer, and babeltrace2's text of
 * our trace must be identical to its text of the trace made by perf's own
 * `perf data convert --to-ctf` from the same file, with and without
 * --all (the non-sample records). Skipped when perf, babeltrace2 or
 * recording permissions are missing.
 *
 * CTFW_PERF_KEEP=1 keeps the files (in $TK_BUILD_DIR/ctfw-perf-*). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracekit/tracekit.h"
#include "test_support.h"

static char tmp_root[256];

static int setup(void **state)
{
	(void)state;
	const char *b = getenv("TK_BUILD_DIR");
	snprintf(tmp_root, sizeof tmp_root, "%s/ctfw-perf-XXXXXX", b ? b : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("TZ", "UTC", 1);
	setenv("LC_ALL", "C", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("CTFW_PERF_KEEP"))
		return 0;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

static char *read_cmd(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += got;
		if (cap - n < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (buf)
		buf[n] = '\0';
	*status = pclose(p);
	return buf;
}

static tk_status convert(const char *in, const char *out, bool all, bool tod, tk_error *err)
{
	tk_source *src;
	tk_open_options oo = {.format = TK_FORMAT_PERF, .all_records = all, .wall_clock = tod};
	tk_status st = tk_source_open(in, &oo, &src, err);
	if (st != TK_OK)
		return st;
	tk_sink *sink;
	st = tk_ctf_sink_open(out, tk_source_info(src), NULL, &sink, err);
	if (st != TK_OK) {
		tk_source_close(src);
		return st;
	}
	const tk_event *ev;
	while ((st = tk_source_next(src, &ev, err)) == TK_OK)
		if ((st = tk_sink_write(sink, ev, err)) != TK_OK)
			break;
	if (st != TK_END) {
		tk_sink_abort(sink);
		tk_source_close(src);
		return st;
	}
	st = tk_sink_close(sink, err);
	tk_source_close(src);
	return st;
}

/* Records `record_args` into NAME.data (once: the --all and --tod cases
 * reuse it), converts it both ways (with --all when `all`, --tod when
 * `tod`), compares. Returns 0 when equal, 1 when they differ (diff
 * printed), 77 when skipped. */
static int compare_case_tod(const char *name, const char *record_args, bool all, bool tod)
{
	char data[512], ours[512], theirs[512], cmd[2048];
	const char *tag = all ? (tod ? "-all-tod" : "-all") : (tod ? "-tod" : "");
	snprintf(data, sizeof data, "%s/%s.data", tmp_root, name);
	snprintf(ours, sizeof ours, "%s/%s%s-ours", tmp_root, name, tag);
	snprintf(theirs, sizeof theirs, "%s/%s%s-perf", tmp_root, name, tag);
	struct stat sb;
	if (stat(data, &sb) != 0) {
		snprintf(cmd, sizeof cmd, "perf record -q -o '%s' %s >/dev/null 2>&1", data,
			 record_args);
		if (system(cmd) != 0) {
			print_message("skip %s: perf record failed\n", name);
			return 77;
		}
	}
	snprintf(cmd, sizeof cmd, "perf data convert %s%s--to-ctf='%s' -i '%s' >/dev/null 2>&1",
		 all ? "--all " : "", tod ? "--tod " : "", theirs, data);
	if (system(cmd) != 0) {
		print_message("skip %s%s: perf data convert --to-ctf failed\n", name, tag);
		return 77;
	}
	tk_error err;
	tk_error_clear(&err);
	if (convert(data, ours, all, tod, &err) != TK_OK) {
		print_message("FAIL %s%s: %s\n", name, tag, err.message);
		return 1;
	}
	int s1, s2;
	snprintf(cmd, sizeof cmd, "babeltrace2 '%s' 2>&1", ours);
	char *a = read_cmd(cmd, &s1);
	snprintf(cmd, sizeof cmd, "babeltrace2 '%s' 2>&1", theirs);
	char *b = read_cmd(cmd, &s2);
	int rc = 0;
	if (!a || !b || s1 != 0 || s2 != 0 || strcmp(a, b) != 0) {
		size_t line = 1;
		const char *p = a ? a : "", *q = b ? b : "";
		while (*p && *p == *q) {
			if (*p == '\n')
				line++;
			p++, q++;
		}
		while (p > (a ? a : "") && p[-1] != '\n')
			p--, q--;
		print_message("DIFF %s%s (status %d/%d) line %zu\n  ours: %.300s\n  perf: %.300s\n",
			      name, tag, s1, s2, line, p, q);
		rc = 1;
	} else {
		size_t lines = 0;
		for (const char *p = a; *p; p++)
			lines += *p == '\n';
		print_message("same %s%s: %zu lines\n", name, tag, lines);
		if (lines == 0)
			rc = 77;
	}
	free(a);
	free(b);
	return rc;
}

static int compare_case(const char *name, const char *record_args, bool all)
{
	return compare_case_tod(name, record_args, all, false);
}

/* The lines of babeltrace2's text of our trace holding `needle`: a case
 * that must show a kind of event checks that it did (an identical empty
 * output proves nothing). */
static size_t count_lines(const char *name, bool all, const char *needle)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "babeltrace2 '%s/%s%s-ours' 2>/dev/null | grep -c -- '%s'",
		 tmp_root, name, all ? "-all" : "", needle);
	int st;
	char *out = read_cmd(cmd, &st);
	size_t n = out ? strtoul(out, NULL, 10) : 0;
	free(out);
	return n;
}

static bool tools_present(void)
{
	return system("perf --version >/dev/null 2>&1") == 0 &&
	       system("babeltrace2 --version >/dev/null 2>&1") == 0;
}

static void run(const char *name, const char *args, bool all)
{
	if (!tools_present())
		skip();
	int rc = compare_case(name, args, all);
	if (rc == 77)
		skip();
	assert_int_equal(rc, 0);
}

#define WORKLOAD "-- ls -R /usr/share/doc"

static void test_plain(void **state)
{
	(void)state;
	run("plain", WORKLOAD, false);
}

static void test_callchain(void **state)
{
	(void)state;
	run("callchain", "-g " WORKLOAD, false);
}

/* System wide: one stream per CPU, perf_cpu only as the cpu_id packet context. */
static void test_system_wide(void **state)
{
	(void)state;
	run("system", "-a -g -F 2000 -- sleep 0.3", false);
}

static void test_counts(void **state)
{
	(void)state;
	run("counts", "-c 10000 -e cpu-clock,page-faults " WORKLOAD, false);
}

/* -d: PERF_SAMPLE_ADDR and DATA_SRC. perf's converter has perf_data_src
 * but no perf_addr (the model's perf_addr is not written). */
static void test_data_addr(void **state)
{
	(void)state;
	run("addr", "-d " WORKLOAD, false);
}

/* -W: PERF_SAMPLE_WEIGHT_STRUCT on x86, which perf's converter leaves out. */
static void test_weight(void **state)
{
	(void)state;
	run("weight", "-W " WORKLOAD, false);
}

/* Tracepoints: perf's common_* fields first, then the tracepoint's, with
 * perf's types (u32/s32/s64, hex unsigned long). */
static void test_sched_tracepoints(void **state)
{
	(void)state;
	run("sched", "-a -e sched:sched_switch,sched:sched_wakeup -- sleep 0.2", false);
	if (tools_present())
		assert_true(count_lines("sched", false, "common_preempt_count = ") > 0);
}

/* Strings and arrays: sched_process_exec's __data_loc filename, the
 * args[6] array of raw_syscalls:sys_enter (unsigned long: hex), the
 * __syscall_nr of syscalls:sys_enter_openat (babeltrace2 shows perf's
 * TSDL name without its leading '_') and its pointer. */
static void test_tracepoint_arrays_strings(void **state)
{
	(void)state;
	run("tpfields",
	    "-e sched:sched_process_exec -e raw_syscalls:sys_enter "
	    "-e syscalls:sys_enter_openat -- sh -c 'ls /usr >/dev/null; cat /etc/hostname "
	    ">/dev/null'",
	    false);
	if (!tools_present())
		return;
	assert_true(count_lines("tpfields", false, "filename = \"/usr/bin/ls\"") > 0);
	assert_true(count_lines("tpfields", false, "args = \\[ \\[0\\] = 0x") > 0);
	assert_true(count_lines("tpfields", false, "_syscall_nr = 257") > 0);
}

/* --all: perf_comm, perf_exit, perf_fork, perf_mmap and perf_mmap2 with
 * perf's fields (u32 pids, hex start), all in CPU 0's stream, and none of
 * the other records. */
static void test_all_plain(void **state)
{
	(void)state;
	run("plain", WORKLOAD, true);
	if (!tools_present())
		return;
	assert_true(count_lines("plain", true, "perf_comm: ") > 0);
	assert_true(count_lines("plain", true, "perf_mmap2: ") > 0);
	assert_true(count_lines("plain", true, "perf_exit: ") > 0);
	assert_int_equal(count_lines("plain", true, "perf_finished_round"), 0);
}

static void test_all_callchain(void **state)
{
	(void)state;
	run("callchain", "-g " WORKLOAD, true);
}

static void test_all_system_wide(void **state)
{
	(void)state;
	run("system", "-a -g -F 2000 -- sleep 0.3", true);
	if (tools_present())
		assert_true(count_lines("system", true, "perf_fork: ") > 0);
}

/* Tracepoints and --all together. */
static void test_all_sched(void **state)
{
	(void)state;
	run("sched", "-a -e sched:sched_switch,sched:sched_wakeup -- sleep 0.2", true);
}

/* A recording with -k (CLOCKID and CLOCK_DATA features): perf's converter
 * still writes perf_clock with offset 0, so babeltrace2's default (local
 * time) output must match too. */
static void test_clockid(void **state)
{
	(void)state;
	run("clockid", "-k CLOCK_MONOTONIC " WORKLOAD, false);
}

/* --tod: perf's converter names the clock after the clockid and offsets
 * it to the time of day; babeltrace2 must then print the same wall-clock
 * times for both (in a time zone far from UTC). */
static void test_tod(void **state)
{
	(void)state;
	if (!tools_present())
		skip();
	setenv("TZ", "Asia/Kolkata", 1);
	int rc = compare_case_tod("clockid", "-k CLOCK_MONOTONIC " WORKLOAD, false, true);
	unsetenv("TZ");
	if (rc == 77)
		skip();
	assert_int_equal(rc, 0);
	/* the times really are of today: the first event's year is not 1970 */
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
		 "TZ=UTC babeltrace2 --clock-date '%s/clockid-tod-ours' 2>/dev/null | head -1",
		 tmp_root);
	int st;
	char *line = read_cmd(cmd, &st);
	assert_non_null(line);
	assert_true(strncmp(line, "[20", 3) == 0);
	free(line);
}

/* --tod on a recording without clock data fails as perf's does, with a
 * clear error and nothing written. */
static void test_tod_without_clock_data(void **state)
{
	(void)state;
	if (!tools_present())
		skip();
	char data[512], ours[512], cmd[1024];
	snprintf(data, sizeof data, "%s/plain.data", tmp_root);
	snprintf(ours, sizeof ours, "%s/plain-tod-ours", tmp_root);
	struct stat sb;
	if (stat(data, &sb) != 0) {
		snprintf(cmd, sizeof cmd, "perf record -q -o '%s' %s >/dev/null 2>&1", data,
			 WORKLOAD);
		if (system(cmd) != 0)
			skip();
	}
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(convert(data, ours, false, true, &err), TK_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "clock data"));
	assert_int_not_equal(stat(ours, &sb), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain),
	    cmocka_unit_test(test_callchain),
	    cmocka_unit_test(test_system_wide),
	    cmocka_unit_test(test_counts),
	    cmocka_unit_test(test_data_addr),
	    cmocka_unit_test(test_weight),
	    cmocka_unit_test(test_sched_tracepoints),
	    cmocka_unit_test(test_tracepoint_arrays_strings),
	    cmocka_unit_test(test_all_plain),
	    cmocka_unit_test(test_all_callchain),
	    cmocka_unit_test(test_all_system_wide),
	    cmocka_unit_test(test_all_sched),
	    cmocka_unit_test(test_clockid),
	    cmocka_unit_test(test_tod),
	    cmocka_unit_test(test_tod_without_clock_data),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
