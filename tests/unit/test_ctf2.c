/* CTF 2 (CTF2-SPEC-2.0) classes the shared test traces do not use, with
 * hand-made metadata fragments and stream bytes; each expected value is
 * worked out from the spec's definition of the class (and, for LEB128,
 * the classic example values 624485 = E5 8E 26 and -123456 = C0 BB 78).
 * Also the strict JSON reader and the bounds on hostile metadata. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "ctf/ctf2_json.h"
#include "ctf/ctf_meta.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"
#include "tracekit/tracekit.h"
#include "test_support.h"

#define RS "\x1e"

/* Reads every event of a one-stream trace and renders them as babeltrace2
 * text; returns the end status (TK_OK at the end of the stream). */
static tk_status render(const char *meta, const uint8_t *data, size_t size, char *out, size_t cap,
			tk_error *err)
{
	ctf_reader *r;
	tk_error_clear(err);
	out[0] = 0;
	tk_status st = ctf_reader_open_memory(meta, strlen(meta), data, size, NULL, NULL, &r, err);
	if (st != TK_OK)
		return st;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	ctf_pretty p;
	ctf_pretty_init(&p, w, true);
	const ctf_event_out *ev;
	while ((st = ctf_reader_next(r, &ev, err)) == TK_OK)
		ctf_pretty_event(&p, ev);
	size_t n;
	const char *txt = tk_writer_data(w, &n);
	assert_true(n < cap);
	memcpy(out, txt, n);
	out[n] = 0;
	ctf_pretty_fini(&p);
	tk_writer_abort(w);
	ctf_reader_close(r);
	return st == TK_END ? TK_OK : st;
}

static tk_status parse(const char *meta, size_t len, tk_error *err)
{
	ctf_trace_class *tc = NULL;
	tk_error_clear(err);
	tk_status st = ctf_trace_class_parse(meta, len, "t", NULL, NULL, &tc, err);
	ctf_trace_class_free(tc);
	return st;
}

/* ---- the JSON reader ---- */

static tk_status json(const char *s, ctf2_json **out, tk_error *err, tk_arena *a)
{
	tk_error_clear(err);
	return ctf2_json_parse(a, s, strlen(s), 100, out, err);
}

static void test_json_values(void **state)
{
	(void)state;
	tk_arena a;
	tk_arena_init(&a, 4096);
	tk_error err;
	ctf2_json *v;
	assert_int_equal(json(" {\"a\": [1, -2, 3.5e1, true, null, \"x\\u00e9\\ud83d\\ude00\"],"
			      " \"b\": {}} ",
			      &v, &err, &a),
			 TK_OK);
	assert_int_equal(v->kind, CTF2_JSON_OBJECT);
	assert_int_equal(v->offset, 101); /* base 100 + the leading space */
	const ctf2_json *arr = ctf2_json_get(v, "a");
	assert_non_null(arr);
	assert_int_equal(arr->n, 6);
	assert_true(arr->items[0]->is_int && arr->items[0]->u == 1 && !arr->items[0]->neg);
	assert_true(arr->items[1]->is_int && arr->items[1]->neg && arr->items[1]->u == 2);
	assert_false(arr->items[2]->is_int);
	assert_true(arr->items[2]->d == 35.0);
	assert_int_equal(arr->items[3]->kind, CTF2_JSON_BOOL);
	assert_int_equal(arr->items[4]->kind, CTF2_JSON_NULL);
	/* U+00E9 and the surrogate pair of U+1F600, as UTF-8 */
	assert_string_equal(arr->items[5]->s, "x\xc3\xa9\xf0\x9f\x98\x80");
	assert_int_equal(ctf2_json_get(v, "b")->n, 0);
	/* 2^64 - 1 is an integer; 2^64 is not */
	assert_int_equal(json("18446744073709551615", &v, &err, &a), TK_OK);
	assert_true(v->is_int && v->u == UINT64_MAX);
	assert_int_equal(json("18446744073709551616", &v, &err, &a), TK_OK);
	assert_false(v->is_int);
	tk_arena_free(&a);
}

