/* Unit tests for HEADER_TRACING_DATA parsing (tk_perf_tracing_*), tracepoint
 * RAW decoding (tk_perf_tp_decode) and print-fmt rendering
 * (tk_perf_tp_render):
 * - a synthetic tracing section in both byte orders with every kind of
 *   field (fixed/char arrays, __data_loc, __rel_loc, pointers, signed
 *   ints, untypable structs), decoded value by value;
 * - must-reject inputs, each asserting the status and the byte offset,
 *   and every truncation of a valid section;
 * - the tracing sections of the perf files in $TK_TESTDATA/perf, found
 *   with a small local header walk (not the perf reader);
 * - the view perf's CTF converter gives of a format (perf_tp_view.c):
 *   types, names and values, checked field by field;
 * - a fresh `perf record -e sched:sched_switch` when perf works here,
 *   decoded and rendered sample by sample and compared with
 *   `perf script -F trace`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "perf/perf_tp_view.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

/* ---------------------------------------------------------------------
 * A little builder for synthetic tracing sections and payloads. */

typedef struct buf {
	uint8_t data[8192];
	size_t n;
	bool swap; /* write in the other byte order than the host's */
} buf;

static void put(buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof b->data);
	memcpy(b->data + b->n, p, n);
	b->n += n;
}

