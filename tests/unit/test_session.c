/* tk_session: the records a native session hands out are the reader's own
 * (compared with a plain tk_perf_next walk), observers see every item
 * before the tool, TK_END stops early without an error, a callback's error
 * ends the run with that status, model sessions give tk_source's events
 * (perf.data: with the native records to observers too), pulling gives what
 * pushing gives, CTF's native session gives the reader's events, and the
 * misuses are refused. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "session/session_ctf.h"
#include "tracekit/tracekit.h"
#include "test_support.h"

#define PERF_FILE "perf/lpd/sleep.data"
#define CTF_DIR   "ctf/babeltrace/succeed/smalltrace"

static bool have_data(void)
{
	struct stat sb;
	return stat(tk_test_data(PERF_FILE), &sb) == 0;
}

typedef struct counts {
	uint64_t samples, others, events, observed_records, observed_events;
	uint64_t last_observed; /* offset of the record the observer saw last */
	uint64_t offsets_sum;   /* sum of the tool's record offsets */
	bool out_of_order;      /* the tool saw a record the observer had not */
	uint64_t stop_after;    /* TK_END after this many samples, 0 = never */
	tk_status fail_with;    /* returned at the first sample, TK_OK = never */
} counts;

static tk_status observe(void *user, tk_session *s, const tk_session_item *item, tk_error *err)
{
	(void)s;
	(void)err;
	counts *c = user;
	if (item->kind == TK_SESSION_PERF_RECORD) {
		c->observed_records++;
		c->last_observed = item->perf->offset;
	} else if (item->kind == TK_SESSION_EVENT) {
		c->observed_events++;
	}
	return TK_OK;
}

static tk_status on_record(counts *c, const tk_perf_record *rec)
{
	if (rec->offset != c->last_observed)
		c->out_of_order = true;
	c->offsets_sum += rec->offset;
	return TK_OK;
}

static tk_status on_sample(tk_session *s, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)s;
	counts *c = user;
	c->samples++;
	if (c->fail_with != TK_OK)
		return tk_error_set(err, c->fail_with, rec->offset, "stopped by the test");
	on_record(c, rec);
	return c->stop_after && c->samples >= c->stop_after ? TK_END : TK_OK;
}

static tk_status on_other(tk_session *s, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	counts *c = user;
	c->others++;
	return on_record(c, rec);
}

static tk_status on_event(tk_session *s, const tk_event *ev, void *user, tk_error *err)
{
	(void)s;
	(void)ev;
	(void)err;
	((counts *)user)->events++;
	return TK_OK;
}

static const tk_session_tool tool = {
    .perf_sample = on_sample, .perf_other = on_other, .event = on_event};

static void test_native_matches_reader(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	const char *path = tk_test_data(PERF_FILE);
	/* the oracle: the reader on its own */
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open(path, NULL, &f, &err), TK_OK);
	uint64_t samples = 0, others = 0, sum = 0;
	const tk_perf_record *rec;
	tk_status st;
	while ((st = tk_perf_next(f, &rec, &err)) == TK_OK) {
		if (rec->type == TK_PERF_RECORD_SAMPLE)
			samples++;
		else
			others++;
		sum += rec->offset;
	}
	assert_int_equal(st, TK_END);
	tk_perf_close(f);
	assert_true(samples > 0);

	tk_open_options oo = {.format = TK_FORMAT_PERF};
	tk_session *s;
	assert_int_equal(tk_session_open(path, &oo, TK_SESSION_NATIVE, &s, &err), TK_OK);
	assert_int_equal(tk_session_format(s), TK_FORMAT_PERF);
	assert_non_null(tk_session_perf(s));
	assert_null(tk_session_source(s));
	counts c = {.last_observed = UINT64_MAX};
	assert_int_equal(tk_session_add_observer(s, observe, &c, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &c, &err), TK_OK);
	assert_int_equal(c.samples, samples);
	assert_int_equal(c.others, others);
	assert_int_equal(c.offsets_sum, sum);
	assert_int_equal(c.observed_records, samples + others);
	assert_false(c.out_of_order);
	assert_int_equal(c.events, 0);
	/* a session runs once */
	assert_int_equal(tk_session_run(s, &tool, &c, &err), TK_ERR_USAGE);
	tk_session_close(s);
}

