/* perf.data model sink: a small model trace written with tk_perf_sink_open
 * reads back with the perf reader as tracepoint samples whose formats,
 * RAW payloads and rendered text (libtraceevent, as perf script prints it)
 * hold the events' fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static char path[256];

/* classes: my:event { int32 a; hex uint64 b; string s; enum uint8 e;
 * uint16 arr[]; double f; struct { uint8 x; string y; } nested; int8 neg[] }
 * and other {} */
static const tk_field_class c_i32 = {
    .kind = TK_TYPE_INT, .bits = 32, .is_signed = true, .base = 10};
static const tk_field_class c_hex = {.kind = TK_TYPE_INT, .bits = 64, .base = 16};
static const tk_field_class c_str = {.kind = TK_TYPE_STRING};
static const tk_enum_mapping maps[] = {{"ONE", 1, 1}, {"TWO", 2, 2}, {"MANY", 3, 9}};
static const tk_field_class c_enum = {
    .kind = TK_TYPE_INT, .bits = 8, .base = 10, .mappings = maps, .n_mappings = 3};
static const tk_field_class c_u16 = {.kind = TK_TYPE_INT, .bits = 16, .base = 10};
static const tk_field_class c_seq = {.kind = TK_TYPE_SEQUENCE, .element = &c_u16};
static const tk_field_class c_dbl = {.kind = TK_TYPE_FLOAT, .bits = 64};
static const tk_field_class c_u8 = {.kind = TK_TYPE_INT, .bits = 8, .base = 10};
static const tk_member nested_m[] = {{"x", &c_u8}, {"y", &c_str}};
static const tk_field_class c_nested = {
    .kind = TK_TYPE_STRUCT, .members = nested_m, .n_members = 2};
static const tk_field_class c_i8 = {.kind = TK_TYPE_INT, .bits = 8, .is_signed = true, .base = 10};
static const tk_field_class c_neg = {.kind = TK_TYPE_ARRAY, .element = &c_i8, .length = 2};
static const tk_member payload_m[] = {{"a", &c_i32},         {"b", &c_hex},   {"s", &c_str},
				      {"e", &c_enum},        {"arr", &c_seq}, {"f", &c_dbl},
				      {"nested", &c_nested}, {"neg", &c_neg}};
static const tk_field_class c_payload = {
    .kind = TK_TYPE_STRUCT, .members = payload_m, .n_members = 8};
static const tk_field_class c_empty = {.kind = TK_TYPE_STRUCT};
static const tk_event_class ec_a = {
    .id = 1, .name = "my:event", .payload = &c_payload, .loglevel = -1};
static const tk_event_class ec_b = {.id = 2, .name = "other", .payload = &c_empty, .loglevel = -1};

static void write_trace(const char *order)
{
	tk_trace_info info = {.format = TK_FORMAT_CTF, .name = "unit"};
	tk_sink_options opt = {.byte_order = order};
	tk_sink *sink;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_sink_open(path, &info, &opt, &sink, &err), TK_OK);

	tk_value arr_items[3] = {{&c_u16, {.u = 1}}, {&c_u16, {.u = 2}}, {&c_u16, {.u = 3}}};
	tk_value nested_items[2] = {{&c_u8, {.u = 7}}, {&c_str, {.str = {"yo", 2}}}};
	tk_value neg_items[2] = {{&c_i8, {.i = -1}}, {&c_i8, {.i = 5}}};
	tk_value items[8] = {
	    {&c_i32, {.i = -5}},
	    {&c_hex, {.u = 0xff}},
	    {&c_str, {.str = {"hello", 5}}},
	    {&c_enum, {.u = 2}},
	    {&c_seq, {.list = {arr_items, 3, 0}}},
	    {&c_dbl, {.f = 1.5}},
	    {&c_nested, {.list = {nested_items, 2, 0}}},
	    {&c_neg, {.list = {neg_items, 2, 0}}},
	};
	tk_value payload = {&c_payload, {.list = {items, 8, 0}}};
	tk_value empty = {&c_empty, {.list = {NULL, 0, 0}}};
	for (int i = 0; i < 3; i++) {
		tk_event ev = {.cls = i == 1 ? &ec_b : &ec_a,
			       .cpu = i,
			       .pid = 100,
			       .tid = 101 + i,
			       .has_time = true,
			       .time_ns = 1000000000ULL + (uint64_t)i * 1000,
			       .payload = i == 1 ? &empty : &payload};
		assert_int_equal(tk_sink_write(sink, &ev, &err), TK_OK);
	}
	assert_int_equal(tk_sink_close(sink, &err), TK_OK);
}

