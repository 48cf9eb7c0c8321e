/* Synthesized tracepoint formats (see perfw_tpfmt.h). */
#include "perf/writer/perfw_tpfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

/* What tracefs shows on x86_64; libtraceevent parses both. */
static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
				  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
				  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
				  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] = "# compressed entry header\n"
				   "\ttype_len    :    5 bits\n"
				   "\ttime_delta  :   27 bits\n"
				   "\tarray       :   32 bits\n"
				   "\n"
				   "\tpadding     : type == 29\n"
				   "\ttime_extend : type == 30\n"
				   "\ttime_stamp : type == 31\n"
				   "\tdata max type_len  == 28\n";

void perfw_identifier(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	if (s && (*s >= '0' && *s <= '9') && cap > 2)
		out[n++] = '_';
	for (; s && *s && n + 1 < cap; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_';
		out[n++] = ok ? c : '_';
	}
	if (n == 0 && cap > 6) {
		memcpy(out, "field", 5);
		n = 5;
	}
	out[n] = 0;
}

typedef struct builder {
	perfw_tpclass *tc;
	size_t cap;
	uint32_t off;
	bool text_arrays;
} builder;

/* The header every synthesized format starts with (put_format). */
static bool is_common_field(const char *name)
{
	return strcmp(name, "common_type") == 0 || strcmp(name, "common_flags") == 0 ||
	       strcmp(name, "common_preempt_count") == 0 || strcmp(name, "common_pid") == 0;
}

static bool name_taken(const perfw_tpclass *tc, const char *name)
{
	if (is_common_field(name))
		return true;
	for (size_t i = 0; i < tc->n_fields; i++)
		if (strcmp(tc->fields[i].name, name) == 0)
			return true;
	return false;
}

static uint32_t int_size(unsigned bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

static tk_status add_field(builder *b, const char *name, const tk_field_class *cls, uint8_t root,
			   const uint16_t *path, uint8_t depth, tk_error *err)
{
	perfw_tpclass *tc = b->tc;
	/* A tracepoint's own header (a perf source, perf's CTF): the format
	 * has its own, written for every sample. */
	if (cls->kind == TK_TYPE_INT && depth == 1 && is_common_field(name))
		return TK_OK;
	if (tc->n_fields >= PERFW_TP_MAX_FIELDS) {
		tc->truncated = true;
		return TK_OK;
	}
	if (tc->n_fields == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		perfw_field *nf = realloc(tc->fields, cap * sizeof *nf);
		if (!nf)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		tc->fields = nf;
		b->cap = cap;
	}
	perfw_field f;
	memset(&f, 0, sizeof f);
	f.cls = cls;
	f.root = root;
	f.depth = depth;
	memcpy(f.path, path, depth * sizeof *path);
	const tk_field_class *el = cls->element;
	if (cls->kind == TK_TYPE_INT) {
		f.kind = PERFW_F_INT;
		f.size = int_size(cls->bits);
		f.is_signed = cls->is_signed;
		/* libtraceevent reads a field without sign extension and prints
		 * "%d" of its value cast to int: a signed char or short holding
		 * -1 would print 255 or 65535. Signed fields are at least ints
		 * (written sign-extended), as perf's own formats declare them. */
		if (f.is_signed && f.size < 4)
			f.size = 4;
	} else if (cls->kind == TK_TYPE_STRING) {
		f.kind = PERFW_F_STR;
	} else if (cls->kind == TK_TYPE_BYTES) {
		f.kind = PERFW_F_BYTES;
	} else if ((cls->kind == TK_TYPE_ARRAY || cls->kind == TK_TYPE_SEQUENCE) && el &&
		   !b->text_arrays && el->kind == TK_TYPE_INT && !el->is_char && !el->is_signed &&
		   !el->n_mappings) {
		/* (__print_array prints elements unsigned: signed and enum
		 * arrays go out as text) */
		f.kind = PERFW_F_INTARR;
		f.elem_size = (uint8_t)int_size(el->bits);
		f.is_signed = el->is_signed;
	} else {
		f.kind = PERFW_F_TEXT;
	}
	if (f.kind != PERFW_F_INT)
		f.size = 4; /* __data_loc: u32 (len << 16 | offset) */
	b->off = (b->off + f.size - 1) & ~(f.size - 1);
	f.offset = b->off;
	b->off += f.size;

	char base[72], uniq[80];
	perfw_identifier(name, base, sizeof base);
	snprintf(uniq, sizeof uniq, "%s", base);
	for (unsigned k = 2; name_taken(tc, uniq); k++)
		snprintf(uniq, sizeof uniq, "%s_%u", base, k);
	f.name = strdup(uniq);
	if (!f.name)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tc->fields[tc->n_fields++] = f;
	return TK_OK;
}

static tk_status add_members(builder *b, const tk_field_class *st, uint8_t root, const char *prefix,
			     uint16_t *path, uint8_t depth, tk_error *err)
{
	if (!st || st->kind != TK_TYPE_STRUCT)
		return TK_OK;
	for (size_t i = 0; i < st->n_members && i < UINT16_MAX; i++) {
		const tk_member *m = &st->members[i];
		char name[160];
		if (prefix)
			snprintf(name, sizeof name, "%s_%s", prefix, m->name ? m->name : "");
		else
			snprintf(name, sizeof name, "%s", m->name ? m->name : "");
		path[depth] = (uint16_t)i;
		tk_status st2;
		if (m->cls->kind == TK_TYPE_STRUCT && depth + 1 < PERFW_TP_MAX_DEPTH)
			st2 = add_members(b, m->cls, root, name, path, (uint8_t)(depth + 1), err);
		else
			st2 = add_field(b, name, m->cls, root, path, (uint8_t)(depth + 1), err);
		if (st2 != TK_OK)
			return st2;
	}
	return TK_OK;
}

static const char *c_int_type(uint32_t size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? "signed char" : "unsigned char";
	case 2: return is_signed ? "short" : "unsigned short";
	case 4: return is_signed ? "int" : "unsigned int";
	default: return is_signed ? "long long" : "unsigned long long";
	}
}

