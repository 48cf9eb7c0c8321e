/* tracekit stats for perf.data: records per type, samples per event and per
 * CPU, lost and throttled counts, the time span (like perf report --stats).
 * One pass in file order: no sorting, no sample decoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_events.h"
#include "output/perf_render.h"

#define MAX_TYPES     65536
#define MAX_BIG_TYPES 16

typedef struct perf_stats {
	uint64_t total;
	uint64_t *per_type;                /* MAX_TYPES counters, by record type */
	uint32_t big_type[MAX_BIG_TYPES];  /* types >= MAX_TYPES seen, with */
	uint64_t big_count[MAX_BIG_TYPES]; /* their counts */
	size_t n_big;
	uint64_t big_other; /* beyond MAX_BIG_TYPES distinct ones */
	uint64_t *per_attr; /* samples per attr index */
	size_t n_attr_cap;
	uint64_t *per_cpu; /* samples per cpu */
	size_t n_cpu_cap;
	uint64_t samples_no_attr, samples_no_cpu;
	uint64_t lost_events, lost_samples;
	uint64_t first_time, last_time;
	bool has_time;
} perf_stats;

static bool grow(uint64_t **arr, size_t *cap, size_t need)
{
	if (need < *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap <= need)
		ncap *= 2;
	uint64_t *n = realloc(*arr, ncap * sizeof **arr);
	if (!n)
		return false;
	for (size_t i = *cap; i < ncap; i++)
		n[i] = 0;
	*arr = n;
	*cap = ncap;
	return true;
}

/* Types past MAX_TYPES (damage such as 0xffffffff) keep their own number,
 * so stats names them as print --all does: UNKNOWN(4294967295). */
static void count_big_type(perf_stats *s, uint32_t type)
{
	size_t i = 0;
	while (i < s->n_big && s->big_type[i] != type)
		i++;
	if (i == s->n_big) {
		if (s->n_big == MAX_BIG_TYPES) {
			s->big_other++;
			return;
		}
		s->big_type[s->n_big++] = type;
	}
	s->big_count[i]++;
}

static tk_status count(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	perf_stats *s = user;
	tk_perf_file *f = tk_session_perf(ses);
	s->total++;
	if (rec->type < MAX_TYPES)
		s->per_type[rec->type]++;
	else
		count_big_type(s, rec->type);
	/* perf synthesizes the records of what ran before the recording
	 * (mmaps, comms) with time 0: the span starts at real times */
	if (rec->has_time && (rec->sid.time != 0 || rec->type == TK_PERF_RECORD_SAMPLE)) {
		if (!s->has_time || rec->sid.time < s->first_time)
			s->first_time = rec->sid.time;
		if (!s->has_time || rec->sid.time > s->last_time)
			s->last_time = rec->sid.time;
		s->has_time = true;
	}
	if (rec->type == TK_PERF_RECORD_SAMPLE) {
		if (rec->attr && rec->attr->index < s->n_attr_cap) {
			s->per_attr[rec->attr->index]++; /* the common case: no call */
		} else if (rec->attr) {
			if (!grow(&s->per_attr, &s->n_attr_cap, rec->attr->index))
				return tk_error_set(err, TK_ERR_NOMEM, rec->offset,
						    "out of memory");
			s->per_attr[rec->attr->index]++;
		} else {
			s->samples_no_attr++;
		}
		if ((rec->sid.present & TK_PERF_SAMPLE_CPU) && rec->sid.cpu < s->n_cpu_cap) {
			s->per_cpu[rec->sid.cpu]++;
		} else if (rec->sid.present & TK_PERF_SAMPLE_CPU) {
			if (rec->sid.cpu > 1u << 20)
				s->samples_no_cpu++;
			else if (!grow(&s->per_cpu, &s->n_cpu_cap, rec->sid.cpu))
				return tk_error_set(err, TK_ERR_NOMEM, rec->offset,
						    "out of memory");
			else
				s->per_cpu[rec->sid.cpu]++;
		}
	} else if (rec->type == TK_PERF_RECORD_LOST || rec->type == TK_PERF_RECORD_LOST_SAMPLES) {
		tk_perf_event ev;
		if (tk_perf_parse_event(f, rec, &ev, NULL) == TK_OK) {
			if (rec->type == TK_PERF_RECORD_LOST)
				s->lost_events += ev.u.lost.lost;
			else
				s->lost_samples += ev.u.lost_samples.lost;
		}
	}
	return TK_OK;
}

