/* Option values of `tracekit record` that need more than a number: -k's
 * clock names, -m's ring size and --epoch's duration, both as perf record spells them. Kept
 * apart from the CLI so the unit tests reach them. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "record/record.h"
#include "tracekit/tracekit.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

bool rec_clockid_parse(const char *s, int *out)
{
	static const struct {
		const char *name;
		int id;
	} clocks[] = {
	    /* perf's table (util/clockid.c), aliases included */
	    {"monotonic", CLOCK_MONOTONIC},
	    {"monotonic_raw", CLOCK_MONOTONIC_RAW},
	    {"realtime", CLOCK_REALTIME},
	    {"boottime", CLOCK_BOOTTIME},
	    {"tai", CLOCK_TAI},
	    {"mono", CLOCK_MONOTONIC},
	    {"raw", CLOCK_MONOTONIC_RAW},
	    {"real", CLOCK_REALTIME},
	    {"boot", CLOCK_BOOTTIME},
	};
	if (!s || !*s)
		return false;
	if (isdigit((unsigned char)s[0])) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (errno || *end || v < 0 || v > 64)
			return false;
		*out = (int)v;
		return true;
	}
	if (strncasecmp(s, "CLOCK_", 6) == 0)
		s += 6;
	for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++)
		if (strcasecmp(s, clocks[i].name) == 0) {
			*out = clocks[i].id;
			return true;
		}
	return false;
}

bool rec_mmap_pages_parse(const char *s, long page_size, unsigned *out)
{
	if (!s || !isdigit((unsigned char)s[0]) || page_size <= 0)
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || v == 0)
		return false;
	unsigned long long pages = v;
	if (*end) { /* a size: bytes with a unit, as perf's -m 512K */
		unsigned long long mult;
		switch (toupper((unsigned char)*end)) {
		case 'B': mult = 1; break;
		case 'K': mult = 1ull << 10; break;
		case 'M': mult = 1ull << 20; break;
		case 'G': mult = 1ull << 30; break;
		default: return false;
		}
		if (end[1] || v > (1ull << 40) / mult)
			return false;
		pages =
		    (v * mult + (unsigned long long)page_size - 1) / (unsigned long long)page_size;
	}
	unsigned long long p2 = 1; /* the kernel wants 2^n data pages; perf rounds up */
	while (p2 < pages)
		p2 <<= 1;
	if (p2 > (1ull << 20))
		return false;
	*out = (unsigned)p2;
	return true;
}

bool rec_epoch_parse(const char *s, uint64_t *seconds)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		return false;
	uint64_t mult = 1;
	if (*end) {
		switch (*end) {
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		case 'd': mult = 86400; break;
		default: return false;
		}
		if (end[1])
			return false;
	}
	if (v == 0 || v > UINT64_C(1) << 32)
		return false;
	*seconds = v * mult;
	return true;
}

time_t rec_epoch_time(time_t now, time_t last, uint64_t epoch_seconds)
{
	if (!last)
		return now;
	/* the name's resolution: a minute (YYMMDDHHMM) or a second */
	time_t unit = epoch_seconds % 60 == 0 ? 60 : 1;
	time_t next = (last / unit + 1) * unit;
	return now >= next ? now : next;
}

void rec_epoch_name(time_t t, uint64_t epoch_seconds, char buf[16])
{
	struct tm tm;
	gmtime_r(&t, &tm);
	if (epoch_seconds % 60 == 0)
		tk_dcpi_format_epoch(t, buf);
	else
		strftime(buf, 16, "%Y%m%d%H%M%S", &tm);
}
