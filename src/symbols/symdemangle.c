/* perf-style C++ demangling through the C++ runtime's __cxa_demangle; see
 * symdemangle.h. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symdemangle.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn find_demangler(void)
{
	static bool tried;
	static cxa_demangle_fn fn;
	if (!tried) {
		tried = true;
		/* kept open for the process: the function is used until exit */
		void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (lib)
			*(void **)&fn = dlsym(lib, "__cxa_demangle");
	}
	return fn;
}

char *tk_symbols_demangle(const char *name)
{
	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	cxa_demangle_fn fn = find_demangler();
	if (!fn)
		return NULL;
	/* like bfd_demangle: a version or "@plt" suffix is cut, the rest
	 * demangled, the suffix put back */
	const char *at = strchr(name, '@');
	size_t base_len = at ? (size_t)(at - name) : strlen(name);
	char *base = malloc(base_len + 1);
	if (!base)
		return NULL;
	memcpy(base, name, base_len);
	base[base_len] = '\0';
	int status = 0;
	char *full = fn(base, NULL, NULL, &status);
	free(base);
	if (!full || status != 0) {
		free(full);
		return NULL;
	}
	tk_demangle_strip(full);
	size_t fl = strlen(full), sl = at ? strlen(at) : 0;
	char *out = realloc(full, fl + sl + 1);
	if (!out) {
		free(full);
		return NULL;
	}
	memcpy(out + fl, at ? at : "", sl);
	out[fl + sl] = '\0';
	return out;
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