static void test_json_strict(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		uint64_t offset; /* of the fault, + 100 */
	} bad[] = {
	    {"[1,]", 103},
	    {"{\"a\":1,}", 107},
	    {"01", 100},
	    {"{\"a\":1,\"a\":2}", 111},
	    {"\"a\x01\"", 102},
	    {"\"\\ud800\"", 101},
	    {"\"\\u0000\"", 101},
	    {"\"\xc3\x28\"", 101},
	    {"[1] 2", 104},
	    {"tru", 100},
	    {"{'a':1}", 101},
	    {"[1 2]", 103},
	    {"", 100},
	};
	tk_arena a;
	tk_arena_init(&a, 4096);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tk_error err;
		ctf2_json *v;
		tk_status st = json(bad[i].text, &v, &err, &a);
		if (st != TK_ERR_FORMAT || err.offset != bad[i].offset)
			fail_msg("'%s': status %d offset %llu (%s), want offset %llu", bad[i].text,
				 (int)st, (unsigned long long)err.offset, err.message,
				 (unsigned long long)bad[i].offset);
	}
	tk_arena_free(&a);
}

static void test_json_depth_bounded(void **state)
{
	(void)state;
	/* 100,000 nested arrays: refused at the cap, no deep recursion */
	size_t n = 100000;
	char *s = malloc(2 * n + 1);
	assert_non_null(s);
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = 0;
	tk_arena a;
	tk_arena_init(&a, 4096);
	tk_error err;
	ctf2_json *v;
	assert_int_equal(json(s, &v, &err, &a), TK_ERR_LIMIT);
	assert_int_equal(err.offset, 100 + CTF2_JSON_MAX_DEPTH + 1);
	memset(s, '[', CTF2_JSON_MAX_DEPTH + 1);
	memset(s + CTF2_JSON_MAX_DEPTH + 1, ']', CTF2_JSON_MAX_DEPTH + 1);
	s[2 * (CTF2_JSON_MAX_DEPTH + 1)] = 0;
	assert_int_equal(json(s, &v, &err, &a), TK_OK);
	tk_arena_free(&a);
	free(s);
}

/* ---- classes and decoding ---- */

static const char meta_classes[] =
    RS "{\"type\":\"preamble\",\"version\":2}\n" RS "{\"type\":\"data-stream-class\"}\n" RS
       "{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":"
       "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-"
       "endian\"}}\n" RS "{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":"
       "{\"type\":\"structure\",\"member-classes\":["
       "{\"name\":\"u\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
       "{\"name\":\"s\",\"field-class\":{\"type\":\"variable-length-signed-integer\"}},"
       "{\"name\":\"big\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
       "{\"name\":\"b\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,"
       "\"byte-order\":\"little-endian\"}},"
       "{\"name\":\"blob\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":4,"
       "\"media-type\":\"application/octet-stream\"}},"
       "{\"name\":\"n\",\"field-class\":\"u8\"},"
       "{\"name\":\"dblob\",\"field-class\":{\"type\":\"dynamic-length-blob\","
       "\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]}}},"
       "{\"name\":\"s16\",\"field-class\":{\"type\":\"null-terminated-string\","
       "\"encoding\":\"utf-16le\"}},"
       "{\"name\":\"s32\",\"field-class\":{\"type\":\"null-terminated-string\","
       "\"encoding\":\"utf-32be\"}},"
       "{\"name\":\"ss\",\"field-class\":{\"type\":\"static-length-string\",\"length\":6,"
       "\"encoding\":\"utf-16be\"}},"
       "{\"name\":\"sel\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,"
       "\"byte-order\":\"little-endian\"}},"
       "{\"name\":\"opt\",\"field-class\":{\"type\":\"optional\","
       "\"selector-field-location\":{\"path\":[\"sel\"]},\"field-class\":"
       "{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"little-"
       "endian\"}}},"
       "{\"name\":\"k\",\"field-class\":\"u8\"},"
       "{\"name\":\"opt2\",\"field-class\":{\"type\":\"optional\","
       "\"selector-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"k\"]},"
       "\"selector-field-ranges\":[[5,9]],\"field-class\":\"u8\"}},"
       "{\"name\":\"h\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
       "\"length\":16,\"byte-order\":\"little-endian\"}},"
       "{\"name\":\"q\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
       "\"length\":128,\"byte-order\":\"little-endian\"}},"
       "{\"name\":\"bm\",\"field-class\":{\"type\":\"fixed-length-bit-map\",\"length\":8,"
       "\"byte-order\":\"little-endian\",\"flags\":{\"A\":[[0,0]],\"B\":[[1,2]]}}}"
       "]}}\n";

