/* Model helpers: format names, member lookup. */
#include <string.h>

#include "tracekit/tracekit.h"

static const char *const format_names[] = {
    [TK_FORMAT_UNKNOWN] = "unknown", [TK_FORMAT_PERF] = "perf",
    [TK_FORMAT_CTF] = "ctf",         [TK_FORMAT_CPEL] = "cpel",
    [TK_FORMAT_ELOG] = "elog",       [TK_FORMAT_DCPI] = "dcpi",
    [TK_FORMAT_CHROME] = "chrome",   [TK_FORMAT_JSON] = "json",
    [TK_FORMAT_FOLDED] = "folded",   [TK_FORMAT_TKLOG] = "tklog",
    [TK_FORMAT_PPROF] = "pprof",     [TK_FORMAT_SPEEDSCOPE] = "speedscope",
    [TK_FORMAT_SVG] = "svg",
};

const char *tk_format_name(tk_format fmt)
{
	if ((unsigned)fmt < sizeof format_names / sizeof format_names[0])
		return format_names[fmt];
	return "unknown";
}

tk_format tk_format_from_name(const char *name)
{
	for (unsigned i = 1; i < sizeof format_names / sizeof format_names[0]; i++)
		if (strcmp(name, format_names[i]) == 0)
			return (tk_format)i;
	return TK_FORMAT_UNKNOWN;
}

const tk_value *tk_value_member(const tk_value *s, const char *name)
{
	if (!s || !s->cls || s->cls->kind != TK_TYPE_STRUCT)
		return NULL;
	for (size_t i = 0; i < s->cls->n_members && i < s->v.list.n; i++)
		if (strcmp(s->cls->members[i].name, name) == 0)
			return &s->v.list.items[i];
	return NULL;
}
