/* Writes the seed corpus of fuzz_symcache: cache files (key "fuzz-key")
 * of a small kallsyms table (kernel and module symbols, the _text/_stext
 * references) and of the ELF images given on the command line (with
 * overlapping symbols and PLT entries where they have them).
 *
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/gen_symcache_corpus.c \
 *      build/lib/libtracekit.a -lelf -lzstd -lz -lm -o /tmp/gen &&
 *   /tmp/gen tests/fuzz/corpus/symcache ELF...
 * (link flags: whatever libtracekit.a needs, see tracekit.pc)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symcache_file.h"
#include "symbols/symtab_internal.h"

static const char ksyms[] = "ffffffff81000000 T _text\n"
			    "ffffffff81000000 T startup_64\n"
			    "ffffffff81000100 T _stext\n"
			    "ffffffff81000100 W weak_alias\n"
			    "ffffffff81000200 D some_data\n"
			    "ffffffffc0000000 t mod_fn\t[mymod]\n"
			    "ffffffffc0001000 T other_fn\t[other]\n";

static int put(const char *dir, const char *name, const tk_symtab *t)
{
	void *buf;
	size_t len;
	if (!tk_symfile_encode(t, "fuzz-key", 8, &buf, &len))
		return 1;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	int rc = !f || fwrite(buf, 1, len, f) != len;
	if (f)
		rc |= fclose(f) != 0;
	free(buf);
	printf("%s: %zu bytes\n", path, len);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [ELF...]\n", argv[0]);
		return 2;
	}
	int rc = 0;
	tk_symtab *t;
	if (tk_symtab_load_kallsyms_memory(ksyms, strlen(ksyms), "kallsyms", &t, NULL) != TK_OK)
		return 1;
	rc |= put(argv[1], "seed-kallsyms", t);
	tk_symtab_free(t);
	for (int i = 2; i < argc; i++) {
		if (tk_symtab_load_elf(argv[i], &t, NULL) != TK_OK) {
			fprintf(stderr, "%s: not loaded\n", argv[i]);
			rc = 1;
			continue;
		}
		char name[64];
		snprintf(name, sizeof name, "seed-elf-%d", i - 1);
		rc |= put(argv[1], name, t);
		tk_symtab_free(t);
	}
	return rc;
}