static void put_type_line(tk_writer *w, const char *name, uint64_t n, uint64_t total)
{
	size_t len = strlen(name);
	tk_put_spaces(w, len < 13 ? (unsigned)(13 - len) : 0);
	tk_put_str(w, name);
	tk_put_str(w, " events: ");
	tk_put_u64_pad(w, n, 10, ' ');
	if (total)
		tk_put_fmt(w, "  (%4.1f%%)", 100.0 * (double)n / (double)total);
	tk_put_char(w, '\n');
}

static void put_time(tk_writer *w, uint64_t ns)
{
	tk_put_u64(w, ns / 1000000000u);
	tk_put_char(w, '.');
	tk_put_u64_pad(w, ns % 1000000000u, 9, '0');
}

static void render(const perf_stats *s, tk_perf_file *f, tk_writer *w)
{
	tk_put_str(w, "Aggregated stats:\n");
	put_type_line(w, "TOTAL", s->total, 0);
	for (uint32_t t = 0; t < MAX_TYPES; t++) {
		if (!s->per_type[t])
			continue;
		const char *name = tk_perf_record_type_name(t);
		char buf[32];
		if (!name) {
			snprintf(buf, sizeof buf, "UNKNOWN(%u)", t);
			name = buf;
		}
		put_type_line(w, name, s->per_type[t], s->total);
	}
	for (size_t i = 0; i < s->n_big; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "UNKNOWN(%u)", s->big_type[i]);
		put_type_line(w, buf, s->big_count[i], s->total);
	}
	if (s->big_other)
		put_type_line(w, "UNKNOWN(other)", s->big_other, s->total);
	for (size_t i = 0; i < tk_perf_attr_count(f); i++) {
		const tk_perf_attr *a = tk_perf_attr_at(f, i);
		uint64_t n = i < s->n_attr_cap ? s->per_attr[i] : 0;
		tk_put_str(w, a->name ? a->name : "?");
		tk_put_str(w, " stats:\n");
		put_type_line(w, "SAMPLE", n, 0);
	}
	if (s->samples_no_attr) {
		tk_put_str(w, "samples of no known event: ");
		tk_put_u64(w, s->samples_no_attr);
		tk_put_char(w, '\n');
	}
	bool any_cpu = false;
	for (size_t c = 0; c < s->n_cpu_cap; c++) {
		if (!s->per_cpu[c])
			continue;
		if (!any_cpu)
			tk_put_str(w, "Samples per CPU:\n");
		any_cpu = true;
		tk_put_str(w, "  cpu ");
		tk_put_u64_pad(w, c, 4, ' ');
		tk_put_str(w, ": ");
		tk_put_u64_pad(w, s->per_cpu[c], 10, ' ');
		tk_put_char(w, '\n');
	}
	tk_put_str(w, "Lost: ");
	tk_put_u64(w, s->lost_events);
	tk_put_str(w, " events in ");
	tk_put_u64(w, s->per_type[TK_PERF_RECORD_LOST]);
	tk_put_str(w, " LOST records, ");
	tk_put_u64(w, s->lost_samples);
	tk_put_str(w, " samples in ");
	tk_put_u64(w, s->per_type[TK_PERF_RECORD_LOST_SAMPLES]);
	tk_put_str(w, " LOST_SAMPLES records\nThrottled: ");
	tk_put_u64(w, s->per_type[TK_PERF_RECORD_THROTTLE]);
	tk_put_str(w, " throttle, ");
	tk_put_u64(w, s->per_type[TK_PERF_RECORD_UNTHROTTLE]);
	tk_put_str(w, " unthrottle\n");
	if (s->has_time) {
		tk_put_str(w, "Time span: ");
		put_time(w, s->first_time);
		tk_put_str(w, " .. ");
		put_time(w, s->last_time);
		tk_put_str(w, " (");
		put_time(w, s->last_time - s->first_time);
		tk_put_str(w, " s)\n");
	}
}

tk_status tk_perf_render_stats(const char *path, const tk_render_options *opt, tk_writer *w,
			       tk_error *err)
{
	tk_session *ses;
	tk_status st = tk_session_open_perf(path, opt, true, &ses, err);
	if (st != TK_OK)
		return st;
	perf_stats s = {0};
	s.per_type = calloc(MAX_TYPES, sizeof *s.per_type);
	if (!s.per_type) {
		tk_session_close(ses);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_session_tool tool = {.perf_sample = count, .perf_other = count};
	st = tk_session_run(ses, &tool, &s, err);
	/* What was counted before an error is still worth showing. */
	render(&s, tk_session_perf(ses), w);
	free(s.per_type);
	free(s.per_attr);
	free(s.per_cpu);
	tk_session_close(ses);
	return st;
}
