/* Tracepoint fields typed and named as perf's CTF converter does (see
 * perf_tp_view.h). The rules mirror data-convert-bt.c's
 * get_tracepoint_field_type() and add_tracepoint_field_value() over
 * libtraceevent's field flags (event_read_fields()):
 *   ARRAY   the declaration has [...] (__data_loc char[] too)
 *   STRING  ARRAY and the type mentions "char", "u8" or "s8"
 *   LONG    the type mentions "long"; POINTER: it has a '*'
 * The per-event work is a switch per field on what the decoder gave. */
#include "perf/perf_tp_view.h"

#include <stdio.h>
#include <string.h>

/* perf's field types (ctf_writer__init_data). */
#define PV_INT(name, bits_, sig, base_, sem)                                                       \
	static const tk_field_class name = {                                                       \
	    .kind = TK_TYPE_INT, .bits = bits_, .is_signed = sig, .base = base_, .semantic = sem}
PV_INT(pv_u32, 32, false, 10, TK_SEM_NONE);
PV_INT(pv_s32, 32, true, 10, TK_SEM_NONE);
PV_INT(pv_u64, 64, false, 10, TK_SEM_NONE);
PV_INT(pv_s64, 64, true, 10, TK_SEM_NONE);
PV_INT(pv_u64_hex, 64, false, 16, TK_SEM_NONE);
PV_INT(pv_pointer, 64, false, 16, TK_SEM_ADDR);
static const tk_field_class pv_string = {.kind = TK_TYPE_STRING};

typedef enum tpv_op {
	TPV_INT,    /* scalar */
	TPV_STRING, /* a string whatever the decoder made of it */
	TPV_ARRAY,  /* fixed array of `count` ints */
	TPV_SEQ,    /* __data_loc array of ints (perf itself cannot convert these) */
} tpv_op;

struct tpv_field {
	uint8_t op;        /* tpv_op */
	uint8_t elem_size; /* bytes of one int as stored: 1, 2, 4 or 8 (0: unreadable) */
	bool dynamic;      /* TPV_STRING: __data_loc / __rel_loc */
	uint32_t offset;   /* TPV_STRING, fixed: where the string starts in raw */
	uint32_t count;    /* TPV_ARRAY */
	const tk_field_class *cls, *elem;
};

/* The declaration of f without its name: what libtraceevent calls the
 * field's type ("unsigned long" of "unsigned long args[6]"). */
static size_t type_len(const tk_perf_tp_field *f)
{
	size_t tl = strlen(f->type), nl = strlen(f->name);
	for (size_t i = tl >= nl ? tl - nl + 1 : 0; i-- > 0;) {
		if (memcmp(f->type + i, f->name, nl) != 0)
			continue;
		char before = i ? f->type[i - 1] : ' ', after = f->type[i + nl];
		bool ident_before = before == '_' || (before >= '0' && before <= '9') ||
				    (before >= 'a' && before <= 'z') ||
				    (before >= 'A' && before <= 'Z');
		if (!ident_before && (after == '\0' || after == '[' || after == ' '))
			return i;
	}
	return tl;
}

static bool mentions(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; w <= n && i + w <= n; i++)
		if (memcmp(s + i, word, w) == 0)
			return true;
	return false;
}

static const tk_field_class *int_class(bool is_signed, bool is_long, bool is_pointer, uint32_t size)
{
	if (!is_signed && is_pointer)
		return &pv_pointer;
	if (!is_signed && is_long)
		return &pv_u64_hex; /* "unsigned long are mostly pointers" */
	if (is_signed)
		return size == 8 ? &pv_s64 : &pv_s32;
	return size == 8 ? &pv_u64 : &pv_u32;
}

/* TSDL names of bt_ctf_validate_identifier()'s reserved words (babeltrace
 * 1.x, whose list lacks "void": a missing comma glues it to "_Bool"). */
static bool bt1_reserved(const char *name)
{
	static const char *const words[] = {
	    "align",     "callsite", "const",     "char",           "clock",    "double",
	    "enum",      "env",      "event",     "floating_point", "float",    "integer",
	    "int",       "long",     "short",     "signed",         "stream",   "string",
	    "struct",    "trace",    "typealias", "typedef",        "unsigned", "variant",
	    "void_Bool", "_Complex", "_Imaginary"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(name, words[i]) == 0)
			return true;
	return false;
}

/* TSDL name perf gives a field, tsdl[k] for the k members before it. */
static bool tsdl_taken(char *const *tsdl, size_t k, const char *name)
{
	for (size_t i = 0; i < k; i++)
		if (tsdl[i] && strcmp(tsdl[i], name) == 0)
			return true;
	return false;
}

