/* Event names for `tracekit record -e`: perf's software and hardware event
 * names, and tracepoints sys:name looked up in tracefs (their id is the
 * attr config). Unknown names get the closest known ones as suggestions. */
#include <dirent.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} known[] = {
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {"dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
};
#define N_KNOWN (sizeof known / sizeof known[0])

const char *rec_tracefs(void)
{
	static const char *const dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	for (size_t i = 0; i < 2; i++) {
		char p[96];
		snprintf(p, sizeof p, "%s/events/header_page", dirs[i]);
		if (access(p, R_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/* Levenshtein distance, capped inputs (names are short). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 127 || lb > 127)
		return 1000;
	size_t row[128];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

typedef struct suggest {
	char names[5][520];
	size_t dist[5];
	size_t n;
} suggest;

/* Keeps the five closest names within a third of the query's length (at
 * least 2 edits), or containing the query. */
static void consider(suggest *sg, const char *query, const char *cand, const char *shown)
{
	size_t d = distance(query, cand), limit = strlen(query) / 3;
	if (limit < 2)
		limit = 2;
	if (d > limit && !(strlen(query) >= 3 && strstr(cand, query)))
		return;
	if (d > limit)
		d = limit + 1;
	size_t at = sg->n < 5 ? sg->n++ : 4;
	if (at == 4 && sg->n == 5 && sg->dist[4] <= d)
		return;
	snprintf(sg->names[at], sizeof sg->names[at], "%s", shown);
	sg->dist[at] = d;
	for (size_t i = at; i > 0 && sg->dist[i - 1] > sg->dist[i]; i--) {
		char t[520];
		size_t td = sg->dist[i];
		memcpy(t, sg->names[i], sizeof t);
		memcpy(sg->names[i], sg->names[i - 1], sizeof t);
		memcpy(sg->names[i - 1], t, sizeof t);
		sg->dist[i] = sg->dist[i - 1];
		sg->dist[i - 1] = td;
	}
}

static void suggest_tracepoints(suggest *sg, const char *sys, const char *tp)
{
	const char *fs = rec_tracefs();
	if (!fs)
		return;
	char dir[256];
	snprintf(dir, sizeof dir, "%s/events", fs);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		bool same_sys = strcmp(e->d_name, sys) == 0;
		if (!same_sys && distance(e->d_name, sys) > 2)
			continue;
		char sub[600];
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		DIR *sd = opendir(sub);
		if (!sd)
			continue;
		struct dirent *t;
		while ((t = readdir(sd))) {
			if (t->d_name[0] == '.' || strcmp(t->d_name, "enable") == 0 ||
			    strcmp(t->d_name, "filter") == 0)
				continue;
			char full[520];
			snprintf(full, sizeof full, "%s:%s", e->d_name, t->d_name);
			consider(sg, tp, t->d_name, full);
		}
		closedir(sd);
	}
	closedir(d);
}

static void unknown(const char *spec, suggest *sg, char *msg, size_t cap)
{
	int n = snprintf(msg, cap, "unknown event '%s'", spec);
	if (n < 0 || (size_t)n >= cap)
		return;
	if (!sg->n) {
		snprintf(msg + n, cap - (size_t)n,
			 " (software events: cpu-clock, task-clock, page-faults, "
			 "context-switches, cpu-migrations, minor-faults, major-faults; "
			 "tracepoints: SYSTEM:NAME from %s/events)",
			 rec_tracefs() ? rec_tracefs() : "tracefs");
		return;
	}
	size_t len = (size_t)n;
	for (size_t i = 0; i < sg->n && len < cap; i++) {
		n = snprintf(msg + len, cap - len, "%s%s", i ? ", " : " (similar: ", sg->names[i]);
		if (n < 0)
			return;
		len += (size_t)n;
	}
	if (len < cap)
		snprintf(msg + len, cap - len, ")");
}

static bool parse_mods(const char *m, rec_event *ev)
{
	if (!m)
		return true;
	for (; *m; m++) {
		if (*m == 'u')
			ev->excl_kernel = true;
		else if (*m == 'k')
			ev->excl_user = true;
		else
			return false;
	}
	return true;
}

static bool read_tp_id(const char *sys, const char *tp, uint64_t *id)
{
	const char *fs = rec_tracefs();
	if (!fs)
		return false;
	char p[400];
	snprintf(p, sizeof p, "%s/events/%s/%s/id", fs, sys, tp);
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	unsigned long long v;
	bool ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	*id = v;
	return ok;
}

bool rec_event_parse(const char *spec, rec_event *ev, char *msg, size_t cap)
{
	memset(ev, 0, sizeof *ev);
	char buf[256];
	if (strlen(spec) >= sizeof buf || !*spec) {
		snprintf(msg, cap, "unknown event '%s'", spec);
		return false;
	}
	strcpy(buf, spec);
	char *c1 = strchr(buf, ':');
	char *first = buf, *rest = NULL;
	if (c1) {
		*c1 = '\0';
		rest = c1 + 1;
	}
	for (size_t i = 0; i < N_KNOWN; i++) {
		if (strcmp(first, known[i].name) != 0)
			continue;
		ev->type = known[i].type;
		ev->config = known[i].config;
		snprintf(ev->name, sizeof ev->name, "%s", spec);
		if (!parse_mods(rest, ev)) {
			snprintf(msg, cap, "event '%s': unknown modifier '%s' (u or k)", spec,
				 rest);
			return false;
		}
		return true;
	}
	if (rest) { /* sys:name[:mods] */
		char *c2 = strchr(rest, ':');
		if (c2)
			*c2++ = '\0';
		uint64_t id;
		if (strlen(first) < sizeof ev->sys && strlen(rest) < sizeof ev->tp &&
		    !strchr(first, '/') && !strchr(rest, '/') && first[0] != '.' &&
		    rest[0] != '.' && read_tp_id(first, rest, &id)) {
			ev->type = PERF_TYPE_TRACEPOINT;
			ev->config = id;
			ev->is_tp = true;
			strcpy(ev->sys, first);
			strcpy(ev->tp, rest);
			snprintf(ev->name, sizeof ev->name, "%s:%s", ev->sys, ev->tp);
			if (!parse_mods(c2, ev)) {
				snprintf(msg, cap, "event '%s': unknown modifier '%s' (u or k)",
					 spec, c2);
				return false;
			}
			return true;
		}
		suggest sg = {0};
		suggest_tracepoints(&sg, first, rest);
		unknown(spec, &sg, msg, cap);
		return false;
	}
	suggest sg = {0};
	for (size_t i = 0; i < N_KNOWN; i++)
		consider(&sg, first, known[i].name, known[i].name);
	unknown(spec, &sg, msg, cap);
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const rec_event *)a)->name, ((const rec_event *)b)->name);
}