static void put_u8(buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_u16(buf *b, uint16_t v)
{
	tk_store_u16(b->data + b->n, v, b->swap);
	b->n += 2;
}

static void put_u32(buf *b, uint32_t v)
{
	assert_true(b->n + 4 <= sizeof b->data);
	tk_store_u32(b->data + b->n, v, b->swap);
	b->n += 4;
}

static void put_u64(buf *b, uint64_t v)
{
	assert_true(b->n + 8 <= sizeof b->data);
	tk_store_u64(b->data + b->n, v, b->swap);
	b->n += 8;
}

static void put_cstr(buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

static void put_text64(buf *b, const char *s)
{
	put_u64(b, strlen(s));
	put(b, s, strlen(s));
}

static const char synth_format[] =
    "name: synth\n"
    "ID: 42\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
    "\tfield:__rel_loc char[] rel;\toffset:28;\tsize:4;\tsigned:0;\n"
    "\tfield:s16 delta;\toffset:32;\tsize:2;\tsigned:1;\n"
    "\tfield:u8 mac[6];\toffset:34;\tsize:6;\tsigned:0;\n"
    "\tfield:void * ptr;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:__data_loc u32[] vals;\toffset:48;\tsize:4;\tsigned:0;\n"
    "\tfield:long long big;\toffset:56;\tsize:8;\tsigned:1;\n"
    "\tfield:struct foo blob;\toffset:64;\tsize:12;\tsigned:0;\n"
    "\n"
    "print fmt: \"comm=%s name=%s rel=%s delta=%d\", REC->comm, __get_str(name), "
    "__get_rel_str(rel), REC->delta\n";

/* Old-style ftrace format ("field special:", no signed:) */
static const char ftrace_format[] =
    "name: function\n"
    "ID: 1\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\n"
    "\n"
    "\tfield special:unsigned long ip;\toffset:8;\tsize:8;\n"
    "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\n"
    "\n"
    "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

typedef struct synth_layout {
	size_t formats_end; /* end of the event systems: the shortest valid prefix */
	size_t ftrace_count_at, system_count_at, synth_text_at;
} synth_layout;

static void build_tracing(buf *b, bool big_endian, synth_layout *lay)
{
	memset(b, 0, sizeof *b);
	b->swap = big_endian == tk_host_is_le();
	put(b, "\x17\x08\x44tracing", 10);
	put_cstr(b, "0.6");
	put_u8(b, big_endian);
	put_u8(b, 8);
	put_u32(b, 4096);
	put_cstr(b, "header_page");
	put_text64(b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n");
	put_cstr(b, "header_event");
	put_text64(b, "# compressed entry header\n");
	lay->ftrace_count_at = b->n;
	put_u32(b, 1);
	put_text64(b, ftrace_format);
	lay->system_count_at = b->n;
	put_u32(b, 1);
	put_cstr(b, "synthsys");
	put_u32(b, 1);
	put_u64(b, strlen(synth_format));
	lay->synth_text_at = b->n;
	put(b, synth_format, strlen(synth_format));
	lay->formats_end = b->n;
	static const char kallsyms[] = "ffffffff81000000 T _stext\n";
	put_u32(b, (uint32_t)strlen(kallsyms));
	put(b, kallsyms, strlen(kallsyms));
	static const char printk[] = "0xffffffff81234567 : \"hello %d\\n\"\n";
	put_u32(b, (uint32_t)strlen(printk));
	put(b, printk, strlen(printk));
	put_text64(b, "1234 synth-task\n42 other\n");
}

/* A payload of the synth event, in the same byte order. */
static void build_raw(buf *r, bool swap)
{
	memset(r, 0, sizeof *r);
	r->swap = swap;
	put_u16(r, 42);                         /* common_type */
	put_u8(r, 1);                           /* common_flags */
	put_u8(r, 2);                           /* common_preempt_count */
	put_u32(r, (uint32_t)-5);               /* common_pid */
	put(r, "abc\0garbage-xyz", 16);         /* comm */
	put_u32(r, 6u << 16 | 76);              /* name: "hello\0" at 76 */
	put_u32(r, 4u << 16 | 50);              /* rel: 32 + 50 = 82 */
	put_u16(r, (uint16_t)-2);               /* delta */
	put(r, "\x01\x02\x03\x04\x05\x06", 6);  /* mac */
	put_u64(r, 0xffff8880deadbeefULL);      /* ptr */
	put_u32(r, 12u << 16 | 86);             /* vals */
	put_u32(r, 0);                          /* padding */
	put_u64(r, (uint64_t)-1234567890123LL); /* big */
	put(r, "BLOBBLOBBLOB", 12);
	assert_int_equal(r->n, 76);
	put(r, "hello", 6);
	put(r, "rel", 4);
	put_u32(r, 1);
	put_u32(r, 2);
	put_u32(r, 0xffffffffu);
	assert_int_equal(r->n, 98);
}

static const tk_perf_tp_field *field_named(const tk_perf_tp_format *f, const char *name,
					   size_t *index)
{
	for (size_t i = 0; i < f->n_fields; i++) {
		if (strcmp(f->fields[i].name, name) == 0) {
			if (index)
				*index = i;
			return &f->fields[i];
		}
	}
	return NULL;
}

static void expect_str(const tk_value *v, const char *want)
{
	assert_int_equal(v->cls->kind, TK_TYPE_STRING);
	assert_int_equal(v->v.str.len, strlen(want));
	assert_memory_equal(v->v.str.ptr, want, strlen(want));
}

static void check_synth(bool big_endian)
{
	buf b;
	synth_layout lay;
	build_tracing(&b, big_endian, &lay);
	tk_perf_tracing *tr;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_tracing_parse(b.data, b.n, 1000, &tr, &err), TK_OK);
	assert_int_equal(tk_perf_tracing_big_endian(tr), big_endian);
	assert_int_equal(tk_perf_tracing_long_size(tr), 8);
	assert_int_equal(tk_perf_tracing_count(tr), 2);
	size_t len;
	assert_string_equal(tk_perf_tracing_kallsyms(tr, &len), "ffffffff81000000 T _stext\n");
	assert_int_equal(len, 26);
	assert_non_null(strstr(tk_perf_tracing_printk(tr, &len), "hello %d"));
	assert_string_equal(tk_perf_tracing_cmdlines(tr, &len), "1234 synth-task\n42 other\n");

	const tk_perf_tp_format *ft = tk_perf_tracing_format_at(tr, 0);
	assert_string_equal(ft->system, "ftrace");
	assert_string_equal(ft->name, "function");
	assert_int_equal(ft->n_fields, 4);
	assert_int_equal(ft->n_common, 2);
	assert_string_equal(ft->fields[2].name, "ip"); /* "field special:" */
	assert_false(ft->fields[2].is_signed);         /* no signed: given */
	assert_ptr_equal(tk_perf_tracing_format(tr, 1), ft);
	assert_null(tk_perf_tracing_format(tr, 7));
	assert_null(tk_perf_tracing_format_at(tr, 2));

	const tk_perf_tp_format *f = tk_perf_tracing_format(tr, 42);
	assert_non_null(f);
	assert_string_equal(f->system, "synthsys");
	assert_string_equal(f->name, "synth");
	assert_int_equal(f->n_fields, 13);
	assert_int_equal(f->n_common, 4);
	assert_int_equal(f->text_len, strlen(synth_format));
	assert_memory_equal(f->text, synth_format, f->text_len);
	assert_string_equal(f->print_fmt, "\"comm=%s name=%s rel=%s delta=%d\", REC->comm, "
					  "__get_str(name), __get_rel_str(rel), REC->delta");
	for (size_t i = 0; i < f->n_fields; i++)
		assert_int_equal(f->fields[i].is_common, i < 4);

	const tk_perf_tp_field *fd = field_named(f, "comm", NULL);
	assert_string_equal(fd->type, "char comm[TASK_COMM_LEN]");
	assert_true(fd->is_array && fd->is_string);
	assert_int_equal(fd->array_len, 16);
	assert_int_equal(fd->elem_size, 1);
	fd = field_named(f, "name", NULL);
	assert_true(fd->is_data_loc && fd->is_string && !fd->is_dynamic);
	fd = field_named(f, "rel", NULL);
	assert_true(fd->is_data_loc && fd->is_dynamic && fd->is_string);
	fd = field_named(f, "mac", NULL);
	assert_true(fd->is_array && !fd->is_string);
	assert_int_equal(fd->array_len, 6);
	fd = field_named(f, "ptr", NULL);
	assert_true(fd->is_pointer);
	fd = field_named(f, "vals", NULL);
	assert_true(fd->is_data_loc && !fd->is_string);
	assert_int_equal(fd->elem_size, 4);
	fd = field_named(f, "delta", NULL);
	assert_true(fd->is_signed);

	/* the model class of the payload: the 9 non-common fields */
	const tk_field_class *pc = f->payload;
	assert_int_equal(pc->kind, TK_TYPE_STRUCT);
	assert_int_equal(pc->n_members, 9);
	static const struct {
		const char *name;
		tk_type_kind kind;
	} members[] = {
	    {"comm", TK_TYPE_STRING},   {"name", TK_TYPE_STRING}, {"rel", TK_TYPE_STRING},
	    {"delta", TK_TYPE_INT},     {"mac", TK_TYPE_ARRAY},   {"ptr", TK_TYPE_INT},
	    {"vals", TK_TYPE_SEQUENCE}, {"big", TK_TYPE_INT},     {"blob", TK_TYPE_BYTES}};
	for (size_t i = 0; i < 9; i++) {
		assert_string_equal(pc->members[i].name, members[i].name);
		assert_int_equal(pc->members[i].cls->kind, members[i].kind);
	}
	assert_int_equal(pc->members[3].cls->bits, 16);
	assert_true(pc->members[3].cls->is_signed);
	assert_int_equal(pc->members[3].cls->base, 10);
	assert_int_equal(pc->members[5].cls->base, 16);
	assert_false(pc->members[5].cls->is_signed);
	assert_int_equal(pc->members[4].cls->length, 6);
	assert_int_equal(pc->members[4].cls->element->bits, 8);
	assert_int_equal(pc->members[6].cls->element->bits, 32);

	/* decode */
	buf r;
	build_raw(&r, b.swap);
	tk_arena arena;
	tk_arena_init(&arena, 0);
	tk_value v[13];
	assert_int_equal(tk_perf_tp_decode(tr, f, r.data, (uint32_t)r.n, &arena, v, &err), TK_OK);
	assert_int_equal(v[0].v.u, 42);
	assert_int_equal(v[1].v.u, 1);
	assert_int_equal(v[2].v.u, 2);
	assert_int_equal(v[3].v.i, -5);
	expect_str(&v[4], "abc");
	assert_ptr_equal(v[4].v.str.ptr, r.data + 8); /* zero-copy */
	expect_str(&v[5], "hello");
	expect_str(&v[6], "rel");
	assert_int_equal(v[7].v.i, -2);
	assert_int_equal(v[8].v.list.n, 6);
	for (unsigned k = 0; k < 6; k++)
		assert_int_equal(v[8].v.list.items[k].v.u, k + 1);
	assert_true(v[9].v.u == 0xffff8880deadbeefULL);
	assert_int_equal(v[10].v.list.n, 3);
	assert_int_equal(v[10].v.list.items[0].v.u, 1);
	assert_int_equal(v[10].v.list.items[2].v.u, 0xffffffffu);
	assert_true(v[11].v.i == -1234567890123LL);
	assert_int_equal(v[12].cls->kind, TK_TYPE_BYTES);
	assert_int_equal(v[12].v.str.len, 12);
	for (size_t i = 0; i < 9; i++)
		assert_ptr_equal(v[4 + i].cls, pc->members[i].cls);

	/* a __data_loc past the end: an error at the field, never a read */
	buf bad = r;
	tk_store_u32(bad.data + 24, 200u << 16 | 76, b.swap);
	assert_int_equal(tk_perf_tp_decode(tr, f, bad.data, (uint32_t)bad.n, &arena, v, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 24);
	assert_non_null(strstr(err.message, "name"));
	/* __rel_loc counts from the field's end: 50 + 32 + 4 > 98 */
	bad = r;
	tk_store_u32(bad.data + 28, 20u << 16 | 62, b.swap);
	assert_int_equal(tk_perf_tp_decode(tr, f, bad.data, (uint32_t)bad.n, &arena, v, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 28);
	/* payload shorter than the fixed fields */
	assert_int_equal(tk_perf_tp_decode(tr, f, r.data, 70, &arena, v, &err), TK_ERR_TRUNCATED);
	/* a format of another tracing section is refused */
	assert_int_equal(tk_perf_tp_decode(tr, NULL, r.data, 70, &arena, v, &err), TK_ERR_USAGE);
	/* string without NUL stops at its bound */
	bad = r;
	memcpy(bad.data + 8, "0123456789abcdef", 16);
	assert_int_equal(tk_perf_tp_decode(tr, f, bad.data, (uint32_t)bad.n, &arena, v, &err),
			 TK_OK);
	expect_str(&v[4], "0123456789abcdef");

#ifdef TK_HAVE_TRACEEVENT
	char text[256];
	size_t tlen;
	assert_int_equal(
	    tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, sizeof text, &tlen, &err),
	    TK_OK);
	/* libtraceevent reads a short field zero-extended before %d: -2
	 * shows as 65534; we render what it renders */
	assert_string_equal(text, "comm=abc name=hello rel=rel delta=65534");
	assert_int_equal(tlen, strlen(text));
	/* truncation reports the full length, like snprintf */
	assert_int_equal(tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, 5, &tlen, &err),
			 TK_OK);
	assert_string_equal(text, "comm");
	assert_int_equal(tlen, 39);
	/* bounds are checked before libtraceevent sees the payload */
	bad = r;
	tk_store_u32(bad.data + 24, 200u << 16 | 76, b.swap);
	assert_int_equal(
	    tk_perf_tp_render(tr, f, bad.data, (uint32_t)bad.n, 0, text, sizeof text, &tlen, &err),
	    TK_ERR_FORMAT);
	/* a __data_loc string without its NUL, ending the payload: the text
	 * stops at the payload's end (libtraceevent itself would read on) */
	{
		buf cut = r;
		tk_store_u32(cut.data + 48, 0u << 16 | 81, b.swap); /* vals: empty */
		tk_store_u32(cut.data + 28, 0u << 16 | 49, b.swap); /* rel: empty at 81 */
		tk_store_u32(cut.data + 24, 5u << 16 | 76, b.swap); /* "hello", no NUL */
		uint8_t *exact = malloc(81);
		memcpy(exact, cut.data, 81);
		assert_int_equal(
		    tk_perf_tp_render(tr, f, exact, 81, 0, text, sizeof text, &tlen, &err), TK_OK);
		assert_string_equal(text, "comm=abc name=hello rel= delta=65534");
		free(exact);
	}
	/* payload of another event */
	bad = r;
	tk_store_u16(bad.data, 1, b.swap);
	assert_int_equal(
	    tk_perf_tp_render(tr, f, bad.data, (uint32_t)bad.n, 0, text, sizeof text, &tlen, &err),
	    TK_ERR_FORMAT);
#endif
	tk_arena_free(&arena);
	tk_perf_tracing_free(tr);
}

static void test_synth_little_endian(void **state)
{
	(void)state;
	check_synth(false);
}

static void test_synth_big_endian(void **state)
{
	(void)state;
	check_synth(true);
}

/* ---------------------------------------------------------------------
 * perf's CTF view of a tracepoint (perf_tp_view.c). */

static void expect_int_class(const tk_field_class *c, unsigned bits, bool is_signed, unsigned base)
{
	assert_int_equal(c->kind, TK_TYPE_INT);
	assert_int_equal(c->bits, bits);
	assert_int_equal(c->is_signed, is_signed);
	assert_int_equal(c->base, base);
}

/* The synth format through the view: every field, common ones first, with
 * perf's 32/64-bit types; u8 mac[6] is a string for libtraceevent, so for
 * perf, with its bytes escaped; an untypable struct reads as 0. */
static void test_ctf_view_synth(void **state)
{
	(void)state;
	buf b;
	synth_layout lay;
	build_tracing(&b, false, &lay);
	tk_perf_tracing *tr;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_tracing_parse(b.data, b.n, 0, &tr, &err), TK_OK);
	const tk_perf_tp_format *f = tk_perf_tracing_format(tr, 42);
	assert_non_null(f);
	tk_arena arena;
	tk_arena_init(&arena, 0);
	/* "delta" is taken by a member before the tracepoint's: perf renames */
	const tk_member taken[] = {{"perf_ip", NULL}, {"delta", NULL}};
	tp_view *v = perf_tp_view_build(&arena, f, taken, 2);
	assert_non_null(v);
	assert_int_equal(v->n, 13);
	static const char *const names[] = {"common_type", "common_flags", "common_preempt_count",
					    "common_pid",  "comm",         "name",
					    "rel",         "delta_dupl_1", "mac",
					    "ptr",         "vals",         "big",
					    "blob"};
	for (size_t i = 0; i < 13; i++)
		assert_string_equal(v->members[i].name, names[i]);
	const tk_member *m = v->members;
	expect_int_class(m[0].cls, 32, false, 10);
	expect_int_class(m[1].cls, 32, false, 10);
	expect_int_class(m[2].cls, 32, false, 10);
	expect_int_class(m[3].cls, 32, true, 10);
	for (size_t i = 4; i <= 6; i++)
		assert_int_equal(m[i].cls->kind, TK_TYPE_STRING);
	expect_int_class(m[7].cls, 32, true, 10);
	assert_int_equal(m[8].cls->kind, TK_TYPE_STRING);
	expect_int_class(m[9].cls, 64, false, 16);
	assert_int_equal(m[10].cls->kind, TK_TYPE_SEQUENCE);
	expect_int_class(m[10].cls->element, 32, false, 10);
	expect_int_class(m[11].cls, 64, true, 10); /* long long, signed */
	expect_int_class(m[12].cls, 32, false, 10);

	buf r;
	build_raw(&r, b.swap);
	tk_value dec[13], out[13];
	assert_int_equal(tk_perf_tp_decode(tr, f, r.data, (uint32_t)r.n, &arena, dec, &err), TK_OK);
	assert_true(perf_tp_view_values(v, dec, r.data, (uint32_t)r.n, &arena, out));
	for (size_t i = 0; i < 13; i++)
		assert_ptr_equal(out[i].cls, m[i].cls);
	assert_int_equal(out[0].v.u, 42);
	assert_int_equal(out[3].v.i, -5);
	expect_str(&out[4], "abc");
	assert_ptr_equal(out[4].v.str.ptr, r.data + 8); /* nothing to escape: zero-copy */
	expect_str(&out[5], "hello");
	expect_str(&out[6], "rel");
	assert_int_equal(out[7].v.i, -2);
	/* no NUL in mac: perf's C string runs on into ptr (0xffff8880deadbeef,
	 * little-endian here) and the vals word (0x000c0056: 'V', then NUL) */
	expect_str(&out[8], "\\x01\\x02\\x03\\x04\\x05\\x06\xef\xbe\xad\xde\\x80\\x88\xff\xff"
			    "V");
	assert_true(out[9].v.u == 0xffff8880deadbeefULL);
	assert_int_equal(out[10].v.list.n, 3);
	assert_int_equal(out[10].v.list.items[2].v.u, 0xffffffffu);
	assert_true(out[11].v.i == -1234567890123LL);
	assert_int_equal(out[12].v.u, 0);

	/* a payload that did not decode: zeros and empty strings */
	assert_true(perf_tp_view_values(v, NULL, r.data, (uint32_t)r.n, &arena, out));
	assert_int_equal(out[0].v.u, 0);
	expect_str(&out[4], "");
	expect_str(&out[8], "");
	assert_int_equal(out[10].v.list.n, 0);
	tk_arena_free(&arena);
	tk_perf_tracing_free(tr);
}

/* Names and array types from hand-made fields: reserved words keep their
 * name (perf writes "_event", babeltrace2 shows "event"), a leading '_'
 * goes (perf's "__syscall_nr" shows as "_syscall_nr"), clashes take
 * _dupl_N; unsigned long arrays are hex u64 elements, unsigned char arrays
 * strings, uint8_t arrays ints ("u8" is not in "uint8_t"), and an int
 * array's elements take the type of the whole field's size, as in
 * get_tracepoint_field_type(). */
static void test_ctf_view_names_and_arrays(void **state)
{
	(void)state;
	static const tk_perf_tp_field fields[] = {
	    {.name = "event", .type = "int event", .size = 4, .is_signed = true},
	    {.name = "__syscall_nr", .type = "int __syscall_nr", .size = 4, .is_signed = true},
	    {.name = "_x", .type = "unsigned int _x", .size = 4},
	    {.name = "perf_ip", .type = "unsigned long perf_ip", .size = 8},
	    {.name = "args",
	     .type = "unsigned long args[6]",
	     .size = 48,
	     .is_array = true,
	     .array_len = 6,
	     .elem_size = 8},
	    {.name = "buf",
	     .type = "unsigned char buf[4]",
	     .size = 4,
	     .is_array = true,
	     .array_len = 4,
	     .elem_size = 1},
	    {.name = "raw",
	     .type = "uint8_t raw[4]",
	     .size = 4,
	     .is_array = true,
	     .array_len = 4,
	     .elem_size = 1},
	    {.name = "arr",
	     .type = "int arr[2]",
	     .size = 8,
	     .is_signed = true,
	     .is_array = true,
	     .array_len = 2,
	     .elem_size = 4},
	    {.name = "longest", .type = "int longest", .size = 4}, /* "long" only in the name */
	};
	tk_perf_tp_format f = {.name = "hand", .fields = fields, .n_fields = 9};
	tk_arena arena;
	tk_arena_init(&arena, 0);
	const tk_member taken[] = {{"perf_ip", NULL}};
	tp_view *v = perf_tp_view_build(&arena, &f, taken, 1);
	assert_non_null(v);
	static const char *const names[] = {"event", "_syscall_nr", "x",   "perf_ip_dupl_1", "args",
					    "buf",   "raw",         "arr", "longest"};
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(v->members[i].name, names[i]);
	expect_int_class(v->members[3].cls, 64, false, 16);
	const tk_field_class *args = v->members[4].cls;
	assert_int_equal(args->kind, TK_TYPE_ARRAY);
	assert_int_equal(args->length, 6);
	expect_int_class(args->element, 64, false, 16);
	assert_int_equal(v->members[5].cls->kind, TK_TYPE_STRING);
	assert_int_equal(v->members[6].cls->kind, TK_TYPE_ARRAY);
	expect_int_class(v->members[6].cls->element, 32, false, 10);
	/* perf types elements by the whole field's size: 8 bytes, s64 */
	expect_int_class(v->members[7].cls->element, 64, true, 10);
	expect_int_class(v->members[8].cls, 32, false, 10);

	/* values from decoder-shaped input: an int array read as bytes */
	tk_field_class u8c = {.kind = TK_TYPE_INT, .bits = 8, .base = 10};
	tk_field_class u8arr = {.kind = TK_TYPE_ARRAY, .element = &u8c, .length = 4};
	tk_field_class s32c = {.kind = TK_TYPE_INT, .bits = 32, .is_signed = true, .base = 10};
	tk_field_class s32arr = {.kind = TK_TYPE_ARRAY, .element = &s32c, .length = 2};
	tk_field_class u64c = {.kind = TK_TYPE_INT, .bits = 64, .base = 10};
	tk_field_class u64arr = {.kind = TK_TYPE_ARRAY, .element = &u64c, .length = 6};
	tk_value bytes[4] = {
	    {&u8c, {.u = 'o'}}, {&u8c, {.u = 'k'}}, {&u8c, {.u = 0}}, {&u8c, {.u = 'z'}}};
	tk_value ints[2] = {{&s32c, {.i = -7}}, {&s32c, {.i = 9}}};
	tk_value six[6] = {{&u64c, {.u = 1}}, {&u64c, {.u = 0x7ffd0000}}};
	for (size_t k = 2; k < 6; k++)
		six[k] = (tk_value){&u64c, {.u = 0}};
	tk_value dec[9] = {0};
	for (size_t i = 0; i < 4; i++)
		dec[i] = (tk_value){&s32c, {.i = -1}};
	dec[4] = (tk_value){&u64arr, {.list = {six, 6, 0}}};
	dec[5] = (tk_value){&u8arr, {.list = {bytes, 4, 0}}};
	dec[6] = (tk_value){&u8arr, {.list = {bytes, 4, 0}}};
	dec[7] = (tk_value){&s32arr, {.list = {ints, 2, 0}}};
	dec[8] = (tk_value){&s32c, {.i = -1}};
	tk_value out[9];
	assert_true(perf_tp_view_values(v, dec, NULL, 0, &arena, out));
	assert_int_equal(out[0].v.i, -1);
	assert_int_equal(out[2].v.u, 0xffffffffu); /* unsigned int: -1 as perf reads it */
	assert_int_equal(out[4].v.list.n, 6);
	assert_int_equal(out[4].v.list.items[1].v.u, 0x7ffd0000);
	expect_str(&out[5], "ok");
	assert_int_equal(out[6].v.list.n, 4);
	assert_int_equal(out[6].v.list.items[3].v.u, 'z');
	assert_int_equal(out[7].v.list.items[0].v.i, -7);
	assert_int_equal(out[8].v.u, 0xffffffffu);
	tk_arena_free(&arena);
}

/* perf's string_set_value() with the kernel's ctype: C0 controls, DEL and
 * C1 controls become \xNN; Latin-1 and UTF-8 lead bytes stay. */
static void test_ctf_escape(void **state)
{
	(void)state;
	tk_arena arena;
	tk_arena_init(&arena, 0);
	size_t n;
	const char plain[] = "plain text ~";
	assert_ptr_equal(perf_ctf_escape(plain, strlen(plain), &arena, &n), plain);
	assert_int_equal(n, strlen(plain));
	const char in[] = "a\x01"
			  "b\xc3\xa9\x85\x7f\x1f\xa0";
	const char *o = perf_ctf_escape(in, strlen(in), &arena, &n);
	const char want[] = "a\\x01"
			    "b\xc3\xa9\\x85\\x7f\\x1f\xa0";
	assert_int_equal(n, strlen(want));
	assert_memory_equal(o, want, n);
	tk_arena_free(&arena);
}

/* A tracing section holding one format of one system. */
static void build_single_long(buf *b, bool big_endian, uint8_t long_size, const char *system,
			      const char *format)
{
	memset(b, 0, sizeof *b);
	b->swap = big_endian == tk_host_is_le();
	put(b, "\x17\x08\x44tracing", 10);
	put_cstr(b, "0.6");
	put_u8(b, big_endian);
	put_u8(b, long_size);
	put_u32(b, 4096);
	put_cstr(b, "header_page");
	put_text64(b, "");
	put_cstr(b, "header_event");
	put_text64(b, "");
	put_u32(b, 0);
	put_u32(b, 1);
	put_cstr(b, system);
	put_u32(b, 1);
	put_text64(b, format);
	put_u32(b, 0);
	put_u32(b, 0);
	put_u64(b, 0);
}

static void build_single(buf *b, bool big_endian, const char *system, const char *format)
{
	build_single_long(b, big_endian, 8, system, format);
}

/* A 32-bit big-endian recording (long = 4): dynamic arrays of longs and
 * pointers take the file's long size, not the host's. */
static void test_long_size_4(void **state)
{
	(void)state;
	static const char format[] =
	    "name: ips\nID: 9\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	    "\tfield:__data_loc unsigned long[] ips;\toffset:4;\tsize:4;\tsigned:0;\n"
	    "\tfield:const char * msg;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:long delta;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"delta=%ld\", REC->delta\n";
	buf b, r;
	build_single_long(&b, true, 4, "test", format);
	tk_perf_tracing *tr;
	tk_error err;
	assert_int_equal(tk_perf_tracing_parse(b.data, b.n, 0, &tr, &err), TK_OK);
	assert_true(tk_perf_tracing_big_endian(tr));
	assert_int_equal(tk_perf_tracing_long_size(tr), 4);
	const tk_perf_tp_format *f = tk_perf_tracing_format(tr, 9);
	assert_non_null(f);
	assert_int_equal(f->n_common, 1);
	assert_int_equal(f->fields[1].elem_size, 4);
	assert_true(f->fields[2].is_pointer);
	memset(&r, 0, sizeof r);
	r.swap = b.swap;
	put_u16(&r, 9);
	put_u16(&r, 0);
	put_u32(&r, 8u << 16 | 16); /* two longs at 16 */
	put_u32(&r, 0xc0001000u);
	put_u32(&r, (uint32_t)-3);
	put_u32(&r, 0xc0100000u);
	put_u32(&r, 0xc0200000u);
	tk_value v[4];
	tk_arena arena;
	tk_arena_init(&arena, 0);
	assert_int_equal(tk_perf_tp_decode(tr, f, r.data, (uint32_t)r.n, &arena, v, &err), TK_OK);
	assert_int_equal(v[1].cls->kind, TK_TYPE_SEQUENCE);
	assert_int_equal(v[1].v.list.n, 2);
	assert_int_equal(v[1].v.list.items[1].v.u, 0xc0200000u);
	assert_int_equal(v[2].v.u, 0xc0001000u);
	assert_int_equal(v[2].cls->base, 16);
	assert_int_equal(v[3].v.i, -3);
#ifdef TK_HAVE_TRACEEVENT
	char text[64];
	assert_int_equal(
	    tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, sizeof text, NULL, &err),
	    TK_OK);
	/* libtraceevent reads the 4-byte field zero-extended and prints it
	 * with the host's %ld; we render what it renders */
	assert_string_equal(text, "delta=4294967293");
#endif
	tk_arena_free(&arena);
	tk_perf_tracing_free(tr);
}

