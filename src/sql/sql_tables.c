/* The derived tables (sample, stack_frame, callsite, thread, process,
 * mapping, track, counter, sched, profile): their columns, and one cursor
 * over the rows the passes built. Ids are row numbers; with several inputs
 * the rows of each input follow the previous input's, ids shifted alike,
 * so joins on ids stay within one input. An equality on a table's id
 * column is one row (xBestIndex says so, which makes joins cheap). */
#ifdef TK_HAVE_SQLITE
#include <math.h>
#include <string.h>

#include "sql/sql_internal.h"

#define ROW(vec, type) TK_SQL_AT(in->d.vec, type, row)

static void text(sqlite3_context *ctx, const char *s)
{
	if (s)
		sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
}

static void i64(sqlite3_context *ctx, int64_t v)
{
	sqlite3_result_int64(ctx, v);
}

static void opt_id(sqlite3_context *ctx, int64_t v)
{
	if (v >= 0)
		sqlite3_result_int64(ctx, v);
}

static int64_t utid_of(const tk_sql_input *in, const int64_t *base, int32_t tid)
{
	if (tid < 0)
		return -1;
	const uint64_t *v = tk_hashmap_get(&in->d.thread_by_tid, (uint32_t)tid);
	return v ? base[TK_SQL_THREAD] + (int64_t)*v : -1;
}

static void sample_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		       sqlite3_context *ctx)
{
	const tk_sql_sample *s = ROW(samples, tk_sql_sample);
	switch (col) {
	case 0:
		if (s->has_ts)
			i64(ctx, (int64_t)s->ts);
		break;
	case 1: opt_id(ctx, s->cpu); break;
	case 2: opt_id(ctx, s->pid); break;
	case 3: opt_id(ctx, s->tid); break;
	case 4: text(ctx, *TK_SQL_AT(in->d.event_names, const char *, s->event)); break;
	case 5: i64(ctx, (int64_t)s->period); break;
	case 6: i64(ctx, (int64_t)s->ip); break;
	case 7:
		if (s->callsite >= 0)
			i64(ctx, base[TK_SQL_CALLSITE] + s->callsite);
		break;
	case 8: opt_id(ctx, utid_of(in, base, s->tid)); break;
	}
}

static void frame_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		      sqlite3_context *ctx)
{
	const tk_sql_frame *f = ROW(frames, tk_sql_frame);
	switch (col) {
	case 0: i64(ctx, base[TK_SQL_STACK_FRAME] + (int64_t)row); break;
	case 1: text(ctx, f->name); break;
	case 2: text(ctx, f->dso); break;
	case 3: i64(ctx, (int64_t)f->address); break;
	case 4: i64(ctx, (int64_t)f->sym_offset); break;
	}
}

static void callsite_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			 sqlite3_context *ctx)
{
	const tk_sql_callsite *c = ROW(callsites, tk_sql_callsite);
	switch (col) {
	case 0: i64(ctx, base[TK_SQL_CALLSITE] + (int64_t)row); break;
	case 1:
		if (c->parent >= 0)
			i64(ctx, base[TK_SQL_CALLSITE] + c->parent);
		break;
	case 2: i64(ctx, c->depth); break;
	case 3: i64(ctx, base[TK_SQL_STACK_FRAME] + c->frame); break;
	}
}

static void thread_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		       sqlite3_context *ctx)
{
	const tk_sql_thread *t = ROW(threads, tk_sql_thread);
	switch (col) {
	case 0: i64(ctx, base[TK_SQL_THREAD] + (int64_t)row); break;
	case 1: opt_id(ctx, t->tid); break;
	case 2: opt_id(ctx, t->pid); break;
	case 3: text(ctx, t->name); break;
	case 4:
		if (t->has_start)
			i64(ctx, (int64_t)t->start_ts);
		break;
	case 5:
		if (t->has_end)
			i64(ctx, (int64_t)t->end_ts);
		break;
	case 6:
		if (t->upid >= 0)
			i64(ctx, base[TK_SQL_PROCESS] + t->upid);
		break;
	}
}