static void test_stop_and_fail(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	const char *path = tk_test_data(PERF_FILE);
	tk_error err;
	tk_session *s;
	/* detection: no format given */
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	counts c = {.last_observed = UINT64_MAX, .stop_after = 3};
	assert_int_equal(tk_session_add_observer(s, observe, &c, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &c, &err), TK_OK);
	assert_int_equal(c.samples, 3);
	tk_session_close(s);

	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	counts d = {.fail_with = TK_ERR_LIMIT};
	tk_error_clear(&err);
	assert_int_equal(tk_session_run(s, &tool, &d, &err), TK_ERR_LIMIT);
	assert_int_equal(d.samples, 1);
	assert_string_equal(err.message, "stopped by the test");
	tk_session_close(s);

	/* observers only */
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	counts e = {0};
	assert_int_equal(tk_session_add_observer(s, observe, &e, &err), TK_OK);
	assert_int_equal(tk_session_run(s, NULL, NULL, &err), TK_OK);
	assert_true(e.observed_records > 3);
	tk_session_close(s);
}

static void test_model(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	const char *path = tk_test_data(PERF_FILE);
	tk_error err;
	/* the oracle: the adapter on its own */
	tk_source *src;
	assert_int_equal(tk_source_open(path, NULL, &src, &err), TK_OK);
	uint64_t events = 0;
	const tk_event *ev;
	tk_status st;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK)
		events++;
	assert_int_equal(st, TK_END);
	tk_source_close(src);

	tk_session *s;
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_MODEL, &s, &err), TK_OK);
	assert_null(tk_session_perf(s));
	assert_non_null(tk_session_source(s));
	counts c = {0};
	assert_int_equal(tk_session_add_observer(s, observe, &c, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &c, &err), TK_OK);
	assert_int_equal(c.events, events);
	assert_int_equal(c.observed_events, events);
	/* the records the events are made from reach the observers too */
	assert_true(c.observed_records >= events);
	assert_int_equal(c.samples, 0);
	tk_session_close(s);

	/* CTF, detected from the directory */
	const char *ctf = tk_test_data(CTF_DIR);
	struct stat sb;
	if (stat(ctf, &sb) != 0)
		return;
	assert_int_equal(tk_source_open(ctf, NULL, &src, &err), TK_OK);
	events = 0;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK)
		events++;
	tk_source_close(src);
	assert_true(events > 0);
	assert_int_equal(tk_session_open(ctf, NULL, TK_SESSION_MODEL, &s, &err), TK_OK);
	assert_int_equal(tk_session_format(s), TK_FORMAT_CTF);
	counts d = {0};
	assert_int_equal(tk_session_run(s, &tool, &d, &err), TK_OK);
	assert_int_equal(d.events, events);
	tk_session_close(s);
}

static tk_status fail_at(void *user, tk_session *s, const tk_session_item *item, tk_error *err)
{
	(void)s;
	(void)item;
	uint64_t *left = user;
	return --*left == 0 ? tk_error_set(err, TK_ERR_LIMIT, 7, "observer stops") : TK_OK;
}

