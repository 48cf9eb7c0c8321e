/* Unit tests for the CTF decode plans: what the compiler makes of a scope
 * (runs of fixed-size fields checked once, alignment checks dropped where
 * the position is known, roles fused into the read, frames for arrays of
 * compound elements and variants), and what the interpreter decodes from
 * them: references across frames, variant selection by table and by range,
 * and the tree decoder's error messages and offsets when a run, a struct
 * alignment or a float does not fit. The expected texts were checked
 * against the tree decoder the plans replaced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "ctf/ctf_meta.h"
#include "ctf/ctf_plan.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static ctf_trace_class *parse_ok(const char *tsdl)
{
	tk_error err;
	tk_error_clear(&err);
	ctf_trace_class *tc = NULL;
	if (ctf_trace_class_parse(tsdl, strlen(tsdl), "test", NULL, NULL, &tc, &err) != TK_OK)
		fail_msg("parse failed: %s", err.message);
	return tc;
}

static const char *dump(const ctf_plan *plan)
{
	static char buf[8192];
	assert_non_null(plan);
	size_t n = ctf_plan_dump(plan, buf, sizeof buf);
	assert_true(n < sizeof buf);
	return buf;
}

/* babeltrace2 text of every event, the reader's status at the end */
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

static void test_fixed_fields_form_one_run(void **state)
{
	(void)state;
	/* babeltrace2's sink.ctf.fs layout: the header's struct alignment is
	 * the only check; id and timestamp are read with their roles */
	ctf_trace_class *tc = parse_ok(
	    "/* CTF 1.8 */\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "clock { name = c; };\n"
	    "stream { event.header := struct { integer { size = 64; align = 8; } id;\n"
	    "  integer { size = 64; align = 8; map = clock.c.value; } timestamp; } align(8); };\n"
	    "event { name = e; id = 0; fields := struct { integer { size = 8; align = 8; } a;\n"
	    "  integer { size = 32; align = 32; signed = true; } b; integer { size = 16; align = "
	    "8; "
	    "byte_order = be; } c; }; };\n");
	const ctf_stream_class *sc = tc->streams[0];
	assert_string_equal(dump(sc->event_header_plan),
			    "0 run_struct align=8 bits=128 ops=2 @0 members=1..3\n"
			    "1 u64le_special @1 off=0 size=64 meaning=11\n"
			    "2 u64le_special @2 off=64 size=64 clock meaning=0\n"
			    "3 end\n");
	/* the 32-bit alignment of b is the struct's: known after the RUN,
	 * so its 24-bit pad is static */
	assert_string_equal(dump(sc->events[0]->payload_plan),
			    "0 run_struct align=32 bits=80 ops=3 @0 members=1..4\n"
			    "1 u8 @1 off=0 size=8\n"
			    "2 s32le @2 off=32 size=32\n"
			    "3 u16be @3 off=64 size=16\n"
			    "4 end\n");
	assert_int_equal(sc->events[0]->payload_plan->n_values, 4);
	assert_int_equal(sc->events[0]->payload_plan->max_frames, 1);
	ctf_trace_class_free(tc);
}

static void test_position_known_after_strings(void **state)
{
	(void)state;
	/* the struct takes d's 32-bit alignment, checked once; after a string
	 * the position is a byte boundary: an 8-bit aligned field needs no
	 * alignment, a 32-bit aligned one does; bitfields join the run at any
	 * bit */
	ctf_trace_class *tc = parse_ok(
	    "/* CTF 1.8 */\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { string s; integer { size = 16; align = 8; } a;\n"
	    "  integer { size = 3; } b; integer { size = 13; } c; integer { size = 32; align = 32; "
	    "} d; string t; integer { size = 8; align = 8; encoding = UTF8; } txt[4]; }; };\n");
	assert_string_equal(dump(tc->streams[0]->events[0]->payload_plan),
			    "0 run_struct align=32 bits=0 ops=0 @0 members=1..8\n"
			    "1 string @1\n"
			    "2 run align=1 bits=32 ops=3\n"
			    "3 u16le @2 off=0 size=16\n"
			    "4 bits_le @3 off=16 size=3\n"
			    "5 bits_le @4 off=19 size=13\n"
			    "6 run align=32 bits=32 ops=1\n"
			    "7 u32le @5 off=0 size=32\n"
			    "8 string @6\n"
			    "9 run align=1 bits=32 ops=1\n"
			    "10 text_fixed @7 off=0 size=32\n"
			    "11 end\n");
	ctf_trace_class_free(tc);
}