size_t rec_event_expand(const char *spec, rec_event *out, size_t cap, char *msg, size_t msg_cap)
{
	if (!strpbrk(spec, "*?[")) {
		if (!cap) {
			snprintf(msg, msg_cap, "too many events");
			return 0;
		}
		return rec_event_parse(spec, out, msg, msg_cap) ? 1 : 0;
	}
	char sys[256], name[256];
	const char *colon = strchr(spec, ':');
	if (!colon || (size_t)(colon - spec) >= sizeof sys || strlen(colon + 1) >= sizeof name ||
	    strchr(colon + 1, ':')) {
		snprintf(msg, msg_cap, "event '%s': globs are for tracepoints SYS:NAME", spec);
		return 0;
	}
	memcpy(sys, spec, (size_t)(colon - spec));
	sys[colon - spec] = '\0';
	strcpy(name, colon + 1);
	const char *fs = rec_tracefs();
	char dir[256];
	snprintf(dir, sizeof dir, "%s/events", fs ? fs : "/sys/kernel/tracing");
	DIR *d = opendir(dir);
	size_t n = 0;
	bool full = false;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || fnmatch(sys, e->d_name, 0) != 0)
			continue;
		char sub[600];
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		DIR *sd = opendir(sub);
		struct dirent *t;
		while (sd && (t = readdir(sd))) {
			if (t->d_name[0] == '.' || fnmatch(name, t->d_name, 0) != 0)
				continue;
			char one[520], m[64];
			snprintf(one, sizeof one, "%s:%s", e->d_name, t->d_name);
			if (n == cap) {
				full = true;
				break;
			}
			if (rec_event_parse(one, &out[n], m,
					    sizeof m)) /* skips "enable", "filter" */
				n++;
		}
		if (sd)
			closedir(sd);
	}
	if (d)
		closedir(d);
	if (full) {
		snprintf(msg, msg_cap, "'%s' matches more than %zu tracepoints", spec, cap);
		return 0;
	}
	if (!n) {
		snprintf(msg, msg_cap, "no tracepoint matches '%s' in %s", spec, dir);
		return 0;
	}
	qsort(out, n, sizeof *out, cmp_name); /* readdir's order is arbitrary */
	return n;
}