/* A quoted label for __print_symbolic: no quote or backslash inside. */
static void put_label(tk_writer *w, const char *s)
{
	tk_put_char(w, '"');
	for (; s && *s; s++)
		tk_put_char(w, (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20) ? '_' : *s);
	tk_put_char(w, '"');
}

/* Symbolic mapping for an enum: single values, and small ranges spelled out. */
static bool put_symbolic(tk_writer *args, const perfw_field *f)
{
	const tk_field_class *c = f->cls;
	size_t used = 0;
	for (size_t i = 0; i < c->n_mappings; i++) {
		const tk_enum_mapping *m = &c->mappings[i];
		uint64_t span = m->hi - m->lo;
		if (span > 16)
			continue;
		for (uint64_t k = 0; k <= span; k++) {
			tk_put_str(args, used++ ? ", { " : ", { ");
			/* libtraceevent compares the field's bytes, read without
			 * sign extension, with the value: a negative value of a
			 * 4-byte field is written as its 32-bit pattern */
			uint64_t v = m->lo + k;
			if (c->is_signed && f->size < 8)
				v &= (UINT64_C(1) << (8 * f->size)) - 1;
			tk_put_u64(args, v);
			tk_put_str(args, ", ");
			put_label(args, m->label);
			tk_put_str(args, " }");
		}
	}
	return used > 0;
}

static void put_print_fmt(tk_writer *w, const perfw_tpclass *tc)
{
	tk_writer *args;
	if (tk_writer_open_memory(&args, NULL) != TK_OK)
		return;
	tk_put_str(w, "print fmt: \"");
	for (size_t i = 0; i < tc->n_fields; i++) {
		const perfw_field *f = &tc->fields[i];
		if (i)
			tk_put_char(w, ' ');
		tk_put_str(w, f->name);
		tk_put_char(w, '=');
		tk_put_str(args, ", ");
		switch (f->kind) {
		case PERFW_F_INT:
			if (f->cls->n_mappings) {
				size_t mark = args->pos;
				tk_put_str(args, "__print_symbolic(REC->");
				tk_put_str(args, f->name);
				if (put_symbolic(args, f)) {
					tk_put_str(w, "%s");
					tk_put_char(args, ')');
					break;
				}
				args->pos = mark;
			}
			if (f->cls->base == 16)
				tk_put_str(w, f->size == 8 ? "0x%llx" : "0x%x");
			else if (f->is_signed)
				tk_put_str(w, f->size == 8 ? "%lld" : "%d");
			else
				tk_put_str(w, f->size == 8 ? "%llu" : "%u");
			tk_put_str(args, "REC->");
			tk_put_str(args, f->name);
			break;
		case PERFW_F_STR:
		case PERFW_F_TEXT:
			tk_put_str(w, "%s");
			tk_put_fmt(args, "__get_str(%s)", f->name);
			break;
		case PERFW_F_BYTES:
			tk_put_str(w, "%s");
			tk_put_fmt(
			    args,
			    "__print_hex(__get_dynamic_array(%s), __get_dynamic_array_len(%s))",
			    f->name, f->name);
			break;
		case PERFW_F_INTARR:
			tk_put_str(w, "%s");
			tk_put_fmt(args,
				   "__print_array(__get_dynamic_array(%s), "
				   "(__get_dynamic_array_len(%s) / %u), %u)",
				   f->name, f->name, f->elem_size, f->elem_size);
			break;
		}
	}
	tk_put_char(w, '"');
	size_t n;
	const char *a = tk_writer_data(args, &n);
	tk_put_mem(w, a, n);
	tk_put_char(w, '\n');
	tk_writer_abort(args);
}