tp_view *perf_tp_view_build(tk_arena *a, const tk_perf_tp_format *fmt, const tk_member *taken,
			    size_t n_taken)
{
	size_t n = fmt->n_fields;
	tp_view *v = tk_arena_calloc(a, 1, sizeof *v);
	char **tsdl = tk_arena_calloc(a, n_taken + n + 1, sizeof *tsdl);
	if (!v || !tsdl)
		return NULL;
	v->fmt = fmt;
	v->n = n;
	v->members = tk_arena_calloc(a, n ? n : 1, sizeof *v->members);
	v->fields = tk_arena_calloc(a, n ? n : 1, sizeof *v->fields);
	if (!v->members || !v->fields)
		return NULL;
	/* the names before ours, as TSDL names (a display name "x" that came
	 * from "_x" is "_x" there) */
	for (size_t i = 0; i < n_taken; i++)
		tsdl[i] = (char *)taken[i].name;
	for (size_t i = 0; i < n; i++) {
		const tk_perf_tp_field *f = &fmt->fields[i];
		size_t tl = type_len(f);
		bool array = f->is_array || f->is_data_loc;
		bool string = array && (mentions(f->type, tl, "char") ||
					mentions(f->type, tl, "u8") || mentions(f->type, tl, "s8"));
		bool is_long = mentions(f->type, tl, "long");
		bool pointer = memchr(f->type, '*', tl) != NULL;
		tpv_field *tf = &v->fields[i];
		const tk_field_class *ic = int_class(f->is_signed, is_long, pointer, f->size);
		if (string) {
			tf->op = TPV_STRING;
			tf->cls = &pv_string;
			tf->dynamic = f->is_data_loc;
			tf->offset = f->offset;
		} else if (array) {
			uint32_t es = f->array_len ? f->size / f->array_len : 0;
			tf->elem_size =
			    (uint8_t)(es == 1 || es == 2 || es == 4 || es == 8 ? es : 0);
			tf->elem = ic;
			tk_field_class *c = tk_arena_calloc(a, 1, sizeof *c);
			if (!c)
				return NULL;
			c->element = ic;
			if (f->is_data_loc) {
				tf->op = TPV_SEQ;
				tf->elem_size = (uint8_t)f->elem_size;
				c->kind = TK_TYPE_SEQUENCE;
			} else {
				tf->op = TPV_ARRAY;
				tf->count = f->array_len;
				c->kind = TK_TYPE_ARRAY;
				c->length = f->array_len;
			}
			tf->cls = c;
		} else {
			tf->op = TPV_INT;
			tf->elem_size =
			    (uint8_t)(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8
					  ? f->size
					  : 0);
			tf->cls = ic;
		}

		/* perf's name: '_' before a reserved word, then _dupl_N while
		 * it clashes; babeltrace2 shows it without one leading '_' */
		char buf[256];
		if (bt1_reserved(f->name))
			snprintf(buf, sizeof buf, "_%s", f->name);
		else
			snprintf(buf, sizeof buf, "%s", f->name);
		for (int dup = 1; tsdl_taken(tsdl, n_taken + i, buf) && dup < 10; dup++)
			snprintf(buf, sizeof buf, "%s_dupl_%d", f->name, dup);
		tsdl[n_taken + i] = tk_arena_strdup(a, buf);
		if (!tsdl[n_taken + i])
			return NULL;
		const char *shown = tsdl[n_taken + i];
		v->members[i].name = shown[0] == '_' ? shown + 1 : shown;
		v->members[i].cls = tf->cls;
	}
	return v;
}

static bool needs_escape(unsigned char c)
{
	return (c >= 0x01 && c < 0x20) || (c >= 0x7f && c < 0xa0);
}

const char *perf_ctf_escape(const char *str, size_t len, tk_arena *scratch, size_t *out_len)
{
	size_t extra = 0;
	for (size_t i = 0; i < len; i++)
		extra += needs_escape((unsigned char)str[i]) ? 3 : 0;
	*out_len = len + extra;
	if (!extra)
		return str;
	char *o = tk_arena_alloc(scratch, len + extra + 1);
	if (!o)
		return NULL;
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)str[i];
		if (needs_escape(c)) {
			o[k++] = '\\';
			o[k++] = 'x';
			o[k++] = hex[c >> 4];
			o[k++] = hex[c & 15];
		} else {
			o[k++] = (char)c;
		}
	}
	o[k] = '\0';
	return o;
}

/* An int as perf stores it: the field's bytes (size) read back, then
 * sign-extended when the field is signed, into a class of 32 or 64 bits. */
