/* Unit tests for the CTF reader: TSDL parsing and scoping, rejection with
 * offsets, bit-level decoding in both byte orders, sequences and variants
 * through dynamic scopes, compact-header clock wrap-around, clock
 * conversion, babeltrace2 text rendering. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"
#include "ctf/ctf_meta.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"
#include "test_support.h"

static int n_warnings;

static void count_log(void *user, int level, const char *msg)
{
	(void)user;
	(void)msg;
	if (level == 0)
		n_warnings++;
}

static ctf_trace_class *parse_ok(const char *tsdl)
{
	tk_error err;
	tk_error_clear(&err);
	ctf_trace_class *tc = NULL;
	tk_status st =
	    ctf_trace_class_parse(tsdl, strlen(tsdl), "test", count_log, NULL, &tc, &err);
	if (st != TK_OK)
		fail_msg("parse failed: %s", err.message);
	return tc;
}

static const char *const base_types =
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n";

static void test_scoping_and_types(void **state)
{
	(void)state;
	char tsdl[4096];
	snprintf(tsdl, sizeof tsdl,
		 "/* CTF 1.8 */\n%s"
		 "trace { major = 1; minor = 8; byte_order = be; };\n"
		 "typedef uint32_t my_t;\n"
		 "event { name = \"e\"; fields := struct {\n"
		 "  typealias integer { size = 16; align = 8; } := uint32_t; /* shadows the outer "
		 "one */\n"
		 "  uint32_t inner16;\n"
		 "  my_t outer32;\n"
		 "  enum : uint8_t { A, B = 5, C = 10 ... 20, \"q q\" } en;\n"
		 "  struct { uint8_t x; } align(32) s;\n"
		 "  integer { size = 3; } bits[4];\n"
		 "  string str;\n"
		 "  variant <en> { uint8_t A; uint32_t B; string C; } v;\n"
		 "}; };\n",
		 base_types);
	ctf_trace_class *tc = parse_ok(tsdl);
	assert_false(tc->little_endian);
	assert_int_equal(tc->n_streams, 1);
	const ctf_event_class *ec = tc->streams[0]->events[0];
	const ctf_fc *p = ec->payload;
	assert_int_equal(p->n_members, 7);
	assert_string_equal(p->members[0].name, "inner16");
	assert_int_equal(p->members[0].fc->size, 16);
	assert_int_equal(p->members[1].fc->size, 32);
	assert_false(p->members[1].fc->little_endian); /* native = trace byte order */
	const ctf_fc *en = p->members[2].fc;
	assert_int_equal(en->type, CTF_FC_ENUM);
	assert_int_equal(en->n_maps, 4);
	assert_int_equal(en->maps[3].lo, 21); /* after C = 10 ... 20 */
	assert_string_equal(en->maps[3].label, "q q");
	assert_int_equal(p->members[3].fc->align, 32);
	assert_int_equal(p->members[4].fc->type, CTF_FC_ARRAY);
	assert_int_equal(p->members[4].fc->elem->align, 1);
	const ctf_fc *v = p->members[6].fc;
	assert_int_equal(v->type, CTF_FC_VARIANT);
	assert_ptr_equal(v->ref.target, en);
	assert_int_equal(v->n_ranges, 3);
	ctf_trace_class_free(tc);
}

static void test_underscore_and_unknown_attributes(void **state)
{
	(void)state;
	n_warnings = 0;
	char tsdl[2048];
	snprintf(tsdl, sizeof tsdl,
		 "/* CTF 1.8 */\n%s"
		 "trace { major = 1; minor = 8; byte_order = le; whatever = 3; };\n"
		 "event { name = e; fields := struct { uint8_t __len; integer { size = 8; zz = 1; "
		 "} _seq[__len]; }; };\n",
		 base_types);
	ctf_trace_class *tc = parse_ok(tsdl);
	assert_int_equal(n_warnings, 2);
	const ctf_fc *p = tc->streams[0]->events[0]->payload;
	assert_string_equal(p->members[0].name, "_len");
	assert_string_equal(p->members[1].name, "seq");
	assert_ptr_equal(p->members[1].fc->ref.target, p->members[0].fc);
	ctf_trace_class_free(tc);
}