static void process_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			sqlite3_context *ctx)
{
	const tk_sql_process *p = ROW(processes, tk_sql_process);
	switch (col) {
	case 0: i64(ctx, base[TK_SQL_PROCESS] + (int64_t)row); break;
	case 1: opt_id(ctx, p->pid); break;
	case 2: text(ctx, p->name); break;
	case 3: text(ctx, p->cmdline); break;
	}
}

static void mapping_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			sqlite3_context *ctx)
{
	(void)base;
	const tk_sql_mapping *m = ROW(mappings, tk_sql_mapping);
	switch (col) {
	case 0: i64(ctx, (int64_t)m->start); break;
	case 1: i64(ctx, (int64_t)m->end); break;
	case 2: i64(ctx, (int64_t)m->pgoff); break;
	case 3: text(ctx, m->dso); break;
	case 4: text(ctx, m->build_id); break;
	case 5: opt_id(ctx, m->pid); break;
	}
}

static void track_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		      sqlite3_context *ctx)
{
	const tk_sql_track *t = ROW(tracks, tk_sql_track);
	switch (col) {
	case 0: i64(ctx, base[TK_SQL_TRACK] + (int64_t)row); break;
	case 1: text(ctx, t->name); break;
	case 2: text(ctx, t->type); break;
	}
}

static void counter_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			sqlite3_context *ctx)
{
	const tk_sql_counter *c = ROW(counters, tk_sql_counter);
	switch (col) {
	case 0: i64(ctx, (int64_t)c->ts); break;
	case 1: i64(ctx, base[TK_SQL_TRACK] + c->track); break;
	case 2: sqlite3_result_double(ctx, c->value); break;
	}
}

static void sched_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
		      sqlite3_context *ctx)
{
	const tk_sql_sched *s = ROW(sched, tk_sql_sched);
	switch (col) {
	case 0: i64(ctx, (int64_t)s->ts); break;
	case 1: i64(ctx, (int64_t)s->dur); break;
	case 2: i64(ctx, s->cpu); break;
	case 3: opt_id(ctx, utid_of(in, base, s->tid)); break;
	case 4: text(ctx, s->end_state); break;
	case 5:
		if (s->has_priority)
			i64(ctx, s->priority);
		break;
	case 6: i64(ctx, s->tid); break;
	}
}

static void profile_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			sqlite3_context *ctx)
{
	(void)base;
	const tk_sql_profile_row *p = ROW(profile, tk_sql_profile_row);
	switch (col) {
	case 0: text(ctx, p->image); break;
	case 1: i64(ctx, (int64_t)p->offset); break;
	case 2: text(ctx, p->event); break;
	case 3: i64(ctx, (int64_t)p->count); break;
	}
}

static void thread_state_col(const tk_sql_input *in, const int64_t *base, size_t row, int col,
			     sqlite3_context *ctx)
{
	const tk_sql_thread_state *t = ROW(thread_state, tk_sql_thread_state);
	switch (col) {
	case 0: i64(ctx, (int64_t)t->ts); break;
	case 1: i64(ctx, (int64_t)t->dur); break;
	case 2: opt_id(ctx, t->cpu); break;
	case 3: opt_id(ctx, utid_of(in, base, t->tid)); break;
	case 4: text(ctx, t->state); break;
	case 5: i64(ctx, t->tid); break;
	}
}

