/* perf-style C++ demangling through the C++ runtime's __cxa_demangle. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_demangle.h"

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

void tk_demangle_strip(char *s)
{
	size_t n = strlen(s);
	/* libiberty without DMGL_PARAMS drops clone suffixes with the parameters */
	char *clone = strstr(s, " [clone ");
	if (clone)
		*clone = '\0';
	if (strncmp(s, "virtual thunk to ", 17) == 0 ||
	    strncmp(s, "non-virtual thunk to ", 21) == 0 ||
	    strncmp(s, "covariant return thunk to ", 26) == 0)
		return; /* these wrap the function: libiberty keeps them whole */
	/* the last ')' closes the parameters; qualifiers may follow it */
	char *close = strrchr(s, ')');
	if (!close)
		return;
	for (const char *q = close + 1; *q; q++)
		if (*q != ' ' && *q != '&' && !(*q >= 'a' && *q <= 'z'))
			return; /* not "(...) const &" : leave the name alone */
	int depth = 0;
	char *open = NULL;
	for (char *p = close; p >= s; p--) {
		if (*p == ')')
			depth++;
		else if (*p == '(' && --depth == 0) {
			open = p;
			break;
		}
	}
	if (!open || open == s)
		return;
	*open = '\0';
	n = (size_t)(open - s);
	/* template functions print a return type first: "void f<int>" */
	if (n == 0 || s[n - 1] != '>')
		return;
	int angle = 0, paren = 0;
	char *last_space = NULL;
	for (char *p = s; *p; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>')
			angle--;
		else if (*p == '(')
			paren++;
		else if (*p == ')')
			paren--;
		else if (*p == ' ' && angle == 0 && paren == 0)
			last_space = p;
	}
	if (last_space && !(last_space - s >= 8 && strncmp(last_space - 8, "operator", 8) == 0))
		memmove(s, last_space + 1, strlen(last_space + 1) + 1);
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
	if (d->cxa_demangle) {
		/* like bfd_demangle: a version or "@plt" suffix is cut, the
		 * rest demangled, the suffix put back */
		const char *at = strchr(name, '@');
		size_t base_len = at ? (size_t)(at - name) : strlen(name);
		char *base = tk_arena_strndup(&d->arena, name, base_len);
		int status = 0;
		char *full = base ? d->cxa_demangle(base, NULL, NULL, &status) : NULL;
		if (full && status == 0) {
			tk_demangle_strip(full);
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
