/* C++ symbol names as perf 6.1 shows them: demangled without parameters
 * or return type (libiberty's DMGL_NO_OPTS, perf's default when not
 * verbose): "_ZN6fuzzer6Fuzzer7RunOneEPKhmbPNS_9InputInfoEbPb" ->
 * "fuzzer::Fuzzer::RunOne". The demangler is the C++ runtime's
 * __cxa_demangle, found at run time (dlopen of libstdc++), so the library
 * does not link C++; without it names stay mangled.
 * tk_demangle_strip() is the pure text step (tests). */
#ifndef TK_CONTEXT_PERF_DEMANGLE_H
#define TK_CONTEXT_PERF_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "symbols/symdemangle.h" /* tk_demangle_strip() */

typedef struct tk_demangler {
	tk_arena arena;
	tk_hashmap cache; /* symbol name pointer -> demangled copy (0 = as is) */
	void *lib;
	char *(*cxa_demangle)(const char *, char *, size_t *, int *);
	bool tried;
} tk_demangler;

void tk_demangler_init(tk_demangler *d);
void tk_demangler_free(tk_demangler *d);
/* name demangled (cached per name pointer: names live in symbol tables). */
const char *tk_demangle(tk_demangler *d, const char *name);

#endif
