/* The lean reader (context/lean_reader.h) against the model source on the
 * same files: the same events in the same order with the same header
 * fields (tk_lean_next and tk_lean_read at any chunk size), and
 * tk_lean_count's per-class counts equal to counting the model's events
 * by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context/lean_reader.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

typedef struct row {
	char name[64];
	uint64_t ts, offset;
	int32_t cpu, pid, tid;
} row;

typedef struct rows {
	row *v;
	size_t n, cap;
} rows;

static void push(rows *r, const char *name, uint64_t ts, uint64_t offset, int32_t cpu, int32_t pid,
		 int32_t tid)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = realloc(r->v, r->cap * sizeof *r->v);
		assert_non_null(r->v);
	}
	row *w = &r->v[r->n++];
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "%s", name ? name : "");
	w->ts = ts;
	w->offset = offset;
	w->cpu = cpu;
	w->pid = pid;
	w->tid = tid;
}

static bool present(const char *rel)
{
	struct stat sb;
	return stat(tk_test_data(rel), &sb) == 0;
}

/* The model source's events (pid/tid only for perf: CTF's come from
 * contexts the lean reader does not decode). */
static rows model_rows(const char *path, bool perf)
{
	rows r = {0};
	tk_source *src;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_source_open(path, NULL, &src, &err), TK_OK);
	const tk_event *ev;
	tk_status st;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK)
		push(&r, ev->cls->name, ev->has_time ? ev->time_ns : 0, ev->offset, ev->cpu,
		     perf ? ev->pid : TK_PID_NONE, perf ? ev->tid : TK_PID_NONE);
	assert_int_equal(st, TK_END);
	tk_source_close(src);
	return r;
}

static tk_lean *open_lean(const char *path, tk_format f, bool raw_order)
{
	tk_lean_options lo = {.raw_order = raw_order};
	tk_lean *l;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_lean_open(path, f, &lo, &l, &err), TK_OK);
	return l;
}

static rows lean_rows(const char *path, tk_format f)
{
	rows r = {0};
	tk_lean *l = open_lean(path, f, false);
	const tk_event *ev;
	uint64_t period;
	tk_error err;
	tk_status st;
	while ((st = tk_lean_next(l, &ev, &period, &err)) == TK_OK)
		push(&r, ev->cls->name, ev->has_time ? ev->time_ns : 0, ev->offset, ev->cpu,
		     ev->pid, ev->tid);
	assert_int_equal(st, TK_END);
	tk_lean_close(l);
	return r;
}

static rows read_rows(const char *path, tk_format f, size_t chunk)
{
	rows r = {0};
	tk_lean *l = open_lean(path, f, false);
	uint64_t *ts = calloc(chunk, 8), *off = calloc(chunk, 8), *per = calloc(chunk, 8);
	int32_t *cpu = calloc(chunk, 4), *pid = calloc(chunk, 4), *tid = calloc(chunk, 4);
	const tk_event_class **cls = calloc(chunk, sizeof *cls);
	tk_lean_columns c = {ts, off, per, cpu, pid, tid, cls};
	tk_error err;
	tk_status st;
	do {
		size_t n = SIZE_MAX;
		st = tk_lean_read(l, &c, chunk, &n, &err);
		assert_true(n <= chunk);
		assert_true(st == TK_END || (st == TK_OK && n == chunk));
		for (size_t i = 0; i < n; i++)
			push(&r, cls[i]->name, ts[i], off[i], cpu[i], pid[i], tid[i]);
	} while (st == TK_OK);
	tk_lean_close(l);
	free(ts), free(off), free(per), free(cpu), free(pid), free(tid), free(cls);
	return r;
}

static void assert_same(const rows *a, const rows *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_string_equal(a->v[i].name, b->v[i].name);
		assert_int_equal(a->v[i].ts, b->v[i].ts);
		assert_int_equal(a->v[i].offset, b->v[i].offset);
		assert_int_equal(a->v[i].cpu, b->v[i].cpu);
		assert_int_equal(a->v[i].pid, b->v[i].pid);
		assert_int_equal(a->v[i].tid, b->v[i].tid);
	}
}

typedef struct tally {
	char name[64];
	uint64_t n;
} tally;

typedef struct tallies {
	tally v[64];
	size_t n;
} tallies;

static void add(tallies *t, const char *name, uint64_t n)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0) {
			t->v[i].n += n;
			return;
		}
	assert_true(t->n < 64);
	snprintf(t->v[t->n].name, sizeof t->v[t->n].name, "%s", name);
	t->v[t->n++].n = n;
}