static const char *fake_ksym(void *user, uint64_t addr, uint64_t *start)
{
	(void)user;
	if (addr < 0xffffffff81000000ULL || addr >= 0xffffffff81001000ULL)
		return NULL;
	*start = 0xffffffff81000000ULL;
	return "my_func";
}

/* %pS / %ps go through the caller's kernel symbol resolver, as perf's
 * own; unknown addresses (and no resolver) print as hex. */
static void test_render_kernel_symbols(void **state)
{
	(void)state;
#ifdef TK_HAVE_TRACEEVENT
	static const char format[] =
	    "name: ptrs\nID: 7\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:void * fn;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	    "print fmt: \"fn=%pS f=%ps\", REC->fn, REC->fn\n";
	buf b, r;
	build_single(&b, false, "test", format);
	tk_perf_tracing *tr;
	tk_error err;
	assert_int_equal(tk_perf_tracing_parse(b.data, b.n, 0, &tr, &err), TK_OK);
	const tk_perf_tp_format *f = tk_perf_tracing_format(tr, 7);
	assert_non_null(f);
	memset(&r, 0, sizeof r);
	r.swap = b.swap;
	put_u16(&r, 7);
	put_u16(&r, 0);
	put_u32(&r, 1);
	put_u64(&r, 0xffffffff81000010ULL);
	char text[128];
	size_t len;
	assert_int_equal(
	    tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, sizeof text, &len, &err),
	    TK_OK);
	assert_string_equal(text, "fn=0xffffffff81000010 f=0xffffffff81000010");
	/* set after the renderer exists: applies to the next render */
	tk_perf_tracing_set_ksym_resolver(tr, fake_ksym, NULL);
	assert_int_equal(
	    tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, sizeof text, &len, &err),
	    TK_OK);
	assert_string_equal(text, "fn=my_func+0x10 f=my_func");
	tk_store_u64(r.data + 8, 0x1234, r.swap); /* the resolver does not know it */
	assert_int_equal(
	    tk_perf_tp_render(tr, f, r.data, (uint32_t)r.n, 0, text, sizeof text, &len, &err),
	    TK_OK);
	assert_string_equal(text, "fn=0x1234 f=0x1234");
	tk_perf_tracing_free(tr);
