/* JIT symbol maps (/tmp/perf-PID.map): "START SIZE NAME" per line, START
 * and SIZE in hex, NAME the rest of the line (it may contain blanks).
 * JITs append while running, so an unterminated last line is accepted. */
#include <stdlib.h>
#include <string.h>

#include "symbols/symtab_internal.h"
#include "symbols/symtext.h"

#define PERF_MAP_LIMIT ((size_t)1 << 30)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static tk_status parse(tk_symtab *t, const char *s, size_t n, tk_error *err)
{
	size_t pos = 0;
	uint64_t lines = 0;
	while (pos < n) {
		const char *nl = memchr(s + pos, '\n', n - pos);
		size_t end = nl ? (size_t)(nl - s) : n;
		lines++;
		size_t last = end;
		while (last > pos && (is_blank(s[last - 1]) || s[last - 1] == '\r'))
			last--;
		if (last == pos) {
			pos = end + 1;
			continue;
		}
		size_t i = pos;
		uint64_t start, size;
		bool ok = tk_symtext_hex(s, last, &i, &start) && i < last && is_blank(s[i]);
		while (ok && i < last && is_blank(s[i]))
			i++;
		ok = ok && tk_symtext_hex(s, last, &i, &size) && i < last && is_blank(s[i]);
		while (ok && i < last && is_blank(s[i]))
			i++;
		if (!ok || i >= last)
			return tk_error_set(err, TK_ERR_FORMAT, pos,
					    "perf map line %llu: expected 'START SIZE NAME' in hex",
					    (unsigned long long)lines);
		if (!tk_symtab_add(t, s + i, last - i, start, size, 'T', TK_BIND_GLOBAL, NULL, 0))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "out of memory for symbols");
		pos = end + 1;
	}
	tk_symtab_finish(t, TK_SYMTAB_PLAIN);
	return TK_OK;
}

tk_status tk_symtab_load_perf_map_memory(const char *text, size_t len, const char *name,
					 tk_symtab **out, tk_error *err)
{
	*out = NULL;
	if (name)
		tk_error_set_file(err, name);
	tk_symtab *t = tk_symtab_new(name);
	if (!t)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = parse(t, text, len, err);
	if (st != TK_OK) {
		tk_symtab_free(t);
		return st;
	}
	*out = t;
	return TK_OK;
}

tk_status tk_symtab_load_perf_map(const char *path, tk_symtab **out, tk_error *err)
{
	*out = NULL;
	char *text;
	size_t len;
	tk_status st = tk_symtext_read(path, PERF_MAP_LIMIT, &text, &len, err);
	if (st != TK_OK)
		return st;
	st = tk_symtab_load_perf_map_memory(text, len, path, out, err);
	free(text);
	return st;
}