static void test_rejects_with_offset(void **state)
{
	(void)state;
	static const struct {
		const char *tsdl;
		size_t offset;
	} bad[] = {
	    {"trace { major = 1 }", 18},                          /* missing ';' before '}' */
	    {"trace { uuid = \"\\o\"; };", 16},                   /* invalid escape */
	    {"event { fields := struct { nosuch_t x; }; };", 27}, /* unknown type */
	    {"trace { major = 1; }; /* never closed", 22},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tk_error err;
		tk_error_clear(&err);
		ctf_trace_class *tc = NULL;
		tk_status st = ctf_trace_class_parse(bad[i].tsdl, strlen(bad[i].tsdl), "t", NULL,
						     NULL, &tc, &err);
		assert_int_equal(st, TK_ERR_FORMAT);
		assert_null(tc);
		assert_int_equal(err.offset, bad[i].offset);
		assert_non_null(strstr(err.message, "metadata"));
	}
}

static void test_sequence_length_must_be_integer(void **state)
{
	(void)state;
	char tsdl[1024];
	snprintf(tsdl, sizeof tsdl,
		 "%strace { major = 1; minor = 8; byte_order = le; };\n"
		 "event { name = e; fields := struct { string n; uint8_t s[n]; }; };\n",
		 base_types);
	tk_error err;
	ctf_trace_class *tc = NULL;
	assert_int_equal(ctf_trace_class_parse(tsdl, strlen(tsdl), "t", NULL, NULL, &tc, &err),
			 TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "not an integer"));
}

/* Reads every event of a one-stream trace and renders them as babeltrace2 text. */
static tk_status render(const char *tsdl, const uint8_t *data, size_t size, char *out, size_t cap,
			tk_error *err)
{
	ctf_reader *r;
	tk_error_clear(err);
	tk_status st = ctf_reader_open_memory(tsdl, strlen(tsdl), data, size, NULL, NULL, &r, err);
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

static void test_bitfields_both_orders(void **state)
{
	(void)state;
	/* LE: 3 bits then 5 bits then 12 bits, from the low bits of each byte.
	 * BE: same fields from the high bits. */
	static const char le[] =
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { integer { size = 3; } a; integer { size = 5; "
	    "signed = true; } b;"
	    " integer { size = 12; base = 16; } c; integer { size = 4; } d; }; };\n";
	static const char be[] =
	    "trace { major = 1; minor = 8; byte_order = be; };\n"
	    "event { name = e; fields := struct { integer { size = 3; } a; integer { size = 5; "
	    "signed = true; } b;"
	    " integer { size = 12; base = 16; } c; integer { size = 4; } d; }; };\n";
	/* a = 5, b = -3 (0b11101), c = 0xABC (crosses a byte), d = 9 */
	const uint8_t le_bytes[] = {(uint8_t)(5 | (0x1D << 3)), 0xBC, 0x9A};
	const uint8_t be_bytes[] = {(uint8_t)((5 << 5) | 0x1D), 0xAB, 0xC9};
	char out[512];
	tk_error err;
	assert_int_equal(render(le, le_bytes, sizeof le_bytes, out, sizeof out, &err), TK_OK);
	assert_string_equal(out, "e: { a = 5, b = -3, c = 0xABC, d = 9 }\n");
	assert_int_equal(render(be, be_bytes, sizeof be_bytes, out, sizeof out, &err), TK_OK);
	assert_string_equal(out, "e: { a = 5, b = -3, c = 0xABC, d = 9 }\n");
}

static void test_dynamic_scopes(void **state)
{
	(void)state;
	/* a sequence whose length is in the stream event context, a variant
	 * whose tag is an absolute path into the payload */
	static const char tsdl[] = "typealias integer { size = 8; align = 8; } := u8;\n"
				   "trace { major = 1; minor = 8; byte_order = le; };\n"
				   "stream { event.context := struct { u8 n; }; };\n"
				   "event { name = e; fields := struct { enum : u8 { X, Y } t; u8 "
				   "s[stream.event.context.n];"
				   " variant <event.fields.t> { u8 X; string Y; } v; }; };\n";
	const uint8_t bytes[] = {2, 1, 7, 8, 'h', 'i', 0, 0, 0, 9};
	char out[512];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_OK);
	assert_string_equal(
	    out, "e: { n = 2 }, { t = ( \"Y\" : container = 1 ), s = [ [0] = 7, [1] = 8 ], v = { "
		 "\"hi\" } }\n"
		 "e: { n = 0 }, { t = ( \"X\" : container = 0 ), s = [ ], v = { 9 } }\n");
}

static void test_compact_header_wraps(void **state)
{
	(void)state;
	/* 5-bit timestamps: 30 then 2 means one wrap (32 + 2 = 34) */
	static const char tsdl[] =
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "clock { name = c; freq = 1000; offset_s = 10; offset = 2500; };\n"
	    "stream { event.header := struct { integer { size = 3; } id; integer { size = 5; map = "
	    "clock.c.value; } timestamp; }; };\n"
	    "event { name = e; id = 0; };\n";
	const uint8_t bytes[] = {(uint8_t)(30 << 3), (uint8_t)(2 << 3)};
	ctf_reader *r;
	tk_error err;
	assert_int_equal(
	    ctf_reader_open_memory(tsdl, strlen(tsdl), bytes, sizeof bytes, NULL, NULL, &r, &err),
	    TK_OK);
	/* offset 2500 cycles at 1 kHz = 12.5 s after offset_s 10 */
	const ctf_event_out *ev;
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->clock_raw, 30);
	assert_int_equal(ev->ns, 12500000000LL + 30000000LL);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->clock_raw, 34);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_END);
	ctf_reader_close(r);
}