#else
	skip();
#endif
}

/* Every prefix shorter than the event systems' end fails cleanly with an
 * offset inside the input; longer prefixes (trailing sections cut) parse. */
static void test_truncations(void **state)
{
	(void)state;
	buf b;
	synth_layout lay;
	build_tracing(&b, false, &lay);
	for (size_t n = 0; n < b.n; n++) {
		uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees overreads */
		memcpy(copy, b.data, n);
		tk_perf_tracing *tr = NULL;
		tk_error err;
		tk_error_clear(&err);
		tk_status st = tk_perf_tracing_parse(copy, n, 500, &tr, &err);
		if (n < lay.formats_end) {
			assert_true(st == TK_ERR_TRUNCATED || st == TK_ERR_FORMAT);
			assert_null(tr);
			assert_true(err.offset >= 500 && err.offset <= 500 + n);
			assert_true(err.message[0] != '\0');
		} else if (st == TK_OK) {
			assert_int_equal(tk_perf_tracing_count(tr), 2);
		} else {
			/* a trailing section's size word present, its text cut */
			assert_int_equal(st, TK_ERR_TRUNCATED);
		}
		tk_perf_tracing_free(tr);
		free(copy);
	}
}

static tk_status parse_modified(const buf *b, size_t at, const void *bytes, size_t n, tk_error *err)
{
	buf m = *b;
	memcpy(m.data + at, bytes, n);
	tk_perf_tracing *tr = NULL;
	tk_error_clear(err);
	tk_status st = tk_perf_tracing_parse(m.data, m.n, 0x1000, &tr, err);
	tk_perf_tracing_free(tr);
	return st;
}

