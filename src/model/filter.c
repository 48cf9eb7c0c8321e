/* Event filters; see filter.h. */
#include <fnmatch.h>
#include <string.h>

#include "model/filter.h"

bool tk_filter_is_empty(const tk_filter *f)
{
	return !f->has_begin && !f->has_end && !f->events && f->pid < 0 && f->tid < 0 && f->cpu < 0;
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
	if (f->pid >= 0 && ev->pid != f->pid)
		return false;
	if (f->tid >= 0 && ev->tid != f->tid)
		return false;
	if (f->cpu >= 0 && ev->cpu != f->cpu)
		return false;
	if (f->events &&
	    !(ev->cls && ev->cls->name && tk_filter_name_matches(f->events, ev->cls->name)))
		return false;
	return true;
}
