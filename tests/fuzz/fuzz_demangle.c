/* Fuzz target: C++ symbol names as an image's symbol table may hold them,
 * through the demangler perf script's output uses (the C++ runtime's
 * __cxa_demangle, then libiberty without parameters, then the text step
 * that strips parameters). The input is the name after "_Z" (cut at its
 * first NUL, at most 4 KiB); any name must give a string, demangled or as
 * it was, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "context/perf_demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one demangler for many inputs (each loads libstdc++ once);
	 * renewed now and then, as its arena keeps every result */
	static tk_demangler d;
	static unsigned uses;
	if (uses++ % 4096 == 0) {
		if (uses > 1)
			tk_demangler_free(&d);
		tk_demangler_init(&d);
	}
	char name[4096 + 3] = "_Z";
	size_t n = size < 4096 ? size : 4096;
	memcpy(name + 2, data, n);
	name[2 + n] = '\0';
	/* the demangler caches by name pointer: a fresh demangler per input
	 * would reload libstdc++; dropping the cache keeps one name per key */
	tk_hashmap_free(&d.cache);
	tk_hashmap_init(&d.cache);
	const char *out = tk_demangle(&d, name);
	if (!out || !*out)
		__builtin_trap();
	char copy[sizeof name];
	memcpy(copy, out, strnlen(out, sizeof copy - 1));
	copy[strnlen(out, sizeof copy - 1)] = '\0';
	tk_demangle_strip(copy);
	return 0;
}