static void test_rejects(void **state)
{
	(void)state;
	buf b;
	synth_layout lay;
	build_tracing(&b, false, &lay);
	tk_error err;

	assert_int_equal(parse_modified(&b, 0, "\x17\x08\x44trazing", 10, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1000);
	assert_int_equal(parse_modified(&b, 14, "\x07", 1, &err), TK_ERR_FORMAT); /* endian */
	assert_int_equal(err.offset, 0x1000 + 14);
	assert_int_equal(parse_modified(&b, 15, "\x05", 1, &err), TK_ERR_FORMAT); /* long */
	assert_int_equal(parse_modified(&b, 20, "header_pagX", 11, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1000 + 20);
	/* a count no input could hold is refused before any allocation */
	assert_int_equal(parse_modified(&b, lay.ftrace_count_at, "\xff\xff\xff\xff", 4, &err),
			 TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 0x1000 + lay.ftrace_count_at);
	assert_int_equal(parse_modified(&b, lay.system_count_at, "\xff\xff\xff\x7f", 4, &err),
			 TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 0x1000 + lay.system_count_at);
	/* a format size past the end */
	uint64_t huge = UINT64_MAX - 3;
	assert_int_equal(parse_modified(&b, lay.synth_text_at - 8, &huge, 8, &err),
			 TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 0x1000 + lay.synth_text_at);
	/* format text errors point at their line */
	assert_int_equal(parse_modified(&b, lay.synth_text_at + 16, "x", 1, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1000 + lay.synth_text_at + 12); /* "ID: 4x" */
	assert_int_equal(parse_modified(&b, lay.synth_text_at + 13, "X", 1, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1000 + lay.synth_text_at); /* no ID line at all */
	assert_non_null(strstr(err.message, "no 'ID:'"));
	size_t line = (size_t)(strstr(synth_format, "\tfield:s16") - synth_format);
	const char *off = strstr(synth_format + line, "offset:");
	assert_int_equal(parse_modified(&b, lay.synth_text_at + (size_t)(off - synth_format),
					"OFFSET:", 7, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1000 + lay.synth_text_at + line);
	assert_non_null(strstr(err.message, "s16 delta"));
	assert_int_equal(parse_modified(&b, lay.synth_text_at + (size_t)(off - synth_format) + 7,
					"99999999999", 11, &err),
			 TK_ERR_FORMAT);

	/* a bare magic, and garbage */
	tk_perf_tracing *tr = NULL;
	assert_int_equal(
	    tk_perf_tracing_parse((const uint8_t *)"\x17\x08\x44tracing", 10, 7, &tr, &err),
	    TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 17);
	assert_int_equal(tk_perf_tracing_parse(NULL, 0, 0, &tr, &err), TK_ERR_TRUNCATED);
	assert_null(tr);
	/* NULL handles are harmless */
	tk_perf_tracing_free(NULL);
	assert_int_equal(tk_perf_tracing_count(NULL), 0);
	assert_null(tk_perf_tracing_format(NULL, 1));
}

/* ---------------------------------------------------------------------
 * Finding the tracing section of a perf file with a local header walk. */

typedef struct found {
	const uint8_t *data;
	size_t size;
	uint64_t offset;
} found;

/* First HEADER_TRACING_DATA record (type 66: header, u32 size, data) of
 * the records in [p, p+n); pipe files and simpleperf keep it there. */
static bool find_record(const uint8_t *file, size_t pos, size_t end, found *out)
{
	while (pos + 8 <= end) {
		uint32_t type = tk_load_le32(file + pos);
		uint16_t size = tk_load_le16(file + pos + 6);
		if (type == 66 && pos + 12 <= end) {
			uint32_t n = tk_load_le32(file + pos + 8);
			if (n > end - pos - 12)
				return false;
			*out = (found){file + pos + 12, n, pos + 12};
			return true;
		}
		if (size < 8)
			return false;
		uint64_t skip = size;
		if (type == 71 && pos + 16 <= end) /* AUXTRACE: payload follows */
			skip += tk_load_le64(file + pos + 8);
		if (skip > end - pos)
			return false;
		pos += skip;
	}
	return false;
}

static bool find_tracing(const uint8_t *file, size_t n, found *out)
{
	if (n < 16 || memcmp(file, "PERFILE2", 8) != 0)
		return false;
	uint64_t hsize = tk_load_le64(file + 8);
	if (hsize == 16) /* pipe mode */
		return find_record(file, 16, n, out);
	if (n < 104)
		return false;
	uint64_t data_off = tk_load_le64(file + 40), data_size = tk_load_le64(file + 48);
	uint64_t feat0 = tk_load_le64(file + 72);
	if (!tk_range_ok(data_off, data_size, n))
		return false;
	if (!(feat0 & 2)) /* no TRACING_DATA feature: maybe a record */
		return find_record(file, data_off, data_off + data_size, out);
	uint64_t table = data_off + data_size; /* bit 1: the first entry unless bit 0 */
	if (feat0 & 1)
		table += 16;
	if (!tk_range_ok(table, 16, n))
		return false;
	uint64_t off = tk_load_le64(file + table), size = tk_load_le64(file + table + 8);
	if (!tk_range_ok(off, size, n))
		return false;
	*out = (found){file + off, (size_t)size, off};
	return true;
}

static tk_perf_tracing *parse_file_tracing(const char *rel, uint8_t **file_out)
{
	size_t n;
	uint8_t *file = tk_test_read_file(tk_test_data(rel), &n);
	if (!file) {
		print_message("skipping %s: not found\n", rel);
		return NULL;
	}
	found f;
	assert_true(find_tracing(file, n, &f));
	tk_perf_tracing *tr;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_perf_tracing_parse(f.data, f.size, f.offset, &tr, &err);
	if (st != TK_OK)
		fail_msg("%s: %s at 0x%llx", rel, err.message, (unsigned long long)err.offset);
	*file_out = file;
	return tr;
}

static void test_probe_file_and_stream(void **state)
{
	(void)state;
	uint8_t *file1, *file2;
	tk_perf_tracing *a = parse_file_tracing("perf/perfparser/probe.data.file", &file1);
	if (!a)
		skip();
	tk_perf_tracing *b = parse_file_tracing("perf/perfparser/probe.data.stream", &file2);
	assert_non_null(b);
	assert_int_equal(tk_perf_tracing_count(a), 1);
	assert_int_equal(tk_perf_tracing_count(b), 1);
	const tk_perf_tp_format *f = tk_perf_tracing_format(a, 1329);
	assert_non_null(f);
	assert_string_equal(f->system, "probe_untitled1");
	assert_string_equal(f->name, "main");
	assert_int_equal(f->n_fields, 5);
	assert_int_equal(f->n_common, 4);
	assert_string_equal(f->fields[4].name, "__probe_ip");
	assert_string_equal(f->fields[4].type, "unsigned long __probe_ip");
	assert_int_equal(f->fields[4].offset, 8);
	assert_int_equal(f->fields[4].size, 8);
	assert_string_equal(f->print_fmt, "\"(%lx)\", REC->__probe_ip");
	assert_false(tk_perf_tracing_big_endian(a));
	size_t len;
	tk_perf_tracing_printk(a, &len);
	assert_true(len > 0);
	tk_perf_tracing_cmdlines(a, &len); /* version 0.5: none */
	assert_int_equal(len, 0);
	/* the pipe file carries the same format */
	const tk_perf_tp_format *g = tk_perf_tracing_format(b, 1329);
	assert_non_null(g);
	assert_int_equal(g->text_len, f->text_len);
	assert_memory_equal(g->text, f->text, f->text_len);
	tk_perf_tracing_free(a);
	tk_perf_tracing_free(b);
	free(file1);
	free(file2);
}

static void test_task_comm_len_array(void **state)
{
	(void)state;
	uint8_t *file;
	tk_perf_tracing *tr =
	    parse_file_tracing("perf/perfparser/parallel_static_gcc__perf.data.zstd", &file);
	if (!tr)
		skip();
	const tk_perf_tp_format *f = NULL;
	for (size_t i = 0; i < tk_perf_tracing_count(tr); i++)
		if (strcmp(tk_perf_tracing_format_at(tr, i)->name, "sched_switch") == 0)
			f = tk_perf_tracing_format_at(tr, i);
	assert_non_null(f);
	assert_string_equal(f->system, "sched");
	const tk_perf_tp_field *c = field_named(f, "prev_comm", NULL);
	assert_non_null(c);
	assert_true(c->is_array && c->is_string);
	assert_int_equal(c->array_len, 16);
	assert_int_equal(c->elem_size, 1);
	tk_perf_tracing_free(tr);
	free(file);
}

/* Every perf file of the shared data that has a tracing section parses,
 * and every format decodes a zero payload of its fixed size. */
static void test_all_testdata(void **state)
{
	(void)state;
	static const char *dirs[] = {"perf/quipper", "perf/perfparser", "perf/simpleperf",
				     "perf/pdc", "perf/lpd"};
	int with_tracing = 0, formats = 0;
	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", tk_test_data(dirs[d]));
		DIR *dh = opendir(dir);
		if (!dh)
			continue;
		struct dirent *de;
		while ((de = readdir(dh))) {
			if (de->d_name[0] == '.')
				continue;
			char path[8192];
			snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
			size_t n;
			uint8_t *file = tk_test_read_file(path, &n);
			found fd;
			if (!file || !find_tracing(file, n, &fd)) {
				free(file);
				continue;
			}
			tk_perf_tracing *tr;
			tk_error err;
			tk_error_clear(&err);
			if (tk_perf_tracing_parse(fd.data, fd.size, fd.offset, &tr, &err) != TK_OK)
				fail_msg("%s: %s at 0x%llx", path, err.message,
					 (unsigned long long)err.offset);
			with_tracing++;
			print_message("  %s: %zu formats\n", de->d_name, tk_perf_tracing_count(tr));
			tk_arena arena;
			tk_arena_init(&arena, 0);
			uint8_t zero[4096] = {0};
			for (size_t i = 0; i < tk_perf_tracing_count(tr); i++) {
				const tk_perf_tp_format *f = tk_perf_tracing_format_at(tr, i);
				assert_true(f->n_common <= f->n_fields);
				assert_int_equal(f->payload->n_members, f->n_fields - f->n_common);
				tk_value vals[256];
				if (f->n_fields > 256)
					continue;
				/* zero locations point at offset 0 with length 0: valid */
				assert_int_equal(
				    tk_perf_tp_decode(tr, f, zero, sizeof zero, &arena, vals, &err),
				    TK_OK);
				tk_arena_reset(&arena);
				formats++;
			}
			tk_arena_free(&arena);
			tk_perf_tracing_free(tr);
			free(file);
		}
		closedir(dh);
	}
	print_message("%d files with tracing data, %d formats decoded\n", with_tracing, formats);
	if (with_tracing == 0)
		skip();
	assert_true(with_tracing >= 5);
}

/* ---------------------------------------------------------------------
 * A fresh recording, checked against perf script. */

typedef struct lines {
	char **v;
	size_t n, cap;
} lines;

static void lines_add(lines *l, const char *s, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		assert_non_null(l->v);
	}
	l->v[l->n] = strndup(s, n);
	assert_non_null(l->v[l->n]);
	l->n++;
}

static void lines_free(lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walks the samples of a file-mode perf.data with a single attr and calls
 * fn(raw, size, cpu) on each RAW payload. Handles the sample_type bits a
 * tracepoint recording uses; false for anything else. */
typedef void (*raw_fn)(void *ctx, const uint8_t *raw, uint32_t size, uint32_t cpu);

static bool walk_raw_samples(const uint8_t *file, size_t n, raw_fn fn, void *ctx, size_t *count)
{
	uint64_t attrs_off = tk_load_le64(file + 24);
	uint64_t data_off = tk_load_le64(file + 40), data_size = tk_load_le64(file + 48);
	if (!tk_range_ok(attrs_off, 32, n) || !tk_range_ok(data_off, data_size, n))
		return false;
	uint64_t st = tk_load_le64(file + attrs_off + 24); /* attr.sample_type */
	const uint64_t allowed = TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP |
				 TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ADDR |
				 TK_PERF_SAMPLE_ID | TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU |
				 TK_PERF_SAMPLE_PERIOD | TK_PERF_SAMPLE_CALLCHAIN |
				 TK_PERF_SAMPLE_RAW;
	if ((st & ~allowed) || !(st & TK_PERF_SAMPLE_RAW))
		return false;
	size_t pos = data_off, end = data_off + data_size;
	*count = 0;
	while (pos + 8 <= end) {
		uint32_t type = tk_load_le32(file + pos);
		uint16_t size = tk_load_le16(file + pos + 6);
		if (size < 8 || size > end - pos)
			return false;
		if (type == TK_PERF_RECORD_SAMPLE) {
			const uint8_t *p = file + pos + 8, *e = file + pos + size;
			uint32_t cpu = 0;
			for (unsigned bit = 0; bit <= 10; bit++) {
				uint64_t m = 1ULL << bit;
				if (m == TK_PERF_SAMPLE_IP && (st & TK_PERF_SAMPLE_IDENTIFIER))
					p += 8;
				if (!(st & m) || m == TK_PERF_SAMPLE_READ)
					continue;
				if (m == TK_PERF_SAMPLE_CPU)
					cpu = tk_load_le32(p);
				if (m == TK_PERF_SAMPLE_CALLCHAIN) {
					uint64_t nr = tk_load_le64(p);
					p += 8 + nr * 8;
				} else if (m == TK_PERF_SAMPLE_RAW) {
					uint32_t rs = tk_load_le32(p);
					assert_true(p + 4 + rs <= e);
					fn(ctx, p + 4, rs, cpu);
					(*count)++;
				} else {
					p += 8;
				}
			}
		}
		pos += size;
	}
	return true;
}

typedef struct check_ctx {
	tk_perf_tracing *tr;
	lines rendered;
	tk_arena arena;
	size_t fields_checked, samples;
} check_ctx;

/* In a rendered line, the value printed after " name=" (or at the start),
 * up to the next space; NULL when the print fmt does not show it so. */
static const char *printed_value(const char *line, const char *name, size_t *len)
{
	size_t n = strlen(name);
	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
		if ((p == line || p[-1] == ' ') && p[n] == '=') {
			const char *v = p + n + 1;
			*len = strcspn(v, " ");
			return v;
		}
	}
	return NULL;
}

/* Decoded values against what perf prints: for each payload field shown
 * as "name=value", a decimal int or a string must print as we decoded
 * it. Hex, flags and symbolic fields (prev_state=S) are left alone. */
static void check_fields(check_ctx *c, const tk_perf_tp_format *f, const tk_value *vals,
			 const char *line)
{
	for (size_t i = f->n_common; i < f->n_fields; i++) {
		size_t len;
		const char *v = printed_value(line, f->fields[i].name, &len);
		if (!v || len == 0)
			continue;
		char want[128], got[128];
		const tk_value *x = &vals[i];
		snprintf(got, sizeof got, "%.*s", (int)len, v);
		if (x->cls->kind == TK_TYPE_STRING) {
			if (x->v.str.len == 0 || memchr(x->v.str.ptr, ' ', x->v.str.len))
				continue;
			snprintf(want, sizeof want, "%.*s", (int)x->v.str.len, x->v.str.ptr);
			if (strcmp(want, got) != 0)
				fail_msg("%s:%s field %s: decoded '%s', perf prints '%s' in '%s'",
					 f->system, f->name, f->fields[i].name, want, got, line);
		} else if (x->cls->kind == TK_TYPE_INT && x->cls->base == 10 &&
			   ((got[0] >= '0' && got[0] <= '9') || got[0] == '-') &&
			   !(got[0] == '0' && got[1] == 'x')) {
			/* compare numbers (perf may pad: %03d), wrapped to the
			 * field's width since libtraceevent prints %d of a narrow
			 * unsigned field as is */
			char *end;
			long long p = strtoll(got, &end, 10);
			if (*end != '\0')
				continue;
			unsigned bits = x->cls->bits;
			uint64_t mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
			if (((uint64_t)p & mask) != (x->v.u & mask))
				fail_msg("%s:%s field %s: decoded %llu, perf prints '%s' in '%s'",
					 f->system, f->name, f->fields[i].name,
					 (unsigned long long)x->v.u, got, line);
		} else {
			continue;
		}
		c->fields_checked++;
	}
}

static void check_one(void *vctx, const uint8_t *raw, uint32_t size, uint32_t cpu)
{
	check_ctx *c = vctx;
	assert_true(size >= 2);
	uint16_t type = tk_load_u16(raw, tk_perf_tracing_big_endian(c->tr) == tk_host_is_le());
	const tk_perf_tp_format *f = tk_perf_tracing_format(c->tr, type);
	assert_non_null(f);
	tk_value vals[128];
	tk_error err;
	assert_true(f->n_fields <= 128);
	if (tk_perf_tp_decode(c->tr, f, raw, size, &c->arena, vals, &err) != TK_OK)
		fail_msg("decode %s: %s", f->name, err.message);
	c->samples++;
#ifdef TK_HAVE_TRACEEVENT
	char text[4096];
	size_t len;
	if (tk_perf_tp_render(c->tr, f, raw, size, (int)cpu, text, sizeof text, &len, &err) !=
	    TK_OK)
		fail_msg("render: %s", err.message);
	assert_true(len < sizeof text);
	while (len && text[len - 1] == ' ')
		text[--len] = '\0';
	lines_add(&c->rendered, text, len);
	check_fields(c, f, vals, text);
#else
	(void)cpu;
#endif
	tk_arena_reset(&c->arena);
}

/* /proc/kallsyms as perf's kernel map sees it: function and data symbols,
 * sorted by address. */
typedef struct ksym {
	uint64_t addr;
	char *name;
} ksym;

typedef struct ksym_table {
	ksym *v;
	size_t n, cap;
} ksym_table;

static int cmp_ksym(const void *a, const void *b)
{
	const ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool load_kallsyms(ksym_table *t)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		unsigned long long addr;
		char type, name[256];
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || addr == 0)
			continue;
		char up = (char)(type & ~0x20);
		if (up != 'T' && up != 'W' && up != 'D' && up != 'B')
			continue;
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 4096;
			t->v = realloc(t->v, t->cap * sizeof *t->v);
			assert_non_null(t->v);
		}
		t->v[t->n].addr = addr;
		t->v[t->n].name = strdup(name);
		t->n++;
	}
	fclose(f);
	qsort(t->v, t->n, sizeof *t->v, cmp_ksym);
	return t->n > 0;
}