static int count_cb(void *user, const char *name, uint64_t n)
{
	add(user, name, n);
	return 0;
}

static int cmp_tally(const void *a, const void *b)
{
	return strcmp(((const tally *)a)->name, ((const tally *)b)->name);
}

static void check_path(const char *path, tk_format f)
{
	bool perf = f == TK_FORMAT_PERF;
	rows model = model_rows(path, perf);
	assert_true(model.n > 0);
	rows next = lean_rows(path, f);
	assert_same(&model, &next);
	static const size_t chunks[] = {1, 7, 4096};
	for (size_t k = 0; k < 3; k++) {
		rows rd = read_rows(path, f, chunks[k]);
		assert_same(&model, &rd);
		free(rd.v);
	}
	/* counts: the model's events by name */
	tallies want = {0}, got = {0};
	for (size_t i = 0; i < model.n; i++)
		add(&want, model.v[i].name, 1);
	tk_lean *l = open_lean(path, f, true);
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_lean_count(l, count_cb, &got, &err), TK_OK);
	tk_lean_close(l);
	qsort(want.v, want.n, sizeof want.v[0], cmp_tally);
	qsort(got.v, got.n, sizeof got.v[0], cmp_tally);
	assert_int_equal(got.n, want.n);
	for (size_t i = 0; i < got.n; i++) {
		assert_string_equal(got.v[i].name, want.v[i].name);
		assert_int_equal(got.v[i].n, want.v[i].n);
	}
	free(model.v);
	free(next.v);
}

static void check_input(const char *rel, tk_format f)
{
	check_path(tk_test_data(rel), f);
}

static const struct {
	const char *rel;
	tk_format f;
} inputs[] = {
    {"perf/quipper/perf.data.forkexit-3.8", TK_FORMAT_PERF},
    {"perf/pdc/with-callchain.perf.data", TK_FORMAT_PERF},
    {"ctf/babeltrace/succeed/wk-heartbeat-u", TK_FORMAT_CTF},
    {"ctf/babeltrace/succeed/multi-domains", TK_FORMAT_CTF},
    {"ctf/babeltrace/succeed/ev-disc-no-ts-begin-end", TK_FORMAT_CTF},
    /* streams the lean fast path runs (src/ctf/ctf_columns.c) */
    {"ctf/babeltrace/packet-seq-num/2-streams-lost-in-1", TK_FORMAT_CTF},
    {"ctf/barectf/counter-clock_dst-er-features_ts", TK_FORMAT_CTF},
    {"ctf/babeltrace/deterministic-ordering/b-not-corrupted", TK_FORMAT_CTF},
};

static void test_lean_equals_model(void **state)
{
	(void)state;
	size_t ran = 0;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
		if (present(inputs[i].rel)) {
			check_input(inputs[i].rel, inputs[i].f);
			ran++;
		}
	if (!ran)
		skip();
}

/* The generated CTF traces of the Python tests (tests/python/ctf_gen.py):
 * streams interleaved in time that the lean fast path runs between merge
 * decisions, and every case where it must hand an event back. Skipped
 * without Debian's python3. */
static void test_lean_equals_model_generated(void **state)
{
	(void)state;
	const char *src = getenv("TK_SOURCE_DIR");
	char dir[] = "/tmp/tk-lean-gen-XXXXXX";
	if (!src || access("/usr/bin/python3", X_OK) != 0 || !mkdtemp(dir))
		skip();
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s/tests/python/ctf_gen.py' '%s'", src, dir);
	assert_int_equal(system(cmd), 0);
	static const char *const cases[] = {"three-streams-ties",
					    "one-stream-long-runs",
					    "interpreter-stream",
					    "narrow-clock-wraps",
					    "backwards-outside-discarded",
					    "clock-not-1ghz",
					    "clock-offset",
					    "two-traces"};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", dir, cases[i]);
		check_path(path, TK_FORMAT_CTF);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_lean_refuses_other_formats_and_missing_files(void **state)
{
	(void)state;
	tk_lean *l = (tk_lean *)1;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_lean_open("x.cpel", TK_FORMAT_CPEL, NULL, &l, &err), TK_ERR_USAGE);
	assert_null(l);
	assert_int_not_equal(tk_lean_open("/nonexistent/x.data", TK_FORMAT_PERF, NULL, &l, &err),
			     TK_OK);
	assert_null(l);
	tk_lean_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lean_equals_model),
	    cmocka_unit_test(test_lean_equals_model_generated),
	    cmocka_unit_test(test_lean_refuses_other_formats_and_missing_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