static void test_frames_for_variants_and_compound_arrays(void **state)
{
	(void)state;
	/* LTTng's compact header: a variant with a frame per option (the
	 * compact option's struct has nothing to align: no run for it); an array
	 * of structs: a frame per element with its member slots; an array of
	 * plain integers: one instruction */
	ctf_trace_class *tc = parse_ok(
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "clock { name = c; };\n"
	    "stream { event.header := struct { enum : integer { size = 5; } { compact = 0 ... 30, "
	    "extended = 31 } id;\n"
	    "  variant <id> { struct { integer { size = 27; map = clock.c.value; } timestamp; } "
	    "compact;\n"
	    "  struct { integer { size = 32; align = 8; } id; integer { size = 64; align = 8; map "
	    "= "
	    "clock.c.value; } timestamp; } extended; } v; } align(8); };\n"
	    "event { name = e; id = 0; fields := struct { u8 n; struct { u8 k; u8 xs[k]; } "
	    "items[n]; u8 raw[3]; }; };\n");
	const ctf_stream_class *sc = tc->streams[0];
	assert_string_equal(dump(sc->event_header_plan),
			    "0 run_struct align=8 bits=5 ops=1 @0 members=1..3\n"
			    "1 int_special @1 off=0 size=5 meaning=11\n"
			    "2 variant @2 n=0 k=0 next=0 ref=up0:1\n"
			    "3 struct @0 members=1..2\n"
			    "4 run align=1 bits=27 ops=1\n"
			    "5 int_special @1 off=0 size=27 clock meaning=0\n"
			    "6 variant_end next=11\n"
			    "7 run_struct align=8 bits=96 ops=2 @0 members=1..3\n"
			    "8 int_special @1 off=0 size=32 meaning=11\n"
			    "9 u64le_special @2 off=32 size=64 clock meaning=0\n"
			    "10 variant_end next=11\n"
			    "11 end\n");
	assert_int_equal(sc->event_header_plan->max_frames, 2);
	/* items: the element struct's frame holds it and its 2 members; the
	 * sequence inside refers to k in that frame (up 0, slot 1) */
	assert_string_equal(dump(sc->events[0]->payload_plan),
			    "0 run_struct align=8 bits=8 ops=1 @0 members=1..4\n"
			    "1 u8 @1 off=0 size=8\n"
			    "2 seq @2 n=0 k=3 next=7 ref=up0:1\n"
			    "3 run_struct align=8 bits=8 ops=1 @0 members=1..3\n"
			    "4 u8 @1 off=0 size=8\n"
			    "5 int_seq @2 n=0 k=0 next=0 ref=up0:1\n"
			    "6 loop_end\n"
			    "7 int_array @3 n=3 k=0 next=0\n"
			    "8 end\n");
	ctf_trace_class_free(tc);
}

static void test_references_across_frames(void **state)
{
	(void)state;
	/* per element: a sequence sized by the element's own n, a variant
	 * tagged by the outer struct, a sequence sized by the outer struct */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "typealias integer { size = 16; align = 8; } := u16;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct {\n"
	    "  u8 outer_n;\n"
	    "  enum : u8 { A, B } sel;\n"
	    "  struct { u8 n; u16 vals[n]; variant <sel> { u8 A; string B; } v; u8 tail[outer_n]; "
	    "} items[2];\n"
	    "  string after;\n"
	    "}; };\n";
	const uint8_t bytes[] = {2, 1,   2,   0x34, 0x12, 0x78, 0x56, 'x', 0,   9, 8,
				 0, 'y', 'z', 0,    7,    6,    'e',  'n', 'd', 0};
	char out[1024];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_OK);
	assert_string_equal(out,
			    "e: { outer_n = 2, sel = ( \"B\" : container = 1 ), items = [ [0] = { "
			    "n = 2, vals = [ [0] = 4660, [1] = 22136 ], v = { \"x\" }, tail = [ "
			    "[0] = 9, [1] = 8 ] }, [1] = { n = 0, vals = [ ], v = { \"yz\" }, "
			    "tail = [ [0] = 7, [1] = 6 ] } ], after = \"end\" }\n");
}

