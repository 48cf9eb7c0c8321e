/* tracekit record's event names (issue 14), without perf_event_open, so
 * they run where recording is not permitted: perf's software event names
 * map to PERF_TYPE_SOFTWARE configs, :u/:k set the excludes, an unknown
 * name fails with the closest names, and the HEADER_BUILD_ID entry list
 * keeps each file once and skips what is not a file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include "record/record.h"

static void software_names(void **state)
{
	(void)state;
	rec_event e;
	char msg[512];
	assert_true(rec_event_parse("cpu-clock", &e, msg, sizeof msg));
	assert_int_equal(e.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(e.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_false(e.is_tp);
	assert_true(rec_event_parse("cs", &e, msg, sizeof msg));
	assert_int_equal(e.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_true(rec_event_parse("page-faults:u", &e, msg, sizeof msg));
	assert_int_equal(e.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(e.excl_kernel);
	assert_false(e.excl_user);
	assert_string_equal(e.name, "page-faults:u");
	assert_true(rec_event_parse("task-clock:k", &e, msg, sizeof msg));
	assert_true(e.excl_user);
	assert_false(rec_event_parse("cpu-clock:x", &e, msg, sizeof msg));
	assert_non_null(strstr(msg, "modifier"));
}

static void unknown_suggests(void **state)
{
	(void)state;
	rec_event e;
	char msg[512];
	assert_false(rec_event_parse("cpu-clok", &e, msg, sizeof msg));
	assert_non_null(strstr(msg, "unknown event 'cpu-clok'"));
	assert_non_null(strstr(msg, "similar: cpu-clock"));
	assert_false(rec_event_parse("task-clocks", &e, msg, sizeof msg));
	assert_non_null(strstr(msg, "task-clock"));
	/* nothing close: the list of software events instead */
	assert_false(rec_event_parse("zzzzzzzzzz", &e, msg, sizeof msg));
	assert_non_null(strstr(msg, "software events: cpu-clock"));
	assert_false(rec_event_parse("", &e, msg, sizeof msg));
	/* a path in a tracepoint name is refused, not looked up */
	assert_false(rec_event_parse("../..:x", &e, msg, sizeof msg));
}

static void glob_needs_tracepoint_form(void **state)
{
	(void)state;
	rec_event ev[4];
	char msg[512];
	assert_int_equal(rec_event_expand("cpu-*", ev, 4, msg, sizeof msg), 0);
	assert_non_null(strstr(msg, "globs are for tracepoints"));
	assert_int_equal(rec_event_expand("cpu-clock", ev, 4, msg, sizeof msg), 1);
	assert_int_equal(rec_event_expand("cpu-clock", ev, 0, msg, sizeof msg), 0);
}

static void dsos_once_files_only(void **state)
{
	(void)state;
	rec_dsos d = {0};
	rec_dsos_add(&d, "/usr/lib/libc.so.6");
	rec_dsos_add(&d, "//anon");
	rec_dsos_add(&d, "[vdso]");
	rec_dsos_add(&d, "/usr/lib/libc.so.6");
	rec_dsos_add(&d, "/bin/sh");
	assert_int_equal(d.n, 3); /* [vdso] kept: its build id is read from memory */
	assert_string_equal(d.names[0], "/usr/lib/libc.so.6");
	assert_string_equal(d.names[1], "[vdso]");
	assert_string_equal(d.names[2], "/bin/sh");
	rec_dsos_free(&d);
	assert_int_equal(d.n, 0);
}

/* Past the index's growth points: each name once, in first-seen order. */
static void dsos_many_names(void **state)
{
	(void)state;
	rec_dsos d = {0};
	char name[64];
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 1000; i++) {
			snprintf(name, sizeof name, "/usr/lib/lib%d.so", i);
			rec_dsos_add(&d, name);
		}
	assert_int_equal(d.n, 1000);
	for (int i = 0; i < 1000; i += 111) {
		snprintf(name, sizeof name, "/usr/lib/lib%d.so", i);
		assert_string_equal(d.names[i], name);
	}
	rec_dsos_free(&d);
}

