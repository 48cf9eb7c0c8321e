/* Unit tests for the text symbol sources: /proc/kallsyms (crafted text:
 * types kept the way perf keeps them, modules, ends at the next symbol,
 * duplicates, kptr_restrict zeros, errors with offsets) and perf-PID.map. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/kallsyms_core.h"
#include "symbols/kernel_syms.h"
#include "symbols/symtab_internal.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffff81000000 T startup_64\n"
			       "ffffffff81000100 t secondary_startup_64\n"
			       "ffffffff81000200 W __weak_thing\n"
			       "ffffffff81000300 r __ksymtab_foo\n" /* read-only data: not kept */
			       "ffffffff81000400 A absolute_sym\n"  /* absolute: not kept */
			       "ffffffff81001000 D some_data\n"
			       "ffffffffc0a00000 t mod_fn\t[e1000e]\n"
			       "ffffffffc0a00040 T mod_fn2\t[e1000e]\n"
			       "\n";

static tk_symtab *load(const char *text, tk_status want, uint64_t offset)
{
	tk_symtab *t = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symtab_load_kallsyms_memory(text, strlen(text), "kallsyms", &t, &err);
	if (st != want)
		fprintf(stderr, "status %d: %s\n", st, err.message);
	assert_int_equal(st, want);
	if (st != TK_OK)
		assert_int_equal(err.offset, offset);
	return t;
}

static void test_kallsyms(void **state)
{
	(void)state;
	tk_symtab *t = load(kallsyms, TK_OK, 0);
	/* _text and startup_64 share an address: perf keeps the one with
	 * fewer leading underscores */
	assert_int_equal(tk_symtab_count(t), 6);
	uint64_t off;
	const tk_symbol *s = tk_symtab_lookup(t, 0xffffffff81000010ull, &off);
	assert_string_equal(s->name, "startup_64");
	assert_int_equal(off, 0x10);
	assert_int_equal(s->size, 0x100); /* ends at the next symbol */
	s = tk_symtab_lookup(t, 0xffffffff810002ffull, &off);
	assert_string_equal(s->name, "__weak_thing");
	assert_int_equal(s->type, 'W');
	/* the r and A symbols are gone: __weak_thing runs to some_data */
	s = tk_symtab_lookup(t, 0xffffffff81000350ull, &off);
	assert_string_equal(s->name, "__weak_thing");
	assert_int_equal(off, 0x150);
	s = tk_symtab_lookup(t, 0xffffffffc0a00044ull, &off);
	assert_string_equal(s->name, "mod_fn2");
	assert_string_equal(s->module, "e1000e");
	assert_int_equal(off, 4);
	assert_null(tk_symtab_lookup(t, 0xffffffff80000000ull, &off));
	/* the last symbol gets perf's page-rounded end */
	assert_non_null(tk_symtab_lookup(t, 0xffffffffc0a00fffull, &off));
	assert_null(tk_symtab_lookup(t, 0xffffffffc0a01000ull + 4096, &off));
	tk_symtab_free(t);
}

static void test_kallsyms_errors(void **state)
{
	(void)state;
	/* kptr_restrict: every address 0 */
	load("0000000000000000 T _text\n0000000000000000 t foo\n", TK_ERR_UNSUPPORTED, UINT64_MAX);
	/* malformed lines, with the offset of the fault */
	load("ffffffff81000000 T a\nzzzz T b\n", TK_ERR_FORMAT, 21);
	load("ffffffff81000000 T a\nffffffff81000010 Tb\n", TK_ERR_FORMAT, 38);
	load("ffffffff81000000 T\n", TK_ERR_FORMAT, 17);
	load("ffffffff81000000 T a junk\n", TK_ERR_FORMAT, 21);
	load("ffffffff81000000 T a [mod\n", TK_ERR_FORMAT, 21);
	load("1ffffffff81000000 T a\n", TK_ERR_FORMAT, 0); /* 17 digits */
	/* an unterminated last line is fine; so is empty input */
	tk_symtab *t = load("ffffffff81000000 T a", TK_OK, 0);
	assert_int_equal(tk_symtab_count(t), 1);
	tk_symtab_free(t);
	t = load("", TK_OK, 0);
	assert_int_equal(tk_symtab_count(t), 0);
	assert_null(tk_symtab_lookup(t, 1, NULL));
	tk_symtab_free(t);
	/* a missing file */
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_kallsyms("/nonexistent/kallsyms", &t, &err),
			 TK_ERR_NOT_FOUND);
}