static void test_variant_tags_by_table_and_range(void **state)
{
	(void)state;
	/* a signed tag: negative values and values past the table go through
	 * the ranges; a value no range holds is an error at the variant */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 16; align = 8; signed = true; } := s16;\n"
	    "trace { major = 1; minor = 8; byte_order = be; };\n"
	    "event { name = e; fields := struct {\n"
	    "  enum : s16 { NEG = -5 ... -1, SMALL = 3, BIG = 1000 ... 2000 } t;\n"
	    "  variant <t> { s16 NEG; string SMALL; struct { s16 a; s16 b; } BIG; } v;\n"
	    "}; };\n";
	const uint8_t bytes[] = {0xff, 0xfe, 0xff, 0x9c, 0,    3, 's', 0, 0x05,
				 0xdc, 0,    1,    0xff, 0xff, 0, 7,   0, 0};
	char out[1024];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_string_equal(out,
			    "e: { t = ( \"NEG\" : container = -2 ), v = { -100 } }\n"
			    "e: { t = ( \"SMALL\" : container = 3 ), v = { \"s\" } }\n"
			    "e: { t = ( \"BIG\" : container = 1500 ), v = { { a = 1, b = -1 } } "
			    "}\n");
	assert_int_equal(err.offset, 16);
	assert_string_equal(err.message,
			    "cannot decode event payload: no variant option for tag value 7");
}

static void test_failed_run_names_the_field(void **state)
{
	(void)state;
	/* one run covers a, b and c; the second event stops inside b: the
	 * error is b's, at b's offset, as a field-by-field decoder says */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "typealias integer { size = 32; align = 8; } := u32;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { u8 a; u32 b; integer { size = 16; align = 16; } "
	    "c; }; };\n";
	const uint8_t bytes[] = {1, 2, 0, 0, 0, 0, 3, 0, 4, 5, 0, 0};
	char out[256];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_string_equal(out, "e: { a = 1, b = 2, c = 3 }\n");
	assert_int_equal(err.offset, 9);
	assert_string_equal(err.message,
			    "cannot decode event payload: integer of 32 bits goes past the end of "
			    "the packet content (bit 72 of 96)");
}