static void set_int(tk_value *out, const tk_field_class *cls, uint64_t bits, unsigned size)
{
	if (size && size < 8)
		bits &= (UINT64_C(1) << (size * 8)) - 1;
	else if (size == 0)
		bits = 0; /* perf's tep_read_number() reads 0 from other sizes */
	if (cls->is_signed && size && size < 8) {
		unsigned shift = 64 - size * 8;
		bits = (uint64_t)((int64_t)(bits << shift) >> shift);
	}
	if (cls->bits < 64 && !cls->is_signed)
		bits &= (UINT64_C(1) << cls->bits) - 1;
	out->cls = cls;
	out->v.u = bits;
}

/* A string-typed field as perf reads it: a C string from where the field
 * (fixed) or its __data_loc data starts, up to the first NUL, which may
 * lie past the field's own bytes (a u8 saddr[4] without a zero byte runs
 * into daddr, as in perf); we stop at the end of the raw data, where perf
 * would read on. Without raw, the decoder's own string is used. */
static bool to_string(const tpv_field *tf, const tk_value *d, const uint8_t *raw, uint32_t raw_size,
		      tk_arena *scratch, tk_value *out)
{
	const char *p = "";
	size_t len = 0;
	const uint8_t *start = NULL;
	if (d && raw) {
		if (!tf->dynamic)
			start = tf->offset < raw_size ? raw + tf->offset : NULL;
		else if ((d->cls->kind == TK_TYPE_STRING || d->cls->kind == TK_TYPE_BYTES) &&
			 (const uint8_t *)d->v.str.ptr >= raw &&
			 (const uint8_t *)d->v.str.ptr <= raw + raw_size)
			start = (const uint8_t *)d->v.str.ptr;
	}
	if (start) {
		size_t room = (size_t)(raw + raw_size - start);
		const uint8_t *nul = memchr(start, 0, room);
		p = (const char *)start;
		len = nul ? (size_t)(nul - start) : room;
	} else if (d && (d->cls->kind == TK_TYPE_STRING || d->cls->kind == TK_TYPE_BYTES)) {
		p = d->v.str.ptr ? d->v.str.ptr : "";
		len = d->v.str.len;
		const char *nul = memchr(p, 0, len);
		if (nul)
			len = (size_t)(nul - p);
	} else if (d && (d->cls->kind == TK_TYPE_ARRAY || d->cls->kind == TK_TYPE_SEQUENCE)) {
		/* u8 / unsigned char arrays: decoded as ints, text for perf */
		size_t n = d->v.list.n;
		char *chars = tk_arena_alloc(scratch, n + 1);
		if (!chars)
			return false;
		for (len = 0; len < n && (uint8_t)d->v.list.items[len].v.u; len++)
			chars[len] = (char)(uint8_t)d->v.list.items[len].v.u;
		chars[len] = '\0';
		p = chars;
	}
	size_t olen;
	const char *o = perf_ctf_escape(p, len, scratch, &olen);
	if (!o)
		return false;
	out->cls = &pv_string;
	out->v.str.ptr = o;
	out->v.str.len = olen;
	return true;
}

static bool to_ints(const tpv_field *tf, const tk_value *d, size_t n, tk_arena *scratch,
		    tk_value *out)
{
	bool ints = d && (d->cls->kind == TK_TYPE_ARRAY || d->cls->kind == TK_TYPE_SEQUENCE);
	size_t have = ints ? d->v.list.n : 0;
	if (tf->op == TPV_SEQ)
		n = have;
	tk_value *items = NULL;
	if (n) {
		items = tk_arena_alloc(scratch, n * sizeof *items);
		if (!items)
			return false;
		for (size_t k = 0; k < n; k++)
			set_int(&items[k], tf->elem, k < have ? d->v.list.items[k].v.u : 0,
				k < have ? tf->elem_size : 0);
	}
	out->cls = tf->cls;
	out->v.list.items = items;
	out->v.list.n = n;
	out->v.list.index = 0;
	return true;
}

bool perf_tp_view_values(const tp_view *v, const tk_value *decoded, const uint8_t *raw,
			 uint32_t raw_size, tk_arena *scratch, tk_value *out)
{
	for (size_t i = 0; i < v->n; i++) {
		const tpv_field *tf = &v->fields[i];
		const tk_value *d = decoded ? &decoded[i] : NULL;
		switch ((tpv_op)tf->op) {
		case TPV_INT: {
			bool is_int = d && d->cls->kind == TK_TYPE_INT;
			set_int(&out[i], tf->cls, is_int ? d->v.u : 0, is_int ? tf->elem_size : 0);
			break;
		}
		case TPV_STRING:
			if (!to_string(tf, d, raw, raw_size, scratch, &out[i]))
				return false;
			break;
		case TPV_ARRAY:
		case TPV_SEQ:
			if (!to_ints(tf, d, tf->count, scratch, &out[i]))
				return false;
			break;
		}
	}
	return true;
}