static void clock_names(void **state)
{
	(void)state;
	int id = -1;
	assert_true(rec_clockid_parse("monotonic", &id));
	assert_int_equal(id, CLOCK_MONOTONIC);
	assert_true(rec_clockid_parse("CLOCK_MONOTONIC_RAW", &id));
	assert_int_equal(id, CLOCK_MONOTONIC_RAW);
	assert_true(rec_clockid_parse("real", &id));
	assert_int_equal(id, CLOCK_REALTIME);
	assert_true(rec_clockid_parse("boot", &id));
	assert_int_equal(id, CLOCK_BOOTTIME);
	assert_true(rec_clockid_parse("7", &id));
	assert_int_equal(id, 7);
	assert_false(rec_clockid_parse("nosuch", &id));
	assert_false(rec_clockid_parse("", &id));
	assert_false(rec_clockid_parse("-1", &id));
}

static void mmap_pages(void **state)
{
	(void)state;
	unsigned p = 0;
	assert_true(rec_mmap_pages_parse("128", 4096, &p));
	assert_int_equal(p, 128);
	assert_true(rec_mmap_pages_parse("100", 4096, &p)); /* rounded up, as perf */
	assert_int_equal(p, 128);
	assert_true(rec_mmap_pages_parse("512K", 4096, &p));
	assert_int_equal(p, 128);
	assert_true(rec_mmap_pages_parse("4M", 4096, &p));
	assert_int_equal(p, 1024);
	assert_true(rec_mmap_pages_parse("1B", 4096, &p));
	assert_int_equal(p, 1);
	assert_false(rec_mmap_pages_parse("0", 4096, &p));
	assert_false(rec_mmap_pages_parse("12Q", 4096, &p));
	assert_false(rec_mmap_pages_parse("4KB", 4096, &p));
	assert_false(rec_mmap_pages_parse("1T", 4096, &p));
	assert_false(rec_mmap_pages_parse("-4", 4096, &p));
	assert_false(rec_mmap_pages_parse("99999999999999999999", 4096, &p));
}