static const tk_sql_table_def defs[TK_SQL_N_DERIVED] = {
    [TK_SQL_EVENT] = {"event", NULL, -1, -1, NULL},
    [TK_SQL_SAMPLE] = {"sample",
		       "ts INTEGER, cpu INTEGER, pid INTEGER, tid INTEGER, event TEXT, period "
		       "INTEGER, ip INTEGER, callsite_id INTEGER, utid INTEGER",
		       -1, 0, sample_col},
    [TK_SQL_STACK_FRAME] = {"stack_frame",
			    "id INTEGER, name TEXT, dso TEXT, address INTEGER, sym_offset INTEGER",
			    0, -1, frame_col},
    [TK_SQL_CALLSITE] = {"callsite",
			 "id INTEGER, parent_id INTEGER, depth INTEGER, frame_id INTEGER", 0, -1,
			 callsite_col},
    [TK_SQL_THREAD] = {"thread",
		       "utid INTEGER, tid INTEGER, pid INTEGER, name TEXT, start_ts INTEGER, "
		       "end_ts INTEGER, upid INTEGER",
		       0, -1, thread_col},
    [TK_SQL_PROCESS] = {"process", "upid INTEGER, pid INTEGER, name TEXT, cmdline TEXT", 0, -1,
			process_col},
    [TK_SQL_MAPPING] = {"mapping",
			"start INTEGER, \"end\" INTEGER, pgoff INTEGER, dso TEXT, build_id "
			"TEXT, pid INTEGER",
			-1, -1, mapping_col},
    [TK_SQL_TRACK] = {"track", "id INTEGER, name TEXT, type TEXT", 0, -1, track_col},
    [TK_SQL_COUNTER] = {"counter", "ts INTEGER, track INTEGER, value REAL", -1, 0, counter_col},
    [TK_SQL_SCHED] = {"sched",
		      "ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, end_state TEXT, "
		      "priority INTEGER, tid INTEGER",
		      -1, 0, sched_col},
    [TK_SQL_PROFILE] = {"profile", "image TEXT, \"offset\" INTEGER, event TEXT, count INTEGER", -1,
			-1, profile_col},
    [TK_SQL_THREAD_STATE] = {"thread_state",
			     "ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, state TEXT, tid "
			     "INTEGER",
			     -1, 0, thread_state_col},
};

const tk_sql_table_def *tk_sql_table_def_of(tk_sql_kind kind)
{
	return kind < TK_SQL_N_DERIVED ? &defs[kind] : NULL;
}

int tk_sql_kind_of(const char *name)
{
	for (int k = 0; k < TK_SQL_N_DERIVED; k++)
		if (strcmp(defs[k].name, name) == 0)
			return k;
	return -1;
}

size_t tk_sql_derived_count(const tk_sql_input *in, tk_sql_kind kind)
{
	const tk_sql_derived *d = &in->d;
	switch (kind) {
	case TK_SQL_SAMPLE: return d->samples.n;
	case TK_SQL_STACK_FRAME: return d->frames.n;
	case TK_SQL_CALLSITE: return d->callsites.n;
	case TK_SQL_THREAD: return d->threads.n;
	case TK_SQL_PROCESS: return d->processes.n;
	case TK_SQL_MAPPING: return d->mappings.n;
	case TK_SQL_TRACK: return d->tracks.n;
	case TK_SQL_COUNTER: return d->counters.n;
	case TK_SQL_SCHED: return d->sched.n;
	case TK_SQL_PROFILE: return d->profile.n;
	case TK_SQL_THREAD_STATE: return d->thread_state.n;
	default: return 0;
	}
}

/* ---- the cursor ---- */

typedef struct dv_cursor {
	tk_sql_cursor base;
	tk_sql_vtab *vt;
	int64_t (*bases)[TK_SQL_N_DERIVED]; /* per input */
	size_t input, row, end;             /* rows [row, end) of input */
	size_t last_input;                  /* scan inputs [input, last_input] */
	int n_cols;                         /* the hidden `file` column's index */
	bool eof;
	bool has_lo, has_hi; /* ts bounds (inclusive) pushed down */
	uint64_t lo, hi;
} dv_cursor;