static void test_proc_kallsyms(void **state)
{
	(void)state;
	tk_symtab *t;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symtab_load_kallsyms(NULL, &t, &err);
	if (st == TK_ERR_UNSUPPORTED || st == TK_ERR_NOT_FOUND || st == TK_ERR_IO)
		skip(); /* hidden by kptr_restrict, or no procfs */
	assert_int_equal(st, TK_OK);
	assert_true(tk_symtab_count(t) > 100);
	tk_symtab_free(t);
}

/* The kept copy gives the same table as a fresh read, every time, and
 * off frees it (ASan sees a leak otherwise). */
static void test_proc_kallsyms_kept(void **state)
{
	(void)state;
	tk_symtab *fresh, *a, *b;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_symtab_load_kallsyms(NULL, &fresh, &err);
	if (st != TK_OK)
		skip();
	tk_symbols_keep_kallsyms(true);
	assert_int_equal(tk_symtab_load_kallsyms(NULL, &a, &err), TK_OK);
	assert_int_equal(tk_symtab_load_kallsyms(NULL, &b, &err), TK_OK);
	tk_symbols_keep_kallsyms(false);
	/* modules may load between the reads: the two kept loads are equal,
	 * and equal the fresh one in size to within a few symbols */
	assert_int_equal(tk_symtab_count(a), tk_symtab_count(b));
	for (size_t i = 0; i < tk_symtab_count(a); i += 997) {
		assert_int_equal(tk_symtab_at(a, i)->start, tk_symtab_at(b, i)->start);
		assert_string_equal(tk_symtab_at(a, i)->name, tk_symtab_at(b, i)->name);
	}
	size_t fa = tk_symtab_count(fresh), ka = tk_symtab_count(a);
	assert_true(ka + 1000 > fa && fa + 1000 > ka);
	/* a named file is never replaced by the kept text */
	static const char one[] = "ffffffff81000000 T only_one\n";
	char path[] = "/tmp/tk-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, one, sizeof one - 1), (ssize_t)(sizeof one - 1));
	close(fd);
	tk_symbols_keep_kallsyms(true);
	tk_symtab *c;
	assert_int_equal(tk_symtab_load_kallsyms(path, &c, &err), TK_OK);
	tk_symbols_keep_kallsyms(false);
	unlink(path);
	assert_int_equal(tk_symtab_count(c), 1);
	tk_symtab_free(c);
	tk_symtab_free(fresh);
	tk_symtab_free(a);
	tk_symtab_free(b);
}

static void test_perf_map(void **state)
{
	(void)state;
	const char map[] = "7f1000 20 Interpreter\n"
			   "0x7f1020 0x10 LazyCompile:~foo bar.js:1\r\n"
			   "7f2000 0 zero_sized\n"
			   "7f3000 8 last";
	tk_symtab *t;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_perf_map_memory(map, strlen(map), "perf-1.map", &t, &err),
			 TK_OK);
	assert_int_equal(tk_symtab_count(t), 4);
	uint64_t off;
	assert_string_equal(tk_symtab_lookup(t, 0x7f101f, &off)->name, "Interpreter");
	assert_string_equal(tk_symtab_lookup(t, 0x7f1025, &off)->name, "LazyCompile:~foo bar.js:1");
	assert_int_equal(off, 5);
	assert_null(tk_symtab_lookup(t, 0x7f1030, &off)); /* gap after a sized symbol */
	assert_string_equal(tk_symtab_lookup(t, 0x7f2fff, &off)->name, "zero_sized");
	assert_null(tk_symtab_lookup(t, 0x7f3008, &off));
	tk_symtab_free(t);
	const char bad[] = "7f1000 20 ok\n7f1020 nothex name\n";
	assert_int_equal(tk_symtab_load_perf_map_memory(bad, strlen(bad), "m", &t, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 13);
	assert_int_equal(tk_symtab_load_perf_map_memory("7f1000 20\n", 10, "m", &t, &err),
			 TK_ERR_FORMAT);
}

/* the rest of a core table: counts its loads */
static const tk_symtab *whole_of(void *ctx)
{
	const tk_symtab **whole = ctx;
	static int loads;
	loads++;
	assert_true(loads < 1000);
	return whole[0];
}

