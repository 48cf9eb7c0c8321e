/* Unit tests for the CPEL reader, writer and cpeldump renderer: the shared
 * good files, every bad file (status and offset), and crafted files whose
 * formats are hostile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/writer.h"
#include "cpel/cpel_reader.h"
#include "cpel/cpel_writer.h"
#include "cpel/safe_format.h"
#include "output/cpel_dump.h"
#include "test_support.h"

static void test_good_files(void **state)
{
	(void)state;
	static const char *names[] = {"cpel/basic.cpel", "cpel/basic-le.cpel"};
	for (size_t i = 0; i < 2; i++) {
		tk_cpel_file *f;
		tk_error err;
		assert_int_equal(tk_cpel_open(tk_test_data(names[i]), NULL, NULL, &f, &err), TK_OK);
		assert_int_equal(f->little_endian, i == 1);
		assert_int_equal(f->n_events, 7);
		assert_int_equal(f->n_evtdefs, 4);
		assert_int_equal(f->n_trackdefs, 2);
		assert_int_equal(f->widest_name_format, strlen("THREAD/RUNNING"));
		const tk_cpel_evtdef *d = tk_cpel_find_evtdef(f, 4);
		assert_non_null(d);
		assert_string_equal(d->name_format, "MSG");
		assert_true(d->datum_is_string);
		tk_cpel_event e = tk_cpel_event_at(f, &f->event_sections[0], 6);
		assert_int_equal(e.track, 42);
		assert_int_equal(e.code, 99);
		tk_cpel_close(f);
	}
	tk_cpel_file *f;
	int warnings = 0;
	assert_int_equal(tk_cpel_open(tk_test_data("cpel/multi-table.cpel"), NULL, NULL, &f, NULL),
			 TK_OK);
	assert_int_equal(f->n_strtabs, 2);
	assert_int_equal(f->n_unknown_sections, 1);
	assert_int_equal(f->n_symtabs, 1);
	assert_int_equal(f->symtabs[0].count, 2);
	assert_int_equal(f->symtabs[0].symbols[1].value, 0x2000);
	tk_cpel_close(f);
	(void)warnings;
}

static void test_bad_files(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		tk_status status;
		uint64_t offset;
		const char *needle;
	} cases[] = {
	    {"cpel/bad-missing-strtab.cpel", TK_ERR_FORMAT, 0x20,
	     "EVTDEF section at offset 0x18: string table 'Missing' not found"},
	    {"cpel/bad-nsections.cpel", TK_ERR_TRUNCATED, 0x238,
	     "more sections than the file holds"},
	    {"cpel/bad-section-length.cpel", TK_ERR_TRUNCATED, 0xc,
	     "STRTAB section at offset 0x8: length 2147483647"},
	    {"cpel/bad-truncated.cpel", TK_ERR_TRUNCATED, 0x160, "EVENT section at offset 0x15c"},
	    {"cpel/bad-version0.cpel", TK_ERR_UNSUPPORTED, 0, "unsupported CPEL version 0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tk_cpel_file *f;
		tk_error err;
		tk_error_clear(&err);
		tk_status st = tk_cpel_open(tk_test_data(cases[i].name), NULL, NULL, &f, &err);
		if (st != cases[i].status || err.offset != cases[i].offset ||
		    !strstr(err.message, cases[i].needle))
			fail_msg("%s: status %d offset 0x%llx message \"%s\"", cases[i].name, st,
				 (unsigned long long)err.offset, err.message);
		assert_null(f);
	}
	/* bad-string-offset loads (its tables are fine) but cannot be printed */
	tk_cpel_file *f;
	tk_error err;
	assert_int_equal(
	    tk_cpel_open(tk_test_data("cpel/bad-string-offset.cpel"), NULL, NULL, &f, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_int_equal(tk_cpel_dump(f, w, 0, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0xd0);
	assert_non_null(
	    strstr(err.message, "datum string offset 0xffff0 is outside string table 'S'"));
	tk_writer_abort(w);
	tk_cpel_close(f);
}

/* Every prefix of a good file is either a clean error or a valid file. */
static void test_truncations(void **state)
{
	(void)state;
	size_t size;
	uint8_t *data = tk_test_read_file(tk_test_data("cpel/multi-table-le.cpel"), &size);
	assert_non_null(data);
	for (size_t n = 0; n < size; n++) {
		tk_cpel_file *f;
		tk_error err;
		tk_error_clear(&err);
		tk_status st = tk_cpel_open_memory(data, n, "cut", NULL, NULL, &f, &err);
		assert_true(st < 0);
		assert_true(err.message[0] != 0);
	}
	free(data);
}

static char *make_file(tk_cpel_writer *w, bool le)
{
	static char path[] = "/tmp/tk-cpel-test-XXXXXX";
	strcpy(path, "/tmp/tk-cpel-test-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	tk_error err;
	assert_int_equal(tk_cpel_writer_commit(w, path, le, 0, 1000000, &err), TK_OK);
	return path;
}

static uint32_t str(tk_cpel_writer *w, const char *s)
{
	uint32_t off;
	assert_true(tk_cpel_writer_string(w, s, strlen(s), &off));
	return off;
}

/* A file whose formats attack printf prints safely; a %s datum past the
 * table is an error naming the event, after the events before it. */
static void test_hostile_file(void **state)
{
	(void)state;
	tk_cpel_writer *w = tk_cpel_writer_new();
	assert_non_null(w);
	char run[301];
	memset(run, '%', 300);
	run[300] = 0;
	assert_true(tk_cpel_writer_event_def(w, 1, str(w, "%n%n%n"), str(w, "%n%p%n")));
	assert_true(tk_cpel_writer_event_def(w, 2, str(w, "W"), str(w, "%999999d")));
	assert_true(tk_cpel_writer_event_def(w, 3, str(w, run), str(w, run)));
	assert_true(tk_cpel_writer_event_def(w, 4, str(w, "S"), str(w, "%s%s%s%s")));
	assert_true(tk_cpel_writer_track_def(w, 0, str(w, "%s%U%v")));
	uint32_t hello = str(w, "hello");
	assert_true(tk_cpel_writer_event(w, 0, 0, 1, 7));
	assert_true(tk_cpel_writer_event(w, 1, 0, 2, 8));
	assert_true(tk_cpel_writer_event(w, 2, 0, 3, 9));
	assert_true(tk_cpel_writer_event(w, 3, 0, 4, hello));
	assert_true(tk_cpel_writer_event(w, 4, 0, 4, 0x7ffffff0));
	const char *path = make_file(w, false);
	tk_cpel_writer_free(w);

	tk_cpel_file *f;
	tk_error err;
	assert_int_equal(tk_cpel_open(path, NULL, NULL, &f, &err), TK_OK);
	tk_writer *o;
	assert_int_equal(tk_writer_open_memory(&o, NULL), TK_OK);
	tk_status st = tk_cpel_dump(f, o, 0, &err);
	assert_int_equal(st, TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "event 4: datum string offset 0x7ffffff0"));
	size_t n;
	const char *text = tk_writer_data(o, &n);
	char *copy = strndup(text, n);
	char *lines[6] = {0};
	size_t k = 0;
	for (char *save, *l = strtok_r(copy, "\n", &save); l && k < 6;
	     l = strtok_r(NULL, "\n", &save))
		lines[k++] = l;
	assert_int_equal(k, 4); /* 4 events; the 5th is not begun (whole lines only) */
	/* widths: longest raw format is the 300 '%' run */
	assert_non_null(strstr(lines[0], "%n%n%n"));
	assert_non_null(strstr(lines[0], "%n0x7%n"));
	/* time (18) + track: "%s%U%v" gets the number, unknown conversions stay
	 * text, padded to 6 + 1 (7) + event name padded to 300 + 1 (301) */
	const size_t head = 18 + 7 + 301;
	assert_memory_equal(lines[0] + 18, "0%U%v  %n%n%n ", 14);
	assert_string_equal(lines[0] + head, "%n0x7%n");
	assert_int_equal(strlen(lines[1]), head + TK_FMT_MAX_WIDTH); /* %999999d clamped */
	assert_string_equal(lines[1] + head + TK_FMT_MAX_WIDTH - 1, "8");
	assert_int_equal(strlen(lines[2]), head + 150); /* 300 '%' = 150 "%%" */
	assert_int_equal(lines[2][18 + 7 + 150], ' ');  /* the name: 150 '%' too */
	assert_string_equal(lines[3] + head, "hello(null)(null)(null)");
	assert_null(lines[4]);
	free(copy);
	tk_writer_abort(o);
	tk_cpel_close(f);
	unlink(path);
}

static void test_writer_round_trip(void **state)
{
	(void)state;
	for (int le = 0; le < 2; le++) {
		tk_cpel_writer *w = tk_cpel_writer_new();
		uint32_t a = str(w, "EV %d"), b = str(w, "0x%x"), c = str(w, "EV %d");
		assert_int_equal(a, c); /* deduplicated */
		assert_true(tk_cpel_writer_event_def(w, 5, a, b));
		assert_true(tk_cpel_writer_track_def(w, 9, str(w, "cpu %d")));
		assert_true(tk_cpel_writer_event(w, (uint64_t)3 << 32 | 7, 9, 5, 0xabc));
		const char *path = make_file(w, le);
		tk_cpel_writer_free(w);
		tk_cpel_file *f;
		tk_error err;
		assert_int_equal(tk_cpel_open(path, NULL, NULL, &f, &err), TK_OK);
		assert_int_equal(f->little_endian, le);
		assert_int_equal(f->strtabs[0].size % 8, 0);
		assert_string_equal(f->strtabs[0].name, "FileStrtab");
		tk_cpel_event e = tk_cpel_event_at(f, &f->event_sections[0], 0);
		assert_true(e.time == ((uint64_t)3 << 32 | 7));
		assert_int_equal(e.track, 9);
		assert_int_equal(e.datum, 0xabc);
		tk_writer *o;
		assert_int_equal(tk_writer_open_memory(&o, NULL), TK_OK);
		assert_int_equal(tk_cpel_dump(f, o, 0, &err), TK_OK);
		size_t n;
		const char *text = tk_writer_data(o, &n);
		const char *want = "000:00:00:000:000 cpu 9  EV 5  0xabc\n";
		assert_int_equal(n, strlen(want));
		assert_memory_equal(text, want, n);
		tk_writer_abort(o);
		tk_cpel_close(f);
		unlink(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_good_files),        cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_truncations),       cmocka_unit_test(test_hostile_file),
	    cmocka_unit_test(test_writer_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
