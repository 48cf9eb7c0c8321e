/* CTF -> CTF through the model: each reference trace is read with the CTF
 * source, re-encoded by the CTF writer, and babeltrace2's text of the result
 * must be identical to babeltrace2's text of the original (the expected
 * .pretty files in $TK_TESTDATA/ctf/expected, made with TZ=UTC).
 *
 * Set CTFW_ORACLE_ONLY=substring to run a subset, CTFW_ORACLE_KEEP=1 to
 * keep the written traces (in $TK_BUILD_DIR/ctfw-oracle-*). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracekit/tracekit.h"
#include "test_support.h"

static char tmp_root[256];
static int alias_warnings;

static void count_alias(void *user, int level, const char *msg)
{
	(void)user;
	(void)level;
	if (strstr(msg, "other context classes"))
		alias_warnings++;
}

static int setup(void **state)
{
	(void)state;
	const char *b = getenv("TK_BUILD_DIR");
	snprintf(tmp_root, sizeof tmp_root, "%s/ctfw-oracle-XXXXXX", b ? b : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("TZ", "UTC", 1);
	setenv("LC_ALL", "C", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("CTFW_ORACLE_KEEP"))
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

/* Converts `in` (any readable format) to the CTF trace `out`; returns 0 or
 * prints why and returns -1. *count gets the number of events. */
static int convert_any(const char *in, const char *out, size_t *count)
{
	tk_source *src;
	tk_error err;
	tk_error_clear(&err);
	tk_open_options oo = {0};
	*count = 0;
	if (tk_source_open(in, &oo, &src, &err) != TK_OK) {
		print_message("  open %s: %s\n", in, err.message);
		return -1;
	}
	tk_sink *sink;
	tk_sink_options so = {.log = count_alias};
	if (tk_ctf_sink_open(out, tk_source_info(src), &so, &sink, &err) != TK_OK) {
		print_message("  sink %s: %s\n", out, err.message);
		tk_source_close(src);
		return -1;
	}
	const tk_event *ev;
	tk_status st;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK) {
		if ((st = tk_sink_write(sink, ev, &err)) != TK_OK)
			break;
		++*count;
	}
	if (st != TK_END) {
		print_message("  %s: %s\n", in, err.message);
		tk_sink_abort(sink);
		tk_source_close(src);
		return -1;
	}
	st = tk_sink_close(sink, &err);
	tk_source_close(src);
	if (st != TK_OK) {
		print_message("  close %s: %s\n", out, err.message);
		return -1;
	}
	return 0;
}

static int convert(const char *in, const char *out)
{
	size_t n;
	return convert_any(in, out, &n);
}

static void first_diff(const char *got, const char *want)
{
	size_t line = 1;
	const char *g = got, *w = want;
	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++, w++;
	}
	while (g > got && g[-1] != '\n')
		g--, w--;
	print_message("  line %zu\n   got: %.240s\n  want: %.240s\n", line, g, w);
}

/* Returns 0 when babeltrace2 prints the expected text for the converted trace. */
static int check_trace(const char *rel)
{
	char in[1024], out[1024], exp[1024], name[512], cmd[1200];
	snprintf(in, sizeof in, "%s", tk_test_data(rel));
	snprintf(name, sizeof name, "%s", rel + 4); /* drop "ctf/" */
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	snprintf(exp, sizeof exp, "%s", tk_test_data("ctf/expected/"));
	strncat(exp, name, sizeof exp - strlen(exp) - 8);
	strcat(exp, ".pretty");
	snprintf(out, sizeof out, "%s/%s", tmp_root, name);
	if (convert(in, out) != 0) {
		print_message("FAIL %s (conversion)\n", rel);
		return -1;
	}
	size_t n;
	char *want = (char *)tk_test_read_file(exp, &n);
	if (!want) {
		/* babeltrace2 printed nothing for it: no .pretty was stored. */
		struct stat sb;
		if (stat(tk_test_data(rel), &sb) != 0) {
			print_message("FAIL %s: no %s\n", rel, exp);
			return -1;
		}
		want = strdup("");
	}
	snprintf(cmd, sizeof cmd, "babeltrace2 '%s' 2>/dev/null", out);
	int status = -1;
	char *got = read_cmd(cmd, &status);
	int rc = 0;
	if (!got || status != 0 || strcmp(got, want) != 0) {
		print_message("FAIL %s (babeltrace2 status %d)\n", rel, status);
		if (got)
			first_diff(got, want);
		rc = -1;
	}
	free(got);
	free(want);
	return rc;
}

static bool selected(const char *rel)
{
	const char *only = getenv("CTFW_ORACLE_ONLY");
	return !only || strstr(rel, only);
}

