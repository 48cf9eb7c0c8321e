/* tracekit stats for perf.data: records per type, samples per event and per
 * CPU, lost and throttled counts, the time span (like perf report --stats).
 * One pass in file order: no sorting, no sample decoding; the counting is
 * src/perf/perf_stats_scan.c's lean scan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/perf_render.h"
#include "perf/perf_stats_scan.h"
#include "session/session_events.h"

/* The full path: every record as tk_perf_next hands it out, through the
 * session (TRACEKIT_STATS_FULL=1; the tests compare it with the lean scan). */
static tk_status count(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	return tk_perf_counts_add(user, tk_session_perf(ses), rec, err);
}

/* perf report --stats' line: the name right-aligned in 16 columns. */
static void put_type_line(tk_writer *w, const char *name, uint64_t n, uint64_t total)
{
	size_t len = strlen(name);
	tk_put_spaces(w, len < 16 ? (unsigned)(16 - len) : 0);
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

/* One line of the unknown types, under their heading (written before the
 * first). */
static void put_unknown_type(tk_writer *w, const char *name, uint64_t n, uint64_t total, bool *any)
{
	if (!*any)
		tk_put_str(w, "Records of unknown types:\n");
	*any = true;
	put_type_line(w, name, n, total);
}

/* Records of types perf has no name for: perf report --stats leaves them
 * out; they are listed after its part. */
static void put_unknown_types(const tk_perf_counts *s, tk_writer *w)
{
	bool any = false;
	char buf[32];
	for (uint32_t t = 0; t < TK_PERF_COUNTS_TYPES; t++) {
		if (s->per_type[t] && !tk_perf_record_type_name(t)) {
			snprintf(buf, sizeof buf, "UNKNOWN(%u)", t);
			put_unknown_type(w, buf, s->per_type[t], s->total, &any);
		}
	}
	for (size_t i = 0; i < s->n_big; i++) {
		snprintf(buf, sizeof buf, "UNKNOWN(%u)", s->big_type[i]);
		put_unknown_type(w, buf, s->big_count[i], s->total, &any);
	}
	if (s->big_other)
		put_unknown_type(w, "UNKNOWN(other)", s->big_other, s->total, &any);
}

/* The first part is perf report --stats' text, byte for byte (perf 6.1,
 * report.skip-empty: events without samples left out, each named as
 * evsel__name() names it; a pipe's events as if it had no EVENT_DESC, since
 * that mode skips HEADER_FEATURE records); tracekit's own counts follow. */
static void render(const tk_perf_counts *s, tk_perf_file *f, tk_writer *w)
{
	tk_put_str(w, "\nAggregated stats:");
	const tk_perf_header *h = tk_perf_get_header(f);
	if ((h->features[TK_PERF_FEAT_AUXTRACE / 64] >> (TK_PERF_FEAT_AUXTRACE % 64)) & 1)
		tk_put_str(w, " (excludes AUX area (e.g. instruction trace) decoded / synthesized "
			      "events)");
	tk_put_char(w, '\n');
	put_type_line(w, "TOTAL", s->total, 0);
	for (uint32_t t = 0; t < TK_PERF_COUNTS_TYPES; t++) {
		const char *name = s->per_type[t] ? tk_perf_record_type_name(t) : NULL;
		if (name)
			put_type_line(w, name, s->per_type[t], s->total);
	}
	for (size_t i = 0; i < tk_perf_attr_count(f); i++) {
		const tk_perf_attr *a = tk_perf_attr_at(f, i);
		uint64_t n = i < s->n_attr_cap ? s->per_attr[i] : 0;
		uint64_t lost = i < s->n_lost_attr_cap ? s->lost_per_attr[i] : 0;
		if (!n && !lost)
			continue;
		char buf[512];
		tk_put_str(w, h->pipe_mode ? tk_perf_event_attr_name(f, a, buf, sizeof buf)
					   : tk_perf_event_name(f, a, buf, sizeof buf));
		tk_put_str(w, " stats:\n");
		if (n)
			put_type_line(w, "SAMPLE", n, 0);
		if (lost)
			put_type_line(w, "LOST_SAMPLES", lost, 0);
	}
	put_unknown_types(s, w);
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
	tk_perf_counts c;
	if ((st = tk_perf_counts_init(&c, err)) != TK_OK) {
		tk_session_close(ses);
		return st;
	}
	const char *full = getenv("TRACEKIT_STATS_FULL");
	if (full && *full && strcmp(full, "0") != 0) {
		tk_session_tool tool = {.perf_sample = count, .perf_other = count};
		st = tk_session_run(ses, &tool, &c, err);
	} else {
		st = tk_perf_counts_scan(&c, tk_session_perf(ses), err);
	}
	/* perf counts the compressed containers as records too; the reader
	 * hands out only what is inside them */
	static const uint32_t containers[] = {TK_PERF_RECORD_COMPRESSED,
					      TK_PERF_RECORD_COMPRESSED2};
	for (size_t i = 0; i < sizeof containers / sizeof containers[0]; i++) {
		uint32_t t = containers[i];
		uint64_t z = tk_perf_compressed_records(tk_session_perf(ses), t);
		c.per_type[t] += z;
		c.total += z;
	}
	/* What was counted before an error is still worth showing. */
	render(&c, tk_session_perf(ses), w);
	tk_perf_counts_free(&c);
	tk_session_close(ses);
	return st;
}
