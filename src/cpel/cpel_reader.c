/* CPEL reader; see cpel_reader.h. Two passes over the section headers:
 * the first finds every section and string table (sections may come in any
 * order), the second binds definitions and event sections to their tables. */
#include "cpel/cpel_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

const char *tk_cpel_section_name(uint32_t type)
{
	switch (type) {
	case TK_CPEL_SECTION_STRTAB: return "STRTAB";
	case TK_CPEL_SECTION_SYMTAB: return "SYMTAB";
	case TK_CPEL_SECTION_EVTDEF: return "EVTDEF";
	case TK_CPEL_SECTION_TRACKDEF: return "TRACKDEF";
	case TK_CPEL_SECTION_EVENT: return "EVENT";
	default: return "unknown";
	}
}

bool tk_cpel_detect(const uint8_t *head, size_t n)
{
	/* Version 1..0x7f in the low bits, the endian bit, a zero pad byte and
	 * at least one section. A Gist log (big-endian event count) looks like
	 * version 0, which we do not claim. */
	if (n < TK_CPEL_FILE_HEADER)
		return false;
	uint8_t v = head[0] & 0x7f;
	if (head[1] != 0)
		return false;
	bool le = head[0] & TK_CPEL_LITTLE_ENDIAN;
	uint16_t ns = le ? tk_load_le16(head + 2) : tk_load_be16(head + 2);
	if (ns == 0)
		return false;
	if (v == 1)
		return true;
	/* Another version: claim it only when a CPEL section header follows,
	 * so the reader can say "unsupported version" instead of "unknown". */
	if (n < 16)
		return false;
	uint32_t type = le ? tk_load_le32(head + 8) : tk_load_be32(head + 8);
	return type >= TK_CPEL_SECTION_STRTAB && type <= TK_CPEL_SECTION_EVENT;
}