static void test_babeltrace_succeed(void **state)
{
	(void)state;
	if (system("babeltrace2 --version >/dev/null 2>&1") != 0)
		skip();
	static const char *const traces[] = {
	    "2packets",
	    "sequence",
	    "succeed1",
	    "wk-heartbeat-u",
	    "debug-info",
	    "meta-variant-two-underscores",
	    "lttng-tracefile-rotation",
	};
	int failed = 0;
	alias_warnings = 0;
	for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
		char rel[256];
		snprintf(rel, sizeof rel, "ctf/babeltrace/succeed/%s", traces[i]);
		if (selected(rel))
			failed += check_trace(rel) != 0;
	}
	assert_int_equal(failed, 0);
	/* Single traces: every event fits the stream class the model declares. */
	assert_int_equal(alias_warnings, 0);
	/* Kernel + UST traces read as one source: the second trace's streams
	 * get stream classes of their own, timed in ns on a correlated clock. */
	if (selected("ctf/babeltrace/succeed/multi-domains")) {
		assert_int_equal(check_trace("ctf/babeltrace/succeed/multi-domains"), 0);
		assert_true(alias_warnings > 0);
	}
	/* CTFW_ORACLE_ALL=1: every other succeed trace too (informational). */
	if (!getenv("CTFW_ORACLE_ALL"))
		return;
	DIR *d = opendir(tk_test_data("ctf/babeltrace/succeed"));
	struct dirent *e;
	int others = 0, other_failed = 0;
	while (d && (e = readdir(d))) {
		char rel[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof rel, "ctf/babeltrace/succeed/%s", e->d_name);
		others++;
		other_failed += check_trace(rel) != 0;
	}
	if (d)
		closedir(d);
	print_message("all succeed traces: %d, %d failed\n", others, other_failed);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_barectf(void **state)
{
	(void)state;
	if (system("babeltrace2 --version >/dev/null 2>&1") != 0)
		skip();
	DIR *d = opendir(tk_test_data("ctf/barectf"));
	if (!d)
		skip();
	char *names[512];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 512)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], cmp_str);
	int failed = 0, run = 0;
	alias_warnings = 0;
	for (size_t i = 0; i < n; i++) {
		char rel[512];
		snprintf(rel, sizeof rel, "ctf/barectf/%s", names[i]);
		if (selected(rel)) {
			run++;
			failed += check_trace(rel) != 0;
		}
		free(names[i]);
	}
	print_message("barectf: %d traces, %d failed\n", run, failed);
	assert_int_equal(alias_warnings, 0);
	assert_int_equal(failed, 0);
}

/* babeltrace2's WARNING lines up to " in trace" (the rest names the trace
 * UUID and stream file, which differ by nature), one per line. */
static char *warnings_of(const char *cmd_fmt, const char *arg)
{
	char cmd[1400];
	snprintf(cmd, sizeof cmd, cmd_fmt, arg);
	int status;
	return read_cmd(cmd, &status);
}

/* Discarded events and packets: the converted trace keeps the source's
 * packet bounds, events_discarded counters and packet_seq_num gaps, so
 * babeltrace2 warns about the same losses over the same time ranges. */
static void test_discard_warnings(void **state)
{
	(void)state;
	if (system("babeltrace2 --version >/dev/null 2>&1") != 0)
		skip();
	static const char *const traces[] = {
	    "babeltrace/succeed/multi-domains",
	    "babeltrace/succeed/ev-disc-no-ts-begin-end",
	    "babeltrace/packet-seq-num/2-lost-before-last",
	    "babeltrace/packet-seq-num/2-streams-lost-in-1",
	    "babeltrace/packet-seq-num/2-streams-lost-in-2",
	    "babeltrace/packet-seq-num/7-lost-between-2-with-index",
	};
	const char *norm = "grep WARNING | sed 's/ in trace .*//'";
	int failed = 0;
	for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
		char in[1024], out[600], name[300], fmt[600];
		snprintf(in, sizeof in, "%s", tk_test_data("ctf/"));
		strncat(in, traces[i], sizeof in - strlen(in) - 1);
		snprintf(name, sizeof name, "%s", traces[i]);
		for (char *p = name; *p; p++)
			if (*p == '/')
				*p = '_';
		snprintf(out, sizeof out, "%s/warn-%s", tmp_root, name);
		if (convert(in, out) != 0) {
			failed++;
			continue;
		}
		snprintf(fmt, sizeof fmt, "babeltrace2 '%%s' 2>&1 >/dev/null | %s", norm);
		char *got = warnings_of(fmt, out);
		char exp[1024];
		snprintf(exp, sizeof exp, "%sexpected/babeltrace_%s.stderr", tk_test_data("ctf/"),
			 name + strlen("babeltrace_"));
		snprintf(fmt, sizeof fmt, "%s < '%%s'", norm);
		char *want = warnings_of(fmt, exp);
		if (!got || !want || !*want || strcmp(got, want) != 0) {
			print_message("FAIL %s warnings\n  got: %.300s\n want: %.300s\n", traces[i],
				      got ? got : "", want ? want : "");
			failed++;
		}
		free(got);
		free(want);
	}
	assert_int_equal(failed, 0);
}

/* CPEL and VPP elog -> CTF: babeltrace2 reads every event, no warning. */
static void test_cpel_elog(void **state)
{
	(void)state;
	if (system("babeltrace2 --version >/dev/null 2>&1") != 0)
		skip();
	static const char *const files[] = {"vpp-new.cpel", "vpp-small.cpel",
					    "basic.cpel",   "multi-table-le.cpel",
					    "vpp-new.elog", "vpp-small.elog"};
	int failed = 0;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char in[1024], out[600], cmd[1200];
		snprintf(in, sizeof in, "%s/cpel/%s", tk_test_data(""), files[i]);
		snprintf(out, sizeof out, "%s/cpel-%s", tmp_root, files[i]);
		size_t n = 0;
		if (convert_any(in, out, &n) != 0) {
			failed++;
			continue;
		}
		snprintf(cmd, sizeof cmd, "babeltrace2 '%s' 2>&1", out);
		int status = -1;
		char *text = read_cmd(cmd, &status);
		size_t lines = 0;
		for (const char *p = text; p && *p; p++)
			lines += *p == '\n';
		bool warned = text && strstr(text, "WARNING") != NULL;
		if (status != 0 || lines != n || n == 0 || warned) {
			print_message("FAIL %s: %zu events, babeltrace2 printed %zu lines (status "
				      "%d)\n%.300s\n",
				      files[i], n, lines, status, text ? text : "");
			failed++;
		}
		free(text);
	}
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_babeltrace_succeed),
	    cmocka_unit_test(test_barectf),
	    cmocka_unit_test(test_cpel_elog),
	    cmocka_unit_test(test_discard_warnings),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
