/* perf-style C++ demangling through the C++ runtime's __cxa_demangle. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "context/perf_demangle.h"

#if TK_HAVE_LIBIBERTY
#include <demangle.h> /* libiberty's */
#endif

/* binutils' demangler without parameters (DMGL_NO_OPTS), perf's own
 * call: for the names __cxa_demangle gives up on. NULL: none. */
static char *demangle_no_params(const char *name)
{
#if TK_HAVE_LIBIBERTY
	return cplus_demangle(name, DMGL_NO_OPTS);
#else
	(void)name;
	return NULL;
#endif
}

void tk_demangler_init(tk_demangler *d)
{
	memset(d, 0, sizeof *d);
	tk_arena_init(&d->arena, 64 * 1024);
	tk_hashmap_init(&d->cache);
}

void tk_demangler_free(tk_demangler *d)
{
	tk_arena_free(&d->arena);
	tk_hashmap_free(&d->cache);
	if (d->lib)
		dlclose(d->lib);
	memset(d, 0, sizeof *d);
}

const char *tk_demangle(tk_demangler *d, const char *name)
{
	if (name[0] != '_' || name[1] != 'Z')
		return name;
	uint64_t *hit = tk_hashmap_get(&d->cache, (uint64_t)(uintptr_t)name);
	if (hit)
		return *hit ? (const char *)(uintptr_t)*hit : name;
	if (!d->tried) {
		d->tried = true;
		d->lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (d->lib)
			*(void **)&d->cxa_demangle = dlsym(d->lib, "__cxa_demangle");
	}
	const char *result = name;
	{
		/* like bfd_demangle: a version or "@plt" suffix is cut, the
		 * rest demangled, the suffix put back */
		const char *at = strchr(name, '@');
		size_t base_len = at ? (size_t)(at - name) : strlen(name);
		char *base = tk_arena_strndup(&d->arena, name, base_len);
		int status = 0;
		char *full =
		    base && d->cxa_demangle ? d->cxa_demangle(base, NULL, NULL, &status) : NULL;
		if (full && status == 0)
			tk_demangle_strip(full);
		if ((!full || status != 0 || !*full) && base) {
			/* rejected (e.g. a v8 template whose parameter types
			 * __cxa_demangle cannot read, which perf shows), or
			 * stripped to nothing ("_Z8 [clone "): perf's answer
			 * is libiberty's; an empty name is never given */
			free(full);
			full = demangle_no_params(base);
		}
		if (full && !*full) {
			free(full);
			full = NULL;
		}
		if (full) {
			size_t fl = strlen(full), sl = at ? strlen(at) : 0;
			char *copy = tk_arena_alloc(&d->arena, fl + sl + 1);
			if (copy) {
				memcpy(copy, full, fl);
				memcpy(copy + fl, at ? at : "", sl);
				copy[fl + sl] = '\0';
				result = copy;
			}
		}
		free(full);
	}
	tk_hashmap_put(&d->cache, (uint64_t)(uintptr_t)name,
		       result == name ? 0 : (uint64_t)(uintptr_t)result);
	return result;
}
