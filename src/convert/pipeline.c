/* Muxer and pipeline; see pipeline.h. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "convert/pipeline.h"

struct tk_muxer {
	tk_session *const *sessions;
	size_t n;
	const tk_event **pending; /* NULL: needs a pull; done[i]: finished */
	bool *done;
	size_t last; /* source whose event was returned last */
	bool started;
};

tk_status tk_muxer_new(tk_session *const *sessions, size_t n, tk_muxer **out, tk_error *err)
{
	tk_muxer *m = calloc(1, sizeof *m);
	if (m) {
		m->pending = calloc(n ? n : 1, sizeof *m->pending);
		m->done = calloc(n ? n : 1, sizeof *m->done);
	}
	if (!m || !m->pending || !m->done) {
		tk_muxer_free(m);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	m->sessions = sessions;
	m->n = n;
	*out = m;
	return TK_OK;
}

void tk_muxer_free(tk_muxer *m)
{
	if (!m)
		return;
	free(m->pending);
	free(m->done);
	free(m);
}

static inline tk_status pull(tk_muxer *m, size_t i, tk_error *err)
{
	const tk_session_item *it;
	tk_status st = tk_session_next(m->sessions[i], &it, err);
	m->pending[i] = st == TK_OK ? it->event : NULL;
	if (st == TK_END) {
		m->done[i] = true;
		m->pending[i] = NULL;
		return TK_OK;
	}
	return st;
}

static tk_status next_merged(tk_muxer *m, const tk_event **out, size_t *source_index,
			     tk_error *err);

/* One input (most conversions) has nothing to merge: its events go
 * straight through, inlined into the pipeline's loop. The merge cost
 * ~55 instructions an event, 4% of a CTF -> CTF conversion (bench/README,
 * session 40). */
static inline tk_status muxer_next(tk_muxer *m, const tk_event **out, size_t *source_index,
				   tk_error *err)
{
	if (m->n != 1)
		return next_merged(m, out, source_index, err);
	if (m->done[0])
		return TK_END;
	const tk_session_item *it;
	tk_status st = tk_session_next(m->sessions[0], &it, err);
	if (st != TK_OK) {
		m->done[0] = st == TK_END;
		return st;
	}
	*out = it->event;
	if (source_index)
		*source_index = 0;
	return TK_OK;
}

tk_status tk_muxer_next(tk_muxer *m, const tk_event **out, size_t *source_index, tk_error *err)
{
	return muxer_next(m, out, source_index, err);
}

static tk_status next_merged(tk_muxer *m, const tk_event **out, size_t *source_index, tk_error *err)
{
	/* Only the source returned last needs advancing: the other pending
	 * events are still valid. */
	if (!m->started) {
		for (size_t i = 0; i < m->n; i++) {
			tk_status st = pull(m, i, err);
			if (st != TK_OK)
				return st;
		}
		m->started = true;
	} else if (!m->done[m->last]) {
		tk_status st = pull(m, m->last, err);
		if (st != TK_OK)
			return st;
	}
	size_t best = m->n;
	for (size_t i = 0; i < m->n; i++) {
		const tk_event *ev = m->pending[i];
		if (!ev)
			continue;
		if (best == m->n) {
			best = i;
			continue;
		}
		const tk_event *b = m->pending[best];
		uint64_t bt = b->has_time ? b->time_ns : 0, et = ev->has_time ? ev->time_ns : 0;
		if (et < bt)
			best = i;
	}
	if (best == m->n)
		return TK_END;
	m->last = best;
	*out = m->pending[best];
	if (source_index)
		*source_index = best;
	return TK_OK;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show_progress(uint64_t events, uint64_t offset, uint64_t total, double elapsed,
			  bool final)
{
	double rate = elapsed > 0 ? (double)events / elapsed : 0;
	if (total && offset <= total) {
		double frac = (double)offset / (double)total;
		double eta = frac > 0 ? elapsed / frac - elapsed : 0;
		fprintf(stderr, "\r%12llu events  %5.1f%% of %.1f MB  %.2f M events/s  ETA %4.0fs ",
			(unsigned long long)events, 100 * frac, (double)total / 1e6, rate / 1e6,
			eta);
	} else {
		fprintf(stderr, "\r%12llu events  %.2f M events/s ", (unsigned long long)events,
			rate / 1e6);
	}
	if (final)
		fputc('\n', stderr);
}

tk_status tk_pipeline_run(tk_session *const *sessions, size_t n, tk_sink *sink,
			  const tk_pipeline_options *opt, uint64_t *events_out, tk_error *err)
{
	tk_muxer *m;
	tk_status st = tk_muxer_new(sessions, n, &m, err);
	if (st != TK_OK)
		return st;
	bool filtering = !tk_filter_is_empty(&opt->filter);
	uint64_t written = 0, seen = 0;
	double start = opt->progress ? now_s() : 0, next_report = start + 0.25;
	const tk_event *ev;
	while ((st = muxer_next(m, &ev, NULL, err)) == TK_OK) {
		if (opt->stop && *opt->stop) {
			st = tk_error_set(err, TK_ERR_INTERRUPTED, TK_NO_OFFSET, "interrupted");
			break;
		}
		seen++;
		if (opt->progress && (seen & 0xFFFF) == 0) {
			double t = now_s();
			if (t >= next_report) {
				show_progress(seen, ev->offset, opt->total_bytes, t - start, false);
				next_report = t + 0.25;
			}
		}
		if (filtering && !tk_filter_match(&opt->filter, ev))
			continue;
		st = tk_sink_write(sink, ev, err);
		if (st != TK_OK)
			break;
		written++;
		if (opt->limit && written >= opt->limit)
			break;
	}
	if (opt->progress)
		show_progress(seen, opt->total_bytes, opt->total_bytes, now_s() - start, true);
	tk_muxer_free(m);
	if (events_out)
		*events_out = written;
	return st == TK_END || st == TK_OK ? TK_OK : st;
}