/* A derived row's ts; false when it has none. */
static bool ts_of(const tk_sql_input *in, tk_sql_kind kind, size_t row, uint64_t *ts)
{
	const tk_sql_derived *d = &in->d;
	switch (kind) {
	case TK_SQL_SAMPLE: {
		const tk_sql_sample *s = TK_SQL_AT(d->samples, tk_sql_sample, row);
		*ts = s->ts;
		return s->has_ts;
	}
	case TK_SQL_COUNTER: *ts = TK_SQL_AT(d->counters, tk_sql_counter, row)->ts; return true;
	case TK_SQL_SCHED: *ts = TK_SQL_AT(d->sched, tk_sql_sched, row)->ts; return true;
	case TK_SQL_THREAD_STATE:
		*ts = TK_SQL_AT(d->thread_state, tk_sql_thread_state, row)->ts;
		return true;
	default: return false;
	}
}

/* Whether the rows of a table come in ts order (checked once per input:
 * perf's own order can put a late record after a later one). */
static bool ts_sorted(tk_sql_input *in, tk_sql_kind kind)
{
	if (!in->ts_sorted[kind]) {
		size_t n = tk_sql_derived_count(in, kind);
		uint64_t prev = 0, ts;
		bool ok = tk_sql_table_def_of(kind)->ts_col >= 0;
		for (size_t i = 0; i < n && ok; i++) {
			ok = ts_of(in, kind, i, &ts) && ts >= prev;
			prev = ts;
		}
		in->ts_sorted[kind] = ok ? 1 : 2;
	}
	return in->ts_sorted[kind] == 1;
}

/* First row whose ts is >= v (rows in ts order). */
static size_t lower_bound(const tk_sql_input *in, tk_sql_kind kind, size_t n, uint64_t v)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		uint64_t ts = 0;
		ts_of(in, kind, m, &ts);
		if (ts < v)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The rows of input i the pushed-down ts bounds leave: [row, end). */
static void input_range(dv_cursor *c, size_t i)
{
	tk_sql_input *in = c->vt->inputs[i];
	tk_sql_kind kind = c->vt->kind;
	size_t n = tk_sql_derived_count(in, kind);
	c->row = 0;
	c->end = n;
	if ((c->has_lo || c->has_hi) && ts_sorted(in, kind)) {
		if (c->has_lo)
			c->row = lower_bound(in, kind, n, c->lo);
		if (c->has_hi)
			c->end = c->hi == UINT64_MAX ? n : lower_bound(in, kind, n, c->hi + 1);
		if (c->end < c->row)
			c->end = c->row;
	}
}

int tk_sql_derived_best_index(tk_sql_vtab *vt, sqlite3_index_info *info)
{
	const tk_sql_table_def *def = tk_sql_table_def_of(vt->kind);
	double rows = 0;
	bool built = true;
	for (size_t i = 0; i < vt->n_inputs; i++) {
		rows += (double)tk_sql_derived_count(vt->inputs[i], vt->kind);
		built = built && vt->inputs[i]->built;
	}
	if (!built)
		rows = vt->file_bytes / 200 + 100; /* a guess until the pass has run */
	info->estimatedCost = rows + 1;
	info->estimatedRows = (sqlite3_int64)rows + 1;
	info->idxNum = 0;
	/* sample.utid names the model context's threads: the model pass too */
	int threads = vt->kind == TK_SQL_SAMPLE && (info->colUsed & (1ull << 8)) ? 4 : 0;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (c->usable && c->op == SQLITE_INDEX_CONSTRAINT_EQ && def->id_col >= 0 &&
		    c->iColumn == def->id_col) {
			info->aConstraintUsage[i].argvIndex = 1;
			info->idxNum = 1 | threads;
			info->estimatedCost = 1;
			info->estimatedRows = 1;
			info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
			return SQLITE_OK;
		}
	}
	/* ts ranges: a binary search where the rows are in ts order */
	char codes[32];
	int n = 0;
	double keep = 1;
	for (int i = 0; i < info->nConstraint && def->ts_col >= 0 && n < 30; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable || c->iColumn != def->ts_col)
			continue;
		char code = c->op == SQLITE_INDEX_CONSTRAINT_GT   ? 'g'
			    : c->op == SQLITE_INDEX_CONSTRAINT_GE ? 'G'
			    : c->op == SQLITE_INDEX_CONSTRAINT_LT ? 'l'
			    : c->op == SQLITE_INDEX_CONSTRAINT_LE ? 'L'
			    : c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 'e'
								  : 0;
		if (!code)
			continue;
		codes[n++] = code;
		info->aConstraintUsage[i].argvIndex = n;
		keep *= code == 'e' ? 0.001 : 0.3;
	}
	if (n) {
		codes[n] = '\0';
		info->idxNum = 2;
		info->idxStr = sqlite3_mprintf("%s", codes);
		if (!info->idxStr)
			return SQLITE_NOMEM;
		info->needToFreeIdxStr = 1;
		info->estimatedCost = rows * keep + 20;
		info->estimatedRows = (sqlite3_int64)(rows * keep) + 1;
	}
	info->idxNum |= threads;
	return SQLITE_OK;
}