static void test_kallsyms_core(void **state)
{
	(void)state;
	tk_error err;
	tk_error_clear(&err);
	tk_symtab *core, *whole = load(kallsyms, TK_OK, 0);
	assert_int_equal(
	    tk_symtab_load_kallsyms_core_memory(kallsyms, sizeof kallsyms - 1, "copy", &core, &err),
	    TK_OK);
	/* the lines before the first [module] line */
	assert_int_equal(tk_symtab_count(core), 4);
	assert_null(tk_symtab_at(core, 3)->module);
	uint64_t at;
	assert_true(tk_kallsyms_function_start(core, "_text", &at));
	assert_int_equal(at, 0xffffffff81000000ull);
	/* with the whole table behind it: every address as the whole table
	 * gives it, the core's last symbol and the modules included */
	assert_false(tk_symtab_has_rest(core));
	const tk_symtab *ctx[1] = {whole};
	tk_symtab_set_rest(core, whole_of, ctx);
	assert_true(tk_symtab_has_rest(core));
	static const uint64_t probe[] = {0xffffffff80ffffffull, 0xffffffff81000000ull,
					 0xffffffff810002ffull, 0xffffffff81000fffull,
					 0xffffffff81001000ull, 0xffffffff81001fffull,
					 0xffffffff81002000ull, 0xffffffffc0a00044ull,
					 0xffffffffc0a01000ull, 0xffffffffffffffffull};
	for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
		uint64_t off_c = 7, off_w = 7;
		const tk_symbol *c = tk_symtab_lookup(core, probe[i], &off_c);
		const tk_symbol *w = tk_symtab_lookup(whole, probe[i], &off_w);
		assert_true(c == w || (c && w && strcmp(c->name, w->name) == 0 &&
				       c->start == w->start && c->size == w->size));
		assert_int_equal(off_c, off_w);
	}
	/* the rest missing: no symbol outside the core */
	ctx[0] = NULL;
	assert_null(tk_symtab_lookup(core, 0xffffffffc0a00044ull, NULL));
	assert_non_null(tk_symtab_lookup(core, 0xffffffff81000010ull, NULL));
	tk_symtab_free(core);
	tk_symtab_free(whole);
	/* no [module] line: perhaps cut short, refused */
	static const char cut[] = "ffffffff81000000 T _text\nffffffff81000100 T f\n";
	assert_int_equal(
	    tk_symtab_load_kallsyms_core_memory(cut, sizeof cut - 1, "copy", &core, &err),
	    TK_ERR_FORMAT);
	assert_null(core);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The core of a kallsyms file (perf's copy) is read from its mapping,
 * names copied out: the table is the one from memory, and outlives the
 * mapping. */
/* A kernel-sized copy read-only: 30 000 names of many lengths copied
 * across many of the table's name chunks, each one whole, in order. */
static void test_kallsyms_core_many_names(void **state)
{
	(void)state;
	size_t cap = 30000 * 96, n = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int i = 0; i < 30000; i++)
		n += (size_t)snprintf(text + n, cap - n, "ffffffff81%06x T f%d_%.*s\n", i * 16, i,
				      i % 53,
				      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0");
	n += (size_t)snprintf(text + n, cap - n, "ffffffffc0000000 t m\t[mod]\n");
	tk_symtab *t;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_kallsyms_core_memory(text, n, "copy", &t, &err), TK_OK);
	assert_int_equal(tk_symtab_count(t), 30000);
	assert_int_equal(t->cap, t->n);
	char want[128];
	for (int i = 0; i < 30000; i++) {
		const tk_symbol *s = tk_symtab_at(t, (size_t)i);
		snprintf(want, sizeof want, "f%d_%.*s", i, i % 53,
			 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0");
		assert_string_equal(s->name, want);
		assert_int_equal(s->start, 0xffffffff81000000ull + 16 * (uint64_t)i);
	}
	memset(text, 'x', n); /* the names are the table's own */
	assert_string_equal(tk_symtab_at(t, 29999)->name, "f29999_a");
	tk_symtab_free(t);
	free(text);
}

static void test_kallsyms_core_file(void **state)
{
	(void)state;
	char path[] = "/tmp/tk-kcore-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, kallsyms);
	tk_error err;
	tk_error_clear(&err);
	tk_symtab *mem, *file;
	assert_int_equal(
	    tk_symtab_load_kallsyms_core_memory(kallsyms, sizeof kallsyms - 1, "copy", &mem, &err),
	    TK_OK);
	assert_int_equal(tk_symtab_load_kallsyms_core(path, &file, &err), TK_OK);
	assert_int_equal(tk_symtab_count(file), tk_symtab_count(mem));
	/* and the whole table's first symbols, parsed in place */
	tk_symtab *whole = load(kallsyms, TK_OK, 0);
	for (size_t i = 0; i < tk_symtab_count(mem); i++) {
		const tk_symbol *a = tk_symtab_at(mem, i), *b = tk_symtab_at(file, i);
		const tk_symbol *w = tk_symtab_at(whole, i);
		assert_string_equal(w->name, b->name);
		assert_int_equal(w->start, b->start);
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->start, b->start);
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->type, b->type);
		assert_null(b->module);
	}
	/* the array holds what is kept and no more (reserved from the
	 * text's length, fitted by tk_symtab_finish) */
	assert_int_equal(file->cap, file->n);
	assert_int_equal(mem->cap, mem->n);
	uint64_t at;
	assert_true(tk_kallsyms_function_start(file, "_stext", &at) == false);
	assert_true(tk_kallsyms_function_start(file, "_text", &at));
	assert_int_equal(at, 0xffffffff81000000ull);
	tk_symtab_free(file);
	tk_symtab_free(mem);
	tk_symtab_free(whole);
	/* cut short, or empty (not mapped: read instead): refused, named */
	write_file(path, "ffffffff81000000 T _text\nffffffff81000100 T f\n");
	assert_int_equal(tk_symtab_load_kallsyms_core(path, &file, &err), TK_ERR_FORMAT);
	assert_null(file);
	assert_string_equal(err.file, path);
	write_file(path, "");
	assert_int_equal(tk_symtab_load_kallsyms_core(path, &file, &err), TK_ERR_FORMAT);
	assert_null(file);
	write_file(path, "ffffffff81000000 T _text\nnot a line\nffffffffc0000000 t m\t[m]\n");
	assert_int_equal(tk_symtab_load_kallsyms_core(path, &file, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 25); /* the bad line's first byte */
	unlink(path);
}