static void test_classes_decode(void **state)
{
	(void)state;
	static const uint8_t stream[] = {
	    /* event 1 */
	    0xE5, 0x8E, 0x26,                                     /* u = 624485 */
	    0xC0, 0xBB, 0x78,                                     /* s = -123456 */
	    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* big: 71 one bits */
	    0xFF, 0x01,                                           /* (11 bytes) */
	    0x01,                                                 /* b = true */
	    0xDE, 0xAD, 0xBE, 0xEF,                               /* blob */
	    0x02,                                                 /* n = 2 */
	    0x01, 0x02,                                           /* dblob */
	    0x68, 0x00, 0xE9, 0x00, 0x00, 0x00,                   /* s16 = "hé" */
	    0x00, 0x00, 0x00, 0x41, 0x00, 0x01, 0xF6, 0x00,       /* s32 = "A", U+1F600 */
	    0x00, 0x00, 0x00, 0x00,                               /* s32 NUL */
	    0x00, 0x6F, 0x00, 0x6B, 0x00, 0x00,                   /* ss = "ok" (6 bytes) */
	    0x01,                                                 /* sel = true */
	    0x34, 0x12,                                           /* opt = 4660 */
	    0x03,                                                 /* k = 3: opt2 absent */
	    0x00, 0x3C,                                           /* h = 1.0 (binary16) */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,       /* q = 1.5 (binary128) */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0xFF, 0x3F,       /* */
	    0x05,                                                 /* bm: bits 0 and 2 */
	};
	uint8_t buf[256];
	size_t n1 = sizeof stream;
	memcpy(buf, stream, n1);
	size_t k = n1;
	static const uint8_t ev2[] = {
	    0x00,                               /* u = 0 */
	    0x7F,                               /* s = -1 */
	    0x7F,                               /* big = 127 */
	    0x00,                               /* b = false */
	    0x00, 0x00, 0x00, 0x01,             /* blob */
	    0x00,                               /* n = 0: dblob empty */
	    0x00, 0x00,                         /* s16 = "" */
	    0x00, 0x00, 0x00, 0x00,             /* s32 = "" */
	    0x00, 0x41, 0x00, 0x00, 0x00, 0x42, /* ss = "A" (cut at the NUL unit) */
	    0x00,                               /* sel = false: opt absent */
	    0x07, 0x2A,                         /* k = 7, opt2 = 42 */
	    0x00, 0xC1,                         /* h = -2.5 */
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* q = -0 */
	    0x00,                                           /* bm = 0 */
	};
	memcpy(buf + k, ev2, sizeof ev2);
	k += sizeof ev2;
	char out[2048];
	tk_error err;
	tk_status st = render(meta_classes, buf, k, out, sizeof out, &err);
	if (st != TK_OK)
		fail_msg("%s", err.message);
	assert_string_equal(
	    out, "e: { u = 624485, s = -123456, big = 0x7FFFFFFFFFFFFFFFFF, b = true, "
		 "blob = 0xdeadbeef, n = 2, dblob = 0x0102, s16 = \"h\xc3\xa9\", "
		 "s32 = \"A\xf0\x9f\x98\x80\", ss = \"ok\", sel = true, opt = { 4660 }, k = 3, "
		 "opt2 = <none>, h = 1, q = 1.5, bm = 0x5 { \"A\", \"B\" } }\n"
		 "e: { u = 0, s = -1, big = 127, b = false, blob = 0x00000001, n = 0, "
		 "dblob = 0x, s16 = \"\", s32 = \"\", ss = \"A\", sel = false, opt = <none>, "
		 "k = 7, opt2 = { 42 }, h = -2.5, q = -0, bm = 0x0 }\n");
}

/* A LEB128 integer that runs to the end of the packet, and a blob longer
 * than the packet: errors with the byte offset, no reads past the end. */
