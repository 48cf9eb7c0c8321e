/* /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]" per line. Kept types are
 * perf's symbol_type__filter(): T, W, D, B in either case. Kernel symbols
 * carry no sizes: each ends where the next begins. */
#include <ctype.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/kallsyms_core.h"
#include "symbols/kernel_syms.h"
#include "symbols/symtab_internal.h"
#include "symbols/symtext.h"

/* /proc/kallsyms is a few MiB; a generous bound against runaway input. */
#define KALLSYMS_LIMIT ((size_t)256 << 20)

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool kept_type(char type)
{
	char t = (char)toupper((unsigned char)type);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

/* kallsyms__get_function_start() accepts functions (T, W in either case)
 * and, for PARISC64's "_text", absolute symbols (A); the first line wins. */
static void note_reference(tk_symtab *t, char type, const char *name, size_t len, uint64_t addr)
{
	char u = (char)toupper((unsigned char)type);
	if (name[0] != '_' || !(u == 'T' || u == 'W' || type == 'A'))
		return;
	if (len == 5 && memcmp(name, "_text", 5) == 0 && !t->has_ref_text) {
		t->ref_text = addr;
		t->has_ref_text = true;
	} else if (len == 6 && memcmp(name, "_stext", 6) == 0 && !t->has_ref_stext) {
		t->ref_stext = addr;
		t->has_ref_stext = true;
	}
}

/* Parses s[0..n). in_place: s[n] is writable too and t then owns s:
 * names and modules are NUL-terminated in place and point into it, so
 * the 100k+ names of a kernel are not copied one by one. Else s is only
 * read (a mapped file: its pages are the page cache's, where a copy
 * would be fresh memory, which costs most on a VM) and each name is
 * copied, packed, into t's names (3 MB for a kernel, against 5 MB for
 * a buffer the size of the text); core_only only (no module names).
 * core_only: stops at the first line with a [module] (the core kernel's
 * lines come first: kallsyms_core.h) and fails unless there is one. */
static tk_status parse(tk_symtab *t, const char *s, size_t n, bool core_only, bool in_place,
		       tk_error *err)
{
	char *text = in_place ? (char *)s : NULL; /* writable: see above */
	t->text = text;
	/* one allocation for the symbols (a 64-bit kernel's line is ~44
	 * bytes; fewer is only a hint): no copy at each doubling of 4.9 MB */
	if (!tk_symtab_reserve(t, n / 32 + 1))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for symbols");
	size_t pos = 0;
	bool any_nonzero = false, tail_seen = false;
	uint64_t lines = 0;
	while (pos < n) {
		const char *nl = memchr(s + pos, '\n', n - pos);
		size_t end = nl ? (size_t)(nl - s) : n;
		size_t i = pos;
		lines++;
		if (end == pos) { /* empty line */
			pos = end + 1;
			continue;
		}
		uint64_t addr;
		if (!tk_symtext_hex(s, end, &i, &addr) || i >= end || !is_blank(s[i]))
			return tk_error_set(err, TK_ERR_FORMAT, pos,
					    "kallsyms line %llu: expected 'ADDRESS TYPE NAME'",
					    (unsigned long long)lines);
		while (i < end && is_blank(s[i]))
			i++;
		if (i >= end || is_blank(s[i]) || i + 1 >= end || !is_blank(s[i + 1]))
			return tk_error_set(err, TK_ERR_FORMAT, i,
					    "kallsyms line %llu: expected a one-letter symbol type",
					    (unsigned long long)lines);
		char type = s[i];
		i += 1;
		while (i < end && is_blank(s[i]))
			i++;
		size_t name = i;
		/* most of the parse's time: bytes above ' ' go by fast (8 at a
		 * time while whole words fit in the line), then the exact test */
		while (end - i >= 8) {
			uint64_t x;
			memcpy(&x, s + i, 8);
			/* a byte <= 0x20 in x (the classic has-less-than test) */
			if ((x - 0x2121212121212121ull) & ~x & 0x8080808080808080ull)
				break;
			i += 8;
		}
		while (i < end && !is_blank(s[i]))
			i++;
		size_t name_len = i - name;
		if (name_len == 0)
			return tk_error_set(err, TK_ERR_FORMAT, i,
					    "kallsyms line %llu: symbol name missing",
					    (unsigned long long)lines);
		while (i < end && is_blank(s[i]))
			i++;
		const char *mod = NULL;
		size_t mod_end = 0; /* index of the closing ']' */
		if (i < end) {
			size_t last = end;
			while (last > i && is_blank(s[last - 1]))
				last--;
			if (s[i] != '[' || last - i < 3 || s[last - 1] != ']')
				return tk_error_set(
				    err, TK_ERR_FORMAT, i,
				    "kallsyms line %llu: text after the name is not a "
				    "[module]",
				    (unsigned long long)lines);
			mod = s + i + 1;
			mod_end = last - 1;
			if (core_only) {
				tail_seen = true;
				break;
			}
		}
		any_nonzero |= addr != 0;
		note_reference(t, type, s + name, name_len, addr);
		/* perf also drops ARM module mapping symbols ("$a", "$d"...) */
		if (kept_type(type) && s[name] != '$') {
			const char *prev = t->n ? t->syms[t->n - 1].module : NULL;
			if (mod) { /* in place only: core_only stopped above */
				text[mod_end] = '\0';
				if (prev && strcmp(prev, mod) == 0)
					mod = prev; /* one pointer per module */
			}
			const char *sym = s + name;
			if (!text)
				sym = tk_arena_strndup(&t->names, sym, name_len);
			else
				text[name + name_len] = '\0'; /* a blank, the newline or s[n] */
			if (!sym || !tk_symtab_add_ref(t, sym, addr, 0, type,
						       isupper((unsigned char)type) ? TK_BIND_GLOBAL
										    : TK_BIND_LOCAL,
						       mod))
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory for symbols");
		}
		pos = end + 1;
	}
	if (core_only && !tail_seen)
		return tk_error_set(err, TK_ERR_FORMAT, n,
				    "kallsyms: no [module] line after the kernel's symbols: "
				    "the file may be cut short");
	if (lines > 0 && !any_nonzero)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "every kallsyms address is 0: the kernel hides them "
				    "(kernel.kptr_restrict); run as root or lower it");
	tk_symtab_finish(t, TK_SYMTAB_KALLSYMS);
	return TK_OK;
}

