/* Event filters; see filter.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "model/filter.h"

bool tk_id_set_has(const tk_id_set *s, int64_t v)
{
	if (s->n == 0)
		return true;
	for (unsigned i = 0; i < s->n; i++)
		if (v >= s->r[i].lo && v <= s->r[i].hi)
			return true;
	return false;
}

tk_id_set tk_id_set_one(int64_t v)
{
	return (tk_id_set){.n = 1, .r = {{v, v}}};
}

static int parse_id(const char *p, char **end, int64_t *v)
{
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(p, end, 10);
	if (errno || x > INT32_MAX)
		return -1;
	*v = (int64_t)x;
	return 0;
}

int tk_id_set_parse(tk_id_set *s, const char *text)
{
	*s = (tk_id_set){0};
	const char *p = text;
	for (;;) {
		if (s->n == TK_ID_SET_MAX)
			return -1;
		char *end;
		int64_t lo, hi;
		if (parse_id(p, &end, &lo))
			return -1;
		hi = lo;
		if (*end == '-' && parse_id(end + 1, &end, &hi))
			return -1;
		if (hi < lo)
			return -1;
		s->r[s->n].lo = lo;
		s->r[s->n].hi = hi;
		s->n++;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

bool tk_filter_is_empty(const tk_filter *f)
{
	return !f->has_begin && !f->has_end && !f->events && tk_id_set_any(&f->pid) &&
	       tk_id_set_any(&f->tid) && tk_id_set_any(&f->cpu);
}

bool tk_filter_name_matches(const char *globs, const char *name)
{
	char one[256];
	const char *p = globs;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n < sizeof one) {
			memcpy(one, p, n);
			one[n] = '\0';
			if (fnmatch(one, name, 0) == 0)
				return true;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

bool tk_filter_match(const tk_filter *f, const tk_event *ev)
{
	if (f->has_begin && (!ev->has_time || ev->time_ns < f->begin_ns))
		return false;
	if (f->has_end && (!ev->has_time || ev->time_ns > f->end_ns))
		return false;
	if (!tk_id_set_has(&f->pid, ev->pid))
		return false;
	if (!tk_id_set_has(&f->tid, ev->tid))
		return false;
	if (!tk_id_set_has(&f->cpu, ev->cpu))
		return false;
	if (f->events &&
	    !(ev->cls && ev->cls->name && tk_filter_name_matches(f->events, ev->cls->name)))
		return false;
	return true;
}
