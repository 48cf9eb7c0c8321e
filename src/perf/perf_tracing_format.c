/* Parser of one tracefs `format` file, as stored in HEADER_TRACING_DATA:
 *
 *   name: sched_switch
 *   ID: 316
 *   format:
 *   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *   	...                                  (blank line ends the common block)
 *   	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *   	field:__data_loc char[] name;	offset:24;	size:4;	signed:0;
 *
 *   print fmt: "prev_comm=%s ...", REC->prev_comm, ...
 *
 * Works line by line on a length-bounded buffer (the text may hold NULs or
 * lack a final newline), so any byte string is safe to feed it. Field
 * flags follow libtraceevent's event_read_fields(): __data_loc = dynamic,
 * __rel_loc = dynamic relative to the end of the field, trailing [N] = a
 * fixed array, char arrays = strings, a type ending in '*' = a pointer. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "perf/perf_tracing_internal.h"

typedef struct span {
	const char *p;
	size_t n;
} span;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static span trim(span s)
{
	while (s.n && (is_space(s.p[0]) || s.p[0] == '\0')) {
		s.p++;
		s.n--;
	}
	while (s.n && (is_space(s.p[s.n - 1]) || s.p[s.n - 1] == '\0'))
		s.n--;
	return s;
}

static bool starts_with(span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

static span drop(span s, size_t n)
{
	return (span){s.p + n, s.n - n};
}

/* Position of lit in s, or s.n when absent. */
static size_t find(span s, const char *lit)
{
	size_t n = strlen(lit);
	for (size_t i = 0; n <= s.n && i <= s.n - n; i++)
		if (memcmp(s.p + i, lit, n) == 0)
			return i;
	return s.n;
}