/* One pushed-down ts bound; numbers only (SQLite rechecks every row). */
static void ts_bound(dv_cursor *c, char code, sqlite3_value *v)
{
	int t = sqlite3_value_numeric_type(v);
	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
		return;
	double d = sqlite3_value_double(v);
	if (code == 'g' || code == 'G' || code == 'e') {
		/* smallest integer the bound allows; below 0: no bound */
		double lo = code == 'g' ? floor(d) + 1 : ceil(d);
		if (t == SQLITE_INTEGER) {
			sqlite3_int64 i = sqlite3_value_int64(v);
			lo = (double)i + (code == 'g');
			if (i >= 0 && (!c->has_lo || (uint64_t)i + (code == 'g') > c->lo)) {
				c->lo = (uint64_t)i + (code == 'g');
				c->has_lo = true;
			}
		} else if (lo >= 1.8e19) {
			c->has_lo = c->has_hi = true;
			c->lo = UINT64_MAX;
			c->hi = 0;
		} else if (lo > 0 && (!c->has_lo || (uint64_t)lo > c->lo)) {
			c->lo = (uint64_t)lo;
			c->has_lo = true;
		}
	}
	if (code == 'l' || code == 'L' || code == 'e') {
		double hi = code == 'l' ? ceil(d) - 1 : floor(d);
		if (t == SQLITE_INTEGER) {
			sqlite3_int64 i = sqlite3_value_int64(v);
			hi = (double)i - (code == 'l');
		}
		if (hi < 0) {
			c->has_lo = c->has_hi = true;
			c->lo = UINT64_MAX;
			c->hi = 0;
		} else if (hi < 1.8e19) {
			uint64_t h = t == SQLITE_INTEGER
					 ? (uint64_t)sqlite3_value_int64(v) - (code == 'l')
					 : (uint64_t)hi;
			if (!c->has_hi || h < c->hi) {
				c->hi = h;
				c->has_hi = true;
			}
		}
	}
}

static void skip_empty(dv_cursor *c)
{
	tk_sql_vtab *vt = c->vt;
	while (c->row >= c->end) {
		if (c->input >= c->last_input) {
			c->eof = true;
			return;
		}
		c->input++;
		input_range(c, c->input);
	}
	(void)vt;
}

