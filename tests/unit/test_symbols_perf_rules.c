/* Unit tests for the places where perf 6.1's symbol rules differ from the
 * obvious ones, each found as a perf script difference:
 * - of two aliases at one address (identical code folding in libLLVM /
 *   libclang-cpp), perf keeps the one with the longer DEMANGLED name,
 *   which here is the shorter mangled one (a system-wide -g recording of
 *   clang++ printed clang::Sema::SubstDecl where perf prints
 *   clang::TemplateDeclInstantiator::VisitDecl);
 * - a file offset past the bytes of the RW segment (.bss) maps to the
 *   address of .bss symbols the way perf relates offsets and addresses
 *   (a libLLVM frame printed a .bss object where perf prints [unknown]);
 * - the running kernel's build id from an ELF notes file, perf's build-id
 *   comparison, and the relocation reference symbols of kallsyms.
 * Skipped without cc (the ELF parts) or without libstdc++'s demangler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/kernel_syms.h"
#include "symbols/symdemangle.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static char dir[64];

/* The two folded functions of the recording, as asm-named aliases of one
 * body: mangled, SubstDecl is the longer name, demangled VisitDecl is. */
static const char lib_src[] =
    "static int body(int x) { return x * 7 + 3; }\n"
    "int visit(int) "
    "__asm__(\"_ZN5clang24TemplateDeclInstantiator9VisitDeclEPNS_4DeclE\") "
    "__attribute__((alias(\"body\")));\n"
    "int subst(int) "
    "__asm__(\"_ZN5clang4Sema9SubstDeclEPNS_4DeclEPNS_11DeclContextERKNS_"
    "30MultiLevelTemplateArgumentListE\") __attribute__((alias(\"body\")));\n"
    "int tk_data_word = 5;\n"
    "char tk_big_bss[1 << 16];\n";

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/tk-symrules-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char path[128], cmd[512];
	snprintf(path, sizeof path, "%s/lib.c", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(lib_src, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cd %s && cc -O1 -fPIC -shared -o lib.so lib.c 2>/dev/null", dir);
	if (system(cmd) != 0)
		dir[0] = '\0'; /* no compiler: the ELF tests skip */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	if (strncmp(dir, "/tmp/tk-symrules-", 17) == 0) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

static tk_symtab *load_lib(void)
{
	char path[128];
	snprintf(path, sizeof path, "%s/lib.so", dir);
	tk_symtab *t = NULL;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_elf(path, &t, &err), TK_OK);
	return t;
}

static const tk_symbol *find_named(const tk_symtab *t, const char *prefix)
{
	for (size_t i = 0; i < tk_symtab_count(t); i++)
		if (strncmp(tk_symtab_at(t, i)->name, prefix, strlen(prefix)) == 0)
			return tk_symtab_at(t, i);
	return NULL;
}

static void test_alias_longer_demangled_name(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	char *d = tk_symbols_demangle("_ZN5clang4Sema9SubstDeclEPNS_4DeclE");
	if (!d)
		skip(); /* no C++ runtime to demangle with */
	assert_string_equal(d, "clang::Sema::SubstDecl");
	free(d);
	tk_symtab *t = load_lib();
	/* one symbol is kept at the shared address: the lookup names it */
	const tk_symbol *any = find_named(t, "_ZN5clang");
	assert_non_null(any);
	uint64_t off = 1;
	const tk_symbol *s = tk_symtab_lookup(t, any->start, &off);
	assert_non_null(s);
	assert_int_equal(off, 0);
	assert_string_equal(s->name, "_ZN5clang24TemplateDeclInstantiator9VisitDeclEPNS_4DeclE");
	tk_symtab_free(t);
}

static void test_bss_offset_maps_like_perf(void **state)
{
	(void)state;
	if (!dir[0])
		skip();
	tk_symtab *t = load_lib();
	const tk_symbol *bss = find_named(t, "tk_big_bss");
	assert_non_null(bss);
	const tk_elf_segment *segs;
	size_t n = tk_symtab_segments(t, &segs);
	const tk_elf_segment *rw = NULL;
	for (size_t i = 0; i < n; i++)
		if (bss->start >= segs[i].vaddr && bss->start < segs[i].vaddr + segs[i].memsz)
			rw = &segs[i];
	assert_non_null(rw);
	/* perf's offset of a point inside the array, past the file's bytes */
	uint64_t va_in = bss->start + 0x8000;
	uint64_t offset = va_in - (rw->vaddr - rw->offset);
	assert_true(offset - rw->offset >= rw->filesz);
	uint64_t va = 0;
	assert_false(tk_symtab_offset_to_vaddr(t, offset, &va)); /* the file's bytes only */
	assert_true(tk_symtab_offset_to_symbol_vaddr(t, offset, &va));
	assert_int_equal(va, va_in);
	uint64_t off = 0;
	const tk_symbol *s = tk_symtab_lookup(t, va, &off);
	assert_non_null(s);
	assert_string_equal(s->name, "tk_big_bss");
	assert_int_equal(off, 0x8000);
	tk_symtab_free(t);
}

static void test_kernel_build_id_and_reference(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "/tmp/tk-notes-%d", (int)getpid());
	/* two notes: a "Linux" one first, then GNU build id (type 3) */
	static const unsigned char notes[] = {
	    6,    0,    0,    0,    4,    0,    0,    0,    1,    1,    0,    0,
	    'L',  'i',  'n',  'u',  'x',  0,    0,    0,    1,    2,    3,    4,
	    4,    0,    0,    0,    20,   0,    0,    0,    3,    0,    0,    0,
	    'G',  'N',  'U',  0,    0xe4, 0xf1, 0x8d, 0x9d, 0xc1, 0xd0, 0xe6, 0xfc,
	    0x2b, 0x17, 0xe9, 0x3e, 0x88, 0x5a, 0x64, 0x7b, 0x3c, 0x0a, 0x6f, 0xc1};
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(notes, 1, sizeof notes, f), sizeof notes);
	fclose(f);
	uint8_t id[TK_BUILD_ID_MAX];
	size_t len = tk_sysfs_build_id(path, id);
	unlink(path);
	assert_int_equal(len, 20);
	assert_memory_equal(id, notes + sizeof notes - 20, 20);
	assert_int_equal(tk_sysfs_build_id("/nonexistent/notes", id), 0);
	/* perf accepts a recorded 20-byte id that is a shorter id plus zeros */
	uint8_t rec[20] = {1, 2, 3, 4, 5, 6, 7, 8};
	assert_true(tk_build_id_equal(rec, 20, rec, 8));
	assert_true(tk_build_id_equal(rec, 20, rec, 20));
	rec[19] = 1;
	assert_false(tk_build_id_equal(rec, 20, rec, 8));
	assert_false(tk_build_id_equal(rec, 8, rec, 20));
	/* the reference symbols: functions only, first line wins; aliases at
	 * one address are merged in the table but still found */
	static const char ks[] = "ffffffff81000000 T srso_alias_untrain_ret\n"
				 "ffffffff81000000 T _stext\n"
				 "ffffffff81000000 T _text\n"
				 "ffffffff81000100 d _text\n"
				 "ffffffff81001000 t other\n";
	tk_symtab *t = NULL;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_symtab_load_kallsyms_memory(ks, strlen(ks), "k", &t, &err), TK_OK);
	uint64_t at = 0;
	assert_true(tk_kallsyms_function_start(t, "_text", &at));
	assert_int_equal(at, 0xffffffff81000000ull);
	assert_true(tk_kallsyms_function_start(t, "_stext", &at));
	assert_false(tk_kallsyms_function_start(t, "other", &at));
	tk_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alias_longer_demangled_name),
	    cmocka_unit_test(test_bss_offset_maps_like_perf),
	    cmocka_unit_test(test_kernel_build_id_and_reference),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