/* Pull gives the items push gives, in the same order, observers first. */
static void test_pull(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	const char *path = tk_test_data(PERF_FILE);
	tk_error err;
	tk_session *s;
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	counts pushed = {.last_observed = UINT64_MAX};
	assert_int_equal(tk_session_add_observer(s, observe, &pushed, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &pushed, &err), TK_OK);
	/* a run session is not pulled */
	const tk_session_item *it;
	assert_int_equal(tk_session_next(s, &it, &err), TK_ERR_USAGE);
	assert_null(it);
	tk_session_close(s);

	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	counts pulled = {.last_observed = UINT64_MAX};
	assert_int_equal(tk_session_add_observer(s, observe, &pulled, &err), TK_OK);
	tk_status st;
	while ((st = tk_session_next(s, &it, &err)) == TK_OK) {
		assert_int_equal(it->kind, TK_SESSION_PERF_RECORD);
		assert_ptr_equal(it->perf_file, tk_session_perf(s));
		if (it->perf->type == TK_PERF_RECORD_SAMPLE)
			on_sample(s, it->perf, &pulled, &err);
		else
			on_other(s, it->perf, &pulled, &err);
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(tk_session_next(s, &it, &err), TK_END); /* and stays there */
	assert_int_equal(tk_session_run(s, &tool, &pulled, &err), TK_ERR_USAGE);
	assert_true(pulled.samples > 0);
	assert_int_equal(pulled.samples, pushed.samples);
	assert_int_equal(pulled.others, pushed.others);
	assert_int_equal(pulled.offsets_sum, pushed.offsets_sum);
	assert_int_equal(pulled.observed_records, pushed.observed_records);
	assert_false(pulled.out_of_order);
	tk_session_close(s);

	/* model mode: events only, the records they come from to observers */
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_MODEL, &s, &err), TK_OK);
	counts m = {0};
	assert_int_equal(tk_session_add_observer(s, observe, &m, &err), TK_OK);
	uint64_t events = 0;
	while ((st = tk_session_next(s, &it, &err)) == TK_OK) {
		assert_int_equal(it->kind, TK_SESSION_EVENT);
		events++;
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(m.observed_events, events);
	assert_true(m.observed_records >= events);
	tk_session_close(s);
	s = NULL;
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_MODEL, &s, &err), TK_OK);
	counts pm = {0};
	assert_int_equal(tk_session_run(s, &tool, &pm, &err), TK_OK);
	assert_int_equal(pm.events, events);
	tk_session_close(s);

	/* an observer's error ends the pull with that error, then usage */
	assert_int_equal(tk_session_open(path, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	uint64_t left = 5;
	assert_int_equal(tk_session_add_observer(s, fail_at, &left, &err), TK_OK);
	uint64_t got = 0;
	while ((st = tk_session_next(s, &it, &err)) == TK_OK)
		got++;
	assert_int_equal(st, TK_ERR_LIMIT);
	assert_int_equal(got, 4);
	assert_int_equal(err.offset, 7);
	assert_int_equal(tk_session_next(s, &it, &err), TK_ERR_USAGE);
	tk_session_close(s);
}

static tk_status on_ctf(tk_session *s, const struct ctf_event_out *ev, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	counts *c = user;
	c->events++;
	c->offsets_sum += ev->offset;
	return TK_OK;
}

/* CTF's native session: the reader's own events, pushed or pulled, and the
 * span-only read, against a plain ctf_reader walk. */
static void test_ctf_native(void **state)
{
	(void)state;
	const char *ctf = tk_test_data(CTF_DIR);
	struct stat sb;
	if (stat(ctf, &sb) != 0)
		skip();
	tk_error err;
	ctf_reader *r;
	assert_int_equal(ctf_reader_open(ctf, NULL, NULL, &r, &err), TK_OK);
	const ctf_event_out *ev;
	tk_status st;
	uint64_t n = 0, sum = 0;
	while ((st = ctf_reader_next(r, &ev, &err)) == TK_OK) {
		n++;
		sum += ev->offset;
	}
	assert_int_equal(st, TK_END);
	ctf_reader_close(r);
	assert_true(n > 0);

	tk_session *s;
	assert_int_equal(tk_session_open(ctf, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	assert_int_equal(tk_session_format(s), TK_FORMAT_CTF);
	assert_non_null(tk_session_ctf(s));
	assert_null(tk_session_perf(s));
	counts c = {0};
	static const tk_session_tool ctf_tool = {.ctf_event = on_ctf};
	assert_int_equal(tk_session_add_observer(s, observe, &c, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &ctf_tool, &c, &err), TK_OK);
	assert_int_equal(c.events, n);
	assert_int_equal(c.offsets_sum, sum);
	/* a span read needs a fresh session without observers */
	ctf_span sp;
	assert_int_equal(tk_session_ctf_span(s, &sp, &err), TK_ERR_USAGE);
	tk_session_close(s);

	assert_int_equal(tk_session_open(ctf, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	const tk_session_item *it;
	counts p = {0};
	while ((st = tk_session_next(s, &it, &err)) == TK_OK) {
		assert_int_equal(it->kind, TK_SESSION_CTF_EVENT);
		on_ctf(s, it->ctf, &p, &err);
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(p.events, n);
	assert_int_equal(p.offsets_sum, sum);
	tk_session_close(s);

	assert_int_equal(tk_session_open(ctf, NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	tk_session_ctf(s)->lean = true;
	assert_int_equal(tk_session_ctf_span(s, &sp, &err), TK_OK);
	assert_int_equal(sp.n_events, n);
	assert_int_equal(tk_session_run(s, &ctf_tool, &p, &err), TK_ERR_USAGE);
	tk_session_close(s);
}

static void test_bad_input(void **state)
{
	(void)state;
	tk_error err;
	tk_session *s = (tk_session *)&err;
	assert_int_not_equal(
	    tk_session_open("/nonexistent/perf.data", NULL, TK_SESSION_NATIVE, &s, &err), TK_OK);
	assert_null(s);
	assert_string_equal(err.file, "/nonexistent/perf.data");
	tk_session_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_native_matches_reader),
	    cmocka_unit_test(test_stop_and_fail),
	    cmocka_unit_test(test_model),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_pull),
	    cmocka_unit_test(test_ctf_native),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