/* Events at cycle 0 and at the edge of the one-addition conversion: a
 * 1 kHz clock always goes through ctf_clock_ns (cycle 0 included), a
 * 1 GHz one adds its offset until the sum would overflow, then keeps the
 * event with the time counted from the clock's zero and warns. */
static void test_clock_fast_path_edges(void **state)
{
	(void)state;
	static const char slow_tsdl[] =
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "clock { name = c; freq = 1000; offset_s = 10; offset = 2500; };\n"
	    "stream { event.header := struct { integer { size = 8; align = 8; map = "
	    "clock.c.value; } timestamp; }; };\n"
	    "event { name = e; };\n";
	const uint8_t zero[] = {0, 4};
	ctf_reader *r;
	tk_error err;
	const ctf_event_out *ev;
	assert_int_equal(ctf_reader_open_memory(slow_tsdl, strlen(slow_tsdl), zero, sizeof zero,
						NULL, NULL, &r, &err),
			 TK_OK);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->clock_raw, 0);
	assert_int_equal(ev->ns, 12500000000LL);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->ns, 12500000000LL + 4000000LL);
	ctf_reader_close(r);

	static const char ghz_tsdl[] =
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "clock { name = c; offset_s = 2; offset = 5; };\n"
	    "stream { event.header := struct { integer { size = 64; align = 8; map = "
	    "clock.c.value; } timestamp; }; };\n"
	    "event { name = e; };\n";
	/* INT64_MAX - 2000000005 still fits; one more overflows */
	uint8_t big[16];
	uint64_t fits = (uint64_t)INT64_MAX - 2000000005u, over = fits + 1;
	for (int i = 0; i < 8; i++) {
		big[i] = (uint8_t)(fits >> (8 * i));
		big[8 + i] = (uint8_t)(over >> (8 * i));
	}
	n_warnings = 0;
	assert_int_equal(ctf_reader_open_memory(ghz_tsdl, strlen(ghz_tsdl), big, sizeof big,
						count_log, NULL, &r, &err),
			 TK_OK);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->ns, INT64_MAX);
	assert_int_equal(n_warnings, 0);
	assert_int_equal(ctf_reader_next(r, &ev, &err), TK_OK);
	assert_int_equal(ev->clock_raw, over);
	assert_int_equal(ev->ns, (int64_t)over); /* from the clock's own zero */
	/* the overflow, and the time going back from INT64_MAX */
	assert_int_equal(n_warnings, 2);
	ctf_reader_close(r);
}

static void test_backwards_time_is_warned_once(void **state)
{
	(void)state;
	/* full 8-bit timestamps (no wrap rule): 10, 5, 3 go backwards twice */
	static const char tsdl[] = "trace { major = 1; minor = 8; byte_order = le; };\n"
				   "clock { name = c; };\n"
				   "stream { event.header := struct { integer { size = 64; align = "
				   "8; map = clock.c.value; } timestamp; }; };\n"
				   "event { name = e; };\n";
	uint8_t bytes[24];
	memset(bytes, 0, sizeof bytes);
	bytes[0] = 10;
	bytes[8] = 5;
	bytes[16] = 3;
	ctf_reader *r;
	tk_error err;
	n_warnings = 0;
	assert_int_equal(ctf_reader_open_memory(tsdl, strlen(tsdl), bytes, sizeof bytes, count_log,
						NULL, &r, &err),
			 TK_OK);
	const ctf_event_out *ev;
	int n = 0;
	while (ctf_reader_next(r, &ev, &err) == TK_OK)
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(n_warnings, 1);
	ctf_reader_close(r);
}