/* Decimal (or 0x hex) number filling all of s; false on junk or overflow. */
static bool parse_u64(span s, uint64_t *out)
{
	s = trim(s);
	unsigned base = 10;
	if (s.n > 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		base = 16;
		s = drop(s, 2);
	}
	if (s.n == 0)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

/* Value of "key:N" among the ';'-separated attributes of a field line. */
static bool attr_u64(span attrs, const char *key, uint64_t *out)
{
	size_t at = find(attrs, key);
	if (at == attrs.n)
		return false;
	span v = drop(attrs, at + strlen(key));
	size_t end = find(v, ";");
	v.n = end;
	return parse_u64(v, out);
}

static bool word_in(span type, const char *w)
{
	size_t n = strlen(w);
	for (size_t i = 0; n <= type.n && i <= type.n - n; i++) {
		if (memcmp(type.p + i, w, n) != 0)
			continue;
		bool left = i == 0 || !is_ident(type.p[i - 1]);
		bool right = i + n == type.n || !is_ident(type.p[i + n]);
		if (left && right)
			return true;
	}
	return false;
}

/* Size of one element of a C type named in a format file, or 0 when it
 * cannot be told from the name (structs, typedefs we do not know). */
static uint32_t type_size(span t, uint32_t long_size)
{
	t = trim(t);
	if (t.n && t.p[t.n - 1] == '*')
		return long_size;
	size_t l1 = find(t, "long");
	if (l1 < t.n && find(drop(t, l1 + 4), "long") < t.n - l1 - 4)
		return 8;
	static const struct {
		const char *w;
		uint32_t size;
	} known[] = {
	    {"u64", 8},     {"s64", 8},    {"__u64", 8},    {"__s64", 8},      {"uint64_t", 8},
	    {"int64_t", 8}, {"loff_t", 8}, {"sector_t", 8}, {"dma_addr_t", 8}, {"u32", 4},
	    {"s32", 4},     {"__u32", 4},  {"__s32", 4},    {"uint32_t", 4},   {"int32_t", 4},
	    {"pid_t", 4},   {"gfp_t", 4},  {"dev_t", 4},    {"uid_t", 4},      {"gid_t", 4},
	    {"u16", 2},     {"s16", 2},    {"__u16", 2},    {"__s16", 2},      {"uint16_t", 2},
	    {"int16_t", 2}, {"u8", 1},     {"s8", 1},       {"__u8", 1},       {"__s8", 1},
	    {"uint8_t", 1}, {"int8_t", 1}, {"bool", 1},
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (word_in(t, known[i].w))
			return known[i].size;
	if (word_in(t, "long") || word_in(t, "size_t") || word_in(t, "ssize_t"))
		return long_size;
	if (word_in(t, "short"))
		return 2;
	if (word_in(t, "char"))
		return 1;
	if (word_in(t, "int") || word_in(t, "unsigned") || word_in(t, "signed"))
		return 4;
	return 0;
}

/* A char type spelled as text: strings. "unsigned char" and u8 arrays
 * hold bytes (MAC addresses, hashes) and stay int arrays. */
static bool is_char_type(span t)
{
	t = trim(t);
	if (starts_with(t, "const "))
		t = trim(drop(t, 6));
	if (starts_with(t, "signed "))
		t = trim(drop(t, 7));
	return t.n == 4 && memcmp(t.p, "char", 4) == 0;
}

static bool valid_int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

static tk_field_class *new_class(tk_arena *a, tk_type_kind kind)
{
	tk_field_class *c = tk_arena_calloc(a, 1, sizeof *c);
	if (c)
		c->kind = kind;
	return c;
}

static tk_field_class *new_int_class(tk_arena *a, uint32_t size, bool is_signed, uint8_t base)
{
	tk_field_class *c = new_class(a, TK_TYPE_INT);
	if (c) {
		c->bits = (uint8_t)(size * 8);
		c->is_signed = is_signed;
		c->base = base;
	}
	return c;
}

typedef struct field_parse {
	tk_perf_tp_field *f;
	tp_plan *plan;
	const tk_field_class **cls;
} field_parse;

/* Parses the text after "field:" (and an optional "special") of one line. */
static tk_status parse_field(tk_arena *a, span line, uint32_t long_size, uint64_t line_off,
			     const char *fmt_name, field_parse out, tk_error *err)
{
	tk_perf_tp_field *f = out.f;
	size_t semi = find(line, ";");
	if (semi == line.n)
		return tk_error_set(err, TK_ERR_FORMAT, line_off,
				    "tracepoint format %s: field declaration has no ';'", fmt_name);
	span decl = trim((span){line.p, semi});
	span attrs = drop(line, semi + 1);
	f->type = tk_arena_strndup(a, decl.p, decl.n);
	if (!f->type)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");

	uint64_t off, size, sign = 0;
	if (!attr_u64(attrs, "offset:", &off) || !attr_u64(attrs, "size:", &size))
		return tk_error_set(
		    err, TK_ERR_FORMAT, line_off,
		    "tracepoint format %s: field '%.*s' lacks a valid offset: or size:", fmt_name,
		    (int)(decl.n > 64 ? 64 : decl.n), decl.p);
	if (off > UINT32_MAX || size > UINT32_MAX || off + size > UINT32_MAX)
		return tk_error_set(
		    err, TK_ERR_FORMAT, line_off,
		    "tracepoint format %s: field offset %llu + size %llu is too large", fmt_name,
		    (unsigned long long)off, (unsigned long long)size);
	(void)attr_u64(attrs, "signed:", &sign); /* absent in old kernels */
	f->offset = (uint32_t)off;
	f->size = (uint32_t)size;
	f->is_signed = sign != 0;

	if (starts_with(decl, "__data_loc") && decl.n > 10 && is_space(decl.p[10])) {
		f->is_data_loc = true;
		decl = trim(drop(decl, 10));
	} else if (starts_with(decl, "__rel_loc") && decl.n > 9 && is_space(decl.p[9])) {
		f->is_data_loc = true;
		f->is_dynamic = true;
		decl = trim(drop(decl, 9));
	}

	/* Trailing [N] groups: the field is a fixed array. Lengths may be
	 * macros (TASK_COMM_LEN) that only the size can resolve. */
	uint64_t dims = 1;
	bool dims_known = true;
	while (decl.n && decl.p[decl.n - 1] == ']') {
		size_t open = decl.n - 1;
		while (open > 0 && decl.p[open] != '[')
			open--;
		if (decl.p[open] != '[')
			break;
		uint64_t d;
		span inner = {decl.p + open + 1, decl.n - open - 2};
		if (parse_u64(inner, &d) && d > 0 && dims <= UINT32_MAX / d)
			dims *= d;
		else
			dims_known = false;
		f->is_array = true;
		decl = trim((span){decl.p, open});
	}
	size_t name_start = decl.n;
	while (name_start > 0 && is_ident(decl.p[name_start - 1]))
		name_start--;
	if (name_start == decl.n)
		return tk_error_set(err, TK_ERR_FORMAT, line_off,
				    "tracepoint format %s: field declaration '%.*s' has no name",
				    fmt_name, (int)(decl.n > 64 ? 64 : decl.n), decl.p);
	f->name = tk_arena_strndup(a, decl.p + name_start, decl.n - name_start);
	if (!f->name)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	span type = trim((span){decl.p, name_start});
	if (f->is_data_loc) {
		/* "char[]": the element type, without the brackets */
		size_t br = find(type, "[");
		type = trim((span){type.p, br});
	}
	f->is_pointer = !f->is_data_loc && !f->is_array && type.n && type.p[type.n - 1] == '*';
	bool char_elems = is_char_type(type);
	f->is_string = (f->is_array || f->is_data_loc) && char_elems;

	tp_plan *pl = out.plan;
	pl->is_signed = f->is_signed && !f->is_pointer;
	pl->relative = f->is_dynamic;
	tk_field_class *cls = NULL;
	if (f->is_data_loc) {
		uint32_t es = char_elems ? 1 : type_size(type, long_size);
		f->elem_size = es;
		if (f->size != 4 && f->size != 2) {
			/* a location word we cannot read: keep the bytes */
			pl->kind = TP_PLAN_BYTES;
			cls = new_class(a, TK_TYPE_BYTES);
		} else if (f->is_string) {
			pl->kind = TP_PLAN_DYN_STRING;
			cls = new_class(a, TK_TYPE_STRING);
		} else if (valid_int_size(es)) {
			pl->kind = TP_PLAN_DYN_SEQ;
			pl->elem_size = (uint8_t)es;
			cls = new_class(a, TK_TYPE_SEQUENCE);
			if (cls && !(cls->element = new_int_class(a, es, pl->is_signed, 10)))
				cls = NULL;
		} else {
			pl->kind = TP_PLAN_DYN_BYTES;
			cls = new_class(a, TK_TYPE_BYTES);
		}
	} else if (f->is_array) {
		uint32_t es = 0, n = 0;
		if (dims_known && f->size % dims == 0) {
			n = (uint32_t)dims;
			es = f->size / n;
		} else {
			es = char_elems ? 1 : type_size(type, long_size);
			if (es && f->size % es == 0)
				n = f->size / es;
		}
		f->array_len = n;
		f->elem_size = es;
		if (f->is_string) {
			pl->kind = TP_PLAN_STRING;
			cls = new_class(a, TK_TYPE_STRING);
		} else if (n > 0 && valid_int_size(es)) {
			pl->kind = TP_PLAN_ARRAY;
			pl->elem_size = (uint8_t)es;
			cls = new_class(a, TK_TYPE_ARRAY);
			if (cls) {
				cls->length = n;
				if (!(cls->element = new_int_class(a, es, pl->is_signed, 10)))
					cls = NULL;
			}
		} else {
			pl->kind = TP_PLAN_BYTES;
			cls = new_class(a, TK_TYPE_BYTES);
		}
	} else {
		f->elem_size = f->size;
		if (valid_int_size(f->size)) {
			pl->kind = TP_PLAN_INT;
			pl->elem_size = (uint8_t)f->size;
			cls = new_int_class(a, f->size, pl->is_signed, f->is_pointer ? 16 : 10);
			if (cls && f->is_pointer)
				cls->semantic = TK_SEM_ADDR;
		} else {
			pl->kind = TP_PLAN_BYTES;
			cls = new_class(a, TK_TYPE_BYTES);
		}
	}
	if (!cls)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	*out.cls = cls;
	pl->offset = f->offset;
	pl->size = f->size;
	pl->count = f->array_len;
	pl->cls = cls;
	pl->elem = cls->element;
	return TK_OK;
}

/* Next line of text starting at *pos; advances *pos past its newline. */
static bool next_line(const char *text, size_t len, size_t *pos, span *line)
{
	if (*pos >= len)
		return false;
	size_t start = *pos, end = start;
	while (end < len && text[end] != '\n')
		end++;
	*line = (span){text + start, end - start};
	*pos = end < len ? end + 1 : end;
	return true;
}

/* "field:" or "field special:" (old ftrace formats); returns the rest. */
static bool field_line(span line, span *rest)
{
	span t = trim(line);
	if (starts_with(t, "field:")) {
		*rest = drop(t, 6);
		return true;
	}
	if (starts_with(t, "field special:")) {
		*rest = drop(t, 14);
		return true;
	}
	return false;
}

tk_status tp_format_parse(tk_arena *a, const char *system, const uint8_t *bytes, size_t len,
			  uint32_t long_size, uint64_t text_offset, tp_format_impl *out,
			  tk_error *err)
{
	memset(out, 0, sizeof *out);
	tk_perf_tp_format *fmt = &out->pub;
	char *text = tk_arena_strndup(a, (const char *)bytes, len);
	if (!text)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	fmt->text = text;
	fmt->text_len = len;
	fmt->system = system;

	/* Pass 1: header lines and the number of fields, so the arrays are
	 * allocated once at their exact size. */
	size_t pos = 0, n_fields = 0;
	bool have_id = false, in_format = false;
	span line, rest;
	while (next_line(text, len, &pos, &line)) {
		span t = trim(line);
		if (!in_format && starts_with(t, "name:")) {
			span v = trim(drop(t, 5));
			fmt->name = tk_arena_strndup(a, v.p, v.n);
			if (!fmt->name)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory");
		} else if (!in_format && starts_with(t, "ID:")) {
			if (!parse_u64(drop(t, 3), &fmt->id))
				return tk_error_set(err, TK_ERR_FORMAT,
						    text_offset + (uint64_t)(line.p - text),
						    "tracepoint format: bad ID line '%.*s'",
						    (int)(t.n > 64 ? 64 : t.n), t.p);
			have_id = true;
		} else if (starts_with(t, "format:")) {
			in_format = true;
		} else if (starts_with(t, "print fmt:")) {
			span v = trim((span){t.p + 10, (size_t)(text + len - (t.p + 10))});
			fmt->print_fmt = tk_arena_strndup(a, v.p, v.n);
			if (!fmt->print_fmt)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory");
			break;
		} else if (in_format && field_line(line, &rest)) {
			n_fields++;
		}
	}
	if (!fmt->name || !fmt->name[0])
		return tk_error_set(err, TK_ERR_FORMAT, text_offset,
				    "tracepoint format: no 'name:' line");
	if (!have_id)
		return tk_error_set(err, TK_ERR_FORMAT, text_offset,
				    "tracepoint format %s: no 'ID:' line", fmt->name);
	if (!fmt->print_fmt)
		fmt->print_fmt = "";

	tk_perf_tp_field *fields = tk_arena_calloc(a, n_fields ? n_fields : 1, sizeof *fields);
	out->plans = tk_arena_calloc(a, n_fields ? n_fields : 1, sizeof *out->plans);
	const tk_field_class **classes =
	    tk_arena_calloc(a, n_fields ? n_fields : 1, sizeof *classes);
	if (!fields || !out->plans || !classes)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");

	/* Pass 2: the fields. The block before the first blank line is the
	 * common header (common_type, common_pid, ...), as in libtraceevent. */
	pos = 0;
	in_format = false;
	size_t i = 0, blocks_seen = 0;
	bool in_block = false;
	size_t first_block_end = 0;
	while (i < n_fields && next_line(text, len, &pos, &line)) {
		span t = trim(line);
		if (starts_with(t, "print fmt:"))
			break;
		if (starts_with(t, "format:")) {
			in_format = true;
			continue;
		}
		if (!in_format)
			continue;
		if (t.n == 0) {
			if (in_block && blocks_seen == 1)
				first_block_end = i;
			in_block = false;
			continue;
		}
		if (!field_line(line, &rest))
			continue;
		if (!in_block) {
			in_block = true;
			blocks_seen++;
		}
		field_parse fp = {&fields[i], &out->plans[i], &classes[i]};
		tk_status st =
		    parse_field(a, rest, long_size, text_offset + (uint64_t)(line.p - text),
				fmt->name, fp, err);
		if (st != TK_OK)
			return st;
		i++;
	}
	if (blocks_seen == 1 && first_block_end == 0)
		first_block_end = i; /* single block, no trailing blank line yet */

	/* Common fields: the first block when a second one follows; with a
	 * single block, only its leading common_* fields (a format of
	 * common fields alone has an empty payload either way). */
	size_t n_common = 0;
	if (blocks_seen > 1) {
		n_common = first_block_end;
	} else {
		while (n_common < i && strncmp(fields[n_common].name, "common_", 7) == 0)
			n_common++;
	}
	uint32_t min_raw = 0;
	for (size_t k = 0; k < i; k++) {
		fields[k].is_common = k < n_common;
		if (fields[k].offset + fields[k].size > min_raw)
			min_raw = fields[k].offset + fields[k].size;
	}
	fmt->fields = fields;
	fmt->n_fields = i;
	fmt->n_common = n_common;
	out->min_raw_size = min_raw;

	/* Model class of the payload: the non-common fields, in order. */
	size_t n_members = i - n_common;
	tk_member *members = tk_arena_calloc(a, n_members ? n_members : 1, sizeof *members);
	tk_field_class *payload = new_class(a, TK_TYPE_STRUCT);
	if (!members || !payload)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t k = 0; k < n_members; k++) {
		members[k].name = fields[n_common + k].name;
		members[k].cls = classes[n_common + k];
	}
	payload->members = members;
	payload->n_members = n_members;
	fmt->payload = payload;
	return TK_OK;
}