static const char *lookup_ksym(void *user, uint64_t addr, uint64_t *start)
{
	const ksym_table *t = user;
	size_t lo = 0, hi = t->n;
	while (lo < hi) { /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	*start = t->v[lo - 1].addr;
	return t->v[lo - 1].name;
}

/* Records `events` system-wide for 0.1 s of a small workload, then checks
 * every sample's decoding and rendering against `perf script -F trace`.
 * Returns false (after printing why) when perf cannot record here. */
static bool check_recording(const char *events, size_t min_formats, ksym_table *ksyms)
{
	char dir[] = "/tmp/tk-perf-tracing-XXXXXX";
	if (!mkdtemp(dir))
		return false;
	char cmd[2048], data[256], script[256];
	snprintf(data, sizeof data, "%s/rec.data", dir);
	snprintf(script, sizeof script, "%s/script.txt", dir);
	snprintf(cmd, sizeof cmd,
		 "timeout 60 perf record -q %s -a -o %s -- sh -c 'ls / >/dev/null; sleep 0.1' "
		 ">/dev/null 2>&1 && timeout 60 perf script -i %s -F trace >%s 2>/dev/null",
		 events, data, data, script);
	int rc = system(cmd);
	bool ok = rc == 0;
	if (!ok) {
		print_message("perf record %s failed here\n", events);
	} else {
		size_t n, sn;
		uint8_t *file = tk_test_read_file(data, &n);
		uint8_t *text = tk_test_read_file(script, &sn);
		assert_non_null(file);
		assert_non_null(text);
		found fd;
		assert_true(find_tracing(file, n, &fd));
		check_ctx c;
		memset(&c, 0, sizeof c);
		tk_error err;
		if (tk_perf_tracing_parse(fd.data, fd.size, fd.offset, &c.tr, &err) != TK_OK)
			fail_msg("%s at 0x%llx", err.message, (unsigned long long)err.offset);
		assert_true(tk_perf_tracing_count(c.tr) >= min_formats);
		if (ksyms)
			tk_perf_tracing_set_ksym_resolver(c.tr, lookup_ksym, ksyms);
		tk_arena_init(&c.arena, 0);
		size_t samples;
		assert_true(walk_raw_samples(file, n, check_one, &c, &samples));
		assert_true(samples > 0);
		assert_int_equal(c.samples, samples);

		/* perf sorts by time, we walk in file order: compare sorted */
		lines perf_lines = {0};
		for (size_t pos = 0; pos < sn;) {
			size_t e = pos;
			while (e < sn && text[e] != '\n')
				e++;
			size_t l = e;
			while (l > pos && text[l - 1] == ' ')
				l--;
			lines_add(&perf_lines, (const char *)text + pos, l - pos);
			pos = e + 1;
		}
		assert_int_equal(perf_lines.n, samples);
#ifdef TK_HAVE_TRACEEVENT
		assert_int_equal(c.rendered.n, perf_lines.n);
		qsort(c.rendered.v, c.rendered.n, sizeof *c.rendered.v, cmp_str);
		qsort(perf_lines.v, perf_lines.n, sizeof *perf_lines.v, cmp_str);
		for (size_t i = 0; i < perf_lines.n; i++)
			assert_string_equal(c.rendered.v[i], perf_lines.v[i]);
		assert_true(c.fields_checked > 0);
		print_message("%s: %zu samples of %zu formats rendered exactly as perf script, "
			      "%zu decoded fields checked against its text\n",
			      events, samples, tk_perf_tracing_count(c.tr), c.fields_checked);
#else
		(void)cmp_str;
		(void)check_fields;
#endif
		lines_free(&perf_lines);
		lines_free(&c.rendered);
		tk_arena_free(&c.arena);
		tk_perf_tracing_free(c.tr);
		free(file);
		free(text);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		print_message("could not remove %s\n", dir);
	return ok;
}

/* The stored uprobe sample of probe.data.file: `perf script -F trace`
 * prints "(55d1db028560)" for it (perf 6.1). */
typedef struct probe_ctx {
	tk_perf_tracing *tr;
	size_t n;
} probe_ctx;

static void check_probe(void *vctx, const uint8_t *raw, uint32_t size, uint32_t cpu)
{
	probe_ctx *c = vctx;
	const tk_perf_tp_format *f = tk_perf_tracing_format(c->tr, 1329);
	tk_value vals[5];
	tk_error err;
	assert_int_equal(tk_perf_tp_decode(c->tr, f, raw, size, NULL, vals, &err), TK_OK);
	assert_true(vals[4].v.u == 0x55d1db028560ULL);
	assert_int_equal(vals[4].cls->base, 10); /* unsigned long, not a pointer */
#ifdef TK_HAVE_TRACEEVENT
	char text[64];
	size_t len;
	assert_int_equal(
	    tk_perf_tp_render(c->tr, f, raw, size, (int)cpu, text, sizeof text, &len, &err), TK_OK);
	assert_string_equal(text, "(55d1db028560)");
#else
	(void)cpu;
#endif
	c->n++;
}

static void test_probe_sample(void **state)
{
	(void)state;
	uint8_t *file;
	probe_ctx c = {0};
	c.tr = parse_file_tracing("perf/perfparser/probe.data.file", &file);
	if (!c.tr)
		skip();
	size_t n, samples;
	free(file);
	file = tk_test_read_file(tk_test_data("perf/perfparser/probe.data.file"), &n);
	assert_true(walk_raw_samples(file, n, check_probe, &c, &samples));
	assert_int_equal(samples, 1);
	assert_int_equal(c.n, 1);
	tk_perf_tracing_free(c.tr);
	free(file);
}

static void test_fresh_sched_switch(void **state)
{
	(void)state;
	if (!check_recording("-e sched:sched_switch", 1, NULL))
		skip();
}

/* Events with __data_loc strings (exec filename, irq name), char arrays
 * and plain ints; skipped when this kernel lacks one of them. */
static void test_fresh_many_events(void **state)
{
	(void)state;
	if (!check_recording("-e sched:sched_switch -e sched:sched_process_exec "
			     "-e sched:sched_process_fork -e sched:sched_wakeup "
			     "-e sched:sched_process_exit -e irq:irq_handler_entry "
			     "-e signal:signal_generate -e sched:sched_stat_runtime",
			     8, NULL))
		skip();
}

/* %pS / %ps print fmts (kmalloc's call_site, hrtimer's function) match perf
 * once a kernel symbol resolver is set. */
static void test_fresh_kernel_symbols(void **state)
{
	(void)state;
	ksym_table t = {0};
	if (!load_kallsyms(&t)) {
		print_message("no readable /proc/kallsyms\n");
		skip();
	}
	bool ok = check_recording("-e kmem:kmalloc -e timer:hrtimer_start", 2, &t);
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i].name);
	free(t.v);
	if (!ok)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_synth_little_endian),
	    cmocka_unit_test(test_synth_big_endian),
	    cmocka_unit_test(test_ctf_view_synth),
	    cmocka_unit_test(test_ctf_view_names_and_arrays),
	    cmocka_unit_test(test_ctf_escape),
	    cmocka_unit_test(test_render_kernel_symbols),
	    cmocka_unit_test(test_long_size_4),
	    cmocka_unit_test(test_truncations),
	    cmocka_unit_test(test_rejects),
	    cmocka_unit_test(test_probe_file_and_stream),
	    cmocka_unit_test(test_task_comm_len_array),
	    cmocka_unit_test(test_all_testdata),
	    cmocka_unit_test(test_probe_sample),
	    cmocka_unit_test(test_fresh_sched_switch),
	    cmocka_unit_test(test_fresh_many_events),
	    cmocka_unit_test(test_fresh_kernel_symbols),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