static void test_kallsyms_copy_matches(void **state)
{
	(void)state;
	char dir[] = "/tmp/tk-kcopy-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char proc[64], copy[64];
	snprintf(proc, sizeof proc, "%s/proc", dir);
	snprintf(copy, sizeof copy, "%s/copy", dir);
	static const char head[] = "0000000000000000 A fixed_percpu_data\n"
				   "ffffffff81000000 T _stext\n"
				   "ffffffff81000000 T _text\n";
	char a[256], b[256];
	snprintf(a, sizeof a, "%sffffffff81000010 T now_a\n", head);
	snprintf(b, sizeof b, "%sffffffff81000010 T now_b\n", head);
	write_file(proc, a);
	write_file(copy, b); /* the same through _text, then not */
	assert_true(tk_kallsyms_copy_matches(copy, proc));
	write_file(copy, "0000000000000000 A fixed_percpu_data\n"
			 "ffffffff81000000 T _stext\n"
			 "ffffffff91000000 T _text\n"); /* another KASLR offset */
	assert_false(tk_kallsyms_copy_matches(copy, proc));
	write_file(copy, "0000000000000000 A fixed_percpu_data\nffffffff81000000 T _st");
	assert_false(tk_kallsyms_copy_matches(copy, proc));
	write_file(proc, "ffffffff81000000 T _stext\nffffffff81000010 T f\n"); /* no _text */
	write_file(copy, "ffffffff81000000 T _stext\nffffffff81000010 T f\n");
	assert_false(tk_kallsyms_copy_matches(copy, proc));
	write_file(proc, head);
	assert_false(tk_kallsyms_copy_matches(dir, proc)); /* a directory */
	unlink(copy);
	assert_false(tk_kallsyms_copy_matches(copy, proc));
	unlink(proc);
	assert_false(tk_kallsyms_copy_matches(copy, proc));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kallsyms),
	    cmocka_unit_test(test_kallsyms_errors),
	    cmocka_unit_test(test_proc_kallsyms),
	    cmocka_unit_test(test_proc_kallsyms_kept),
	    cmocka_unit_test(test_perf_map),
	    cmocka_unit_test(test_kallsyms_core),
	    cmocka_unit_test(test_kallsyms_core_file),
	    cmocka_unit_test(test_kallsyms_core_many_names),
	    cmocka_unit_test(test_kallsyms_copy_matches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