static void warn(tk_log_fn log, void *user, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(tk_log_fn log, void *user, const char *fmt, ...)
{
	if (!log)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	log(user, 0, msg);
}

const char *tk_cpel_string(const tk_cpel_strtab *t, uint32_t off, size_t *len)
{
	if (!t || off >= t->size)
		return NULL;
	const char *s = t->data + off;
	const char *nul = memchr(s, 0, t->size - off);
	if (!nul)
		return NULL;
	if (len)
		*len = (size_t)(nul - s);
	return s;
}

const tk_cpel_evtdef *tk_cpel_find_evtdef(const tk_cpel_file *f, uint32_t code)
{
	const uint64_t *p = tk_hashmap_get(&f->evtdef_by_code, code);
	return p ? &f->evtdefs[*p - 1] : NULL;
}

const tk_cpel_trackdef *tk_cpel_find_trackdef(const tk_cpel_file *f, uint32_t track)
{
	const uint64_t *p = tk_hashmap_get(&f->trackdef_by_code, track);
	return p ? &f->trackdefs[*p - 1] : NULL;
}

/* The string table a section names in its 64-byte header field. */
static tk_status find_table(const tk_cpel_file *f, const tk_cpel_section *s,
			    const tk_cpel_strtab **out, tk_error *err)
{
	const char *name = (const char *)s->data;
	size_t n = strnlen(name, TK_CPEL_TABLE_NAME);
	for (size_t i = 0; i < f->n_strtabs; i++) {
		const tk_cpel_strtab *t = &f->strtabs[i];
		if (strlen(t->name) == n && memcmp(t->name, name, n) == 0) {
			*out = &f->strtabs[i];
			return TK_OK;
		}
	}
	char shown[TK_CPEL_TABLE_NAME + 1];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		shown[k++] = (name[i] >= 0x20 && name[i] < 0x7f) ? name[i] : '?';
	shown[k] = 0;
	return tk_error_set(err, TK_ERR_FORMAT, s->offset + TK_CPEL_SECTION_HEADER,
			    "%s section at offset 0x%llx: string table '%s' not found",
			    tk_cpel_section_name(s->type), (unsigned long long)s->offset, shown);
}

/* A string offset read at file offset `at` for a definition. */
static tk_status table_string(const tk_cpel_file *f, const tk_cpel_section *s,
			      const tk_cpel_strtab *t, const uint8_t *field, const char *what,
			      uint32_t index, const char **out, tk_error *err)
{
	uint32_t off = tk_cpel_u32(f, field);
	uint64_t at = (uint64_t)(field - f->data);
	*out = tk_cpel_string(t, off, NULL);
	if (*out)
		return TK_OK;
	if (off >= t->size)
		return tk_error_set(err, TK_ERR_FORMAT, at,
				    "%s section at offset 0x%llx: entry %u: %s offset 0x%x is past "
				    "the end of string table '%s' (%u bytes)",
				    tk_cpel_section_name(s->type), (unsigned long long)s->offset,
				    index, what, off, t->name, t->size);
	return tk_error_set(err, TK_ERR_FORMAT, at,
			    "%s section at offset 0x%llx: entry %u: %s at offset 0x%x runs past "
			    "the end of string table '%s'",
			    tk_cpel_section_name(s->type), (unsigned long long)s->offset, index,
			    what, off, t->name);
}

/* Header + count of a table section: 64-byte name, u32 count, entries. */
static tk_status table_count(const tk_cpel_file *f, const tk_cpel_section *s, size_t header,
			     size_t entry, uint32_t *count, tk_error *err)
{
	if (s->length < header)
		return tk_error_set(
		    err, TK_ERR_FORMAT, s->offset + 4,
		    "%s section at offset 0x%llx: length %u is smaller than its %zu-byte header",
		    tk_cpel_section_name(s->type), (unsigned long long)s->offset, s->length,
		    header);
	*count = tk_cpel_u32(f, s->data + TK_CPEL_TABLE_NAME);
	if ((uint64_t)*count * entry > s->length - header)
		return tk_error_set(err, TK_ERR_FORMAT,
				    s->offset + TK_CPEL_SECTION_HEADER + TK_CPEL_TABLE_NAME,
				    "%s section at offset 0x%llx: %u entries of %zu bytes do not "
				    "fit in its %zu data bytes",
				    tk_cpel_section_name(s->type), (unsigned long long)s->offset,
				    *count, entry, (size_t)(s->length - header));
	return TK_OK;
}

static void *grow(void *p, size_t n, size_t elem, size_t *cap)
{
	if (n < *cap)
		return p;
	size_t nc = *cap ? *cap * 2 : 8;
	void *np = realloc(p, nc * elem);
	if (np)
		*cap = nc;
	return np;
}

static size_t raw_len(const char *s)
{
	return strlen(s);
}

static tk_status bind_evtdef(tk_cpel_file *f, const tk_cpel_section *s, tk_log_fn log, void *user,
			     size_t *cap, tk_error *err)
{
	const tk_cpel_strtab *t;
	uint32_t count;
	tk_status st = table_count(f, s, TK_CPEL_TABLE_NAME + 4, 12, &count, err);
	if (st == TK_OK)
		st = find_table(f, s, &t, err);
	if (st != TK_OK)
		return st;
	const uint8_t *p = s->data + TK_CPEL_TABLE_NAME + 4;
	for (uint32_t i = 0; i < count; i++, p += 12) {
		tk_cpel_evtdef d;
		d.code = tk_cpel_u32(f, p);
		if ((st = table_string(f, s, t, p + 4, "event format", i, &d.name_format, err)) !=
			TK_OK ||
		    (st = table_string(f, s, t, p + 8, "datum format", i, &d.datum_format, err)) !=
			TK_OK)
			return st;
		if (tk_hashmap_get(&f->evtdef_by_code, d.code)) {
			f->n_duplicate_defs++;
			warn(log, user,
			     "EVTDEF section at offset 0x%llx: event %u redefined, the first "
			     "definition is kept",
			     (unsigned long long)s->offset, d.code);
			continue;
		}
		bool seen_percent = false;
		d.datum_is_string = false;
		for (const char *c = d.datum_format; *c; c++) {
			if (*c == '%')
				seen_percent = true;
			else if (seen_percent && *c == 's')
				d.datum_is_string = true;
		}
		tk_cpel_evtdef *nd = grow(f->evtdefs, f->n_evtdefs, sizeof *nd, cap);
		if (!nd)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		f->evtdefs = nd;
		f->evtdefs[f->n_evtdefs++] = d;
		if (!tk_hashmap_put(&f->evtdef_by_code, d.code, f->n_evtdefs))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		size_t w = raw_len(d.name_format);
		if (w > f->widest_name_format)
			f->widest_name_format = w;
	}
	return TK_OK;
}

static tk_status bind_trackdef(tk_cpel_file *f, const tk_cpel_section *s, tk_log_fn log, void *user,
			       size_t *cap, tk_error *err)
{
	const tk_cpel_strtab *t;
	uint32_t count;
	tk_status st = table_count(f, s, TK_CPEL_TABLE_NAME + 4, 8, &count, err);
	if (st == TK_OK)
		st = find_table(f, s, &t, err);
	if (st != TK_OK)
		return st;
	const uint8_t *p = s->data + TK_CPEL_TABLE_NAME + 4;
	for (uint32_t i = 0; i < count; i++, p += 8) {
		tk_cpel_trackdef d;
		d.track = tk_cpel_u32(f, p);
		if ((st = table_string(f, s, t, p + 4, "track format", i, &d.format, err)) != TK_OK)
			return st;
		if (tk_hashmap_get(&f->trackdef_by_code, d.track)) {
			f->n_duplicate_defs++;
			warn(log, user,
			     "TRACKDEF section at offset 0x%llx: track %u redefined, the first "
			     "definition is kept",
			     (unsigned long long)s->offset, d.track);
			continue;
		}
		tk_cpel_trackdef *nd = grow(f->trackdefs, f->n_trackdefs, sizeof *nd, cap);
		if (!nd)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		f->trackdefs = nd;
		f->trackdefs[f->n_trackdefs++] = d;
		if (!tk_hashmap_put(&f->trackdef_by_code, d.track, f->n_trackdefs))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		size_t w = raw_len(d.format);
		if (w > f->widest_track_format)
			f->widest_track_format = w;
	}
	return TK_OK;
}

static tk_status bind_symtab(tk_cpel_file *f, const tk_cpel_section *s, tk_cpel_symtab *out,
			     tk_error *err)
{
	uint32_t count;
	tk_status st = table_count(f, s, TK_CPEL_TABLE_NAME + 4, 8, &count, err);
	if (st == TK_OK)
		st = find_table(f, s, &out->strtab, err);
	if (st != TK_OK)
		return st;
	tk_cpel_symbol *syms = count ? tk_arena_calloc(&f->arena, count, sizeof *syms) : NULL;
	if (count && !syms)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	const uint8_t *p = s->data + TK_CPEL_TABLE_NAME + 4;
	for (uint32_t i = 0; i < count; i++, p += 8) {
		syms[i].value = tk_cpel_u32(f, p);
		if ((st = table_string(f, s, out->strtab, p + 4, "symbol name", i, &syms[i].name,
				       err)) != TK_OK)
			return st;
	}
	out->symbols = syms;
	out->count = count;
	return TK_OK;
}

static tk_status bind_events(tk_cpel_file *f, const tk_cpel_section *s, tk_cpel_events *out,
			     tk_error *err)
{
	uint32_t count;
	tk_status st = table_count(f, s, TK_CPEL_TABLE_NAME + 8, TK_CPEL_EVENT_SIZE, &count, err);
	if (st == TK_OK)
		st = find_table(f, s, &out->strtab, err);
	if (st != TK_OK)
		return st;
	out->count = count;
	out->ticks_per_second = tk_cpel_u32(f, s->data + TK_CPEL_TABLE_NAME + 4);
	if (count && out->ticks_per_second == 0)
		return tk_error_set(err, TK_ERR_FORMAT,
				    s->offset + TK_CPEL_SECTION_HEADER + TK_CPEL_TABLE_NAME + 4,
				    "EVENT section at offset 0x%llx: clock_ticks_per_second is 0",
				    (unsigned long long)s->offset);
	out->records = s->data + TK_CPEL_TABLE_NAME + 8;
	out->offset = (uint64_t)(out->records - f->data);
	out->section_offset = s->offset;
	f->n_events += count;
	return TK_OK;
}

/* First pass: the section headers and the string tables. */
static tk_status scan_sections(tk_cpel_file *f, tk_log_fn log, void *user, tk_error *err)
{
	/* nsections is at most 65535: a bounded allocation. */
	f->sections =
	    tk_arena_calloc(&f->arena, f->nsections ? f->nsections : 1, sizeof *f->sections);
	f->strtabs =
	    tk_arena_calloc(&f->arena, f->nsections ? f->nsections : 1, sizeof *f->strtabs);
	if (!f->sections || !f->strtabs)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	uint64_t off = TK_CPEL_FILE_HEADER;
	for (uint16_t i = 0; i < f->nsections; i++) {
		if (!tk_range_ok(off, TK_CPEL_SECTION_HEADER, f->size))
			return tk_error_set(err, TK_ERR_TRUNCATED, off,
					    "section %u of %u: header at offset 0x%llx is past the "
					    "end of the file (%llu bytes); the file header "
					    "announces more sections than the file holds",
					    i + 1, f->nsections, (unsigned long long)off,
					    (unsigned long long)f->size);
		tk_cpel_section *s = &f->sections[f->n_sections];
		s->type = tk_cpel_u32(f, f->data + off);
		s->length = tk_cpel_u32(f, f->data + off + 4);
		s->offset = off;
		if (!tk_range_ok(off + TK_CPEL_SECTION_HEADER, s->length, f->size))
			return tk_error_set(
			    err, TK_ERR_TRUNCATED, off + 4,
			    "%s section at offset 0x%llx: length %u runs past the end of the file "
			    "(%llu bytes left)",
			    tk_cpel_section_name(s->type), (unsigned long long)off, s->length,
			    (unsigned long long)(f->size - off - TK_CPEL_SECTION_HEADER));
		s->data = f->data + off + TK_CPEL_SECTION_HEADER;
		f->n_sections++;
		if (s->type == TK_CPEL_SECTION_STRTAB) {
			const char *d = (const char *)s->data;
			if (s->length == 0 || !memchr(d, 0, s->length))
				return tk_error_set(err, TK_ERR_FORMAT,
						    off + TK_CPEL_SECTION_HEADER,
						    "STRTAB section at offset 0x%llx: the table "
						    "name is not NUL-terminated",
						    (unsigned long long)off);
			for (size_t k = 0; k < f->n_strtabs; k++)
				if (strcmp(f->strtabs[k].name, d) == 0)
					warn(log, user,
					     "STRTAB section at offset 0x%llx: duplicate string "
					     "table name '%s'; the first is used",
					     (unsigned long long)off, d);
			tk_cpel_strtab *t = &f->strtabs[f->n_strtabs++];
			t->name = d;
			t->data = d;
			t->size = s->length;
			t->offset = off + TK_CPEL_SECTION_HEADER;
		} else if (s->type < TK_CPEL_SECTION_STRTAB || s->type > TK_CPEL_SECTION_EVENT) {
			f->n_unknown_sections++;
			warn(log, user,
			     "section at offset 0x%llx has unknown type %u (%u bytes): skipped",
			     (unsigned long long)off, s->type, s->length);
		}
		off += TK_CPEL_SECTION_HEADER + (uint64_t)s->length;
	}
	if (off < f->size)
		warn(log, user, "%llu bytes after the last section (offset 0x%llx) ignored",
		     (unsigned long long)(f->size - off), (unsigned long long)off);
	return TK_OK;
}

static tk_status load(tk_cpel_file *f, tk_log_fn log, void *user, tk_error *err)
{
	if (f->size < TK_CPEL_FILE_HEADER)
		return tk_error_set(err, TK_ERR_TRUNCATED, 0,
				    "file header: %llu bytes, a CPEL header needs 8",
				    (unsigned long long)f->size);
	uint8_t ev = f->data[0];
	f->little_endian = ev & TK_CPEL_LITTLE_ENDIAN;
	f->version = ev & 0x7f;
	f->swap = f->little_endian != tk_host_is_le();
	if (f->version != 1)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, 0,
				    "file header: unsupported CPEL version %u (only 1 is known)",
				    f->version);
	f->nsections = f->little_endian ? tk_load_le16(f->data + 2) : tk_load_be16(f->data + 2);
	f->file_date = tk_cpel_u32(f, f->data + 4);
	f->widest_name_format = 5;
	f->widest_track_format = 5;
	tk_status st = scan_sections(f, log, user, err);
	if (st != TK_OK)
		return st;
	size_t n_sym = 0, n_ev = 0;
	for (size_t i = 0; i < f->n_sections; i++) {
		n_sym += f->sections[i].type == TK_CPEL_SECTION_SYMTAB;
		n_ev += f->sections[i].type == TK_CPEL_SECTION_EVENT;
	}
	f->symtabs = tk_arena_calloc(&f->arena, n_sym + 1, sizeof *f->symtabs);
	f->event_sections = tk_arena_calloc(&f->arena, n_ev + 1, sizeof *f->event_sections);
	if (!f->symtabs || !f->event_sections)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	size_t evcap = 0, trcap = 0;
	for (size_t i = 0; i < f->n_sections && st == TK_OK; i++) {
		const tk_cpel_section *s = &f->sections[i];
		switch (s->type) {
		case TK_CPEL_SECTION_SYMTAB:
			st = bind_symtab(f, s, &f->symtabs[f->n_symtabs++], err);
			break;
		case TK_CPEL_SECTION_EVTDEF: st = bind_evtdef(f, s, log, user, &evcap, err); break;
		case TK_CPEL_SECTION_TRACKDEF:
			st = bind_trackdef(f, s, log, user, &trcap, err);
			break;
		case TK_CPEL_SECTION_EVENT:
			st = bind_events(f, s, &f->event_sections[f->n_event_sections++], err);
			break;
		default: break;
		}
	}
	return st;
}