static void test_failed_alignment_and_float(void **state)
{
	(void)state;
	char out[256];
	tk_error err;
	/* a struct aligned past the content end: the struct's error */
	static const char st[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { u8 a; struct { u8 x; } align(64) s; }; };\n";
	const uint8_t st_bytes[] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 3};
	assert_int_equal(render(st, st_bytes, sizeof st_bytes, out, sizeof out, &err),
			 TK_ERR_FORMAT);
	assert_string_equal(out, "e: { a = 1, s = { x = 2 } }\n");
	assert_int_equal(err.offset, 9);
	assert_string_equal(err.message, "cannot decode event payload: struct of 0 bits goes past "
					 "the end of the packet content (bit 72 of 80)");
	/* a float that aligns but does not fit: its offset is after the pad */
	static const char fl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { u8 a; floating_point { exp_dig = 11; mant_dig = "
	    "53; align = 64; } d; }; };\n";
	const uint8_t fl_bytes[] = {1, 0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				    0, 0xf0, 0x3f, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(render(fl, fl_bytes, sizeof fl_bytes, out, sizeof out, &err),
			 TK_ERR_FORMAT);
	assert_string_equal(out, "e: { a = 1, d = 1 }\n");
	assert_int_equal(err.offset, 24);
	assert_string_equal(err.message,
			    "cannot decode event payload: floating point number of 64 bits goes "
			    "past the end of the packet content (bit 192 of 208)");
}

static void test_reference_into_incomplete_struct(void **state)
{
	(void)state;
	/* an absolute path through a struct still being decoded: refused at
	 * the sequence, like the tree decoder did */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { struct { u8 n; u8 a[event.fields.s.n]; } s; }; "
	    "};\n";
	ctf_trace_class *tc = parse_ok(tsdl);
	assert_non_null(strstr(dump(tc->streams[0]->events[0]->payload_plan), "ref=unavailable"));
	ctf_trace_class_free(tc);
	const uint8_t bytes[] = {1, 5};
	char out[256];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 1);
	assert_string_equal(err.message, "cannot decode event payload: the field a length or tag "
					 "refers to is not available");
}

static void test_wide_bitfields(void **state)
{
	(void)state;
	/* 61- and 64-bit fields at odd bit positions (no 64-bit load holds
	 * them), a big-endian field among little-endian ones */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "event { name = e; fields := struct { integer { size = 3; } a; integer { size = 61; "
	    "signed = true; } b; integer { size = 7; byte_order = be; } c; integer { size = 64; } "
	    "d; }; };\n";
	uint8_t bytes[39];
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(i + 1);
	char out[512];
	tk_error err;
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_string_equal(out,
			    "e: { a = 1, b = 72304711969038400, c = 4, d = 1229499251294997258 }\n"
			    "e: { a = 2, b = 226027579249951330, c = 13, d = "
			    "2459282189542300699 }\n");
	assert_int_equal(err.offset, 34);
}

static void test_integer_arrays_all_widths(void **state)
{
	(void)state;
	/* arrays of plain integers are one instruction: whole-byte widths
	 * (24 and 40 bits too) in both byte orders, signed or not, and
	 * bitfield elements */
	static const char tsdl[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; } := u8;\n"
	    "trace { major = 1; minor = 8; byte_order = be; };\n"
	    "event { name = e; fields := struct {\n"
	    "  u8 n;\n"
	    "  integer { size = 24; align = 8; signed = true; } a[2];\n"
	    "  integer { size = 16; align = 8; signed = true; byte_order = le; } s[n];\n"
	    "  integer { size = 40; align = 8; base = 16; } w[1];\n"
	    "  integer { size = 8; align = 8; signed = true; } b[2];\n"
	    "  integer { size = 32; align = 8; signed = true; } c[1];\n"
	    "  integer { size = 4; align = 1; signed = true; } nib[3];\n"
	    "}; };\n";
	const uint8_t bytes[] = {2,    0xff, 0xff, 0xfe, 0x00, 0x01, 0x00, 0xfe,
				 0xff, 0x02, 0x00, 1,    2,    3,    4,    5,
				 0x80, 0x7f, 0xff, 0xff, 0xff, 0xf0, 0x9a, 0xb0};
	char out[512];
	tk_error err;
	/* the second event finds no byte for n */
	assert_int_equal(render(tsdl, bytes, sizeof bytes, out, sizeof out, &err), TK_ERR_FORMAT);
	assert_string_equal(out, "e: { n = 2, a = [ [0] = -2, [1] = 256 ], s = [ [0] = -2, [1] = 2 "
				 "], w = [ [0] = 0x102030405 ], b = [ [0] = -128, [1] = 127 ], c = "
				 "[ [0] = -16 ], nib = [ [0] = -7, [1] = -6, [2] = -5 ] }\n");
	assert_int_equal(err.offset, 24);
}

/* Lean plans (stats): root fields nothing refers to are dropped, a
 * length and a tag stay, strings are skipped, nested bodies are kept and
 * the jumps into and past them follow the instructions that moved. */
static const char lean_tsdl[] =
    "/* CTF 1.8 */\n"
    "trace { major = 1; minor = 8; byte_order = le; };\n"
    "clock { name = c; };\n"
    "stream { event.header := struct { integer { size = 64; align = 8; } id;\n"
    "  integer { size = 64; align = 8; map = clock.c.value; } timestamp; } align(8); };\n"
    "event { name = e; id = 0; fields := struct { string s; integer { size = 8; align = 8; } "
    "a;\n"
    "  integer { size = 8; align = 8; } len; integer { size = 16; align = 8; } seq[len];\n"
    "  enum : integer { size = 8; align = 8; } { X, Y } tag;\n"
    "  variant <tag> { integer { size = 8; align = 8; } X; string Y; } v;\n"
    "  integer { size = 32; align = 8; } b; }; };\n";

static void test_lean_plans_store_only_what_is_read(void **state)
{
	(void)state;
	ctf_trace_class *tc = parse_ok(lean_tsdl);
	const ctf_stream_class *sc = tc->streams[0];
	const ctf_plan *full = sc->events[0]->payload_plan;
	assert_null(tc->packet_header_plan ? tc->packet_header_plan->lean : NULL);
	assert_non_null(full->lean);
	assert_non_null(sc->event_header_plan->lean);
	char want[8192];
	snprintf(want, sizeof want, "%s", dump(full));
	assert_string_equal(want, "0 run_struct align=8 bits=0 ops=0 @0 members=1..8\n"
				  "1 string @1\n"
				  "2 run align=1 bits=16 ops=2\n"
				  "3 u8 @2 off=0 size=8\n"
				  "4 u8 @3 off=8 size=8\n"
				  "5 int_seq @4 n=0 k=0 next=0 ref=up0:3\n"
				  "6 run align=1 bits=8 ops=1\n"
				  "7 u8 @5 off=0 size=8\n"
				  "8 variant @6 n=0 k=0 next=0 ref=up0:5\n"
				  "9 run align=8 bits=8 ops=1\n"
				  "10 u8 @0 off=0 size=8\n"
				  "11 variant_end next=14\n"
				  "12 string @0\n"
				  "13 variant_end next=14\n"
				  "14 run align=8 bits=32 ops=1\n"
				  "15 u32le @7 off=0 size=32\n"
				  "16 end\n");
	assert_string_equal(dump(full->lean), "0 run align=8 bits=0 ops=0\n"
					      "1 string_skip @1 off=0 size=0\n"
					      "2 run align=1 bits=16 ops=2\n"
					      "3 u8 @3 off=8 size=8\n"
					      "4 int_seq @4 n=0 k=0 next=0 ref=up0:3\n"
					      "5 run align=1 bits=8 ops=1\n"
					      "6 u8 @5 off=0 size=8\n"
					      "7 variant @6 n=0 k=0 next=0 ref=up0:5\n"
					      "8 run align=8 bits=8 ops=1\n"
					      "9 u8 @0 off=0 size=8\n"
					      "10 variant_end next=13\n"
					      "11 string @0\n"
					      "12 variant_end next=13\n"
					      "13 run align=8 bits=32 ops=1\n"
					      "14 end\n");
	assert_int_equal(full->lean->ops[7].var->options[0].pc, 8);
	assert_int_equal(full->lean->ops[7].var->options[1].pc, 11);
	/* the header's id and timestamp have roles: both stay */
	assert_string_equal(dump(sc->event_header_plan->lean),
			    "0 run align=8 bits=128 ops=2\n"
			    "1 u64le_special @1 off=0 size=64 meaning=11\n"
			    "2 u64le_special @2 off=64 size=64 clock meaning=0\n"
			    "3 end\n");
	ctf_trace_class_free(tc);
}

/* events, times and offsets of a read, then its end */
static tk_status read_summary(const uint8_t *data, size_t size, bool lean, char *out, size_t cap,
			      tk_error *err)
{
	ctf_reader *r;
	tk_error_clear(err);
	tk_status st =
	    ctf_reader_open_memory(lean_tsdl, strlen(lean_tsdl), data, size, NULL, NULL, &r, err);
	assert_int_equal(st, TK_OK);
	r->lean = lean;
	const ctf_event_out *ev;
	size_t n = 0;
	out[0] = 0;
	while ((st = ctf_reader_next(r, &ev, err)) == TK_OK)
		n += (size_t)snprintf(out + n, cap - n, "%s %lld %llu\n", ev->ec->info.name,
				      (long long)ev->ns, (unsigned long long)ev->offset);
	ctf_reader_close(r);
	return st;
}

static void test_lean_read_equals_full_read(void **state)
{
	(void)state;
	/* two events (tag X, then tag Y), then the same stream cut short at
	 * every length: the lean read sees the same events and fails at the
	 * same place with the same message */
	uint8_t ev1[] = {0,   0,   0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
			 'h', 'i', 0, 9, 2, 1, 0, 2, 0, 0, 7, 1, 2, 3, 4};
	uint8_t ev2[] = {0, 0, 0, 0, 0, 0, 0,   0,   9, 0, 0, 0, 0, 0,
			 0, 0, 0, 9, 0, 1, 'y', 'o', 0, 4, 3, 2, 1};
	uint8_t data[sizeof ev1 + sizeof ev2];
	memcpy(data, ev1, sizeof ev1);
	memcpy(data + sizeof ev1, ev2, sizeof ev2);
	static char a[4096], b[4096];
	tk_error ea, eb;
	for (size_t cut = sizeof data; cut > 0; cut--) {
		tk_status sa = read_summary(data, cut, false, a, sizeof a, &ea);
		tk_status sb = read_summary(data, cut, true, b, sizeof b, &eb);
		assert_int_equal(sa, sb);
		assert_string_equal(a, b);
		assert_string_equal(ea.message, eb.message);
		assert_int_equal(ea.offset, eb.offset);
		if (cut == sizeof data) {
			assert_int_equal(sa, TK_END);
			assert_string_equal(a, "e 5 0\ne 9 31\n");
		} else if (cut == sizeof ev1) {
			assert_int_equal(sa, TK_END); /* a clean end after the first */
		} else {
			assert_int_equal(sa, TK_ERR_FORMAT);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixed_fields_form_one_run),
	    cmocka_unit_test(test_lean_plans_store_only_what_is_read),
	    cmocka_unit_test(test_lean_read_equals_full_read),
	    cmocka_unit_test(test_position_known_after_strings),
	    cmocka_unit_test(test_frames_for_variants_and_compound_arrays),
	    cmocka_unit_test(test_references_across_frames),
	    cmocka_unit_test(test_variant_tags_by_table_and_range),
	    cmocka_unit_test(test_failed_run_names_the_field),
	    cmocka_unit_test(test_failed_alignment_and_float),
	    cmocka_unit_test(test_reference_into_incomplete_struct),
	    cmocka_unit_test(test_wide_bitfields),
	    cmocka_unit_test(test_integer_arrays_all_widths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