static void epochs(void **state)
{
	(void)state;
	uint64_t s = 0;
	assert_true(rec_epoch_parse("10m", &s));
	assert_int_equal(s, 600);
	assert_true(rec_epoch_parse("30", &s));
	assert_int_equal(s, 30);
	assert_true(rec_epoch_parse("2h", &s));
	assert_int_equal(s, 7200);
	assert_false(rec_epoch_parse("0s", &s));
	assert_false(rec_epoch_parse("5x", &s));
	assert_false(rec_epoch_parse("-5", &s));
	assert_false(rec_epoch_parse("m", &s));
	char name[16];
	rec_epoch_name((time_t)1795688191, 600, name); /* 2026-11-26 10:16:31 UTC */
	assert_string_equal(name, "2611261016");
	rec_epoch_name((time_t)1795688191, 1, name);
	assert_string_equal(name, "20261126101631");
	/* a late rotation in the second (minute) of the last one: the next
	 * second (minute), whose name is new */
	assert_int_equal(rec_epoch_time(1000, 0, 1), 1000);
	assert_int_equal(rec_epoch_time(1000, 1000, 1), 1001);
	assert_int_equal(rec_epoch_time(1005, 1000, 1), 1005);
	assert_int_equal(rec_epoch_time(1795688191, 1795688191, 600), 1795688220);
	rec_epoch_name(rec_epoch_time(1795688195, 1795688191, 600), 600, name);
	assert_string_equal(name, "2611261017");
	assert_int_equal(rec_epoch_time(1795688300, 1795688191, 600), 1795688300);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* /proc/modules lines -> maps in address order, each with its .ko (any
 * compression, '-' as '_') or "[name]"; hidden addresses (0) skipped. */
static void modules_list(void **state)
{
	(void)state;
	char dir[] = "/tmp/tk-modules-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[512], mods[512];
	snprintf(p, sizeof p, "%s/kernel", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/kernel/ext4.ko.xz", dir);
	write_file(p, "x");
	snprintf(p, sizeof p, "%s/kernel/foo-bar.ko", dir);
	write_file(p, "x");
	snprintf(mods, sizeof mods, "%s/modules", dir);
	write_file(mods, "ext4 1048576 2 - Live 0xffffffffc0800000\n"
			 "foo_bar 8192 0 - Live 0xffffffffc0100000\n"
			 "nokofile 4096 0 - Live 0xffffffffc0200000\n"
			 "hidden 4096 0 - Live 0x0000000000000000\n");
	rec_module *m;
	size_t n = rec_modules_list(mods, dir, &m);
	assert_int_equal(n, 3);
	assert_true(m[0].start == 0xffffffffc0100000ull && m[0].size == 8192);
	snprintf(p, sizeof p, "%s/kernel/foo-bar.ko", dir);
	assert_string_equal(m[0].path, p);
	assert_string_equal(m[1].path, "[nokofile]");
	snprintf(p, sizeof p, "%s/kernel/ext4.ko.xz", dir);
	assert_string_equal(m[2].path, p);
	assert_true(m[2].size == 1048576);
	free(m);
	assert_int_equal(rec_modules_list("/nonexistent/modules", NULL, &m), 0);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* TIME_CONV from a ring page offering cap_user_time_zero, read back by the
 * perf reader: perf's layout (shift, mult, zero, cycles, mask, the two
 * caps), none from a page without it. */
static void time_conv_record(void **state)
{
	(void)state;
	static struct perf_event_mmap_page page;
	memset(&page, 0, sizeof page);
	page.time_shift = 31;
	page.time_mult = 123456789;
	page.time_zero = 0x1122334455667788ull;
	page.time_cycles = 42;
	page.time_mask = 0xffff;
	page.cap_user_time_zero = 1;
	page.cap_user_time_short = 1;
	rec_ring ring = {.fd = -1, .cpu = 0, .base = &page, .data_size = 4096};
	rec_session s;
	memset(&s, 0, sizeof s);
	s.rings = &ring;
	s.n_rings = 1;
	for (int with = 1; with >= 0; with--) {
		page.cap_user_time_zero = (unsigned)with;
		perfw_out o;
		tk_error err;
		assert_int_equal(perfw_out_open(&o, NULL, false, false, &err), TK_OK);
		assert_int_equal(rec_synth_time_conv(&s, &o, &err), TK_OK);
		assert_int_equal(perfw_out_finish(&o, NULL, 0, 128, &err), TK_OK);
		size_t n;
		const char *bytes = tk_writer_data(o.result, &n);
		tk_perf_file *f;
		assert_int_equal(tk_perf_open_memory(bytes, n, "t", NULL, &f, &err), TK_OK);
		const tk_perf_record *rec;
		int seen = 0;
		while (tk_perf_next(f, &rec, &err) == TK_OK) {
			if (rec->type != TK_PERF_RECORD_TIME_CONV)
				continue;
			tk_perf_event e;
			assert_int_equal(tk_perf_parse_event(f, rec, &e, &err), TK_OK);
			assert_int_equal(rec->size, 56);
			assert_int_equal(e.u.time_conv.time_shift, 31);
			assert_int_equal(e.u.time_conv.time_mult, 123456789);
			assert_true(e.u.time_conv.time_zero == 0x1122334455667788ull);
			assert_int_equal(e.u.time_conv.time_cycles, 42);
			assert_int_equal(e.u.time_conv.time_mask, 0xffff);
			assert_true(e.u.time_conv.cap_user_time_zero &&
				    e.u.time_conv.cap_user_time_short);
			seen++;
		}
		assert_int_equal(seen, with);
		tk_perf_close(f);
		tk_writer_abort(o.result);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(software_names),
	    cmocka_unit_test(unknown_suggests),
	    cmocka_unit_test(glob_needs_tracepoint_form),
	    cmocka_unit_test(dsos_once_files_only),
	    cmocka_unit_test(dsos_many_names),
	    cmocka_unit_test(clock_names),
	    cmocka_unit_test(mmap_pages),
	    cmocka_unit_test(epochs),
	    cmocka_unit_test(modules_list),
	    cmocka_unit_test(time_conv_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
