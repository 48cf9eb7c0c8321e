/* Time values of --begin, --end and --time, as perf and babeltrace users
 * write them. A bare number is seconds (perf's --time, babeltrace's
 * --begin): "2583" is 2583 s, never 2583 ns. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define NS_PER_S 1000000000ULL

/* Digits into *v; fails on overflow. Returns the end. */
static const char *digits(const char *p, uint64_t *v, int *n)
{
	*v = 0;
	*n = 0;
	for (; *p >= '0' && *p <= '9'; p++, (*n)++) {
		uint64_t d = (uint64_t)(*p - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return p;
}

/* ".NNN" (up to 9 digits kept; more are truncated, as babeltrace does). */
static const char *fraction(const char *p, uint64_t *ns)
{
	*ns = 0;
	if (*p != '.')
		return p;
	int kept = 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		if (kept < 9) {
			*ns = *ns * 10 + (uint64_t)(*p - '0');
			kept++;
		}
	for (; kept < 9; kept++)
		*ns *= 10;
	return p;
}

/* "HH:MM[:SS[.NS]]" into ns since midnight; NULL when not that shape. */
static const char *clock_time(const char *p, uint64_t *ns)
{
	uint64_t h, m, s = 0, frac = 0;
	int n;
	p = digits(p, &h, &n);
	if (!p || n < 1 || n > 2 || *p != ':')
		return NULL;
	p = digits(p + 1, &m, &n);
	if (!p || n != 2)
		return NULL;
	if (*p == ':') {
		p = digits(p + 1, &s, &n);
		if (!p || n != 2)
			return NULL;
		p = fraction(p, &frac);
	}
	if (h > 23 || m > 59 || s > 60)
		return NULL;
	*ns = ((h * 60 + m) * 60 + s) * NS_PER_S + frac;
	return p;
}

/* "YYYY-MM-DD" then ' ' or 'T' and a clock time: seconds since the epoch. */
static const char *date_time(const char *p, bool gmt, uint64_t *ns)
{
	uint64_t y, mo, d, tod;
	int n;
	p = digits(p, &y, &n);
	if (!p || n != 4 || *p != '-')
		return NULL;
	p = digits(p + 1, &mo, &n);
	if (!p || n != 2 || *p != '-')
		return NULL;
	p = digits(p + 1, &d, &n);
	if (!p || n != 2 || (*p != ' ' && *p != 'T'))
		return NULL;
	p = clock_time(p + 1, &tod);
	if (!p || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return NULL;
	struct tm tm = {
	    .tm_year = (int)y - 1900, .tm_mon = (int)mo - 1, .tm_mday = (int)d, .tm_isdst = -1};
	time_t t = gmt ? timegm(&tm) : mktime(&tm);
	if (t < 0)
		return NULL;
	*ns = (uint64_t)t * NS_PER_S + tod;
	return p;
}

const char *tk_cli_time_parse(const char *text, bool percent, bool gmt, tk_cli_time *out)
{
	const char *p = text;
	*out = (tk_cli_time){.kind = TK_TIME_NS};
	if (*p == '-')
		return "a time cannot be negative";
	if (*p == '+')
		p++;
	if (strchr(p, '%')) {
		if (!percent)
			return "percentages are taken by --time only";
		char *end;
		errno = 0;
		double v = strtod(p, &end);
		if (errno || end == p || strcmp(end, "%") != 0 || !(v >= 0 && v <= 100))
			return "a percentage is a number from 0 to 100 followed by %";
		out->kind = TK_TIME_PERCENT;
		out->percent = v;
		return NULL;
	}
	const char *end;
	if ((end = date_time(p, gmt, &out->ns)) && !*end)
		return NULL;
	if ((end = clock_time(p, &out->ns)) && !*end) {
		out->kind = TK_TIME_OF_DAY;
		return NULL;
	}
	uint64_t whole, frac;
	int n;
	end = digits(p, &whole, &n);
	if (!end)
		return "the time is too large";
	if (n == 0 && *end != '.')
		return "not a time (seconds such as 176.5, a unit such as 2583ns, or HH:MM:SS.ns)";
	const char *unit = fraction(end, &frac);
	if (unit == end + 1 && n == 0)
		return "not a time";
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {{"", NS_PER_S}, {"s", NS_PER_S}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(unit, units[i].name) != 0)
			continue;
		if (whole > UINT64_MAX / units[i].ns)
			return "the time is too large";
		uint64_t v = whole * units[i].ns;
		/* frac is in ns of a second; scale it to the unit */
		uint64_t part = frac / (NS_PER_S / units[i].ns);
		if (units[i].ns == 1 && frac)
			return "nanoseconds have no fraction";
		if (v > UINT64_MAX - part)
			return "the time is too large";
		out->ns = v + part;
		return NULL;
	}
	return "unknown time unit (ns, us, ms or s)";
}

const char *tk_cli_time_range_parse(const char *text, bool gmt, tk_cli_time *begin, bool *has_begin,
				    tk_cli_time *end, bool *has_end)
{
	*has_begin = *has_end = false;
	if (strchr(text, ' ') || (strchr(text, '%') && strchr(text, ',')))
		return "one time range only";
	const char *slash = strchr(text, '/');
	if (slash && strchr(text, '%')) {
		/* "P%/N": the N-th slice of P% of the span */
		char pct[64];
		size_t len = (size_t)(slash - text);
		if (len >= sizeof pct || strchr(slash, ','))
			return "one time range only (P%/N)";
		memcpy(pct, text, len);
		pct[len] = '\0';
		tk_cli_time p;
		const char *why = tk_cli_time_parse(pct, true, gmt, &p);
		if (why)
			return why;
		if (p.kind != TK_TIME_PERCENT)
			return "P%/N needs a percentage";
		uint64_t nth;
		int n;
		const char *e = digits(slash + 1, &nth, &n);
		if (!e || *e || n == 0 || nth == 0 || p.percent * (double)nth > 100.0)
			return "P%/N needs a slice number N from 1 to 100/P";
		*begin = (tk_cli_time){.kind = TK_TIME_PERCENT,
				       .percent = p.percent * (double)(nth - 1)};
		*end = (tk_cli_time){.kind = TK_TIME_PERCENT, .percent = p.percent * (double)nth};
		*has_begin = *has_end = true;
		return NULL;
	}
	/* "START,END" or "P%-Q%" */
	char a[128], b[128];
	const char *sep = strchr(text, ',');
	if (!sep && strchr(text, '%'))
		sep = strchr(text, '-');
	if (!sep)
		return "a time range is START,END (either may be empty), P%/N or P%-Q%";
	size_t la = (size_t)(sep - text), lb = strlen(sep + 1);
	if (la >= sizeof a || lb >= sizeof b)
		return "the time range is too long";
	if (strchr(sep + 1, ','))
		return "one time range only";
	memcpy(a, text, la);
	a[la] = '\0';
	memcpy(b, sep + 1, lb + 1);
	const char *why;
	if (*a) {
		if ((why = tk_cli_time_parse(a, true, gmt, begin)))
			return why;
		*has_begin = true;
	}
	if (*b) {
		if ((why = tk_cli_time_parse(b, true, gmt, end)))
			return why;
		*has_end = true;
	}
	return NULL;
}

uint64_t tk_cli_time_resolve(const tk_cli_time *t, uint64_t first_ns, uint64_t last_ns, bool gmt)
{
	switch (t->kind) {
	case TK_TIME_PERCENT: {
		uint64_t span = last_ns - first_ns;
		double off = floor((double)span * t->percent / 100.0);
		return first_ns + (off >= (double)span ? span : (uint64_t)off);
	}
	case TK_TIME_OF_DAY: {
		/* the first event's day, in the zone babeltrace prints in */
		time_t s = (time_t)(first_ns / NS_PER_S);
		struct tm tm;
		if (gmt)
			gmtime_r(&s, &tm);
		else
			localtime_r(&s, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		time_t midnight = gmt ? timegm(&tm) : mktime(&tm);
		return (uint64_t)(midnight < 0 ? 0 : midnight) * NS_PER_S + t->ns;
	}
	case TK_TIME_NS: break;
	}
	return t->ns;
}