static tk_status open_common(tk_cpel_file *f, const char *name, tk_log_fn log, void *user,
			     tk_cpel_file **out, tk_error *err)
{
	tk_status st = load(f, log, user, err);
	if (st != TK_OK) {
		if (err && name)
			tk_error_set_file(err, name);
		tk_cpel_close(f);
		return st;
	}
	*out = f;
	return TK_OK;
}

static tk_cpel_file *new_file(void)
{
	tk_cpel_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	tk_arena_init(&f->arena, 16384);
	tk_hashmap_init(&f->evtdef_by_code);
	tk_hashmap_init(&f->trackdef_by_code);
	return f;
}

tk_status tk_cpel_open(const char *path, tk_log_fn log, void *log_user, tk_cpel_file **out,
		       tk_error *err)
{
	*out = NULL;
	tk_input *in;
	tk_status st = tk_input_open(path, &in, err);
	if (st != TK_OK)
		return st;
	if (tk_input_is_stream(in)) {
		tk_input_close(in);
		return tk_error_set(
		    err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
		    "CPEL input must be a regular file (sections may come in any order)");
	}
	tk_cpel_file *f = new_file();
	if (!f) {
		tk_input_close(in);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	f->input = in;
	f->data = tk_input_data(in);
	f->size = tk_input_size(in);
	return open_common(f, path, log, log_user, out, err);
}

tk_status tk_cpel_open_memory(const void *data, size_t size, const char *name, tk_log_fn log,
			      void *log_user, tk_cpel_file **out, tk_error *err)
{
	*out = NULL;
	tk_cpel_file *f = new_file();
	if (!f)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	f->data = data;
	f->size = size;
	return open_common(f, name, log, log_user, out, err);
}

void tk_cpel_close(tk_cpel_file *f)
{
	if (!f)
		return;
	free(f->evtdefs);
	free(f->trackdefs);
	tk_hashmap_free(&f->evtdef_by_code);
	tk_hashmap_free(&f->trackdef_by_code);
	tk_arena_free(&f->arena);
	tk_input_close(f->input);
	free(f);
}