static void test_source_seek_skips_packets(void **state)
{
	(void)state;
	const char *dir = tk_test_data("ctf/babeltrace/packet-seq-num/no-lost");
	tk_open_options opt;
	memset(&opt, 0, sizeof opt);
	tk_error err;
	tk_source *src;
	assert_int_equal(tk_ctf_source_open(dir, &opt, &src, &err), TK_OK);
	const tk_event *ev;
	uint64_t all = 0, last = 0, first = 0;
	while (tk_source_next(src, &ev, &err) == TK_OK) {
		if (!all++)
			first = ev->time_ns;
		last = ev->time_ns;
	}
	tk_source_close(src);
	assert_int_equal(all, 3); /* one event per packet */
	/* from the last event's time: only the last packet(s) are decoded */
	assert_int_equal(tk_ctf_source_open(dir, &opt, &src, &err), TK_OK);
	assert_int_equal(tk_ctf_source_seek(src, last, &err), TK_OK);
	uint64_t n = 0;
	while (tk_source_next(src, &ev, &err) == TK_OK) {
		assert_true(ev->time_ns > first);
		n++;
	}
	assert_int_equal(n, 1); /* the first two packets end before it */
	assert_int_equal(tk_ctf_source_seek(src, 0, &err), TK_ERR_USAGE);
	tk_source_close(src);
}

/* The same seek through an LTTng index (index/stream_0.idx) keeps every
 * event at or after the seek time. */
static void test_source_seek_with_index(void **state)
{
	(void)state;
	const char *dir = tk_test_data("ctf/babeltrace/packet-seq-num/7-lost-between-2-with-index");
	tk_open_options opt;
	memset(&opt, 0, sizeof opt);
	tk_error err;
	tk_source *src;
	uint64_t times[64];
	size_t all = 0;
	const tk_event *ev;
	assert_int_equal(tk_ctf_source_open(dir, &opt, &src, &err), TK_OK);
	while (tk_source_next(src, &ev, &err) == TK_OK && all < 64)
		times[all++] = ev->time_ns;
	tk_source_close(src);
	assert_true(all >= 2);
	for (size_t k = 0; k < all; k++) {
		size_t want = 0, got = 0;
		for (size_t i = 0; i < all; i++)
			want += times[i] >= times[k];
		assert_int_equal(tk_ctf_source_open(dir, &opt, &src, &err), TK_OK);
		assert_int_equal(tk_ctf_source_seek(src, times[k], &err), TK_OK);
		while (tk_source_next(src, &ev, &err) == TK_OK)
			got += ev->time_ns >= times[k];
		tk_source_close(src);
		assert_int_equal(got, want);
	}
}

static void test_truncated_event_offset(void **state)
{
	(void)state;
	static const char tsdl[] =
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { integer { size = 32; align = 8; } x; }; };\n";
	const uint8_t bytes[] = {1, 0, 0, 0, 2, 0};
	char out[256];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_string_equal(out, "e: { x = 1 }\n"); /* the event before the damage */
	assert_int_equal(err.offset, 4);
	assert_non_null(strstr(err.message, "past the end of the packet"));
}

static void test_clock_conversion(void **state)
{
	(void)state;
	ctf_clock c;
	memset(&c, 0, sizeof c);
	c.info.freq = 3;
	c.offset_s = 1;
	c.offset_cycles = 1;
	int64_t ns;
	assert_true(ctf_clock_ns(&c, 7, &ns));
	/* 1 s + 1/3 s + 2 s + 1/3 s, each part truncated like babeltrace2 */
	assert_int_equal(ns, 1000000000LL + 333333333LL + 2000000000LL + 333333333LL);
	c.offset_s = INT64_MAX / 1000000000LL;
	assert_false(ctf_clock_ns(&c, UINT64_MAX, &ns));
	c.info.freq = 1000000000;
	c.offset_s = -5;
	c.offset_cycles = 0;
	assert_true(ctf_clock_ns(&c, 1, &ns));
	assert_int_equal(ns, -4999999999LL);
}