/* Loads text[0..len). owned: text is a buffer of len + 1 bytes the
 * table takes over (freed here on failure), parsed in place; else text is
 * only read and its core lines loaded, names copied (parse()). */
static tk_status load(const char *text, size_t len, bool owned, const char *name, bool core_only,
		      tk_symtab **out, tk_error *err)
{
	*out = NULL;
	if (name)
		tk_error_set_file(err, name);
	tk_symtab *t = tk_symtab_new(name);
	if (!t) {
		if (owned)
			free((char *)text);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_status st = parse(t, text, len, core_only, owned, err);
	if (st != TK_OK) {
		tk_symtab_free(t); /* and the text or names with it */
		return st;
	}
	*out = t;
	return TK_OK;
}

/* Loads from a copy of text[0..len) the table takes over. */
static tk_status load_copy(const char *text, size_t len, const char *name, tk_symtab **out,
			   tk_error *err)
{
	*out = NULL;
	char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
	if (!copy)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	memcpy(copy, text, len);
	copy[len] = '\0';
	return load(copy, len, true, name, false, out, err);
}

tk_status tk_symtab_load_kallsyms_memory(const char *text, size_t len, const char *name,
					 tk_symtab **out, tk_error *err)
{
	return load_copy(text, len, name, out, err);
}

bool tk_kallsyms_function_start(const tk_symtab *t, const char *name, uint64_t *addr)
{
	if (t && strcmp(name, "_text") == 0 && t->has_ref_text) {
		*addr = t->ref_text;
		return true;
	}
	if (t && strcmp(name, "_stext") == 0 && t->has_ref_stext) {
		*addr = t->ref_stext;
		return true;
	}
	return false;
}

/* The process-wide copy of /proc/kallsyms (tk_symbols_keep_kallsyms):
 * the kernel formats its 100k+ lines on every read, most of what a short
 * profile of one file costs. A spin lock (C11 atomic_flag) guards it; the
 * library has no thread dependency otherwise. */
static atomic_flag kept_lock = ATOMIC_FLAG_INIT;
static bool kept_on;
static char *kept_text;
static size_t kept_len;

static void kept_acquire(void)
{
	while (atomic_flag_test_and_set_explicit(&kept_lock, memory_order_acquire))
		;
}

static void kept_release(void)
{
	atomic_flag_clear_explicit(&kept_lock, memory_order_release);
}

void tk_symbols_keep_kallsyms(bool on)
{
	kept_acquire();
	kept_on = on;
	if (!on) {
		free(kept_text);
		kept_text = NULL;
		kept_len = 0;
	}
	kept_release();
}

/* A private copy of the kept text (read on first use); false when not
 * keeping or on failure (the caller then reads the file itself). */
static bool kept_copy(char **text, size_t *len)
{
	bool ok = false;
	kept_acquire();
	if (kept_on && !kept_text) {
		tk_error e;
		tk_error_clear(&e);
		if (tk_symtext_read("/proc/kallsyms", KALLSYMS_LIMIT, &kept_text, &kept_len, &e) !=
		    TK_OK)
			kept_text = NULL;
	}
	if (kept_on && kept_text && (*text = malloc(kept_len + 1))) {
		memcpy(*text, kept_text, kept_len);
		*len = kept_len;
		ok = true;
	}
	kept_release();
	return ok;
}

/* Reads path (stopping once *stop is set; NULL: never) and loads it;
 * NULL path: /proc/kallsyms, the process-wide kept text when there is one
 * (tk_symbols_keep_kallsyms). core: its core lines only. */
static tk_status read_and_load(const char *path, const atomic_bool *stop, bool core,
			       tk_symtab **out, tk_error *err)
{
	*out = NULL;
	char *text;
	size_t len;
	if (!path && kept_copy(&text, &len)) {
		text[len] = '\0';
		return load(text, len, true, "/proc/kallsyms", core, out, err);
	}
	if (!path)
		path = "/proc/kallsyms";
	tk_status st = tk_symtext_read_until(path, KALLSYMS_LIMIT, stop, &text, &len, err);
	if (st != TK_OK)
		return st;
	char *room = realloc(text, len + 1);
	if (!room) {
		free(text);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	room[len] = '\0';
	return load(room, len, true, path, core, out, err);
}

tk_status tk_symtab_load_kallsyms(const char *path, tk_symtab **out, tk_error *err)
{
	return read_and_load(path, NULL, false, out, err);
}

tk_status tk_symtab_load_kallsyms_until(const atomic_bool *stop, tk_symtab **out, tk_error *err)
{
	return read_and_load(NULL, stop, false, out, err);
}

/* A regular file's core lines straight from its mapping (perf's copy
 * of kallsyms is one, written whole and renamed into place, as are
 * the inputs tracekit maps); NULL path, or a file that cannot be
 * mapped, is read as before. */
tk_status tk_symtab_load_kallsyms_core(const char *path, tk_symtab **out, tk_error *err)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat sb;
	void *map = MAP_FAILED;
	size_t len = 0;
	if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size <= KALLSYMS_LIMIT) {
		len = (size_t)sb.st_size;
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	}
	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED)
		return read_and_load(path, NULL, true, out, err);
	tk_status st = load(map, len, false, path, true, out, err);
	munmap(map, len);
	return st;
}

tk_status tk_symtab_load_kallsyms_core_memory(const char *text, size_t len, const char *name,
					      tk_symtab **out, tk_error *err)
{
	return load(text, len, false, name, true, out, err);
}