static void check_trace(bool big)
{
	tk_perf_file *f;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_open(path, NULL, &f, &err), TK_OK);
	assert_int_equal(tk_perf_get_header(f)->big_endian, big);
	assert_int_equal(tk_perf_attr_count(f), 2);
	const tk_perf_attr *a0 = tk_perf_attr_at(f, 0), *a1 = tk_perf_attr_at(f, 1);
	assert_int_equal(a0->type, TK_PERF_TYPE_TRACEPOINT);
	assert_string_equal(a0->name, "tracekit:my_event");
	assert_string_equal(a1->name, "tracekit:other");
	const tk_perf_tracing *tr = tk_perf_get_tracing(f);
	assert_non_null(tr);
	assert_int_equal(tk_perf_tracing_count(tr), 2);
	assert_int_equal(tk_perf_tracing_big_endian(tr), big);

	tk_arena arena;
	tk_arena_init(&arena, 4096);
	const tk_perf_record *r;
	int n = 0;
	while (tk_perf_next(f, &r, &err) == TK_OK) {
		if (r->type != TK_PERF_RECORD_SAMPLE)
			continue;
		tk_perf_sample s;
		assert_int_equal(tk_perf_parse_sample(f, r, &s, &err), TK_OK);
		assert_int_equal(s.pid, 100);
		assert_int_equal(s.tid, 101 + n);
		assert_int_equal(s.cpu, n);
		assert_int_equal(s.time, 1000000000ULL + (uint64_t)n * 1000);
		const tk_perf_tp_format *fmt = tk_perf_tracing_format(tr, r->attr->config);
		assert_non_null(fmt);
		tk_value *vals = tk_arena_calloc(&arena, fmt->n_fields + 1, sizeof *vals);
		assert_int_equal(tk_perf_tp_decode(tr, fmt, s.raw, s.raw_size, &arena, vals, &err),
				 TK_OK);
		if (n != 1) {
			assert_string_equal(fmt->name, "my_event");
			assert_int_equal(fmt->n_fields - fmt->n_common, 9);
			assert_int_equal(vals[fmt->n_common].v.i, -5);
			assert_int_equal(vals[fmt->n_common + 1].v.u, 0xff);
			assert_int_equal(vals[fmt->n_common + 2].v.str.len >= 5, 1);
			assert_memory_equal(vals[fmt->n_common + 2].v.str.ptr, "hello", 5);
#ifdef TK_HAVE_TRACEEVENT
			char buf[512];
			size_t len;
			assert_int_equal(tk_perf_tp_render(tr, fmt, s.raw, s.raw_size, (int)s.cpu,
							   buf, sizeof buf, &len, &err),
					 TK_OK);
			/* integer arrays are text in the other byte order */
			assert_string_equal(buf,
					    !tk_perf_get_header(f)->swap
						? "a=-5 b=0xff s=hello e=TWO arr=1 2 3 f=1.5 "
						  "nested_x=7 nested_y=yo neg=[-1, 5]"
						: "a=-5 b=0xff s=hello e=TWO arr=[1, 2, 3] f=1.5 "
						  "nested_x=7 nested_y=yo neg=[-1, 5]");
#endif
		} else {
			assert_string_equal(fmt->name, "other");
			assert_int_equal(fmt->n_fields, fmt->n_common);
		}
		n++;
	}
	assert_int_equal(n, 3);
	tk_arena_free(&arena);
	tk_perf_close(f);
}

static void test_native(void **state)
{
	(void)state;
	write_trace(NULL);
	check_trace(false);
}

static void test_big_endian(void **state)
{
	(void)state;
	write_trace("big");
	check_trace(true);
}

static void test_abort_and_errors(void **state)
{
	(void)state;
	tk_trace_info info = {.format = TK_FORMAT_CTF};
	tk_sink *sink;
	tk_error err;
	tk_error_clear(&err);
	char p2[300];
	snprintf(p2, sizeof p2, "%s.aborted", path);
	assert_int_equal(tk_perf_sink_open(p2, &info, NULL, &sink, &err), TK_OK);
	tk_sink_abort(sink);
	assert_int_equal(access(p2, F_OK), -1);
	assert_int_equal(tk_perf_sink_open("-", &info, NULL, &sink, &err), TK_ERR_UNSUPPORTED);
	tk_sink_options opt = {.byte_order = "sideways"};
	assert_int_equal(tk_perf_sink_open(p2, &info, &opt, &sink, &err), TK_ERR_USAGE);
	assert_int_equal(access(p2, F_OK), -1);
}

int main(void)
{
	snprintf(path, sizeof path, "/tmp/tk-perfw-sink-%d.data", (int)getpid());
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_native),
	    cmocka_unit_test(test_big_endian),
	    cmocka_unit_test(test_abort_and_errors),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