static void test_packetized_metadata(void **state)
{
	(void)state;
	static const char text[] = "trace { major = 1; minor = 8; byte_order = le; };";
	uint8_t buf[256];
	memset(buf, 0, sizeof buf);
	size_t tl = sizeof text - 1;
	uint32_t magic = 0x75D11D57, content = (uint32_t)((37 + tl) * 8), psize = content + 64;
	memcpy(buf, &magic, 4);
	memcpy(buf + 24, &content, 4);
	memcpy(buf + 28, &psize, 4);
	memcpy(buf + 37, text, tl);
	char *out;
	size_t len;
	tk_error err;
	assert_int_equal(ctf_metadata_unpack(buf, psize / 8, &out, &len, &err), TK_OK);
	assert_int_equal(len, tl);
	assert_memory_equal(out, text, tl);
	free(out);
	/* a packet claiming more bytes than the file has */
	psize = 8 * 1000;
	memcpy(buf + 28, &psize, 4);
	assert_int_equal(ctf_metadata_unpack(buf, 100, &out, &len, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 24);
}

/* The fast %g must match printf byte for byte. */
static void test_double_g_matches_printf(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	uint64_t x = 88172645463325252ULL;
	static const double fixed[] = {0.0,           -0.0,     1.0,       0.5,           2.5,
				       1e-5,          123456.5, 999999.5,  9999995.0,     0.0001,
				       0.00001234565, 1e25,     1e-300,    3.14,          6.62,
				       2.99792e+08,   0.1534,   555.555,   1e9,           -17.5,
				       1.0 / 3.0,     100000.0, 1000000.0, 0.000123456789};
	for (size_t i = 0; i < 300000; i++) {
		double v;
		if (i < sizeof fixed / sizeof fixed[0]) {
			v = fixed[i];
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int e = (int)(x % 60) - 30;
			v = ((double)(x >> 11) / 9007199254740992.0) * pow(10.0, e) *
			    ((x & 1) ? -1 : 1);
			if (i % 3 == 0)
				v = floor(v * 1000.0) /
				    8.0; /* many exact binary fractions, ties included */
			else if (i % 7 == 0)
				v = (double)(int64_t)(x % 4000000) - 2000000.0; /* whole numbers */
		}
		if (i >= 150000 && i % 2 == 0) {
			/* exact ties of the 7th significant digit (printf rounds
			 * them to even) and values just beside them */
			double m = (double)(100000 + x % 900000);
			static const double beside[] = {0, 0, 0, 1e-9, -1e-9, 2e-9, -2e-9, 1e-7};
			double off = beside[(x >> 20) % 8];
			switch ((x >> 24) % 4) {
			case 0: v = m + 0.5 + off; break;
			case 1: v = m * 10 + 5 + off * 10; break;
			case 2: v = (m + 0.5 + off) / 1024; break;
			default: v = (m * 100 + 50) * ((x & 2) ? -1 : 1); break;
			}
		}
		char want[64];
		snprintf(want, sizeof want, "%g", v);
		w->pos = 0;
		ctf_put_double_g(w, v);
		size_t n;
		const char *got = tk_writer_data(w, &n);
		if (n != strlen(want) || memcmp(got, want, n) != 0)
			fail_msg("%.17g: got '%.*s', printf gives '%s'", v, (int)n, got, want);
	}
	tk_writer_abort(w);
}

/* The printer's decimal fast path must match printf for every digit
 * count, the powers of ten and their neighbours included. */
static void test_put_dec_matches_printf(void **state)
{
	(void)state;
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	for (size_t i = 0; i < 400000; i++) {
		uint64_t v;
		if (i < 20 * 3) {
			uint64_t p = 1;
			for (size_t k = 0; k < i / 3; k++)
				p *= 10;
			v = p + (uint64_t)(i % 3) - 1; /* 10^k - 1, 10^k, 10^k + 1 */
		} else if (i == 60) {
			v = UINT64_MAX;
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = x >> (x % 64); /* every bit width */
		}
		char want[32];
		snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		w->pos = 0;
		ctf_put_dec(w, v);
		size_t n;
		const char *got = tk_writer_data(w, &n);
		if (n != strlen(want) || memcmp(got, want, n) != 0)
			fail_msg("%s: got '%.*s'", want, (int)n, got);
	}
	tk_writer_abort(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scoping_and_types),
	    cmocka_unit_test(test_underscore_and_unknown_attributes),
	    cmocka_unit_test(test_rejects_with_offset),
	    cmocka_unit_test(test_sequence_length_must_be_integer),
	    cmocka_unit_test(test_bitfields_both_orders),
	    cmocka_unit_test(test_dynamic_scopes),
	    cmocka_unit_test(test_compact_header_wraps),
	    cmocka_unit_test(test_backwards_time_is_warned_once),
	    cmocka_unit_test(test_source_seek_skips_packets),
	    cmocka_unit_test(test_source_seek_with_index),
	    cmocka_unit_test(test_truncated_event_offset),
	    cmocka_unit_test(test_clock_conversion),
	    cmocka_unit_test(test_clock_fast_path_edges),
	    cmocka_unit_test(test_packetized_metadata),
	    cmocka_unit_test(test_double_g_matches_printf),
	    cmocka_unit_test(test_put_dec_matches_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