static void test_truncations(void **state)
{
	(void)state;
	static const char meta[] =
	    RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
	       "{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\","
	       "\"member-classes\":[{\"name\":\"a\",\"field-class\":{\"type\":\"fixed-length-"
	       "unsigned-integer\",\"length\":8,\"byte-order\":\"big-endian\"}},"
	       "{\"name\":\"v\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
	       "{\"name\":\"d\",\"field-class\":{\"type\":\"dynamic-length-blob\","
	       "\"length-field-location\":{\"path\":[\"v\"]}}}]}}";
	char out[256];
	tk_error err;
	static const uint8_t leb[] = {0x01, 0x80, 0x80, 0x80};
	assert_int_equal(render(meta, leb, sizeof leb, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 1);
	assert_non_null(strstr(err.message, "variable-length integer"));
	/* v = 2^63 (LEB128 of 10 bytes): a blob that cannot fit */
	static const uint8_t huge[] = {0x01, 0x80, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x80, 0x01, 0xAA};
	assert_int_equal(render(meta, huge, sizeof huge, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "blob"));
	assert_int_equal(err.offset, 11);
}

static void test_metadata_rejected(void **state)
{
	(void)state;
	static const struct {
		const char *meta;
		const char *msg;
		tk_status st;
	} bad[] = {
	    {RS "{\"type\":\"preamble\",\"version\":3}", "version", TK_ERR_UNSUPPORTED},
	    {RS "{\"type\":\"preamble\",\"version\":2,\"extensions\":{\"x.org\":{}}}",
	     "unsupported extension", TK_ERR_UNSUPPORTED},
	    {RS "{\"type\":\"trace-class\"}", "fragment 1", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
		"{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"nope\"}}",
	     "fragment 3 (event-record-class): unknown field class type", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
		"{\"type\":\"event-record-class\",\"data-stream-class-id\":4}",
	     "not defined before", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\","
		"\"default-clock-class-id\":\"c\"}",
	     "default clock class 'c'", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{oops}", "fragment 2: JSON",
	     TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
		"{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":"
		"\"structure\",\"member-classes\":[{\"name\":\"d\",\"field-class\":{\"type\":"
		"\"dynamic-length-array\",\"length-field-location\":{\"path\":[\"nope\"]},"
		"\"element-field-class\":{\"type\":\"null-terminated-string\"}}}]}}",
	     "cannot resolve", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
		"{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":"
		"\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":{\"type\":"
		"\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\","
		"\"roles\":[\"default-clock-timestamp\"]}}]}}",
	     "not allowed in this scope", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\","
		"\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":[{"
		"\"name\":\"t\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
		"\"length\":8,\"byte-order\":\"little-endian\",\"roles\":[\"default-clock-"
		"timestamp\"]}}]}}",
	     "without a default clock", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\","
		"\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":[{"
		"\"name\":\"t\",\"field-class\":{\"type\":\"fixed-length-signed-integer\","
		"\"length\":8,\"byte-order\":\"little-endian\",\"roles\":[\"event-record-class-"
		"id\"]}}]}}",
	     "cannot have it", TK_ERR_FORMAT},
	    {RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
		"{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":"
		"\"structure\",\"member-classes\":[{\"name\":\"k\",\"field-class\":{\"type\":"
		"\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\"}},"
		"{\"name\":\"o\",\"field-class\":{\"type\":\"optional\",\"selector-field-"
		"location\":{\"path\":[\"k\"]},\"field-class\":{\"type\":\"null-terminated-"
		"string\"}}}]}}",
	     "is not a boolean", TK_ERR_FORMAT},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tk_error err;
		tk_status st = parse(bad[i].meta, strlen(bad[i].meta), &err);
		if (st != bad[i].st || !strstr(err.message, bad[i].msg))
			fail_msg("case %zu: status %d '%s', want %d '%s'", i, (int)st, err.message,
				 (int)bad[i].st, bad[i].msg);
	}
}

/* An alias with roles takes them where it is used: the default clock of
 * the data stream class, the packet beginning time in the packet context. */
static void test_alias_roles(void **state)
{
	(void)state;
	static const char meta[] =
	    RS "{\"type\":\"preamble\",\"version\":2}" RS
	       "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000,"
	       "\"origin\":\"unix-epoch\",\"offset-from-origin\":{\"seconds\":60}}" RS
	       "{\"type\":\"field-class-alias\",\"name\":\"ts\",\"field-class\":{\"type\":"
	       "\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"big-endian\","
	       "\"roles\":[\"default-clock-timestamp\"]}}" RS
	       "{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\","
	       "\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
	       "{\"name\":\"begin\",\"field-class\":\"ts\"}]},"
	       "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
	       "{\"name\":\"when\",\"field-class\":\"ts\"}]}}" RS
	       "{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":{"
	       "\"type\":\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":"
	       "{\"type\":\"variable-length-signed-integer\"}}]}}";
	/* packet begins at 0x0100 cycles; events at 0x0102 and 0x0205 */
	static const uint8_t stream[] = {0x01, 0x00, 0x01, 0x02, 0x7E, 0x02, 0x05, 0x01};
	char out[512];
	tk_error err;
	tk_status st = render(meta, stream, sizeof stream, out, sizeof out, &err);
	if (st != TK_OK)
		fail_msg("%s", err.message);
	assert_string_equal(out, "[00:01:00.000000258] (+?.?\?\?\?\?\?\?\?\?) e: { x = -2 }\n"
				 "[00:01:00.000000517] (+0.000000259) e: { x = 1 }\n");
}

/* Absolute field locations through a variant option and an array element
 * (CTF2-SPEC-2.0: the path goes on in the selected option / the element
 * being decoded). */
static void test_locations_through_options(void **state)
{
	(void)state;
	static const char meta[] = RS
	    "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
	    "{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":{\"type\":"
	    "\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\"}}" RS
	    "{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":{"
	    "\"type\":\"structure\",\"member-classes\":["
	    "{\"name\":\"sel\",\"field-class\":\"u8\"},"
	    "{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
	    "{\"origin\":\"event-record-payload\",\"path\":[\"sel\"]},\"options\":["
	    "{\"selector-field-ranges\":[[0,0]],\"field-class\":\"u8\"},"
	    "{\"selector-field-ranges\":[[1,1]],\"field-class\":{\"type\":\"structure\","
	    "\"member-classes\":[{\"name\":\"len\",\"field-class\":\"u8\"},{\"name\":\"d\","
	    "\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":{"
	    "\"origin\":\"event-record-payload\",\"path\":[\"v\",\"len\"]},"
	    "\"element-field-class\":\"u8\"}}]}}]}},"
	    "{\"name\":\"arr\",\"field-class\":{\"type\":\"static-length-array\",\"length\":2,"
	    "\"element-field-class\":{\"type\":\"structure\",\"member-classes\":["
	    "{\"name\":\"n\",\"field-class\":\"u8\"},{\"name\":\"s\",\"field-class\":{"
	    "\"type\":\"dynamic-length-string\",\"length-field-location\":{\"origin\":"
	    "\"event-record-payload\",\"path\":[\"arr\",\"n\"]}}}]}}}]}}";
	static const uint8_t stream[] = {1, 2, 7, 8, 1, 'a', 2, 'b', 'c'};
	char out[512];
	tk_error err;
	tk_status st = render(meta, stream, sizeof stream, out, sizeof out, &err);
	if (st != TK_OK)
		fail_msg("%s", err.message);
	assert_string_equal(
	    out, "e: { sel = 1, v = { { len = 2, d = [ [0] = 7, [1] = 8 ] } }, "
		 "arr = [ [0] = { n = 1, s = \"a\" }, [1] = { n = 2, s = \"bc\" } ] }\n");
}

/* 10^6 fragments: refused at the event record class cap, in bounded
 * memory and time. */
static void test_million_fragments(void **state)
{
	(void)state;
	static const char head[] =
	    RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}";
	size_t n = 1000000, cap = sizeof head + n * 48;
	char *m = malloc(cap);
	assert_non_null(m);
	size_t len = (size_t)snprintf(m, cap, "%s", head);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(m + len, cap - len,
					RS "{\"type\":\"event-record-class\",\"id\":%zu}", i);
	tk_error err;
	assert_int_equal(parse(m, len, &err), TK_ERR_LIMIT);
	assert_non_null(strstr(err.message, "event record classes"));
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_values),
	    cmocka_unit_test(test_json_strict),
	    cmocka_unit_test(test_json_depth_bounded),
	    cmocka_unit_test(test_classes_decode),
	    cmocka_unit_test(test_truncations),
	    cmocka_unit_test(test_metadata_rejected),
	    cmocka_unit_test(test_alias_roles),
	    cmocka_unit_test(test_locations_through_options),
	    cmocka_unit_test(test_million_fragments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