static int dv_filter(sqlite3_vtab_cursor *base, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	dv_cursor *c = (dv_cursor *)base;
	tk_sql_vtab *vt = c->vt;
	tk_error err;
	/* Ids of several inputs need every input's row counts. */
	bool threads = (idx & 4) != 0;
	idx &= 3;
	for (size_t i = 0; i < vt->n_inputs; i++) {
		tk_sql_kind need[] = {vt->kind, TK_SQL_THREAD, TK_SQL_SAMPLE, TK_SQL_TRACK};
		size_t n_need = vt->n_inputs > 1 ? 4 : threads ? 2 : 1;
		for (size_t k = 0; k < n_need; k++)
			if (tk_sql_input_build(vt->ctx, vt->inputs[i], need[k], &err) != TK_OK)
				return tk_sql_vtab_fail(vt, &err, vt->inputs[i]->path);
	}
	if (!c->bases) {
		c->bases = sqlite3_malloc64(vt->n_inputs * sizeof *c->bases);
		if (!c->bases)
			return SQLITE_NOMEM;
	}
	for (size_t i = 0; i < vt->n_inputs; i++)
		for (int k = 0; k < TK_SQL_N_DERIVED; k++)
			c->bases[i][k] =
			    i == 0 ? 0
				   : c->bases[i - 1][k] + (int64_t)tk_sql_derived_count(
							      vt->inputs[i - 1], (tk_sql_kind)k);
	c->eof = false;
	c->input = 0;
	c->last_input = vt->n_inputs - 1;
	c->has_lo = c->has_hi = false;
	if (idx == 2)
		for (int i = 0; i < argc && idx_str && idx_str[i]; i++)
			ts_bound(c, idx_str[i], argv[i]);
	input_range(c, 0);
	if (idx == 1 && argc == 1) {
		c->eof = true;
		if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER)
			return SQLITE_OK;
		sqlite3_int64 id = sqlite3_value_int64(argv[0]);
		for (size_t i = 0; i < vt->n_inputs; i++) {
			int64_t lo = c->bases[i][vt->kind];
			size_t n = tk_sql_derived_count(vt->inputs[i], vt->kind);
			if (id >= lo && (uint64_t)(id - lo) < n) {
				c->eof = false;
				c->input = c->last_input = i;
				c->row = (size_t)(id - lo);
				c->end = c->row + 1;
				break;
			}
		}
		return SQLITE_OK;
	}
	skip_empty(c);
	return SQLITE_OK;
}

static int dv_next(sqlite3_vtab_cursor *base)
{
	dv_cursor *c = (dv_cursor *)base;
	c->row++;
	skip_empty(c);
	return SQLITE_OK;
}

static int dv_eof(sqlite3_vtab_cursor *base)
{
	return ((dv_cursor *)base)->eof;
}

static int dv_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	dv_cursor *c = (dv_cursor *)base;
	tk_sql_vtab *vt = c->vt;
	const tk_sql_input *in = vt->inputs[c->input];
	const tk_sql_table_def *def = tk_sql_table_def_of(vt->kind);
	if (col == c->n_cols)
		sqlite3_result_text(ctx, in->path, -1, SQLITE_STATIC);
	else
		def->column(in, c->bases[c->input], c->row, col, ctx);
	return SQLITE_OK;
}

static int dv_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	dv_cursor *c = (dv_cursor *)base;
	*rowid = c->bases[c->input][c->vt->kind] + (sqlite3_int64)c->row;
	return SQLITE_OK;
}

static int dv_close(sqlite3_vtab_cursor *base)
{
	dv_cursor *c = (dv_cursor *)base;
	sqlite3_free(c->bases);
	sqlite3_free(c);
	return SQLITE_OK;
}

static const tk_sql_cursor_ops dv_ops = {
    .close = dv_close,
    .filter = dv_filter,
    .next = dv_next,
    .eof = dv_eof,
    .column = dv_column,
    .rowid = dv_rowid,
};

int tk_sql_derived_open(tk_sql_vtab *vt, sqlite3_vtab_cursor **out)
{
	dv_cursor *c = sqlite3_malloc64(sizeof *c);
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	c->base.ops = &dv_ops;
	c->vt = vt;
	c->eof = true;
	/* the hidden `file` column comes after the table's own */
	c->n_cols = 1;
	for (const char *p = tk_sql_table_def_of(vt->kind)->columns; *p; p++)
		c->n_cols += *p == ',';
	*out = &c->base.base;
	return SQLITE_OK;
}

#endif /* TK_HAVE_SQLITE */