tk_status perfw_tpclass_build(perfw_tpclass *tc, const tk_event_class *cls,
			      const tk_field_class *stream_ctx, uint16_t id, bool text_arrays,
			      tk_error *err)
{
	memset(tc, 0, sizeof *tc);
	tc->cls = cls;
	tc->id = id;
	char name[128];
	perfw_identifier(cls->name, name, sizeof name);
	tc->name = strdup(name);
	if (!tc->name)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	builder b = {tc, 0, PERFW_TP_COMMON_SIZE, text_arrays};
	uint16_t path[PERFW_TP_MAX_DEPTH];
	tk_status st = add_members(&b, stream_ctx, 0, NULL, path, 0, err);
	if (st == TK_OK)
		st = add_members(&b, cls->context, 1, NULL, path, 0, err);
	if (st == TK_OK)
		st = add_members(&b, cls->payload, 2, NULL, path, 0, err);
	if (st != TK_OK)
		return st;
	tc->fixed_size = b.off;

	tk_writer *w;
	if ((st = tk_writer_open_memory(&w, err)) != TK_OK)
		return st;
	tk_put_fmt(w, "name: %s\nID: %u\nformat:\n", tc->name, id);
	tk_put_str(w, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (size_t i = 0; i < tc->n_fields; i++) {
		const perfw_field *f = &tc->fields[i];
		tk_put_str(w, "\tfield:");
		switch (f->kind) {
		case PERFW_F_INT:
			tk_put_fmt(w, "%s %s", c_int_type(f->size, f->is_signed), f->name);
			break;
		case PERFW_F_STR:
		case PERFW_F_TEXT: tk_put_fmt(w, "__data_loc char[] %s", f->name); break;
		case PERFW_F_BYTES: tk_put_fmt(w, "__data_loc unsigned char[] %s", f->name); break;
		case PERFW_F_INTARR:
			tk_put_fmt(w, "__data_loc %s[] %s", c_int_type(f->elem_size, f->is_signed),
				   f->name);
			break;
		}
		tk_put_fmt(w, ";\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset, f->size,
			   f->kind == PERFW_F_INT && f->is_signed);
	}
	tk_put_char(w, '\n');
	put_print_fmt(w, tc);
	size_t n;
	const char *text = tk_writer_data(w, &n);
	tc->format = malloc(n + 1);
	if (tc->format) {
		memcpy(tc->format, text, n);
		tc->format[n] = 0;
		tc->format_len = n;
	}
	bool failed = w->error != 0 || !tc->format;
	tk_writer_abort(w);
	if (failed)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

void perfw_tpclass_free(perfw_tpclass *tc)
{
	for (size_t i = 0; i < tc->n_fields; i++)
		free(tc->fields[i].name);
	free(tc->fields);
	free(tc->name);
	free(tc->format);
	memset(tc, 0, sizeof *tc);
}

static void put_n(tk_writer *w, uint64_t v, unsigned size, bool swap)
{
	uint8_t b[8];
	if (size == 4)
		tk_store_u32(b, (uint32_t)v, swap);
	else
		tk_store_u64(b, v, swap);
	tk_put_mem(w, b, size);
}

tk_status perfw_tracing_data(const perfw_tpclass *const *classes, size_t n, const char *system,
			     bool big, tk_writer **out, tk_error *err)
{
	tk_writer *w;
	tk_status st = tk_writer_open_memory(&w, err);
	if (st != TK_OK)
		return st;
	bool swap = big == tk_host_is_le();
	tk_put_mem(w, "\x17\x08\x44tracing0.6", 13);
	tk_put_char(w, 0);
	tk_put_char(w, big ? 1 : 0);
	tk_put_char(w, 8);       /* sizeof(long) */
	put_n(w, 4096, 4, swap); /* page size */
	tk_put_mem(w, "header_page", 12);
	put_n(w, sizeof header_page - 1, 8, swap);
	tk_put_mem(w, header_page, sizeof header_page - 1);
	tk_put_mem(w, "header_event", 13);
	put_n(w, sizeof header_event - 1, 8, swap);
	tk_put_mem(w, header_event, sizeof header_event - 1);
	put_n(w, 0, 4, swap); /* ftrace formats */
	put_n(w, 1, 4, swap); /* one system */
	tk_put_mem(w, system, strlen(system) + 1);
	put_n(w, n, 4, swap);
	for (size_t i = 0; i < n; i++) {
		put_n(w, classes[i]->format_len, 8, swap);
		tk_put_mem(w, classes[i]->format, classes[i]->format_len);
	}
	put_n(w, 0, 4, swap); /* kallsyms */
	put_n(w, 0, 4, swap); /* printk formats */
	put_n(w, 0, 8, swap); /* saved cmdlines */
	if (w->error) {
		tk_writer_abort(w);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	*out = w;
	return TK_OK;
}
