/* Unit tests for the VPP elog reader: the shared logs, their event text,
 * and damaged copies. */
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "cpel/elog_reader.h"
#include "test_support.h"

static const char *text_of(const tk_elog_file *f, uint32_t i, tk_writer *w)
{
	static char buf[512];
	w->pos = 0;
	tk_elog_event_text(w, f, &f->events[i]);
	size_t n = w->pos < sizeof buf - 1 ? w->pos : sizeof buf - 1;
	memcpy(buf, w->buf, n);
	buf[n] = 0;
	return buf;
}

static void test_vpp_small(void **state)
{
	(void)state;
	tk_elog_file *f;
	tk_error err;
	assert_int_equal(tk_elog_open(tk_test_data("cpel/vpp-small.elog"), &f, &err), TK_OK);
	assert_int_equal(f->ring_size, 1024);
	assert_int_equal(f->n_types, 3);
	assert_string_equal(f->types[0].format.s, "rx-burst: queue %d pkts %d");
	assert_string_equal(f->types[0].args.s, "i4i4");
	assert_int_equal(f->types[1].n_enum, 2);
	assert_string_equal(f->types[1].enums[1].s, "up");
	assert_int_equal(f->n_tracks, 3);
	assert_string_equal(f->tracks[2].s, "worker 1");
	assert_int_equal(f->heap_len, 24);
	assert_int_equal(f->n_events, 5);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_string_equal(text_of(f, 0, w), "rx-burst: queue 0 pkts 32");
	assert_string_equal(text_of(f, 3, w), "link-state up");                /* t4: enum */
	assert_string_equal(text_of(f, 4, w), "msg: configured 2 interfaces"); /* T4: heap */
	assert_true(f->events[0].time > 1.8e-6 && f->events[0].time < 1.9e-6);
	tk_writer_abort(w);
	tk_elog_close(f);
}

static void test_vpp_new(void **state)
{
	(void)state;
	tk_elog_file *f;
	tk_error err;
	assert_int_equal(tk_elog_open(tk_test_data("cpel/vpp-new.elog"), &f, &err), TK_OK);
	assert_int_equal(f->n_types, 1);
	assert_int_equal(f->n_tracks, 5);
	assert_string_equal(f->tracks[3].s, "workers 2");
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_string_equal(text_of(f, 0, w), "rx(1): 3");
	tk_writer_abort(w);
	tk_elog_close(f);
}

/* Every prefix fails cleanly; damaged counts and indexes are rejected with
 * their offset. */
static void test_damaged(void **state)
{
	(void)state;
	size_t size;
	uint8_t *data = tk_test_read_file(tk_test_data("cpel/vpp-small.elog"), &size);
	assert_non_null(data);
	for (size_t n = 0; n < size; n++) {
		tk_elog_file *f;
		tk_error err;
		tk_error_clear(&err);
		assert_true(tk_elog_open_memory(data, n, "cut", &f, &err) < 0);
		assert_true(err.message[0] != 0);
	}
	tk_elog_file *f;
	tk_error err;
	uint8_t *bad = malloc(size);
	/* event count 0x7fffffff */
	memcpy(bad, data, size);
	memcpy(bad + 0xcc, "\x7f\xff\xff\xff", 4);
	assert_int_equal(tk_elog_open_memory(bad, size, "bad", &f, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0xcc);
	/* first event's type 9 */
	memcpy(bad, data, size);
	bad[0xd1] = 9;
	assert_int_equal(tk_elog_open_memory(bad, size, "bad", &f, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0xd0);
	assert_non_null(strstr(err.message, "type 9 is not defined"));
	/* format_args "i4i4" -> "i3i4" */
	memcpy(bad, data, size);
	bad[0x50] = '3';
	assert_int_equal(tk_elog_open_memory(bad, size, "bad", &f, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "bad argument spec 'i3'"));
	free(bad);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vpp_small),
	    cmocka_unit_test(test_vpp_new),
	    cmocka_unit_test(test_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
