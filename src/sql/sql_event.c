/* The event tables: `event` (every event of every input) and event_<class>
 * (one class, a column per payload member). They stream from a tk_source
 * per input, one row per event, and keep nothing between rows.
 *
 * Constraints pushed down (xBestIndex): ts ranges become the reader's
 * --begin/--end (a CTF source skips whole packets before the start through
 * its index and stops past the end, the merge being in time order); cpu,
 * pid, tid, name and file equalities drop events before a row is built.
 * SQLite still checks every constraint itself (omit is never set), so a
 * value of another type than the column's (text for a number) only loses
 * the pushdown, never rows.
 *
 * Two shortcuts keep `SELECT name, count(*) FROM event GROUP BY name` near
 * the speed of `tracekit stats`:
 * - perf.data without the args column: rows come from the records' parsed
 *   sample ids (time, cpu, pid, tid, attr name: what the model source puts
 *   in the same fields; samples are still parsed, so a damaged one fails
 *   the query as it does on the model path) instead of model events;
 * - a scan that reads only name/category and wants them ordered by name
 *   (GROUP BY name, ORDER BY name) counts events per class in one pass and
 *   hands SQLite each class's rows already grouped, so SQLite neither sorts
 *   nor builds a temporary B-tree (orderByConsumed). Without constraints a
 *   CTF input is counted as `tracekit stats` counts it (lean plans, the
 *   inlined merge); perf.data records are read in file order, unparsed, as
 *   stats reads them. */
#ifdef TK_HAVE_SQLITE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "context/lean_reader.h"
#include "sql/sql_internal.h"

enum {
	ROLE_TS,
	ROLE_DUR,
	ROLE_CPU,
	ROLE_PID,
	ROLE_TID,
	ROLE_NAME,
	ROLE_CATEGORY,
	ROLE_STREAM,
	ROLE_ARGS,
	ROLE_FILE,
	ROLE_MEMBER
};

/* Column -> role; *member receives the payload member index. */
static int col_role(const tk_sql_vtab *vt, int col, size_t *member)
{
	if (vt->kind == TK_SQL_EVENT)
		return col <= ROLE_FILE ? col : -1;
	static const int fixed[] = {ROLE_TS, ROLE_CPU, ROLE_PID, ROLE_TID};
	if (col < 4)
		return fixed[col];
	if ((size_t)col - 4 < vt->n_members) {
		*member = (size_t)col - 4;
		return ROLE_MEMBER;
	}
	return (size_t)col - 4 == vt->n_members ? ROLE_FILE : -1;
}

typedef struct ev_cursor {
	tk_sql_cursor base;
	tk_sql_vtab *vt;
	size_t input;    /* input being read */
	tk_session *ses; /* its session, pulled one item per row */
	tk_source *src;  /* the session's model adapter (borrowed), or NULL */
	tk_format format;
	const tk_event *ev;
	bool eof;
	sqlite3_int64 rowid; /* events read, filtered or not */
	/* pushed-down constraints */
	bool has_begin, has_end, empty;
	uint64_t begin, end;   /* inclusive */
	int64_t cpu, pid, tid; /* INT64_MIN: any */
	char *name, *file;
	/* last class seen: its interned name, category and whether it matches */
	const tk_event_class *last_cls;
	const char *last_name, *last_category;
	bool last_match;
	tk_writer *scratch; /* args JSON and compound values */
	/* perf fast path: records instead of model events */
	bool lean;
	tk_perf_file *pf; /* the native session's reader (borrowed) */
	tk_event fast_ev;
	tk_event_class *fast_classes; /* one per attr index, by name */
	size_t n_fast_classes;
	/* count mode: rows per class, emitted in name order */
	bool count_mode;
	struct ev_group {
		const char *name, *category;
		uint64_t n;
		int name_len;
	} * groups;
	size_t n_groups, cap_groups, group;
	uint64_t left; /* rows of the current group still to emit */
} ev_cursor;

enum { IDX_LEAN = 1 << 16, IDX_COUNT = 1 << 17 };

/* ---- xBestIndex ---- */

int tk_sql_event_best_index(tk_sql_vtab *vt, sqlite3_index_info *info)
{
	char codes[64];
	int n = 0;
	double events = vt->file_bytes / 48 + 1000, keep = 1, scan = 1;
	for (int i = 0; i < info->nConstraint && n < 60; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable)
			continue;
		size_t member;
		int role = col_role(vt, c->iColumn, &member);
		char code = 0;
		if (role == ROLE_TS) {
			switch (c->op) {
			case SQLITE_INDEX_CONSTRAINT_GT: code = 'g'; break;
			case SQLITE_INDEX_CONSTRAINT_GE: code = 'G'; break;
			case SQLITE_INDEX_CONSTRAINT_LT: code = 'l'; break;
			case SQLITE_INDEX_CONSTRAINT_LE: code = 'L'; break;
			case SQLITE_INDEX_CONSTRAINT_EQ: code = 'e'; break;
			default: break;
			}
			/* only CTF skips what is outside the range; elsewhere
			 * the range filters a full read */
			if (code && vt->seekable)
				scan *= code == 'e' ? 0.01 : 0.3;
			else if (code)
				keep *= code == 'e' ? 0.01 : 0.3;
		} else if (c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
			code = role == ROLE_CPU    ? 'c'
			       : role == ROLE_PID  ? 'p'
			       : role == ROLE_TID  ? 't'
			       : role == ROLE_NAME ? 'n'
			       : role == ROLE_FILE ? 'f'
						   : 0;
			if (code)
				keep *= role == ROLE_FILE ? 0.5 : 0.1;
		}
		if (!code)
			continue;
		codes[n++] = code;
		info->aConstraintUsage[i].argvIndex = n;
		info->aConstraintUsage[i].omit = 0;
	}
	codes[n] = '\0';
	if (n) {
		info->idxStr = sqlite3_mprintf("%s", codes);
		if (!info->idxStr)
			return SQLITE_NOMEM;
		info->needToFreeIdxStr = 1;
	}
	info->idxNum = n;
	/* Columns the query reads (bit 63: one past the 63rd). */
	sqlite3_uint64 used = info->colUsed;
	bool lean = vt->kind == TK_SQL_EVENT && !(used & (1ull << ROLE_ARGS));
	if (lean)
		info->idxNum |= IDX_LEAN;
	sqlite3_uint64 cheap = (1ull << ROLE_NAME) | (1ull << ROLE_CATEGORY);
	if (vt->kind == TK_SQL_EVENT && info->nOrderBy == 1 &&
	    info->aOrderBy[0].iColumn == ROLE_NAME && !info->aOrderBy[0].desc &&
	    (used & ~cheap) == 0) {
		info->idxNum |= IDX_COUNT;
		info->orderByConsumed = 1;
	}
	/* Decoding dominates: every event scanned costs, rows kept cost more
	 * (their values are built). */
	double scanned = events * scan;
	/* opening an input (metadata, headers) costs whatever is read */
	info->estimatedCost = 1000 * (double)vt->n_inputs + scanned + scanned * keep * 2;
	info->estimatedRows = (sqlite3_int64)(scanned * keep) + 1;
	return SQLITE_OK;
}

/* ---- scanning ---- */

static void source_close(ev_cursor *c)
{
	tk_session_close(c->ses);
	c->ses = NULL;
	c->src = NULL;
	c->pf = NULL;
	c->last_cls = NULL;
	/* classes are per input: the next file numbers its attrs anew */
	for (size_t i = 0; i < c->n_fast_classes; i++)
		c->fast_classes[i].name = NULL;
}

/* The fast path's class for a record's attr: named as the model source
 * names it (the attr's name, "unknown" without one). */
static const tk_event_class *fast_class(ev_cursor *c, const tk_perf_attr *a)
{
	if (a->index >= c->n_fast_classes) {
		size_t n = a->index + 16;
		tk_event_class *nc = sqlite3_realloc64(c->fast_classes, n * sizeof *nc);
		if (!nc)
			return NULL;
		memset(nc + c->n_fast_classes, 0, (n - c->n_fast_classes) * sizeof *nc);
		c->fast_classes = nc;
		c->n_fast_classes = n;
	}
	tk_event_class *cls = &c->fast_classes[a->index];
	if (!cls->name) {
		const char *name = a->name ? a->name : "unknown";
		cls->name = tk_sql_intern(&c->vt->names, name, strlen(name));
		cls->id = a->index;
		cls->loglevel = -1;
	}
	return cls->name ? cls : NULL;
}

/* Next sample of the perf fast path, as the model source would give it. */
static tk_status fast_next(ev_cursor *c, const tk_event **out, tk_error *err)
{
	for (;;) {
		const tk_session_item *it;
		tk_status st = tk_session_next(c->ses, &it, err);
		if (st != TK_OK)
			return st;
		const tk_perf_record *r = it->perf;
		if (r->type != TK_PERF_RECORD_SAMPLE || tk_perf_attr_count(c->pf) == 0)
			continue;
		/* Counting per class reads the records as `tracekit stats` does;
		 * rows with values have their sample parsed, so a damaged one
		 * fails the query as on the model path. */
		tk_perf_sample smp;
		if (!c->count_mode && (st = tk_perf_parse_sample(c->pf, r, &smp, err)) != TK_OK)
			return st;
		const tk_perf_attr *a = r->attr ? r->attr : tk_perf_attr_at(c->pf, 0);
		tk_event *ev = &c->fast_ev;
		ev->cls = fast_class(c, a);
		if (!ev->cls)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
		ev->cpu = (r->sid.present & TK_PERF_SAMPLE_CPU) ? (int32_t)r->sid.cpu : TK_CPU_NONE;
		ev->pid = ev->tid = TK_PID_NONE;
		if (r->sid.present & TK_PERF_SAMPLE_TID) {
			ev->pid = (int32_t)r->sid.pid;
			ev->tid = (int32_t)r->sid.tid;
		}
		ev->has_time = r->has_time;
		ev->time_ns = ev->time_raw = r->sid.time;
		ev->offset = r->offset;
		*out = ev;
		return TK_OK;
	}
}

static int fail(ev_cursor *c, const tk_error *err)
{
	return tk_sql_vtab_fail(c->vt, err, c->vt->inputs[c->input]->path);
}

static bool class_of_event(ev_cursor *c, const tk_event_class *cls)
{
	if (cls == c->last_cls && c->last_name)
		return c->last_match;
	tk_sql_vtab *vt = c->vt;
	const char *name = cls && cls->name ? cls->name : "";
	c->last_cls = cls;
	c->last_name = tk_sql_intern(&vt->names, name, strlen(name));
	const char *colon = strchr(name, ':');
	c->last_category = colon ? tk_sql_intern(&vt->names, name, (size_t)(colon - name))
				 : tk_format_name(c->format);
	c->last_match = true;
	if (vt->kind == TK_SQL_CLASS) /* the class whose members are the columns */
		c->last_match = cls && strcmp(name, vt->class_name) == 0 &&
				cls->id == vt->class_id &&
				cls->stream_class_id == vt->class_stream_id;
	if (c->name)
		c->last_match = c->last_match && strcmp(name, c->name) == 0;
	return c->last_match;
}

static bool matches(ev_cursor *c, const tk_event *ev)
{
	if ((c->has_begin && (!ev->has_time || ev->time_ns < c->begin)) ||
	    (c->has_end && (!ev->has_time || ev->time_ns > c->end)))
		return false;
	if ((c->cpu != INT64_MIN && ev->cpu != c->cpu) ||
	    (c->pid != INT64_MIN && ev->pid != c->pid) ||
	    (c->tid != INT64_MIN && ev->tid != c->tid))
		return false;
	return class_of_event(c, ev->cls);
}

static int open_input(ev_cursor *c, bool *skip)
{
	tk_sql_vtab *vt = c->vt;
	const char *path = vt->inputs[c->input]->path;
	*skip = c->file && strcmp(c->file, path) != 0;
	if (*skip)
		return SQLITE_OK;
	tk_open_options oo = {.all_records = vt->ctx->opt.all_records,
			      .log = vt->ctx->opt.log,
			      .log_user = vt->ctx->opt.log_user};
	tk_error err;
	tk_error_clear(&err);
	if (c->lean && !vt->ctx->opt.all_records &&
	    tk_detect_format(path, &err) == TK_FORMAT_PERF) {
		/* counting per class needs no time order: file order saves the
		 * ordering queue (the same records come out) */
		tk_open_options po = {.format = TK_FORMAT_PERF,
				      .raw_order = c->count_mode,
				      .log = oo.log,
				      .log_user = oo.log_user};
		if (tk_session_open(path, &po, TK_SESSION_NATIVE, &c->ses, &err) != TK_OK) {
			c->ses = NULL;
			return fail(c, &err);
		}
		c->pf = tk_session_perf(c->ses);
		c->format = TK_FORMAT_PERF;
		return SQLITE_OK;
	}
	tk_error_clear(&err);
	if (tk_session_open(path, &oo, TK_SESSION_MODEL, &c->ses, &err) != TK_OK) {
		c->ses = NULL;
		return fail(c, &err);
	}
	c->src = tk_session_source(c->ses);
	c->format = tk_source_info(c->src)->format;
	if (c->has_begin && c->format == TK_FORMAT_CTF && c->begin > 0 &&
	    tk_ctf_source_seek(c->src, c->begin, &err) != TK_OK) {
		int rc = fail(c, &err);
		source_close(c);
		return rc;
	}
	return SQLITE_OK;
}

/* Moves to the next event that passes the pushed-down constraints. */
static int scan_next(ev_cursor *c)
{
	c->ev = NULL;
	while (!c->eof) {
		if (!c->ses) {
			if (c->empty || c->input >= c->vt->n_inputs) {
				c->eof = true;
				break;
			}
			bool skip;
			int rc = open_input(c, &skip);
			if (rc != SQLITE_OK)
				return rc;
			if (skip) {
				c->input++;
				continue;
			}
		}
		const tk_event *ev = NULL;
		tk_error err;
		tk_error_clear(&err);
		tk_status st;
		if (c->pf) {
			st = fast_next(c, &ev, &err);
		} else {
			const tk_session_item *it;
			st = tk_session_next(c->ses, &it, &err);
			ev = st == TK_OK ? it->event : NULL;
		}
		if (st == TK_END) {
			source_close(c);
			c->input++;
			continue;
		}
		if (st != TK_OK)
			return fail(c, &err);
		c->rowid++;
		if (matches(c, ev)) {
			c->ev = ev;
			return SQLITE_OK;
		}
		/* A CTF trace comes out of its merge in time order. */
		if (c->has_end && c->format == TK_FORMAT_CTF && ev->has_time &&
		    ev->time_ns > c->end) {
			source_close(c);
			c->input++;
		}
	}
	return SQLITE_OK;
}

static int group_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ev_group *)a)->name, ((const struct ev_group *)b)->name);
}

static struct ev_group *group_of(ev_cursor *c, const char *name, const char *category)
{
	for (size_t i = c->n_groups; i-- > 0;)
		if (c->groups[i].name == name)
			return &c->groups[i];
	if (c->n_groups == c->cap_groups) {
		size_t cap = c->cap_groups ? c->cap_groups * 2 : 16;
		struct ev_group *ng = sqlite3_realloc64(c->groups, cap * sizeof *ng);
		if (!ng)
			return NULL;
		c->groups = ng;
		c->cap_groups = cap;
	}
	struct ev_group *g = &c->groups[c->n_groups++];
	*g = (struct ev_group){name, category, 0, (int)strlen(name)};
	return g;
}

/* The group of a class name: category as class_of_event() names it. */
static struct ev_group *group_named(ev_cursor *c, const char *name, tk_format format)
{
	tk_sql_vtab *vt = c->vt;
	const char *colon = strchr(name, ':');
	const char *in = tk_sql_intern(&vt->names, name, strlen(name));
	const char *cat = colon ? tk_sql_intern(&vt->names, name, (size_t)(colon - name))
				: tk_format_name(format);
	return in && cat ? group_of(c, in, cat) : NULL;
}

/* An input counted per class the way `tracekit stats` counts it, by the
 * library's lean counter (context/lean_reader.h): CTF through the lean
 * decode plans and the inlined merge, perf.data records in file order,
 * unparsed, a counter per attr. The same events, warnings and errors as
 * the model source. Only for a scan without constraints. */
struct count_to {
	ev_cursor *c;
	tk_format format;
};

static int count_class(void *user, const char *name, uint64_t n)
{
	struct count_to *t = user;
	struct ev_group *g = group_named(t->c, name, t->format);
	if (!g)
		return 1;
	g->n += n;
	return 0;
}

static int lean_count(ev_cursor *c, const char *path, tk_format format)
{
	tk_sql_vtab *vt = c->vt;
	tk_lean_options lo = {
	    .log = vt->ctx->opt.log, .log_user = vt->ctx->opt.log_user, .raw_order = true};
	tk_lean *l;
	tk_error err;
	tk_error_clear(&err);
	struct count_to to = {c, format};
	tk_status st = tk_lean_open(path, format, &lo, &l, &err);
	if (st == TK_OK) {
		st = tk_lean_count(l, count_class, &to, &err);
		tk_lean_close(l);
	}
	if (st == TK_ERR_NOMEM && err.offset == TK_NO_OFFSET)
		return SQLITE_NOMEM;
	return st == TK_OK ? SQLITE_OK : fail(c, &err);
}

static bool unconstrained(const ev_cursor *c)
{
	return !c->has_begin && !c->has_end && !c->empty && c->cpu == INT64_MIN &&
	       c->pid == INT64_MIN && c->tid == INT64_MIN && !c->name && !c->file &&
	       c->vt->kind == TK_SQL_EVENT;
}

/* Count mode: the whole scan, counted per class name, then sorted. */
static int count_groups(ev_cursor *c)
{
	c->n_groups = 0;
	bool fast_ctf = unconstrained(c);
	for (;;) {
		if (fast_ctf && !c->ses && c->input < c->vt->n_inputs) {
			const char *path = c->vt->inputs[c->input]->path;
			tk_error err;
			tk_format f = tk_detect_format(path, &err);
			if (f == TK_FORMAT_CTF ||
			    (f == TK_FORMAT_PERF && !c->vt->ctx->opt.all_records)) {
				int rc = lean_count(c, path, f);
				if (rc != SQLITE_OK)
					return rc;
				c->input++;
				continue;
			}
		}
		int rc = scan_next(c);
		if (rc != SQLITE_OK)
			return rc;
		if (c->eof)
			break;
		struct ev_group *g = group_of(c, c->last_name, c->last_category);
		if (!g)
			return SQLITE_NOMEM;
		g->n++;
	}
	qsort(c->groups, c->n_groups, sizeof *c->groups, group_cmp);
	c->group = 0;
	c->left = c->n_groups ? c->groups[0].n : 0;
	c->eof = c->n_groups == 0;
	return SQLITE_OK;
}

static int advance(ev_cursor *c)
{
	if (!c->count_mode)
		return scan_next(c);
	c->rowid++;
	if (--c->left > 0)
		return SQLITE_OK;
	while (++c->group < c->n_groups && c->groups[c->group].n == 0)
		;
	if (c->group >= c->n_groups)
		c->eof = true;
	else
		c->left = c->groups[c->group].n;
	return SQLITE_OK;
}

static void reset(ev_cursor *c)
{
	source_close(c);
	sqlite3_free(c->name);
	sqlite3_free(c->file);
	c->name = c->file = NULL;
	c->input = 0;
	c->eof = c->empty = false;
	c->has_begin = c->has_end = false;
	c->begin = 0;
	c->end = UINT64_MAX;
	c->cpu = c->pid = c->tid = INT64_MIN;
	c->rowid = 0;
}

static void narrow_begin(ev_cursor *c, uint64_t v)
{
	if (!c->has_begin || v > c->begin)
		c->begin = v;
	c->has_begin = true;
}

static void narrow_end(ev_cursor *c, uint64_t v)
{
	if (!c->has_end || v < c->end)
		c->end = v;
	c->has_end = true;
}

/* A ts bound; only numbers are pushed down (SQLite rechecks anyway). */
static void ts_bound(ev_cursor *c, char code, sqlite3_value *v)
{
	int t = sqlite3_value_numeric_type(v);
	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
		return;
	double d = sqlite3_value_double(v);
	bool exact = t == SQLITE_INTEGER;
	sqlite3_int64 i = sqlite3_value_int64(v);
	if (d >= 1.8e19) { /* above every uint64 */
		if (code == 'g' || code == 'G' || code == 'e')
			c->empty = true;
		return;
	}
	/* lo/hi: the smallest/largest integer ts the bound allows */
	if (code == 'g' || code == 'G' || code == 'e') {
		double lo = code == 'g' ? floor(d) + 1 : ceil(d);
		if (exact)
			lo = code == 'g' ? (double)i + 1 : (double)i;
		if (lo > 0)
			narrow_begin(c, exact ? (uint64_t)i + (code == 'g') : (uint64_t)lo);
	}
	if (code == 'l' || code == 'L' || code == 'e') {
		double hi = code == 'l' ? ceil(d) - 1 : floor(d);
		if (exact)
			hi = code == 'l' ? (double)i - 1 : (double)i;
		if (hi < 0)
			c->empty = true;
		else
			narrow_end(c, exact ? (uint64_t)i - (code == 'l') : (uint64_t)hi);
	}
}

static void id_eq(ev_cursor *c, int64_t *slot, sqlite3_value *v)
{
	if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER)
		return;
	int64_t x = sqlite3_value_int64(v);
	if (x < INT32_MIN || x > INT32_MAX || (*slot != INT64_MIN && *slot != x))
		c->empty = true;
	*slot = x;
}

static char *text_of(sqlite3_value *v)
{
	if (sqlite3_value_type(v) != SQLITE_TEXT)
		return NULL;
	return sqlite3_mprintf("%s", (const char *)sqlite3_value_text(v));
}

static int ev_filter(sqlite3_vtab_cursor *base, int idx, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	ev_cursor *c = (ev_cursor *)base;
	reset(c);
	c->lean = (idx & IDX_LEAN) != 0;
	c->count_mode = (idx & IDX_COUNT) != 0;
	idx &= 0xffff;
	for (int i = 0; i < argc && i < idx && idx_str; i++) {
		char code = idx_str[i];
		switch (code) {
		case 'c': id_eq(c, &c->cpu, argv[i]); break;
		case 'p': id_eq(c, &c->pid, argv[i]); break;
		case 't': id_eq(c, &c->tid, argv[i]); break;
		case 'n':
			sqlite3_free(c->name);
			c->name = text_of(argv[i]);
			break;
		case 'f':
			sqlite3_free(c->file);
			c->file = text_of(argv[i]);
			break;
		default: ts_bound(c, code, argv[i]); break;
		}
	}
	if (c->has_begin && c->has_end && c->begin > c->end)
		c->empty = true;
	if (c->count_mode) {
		int rc = count_groups(c);
		c->rowid = 0;
		return rc;
	}
	return scan_next(c);
}

static int ev_next(sqlite3_vtab_cursor *base)
{
	return advance((ev_cursor *)base);
}

static int ev_eof(sqlite3_vtab_cursor *base)
{
	return ((ev_cursor *)base)->eof;
}

static void result_id(sqlite3_context *ctx, int32_t v, int32_t none)
{
	if (v == none)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int(ctx, v);
}

static int ev_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	ev_cursor *c = (ev_cursor *)base;
	const tk_event *ev = c->ev;
	size_t member = 0;
	if (c->count_mode) {
		const struct ev_group *g = &c->groups[c->group];
		int role = col_role(c->vt, col, &member);
		if (role == ROLE_NAME)
			sqlite3_result_text(ctx, g->name, g->name_len, SQLITE_STATIC);
		else if (role == ROLE_CATEGORY && g->category)
			sqlite3_result_text(ctx, g->category, -1, SQLITE_STATIC);
		return SQLITE_OK;
	}
	switch (col_role(c->vt, col, &member)) {
	case ROLE_TS:
		if (ev->has_time)
			sqlite3_result_int64(ctx, (sqlite3_int64)ev->time_ns);
		break;
	case ROLE_DUR: sqlite3_result_int(ctx, 0); break;
	case ROLE_CPU: result_id(ctx, ev->cpu, TK_CPU_NONE); break;
	case ROLE_PID: result_id(ctx, ev->pid, TK_PID_NONE); break;
	case ROLE_TID: result_id(ctx, ev->tid, TK_PID_NONE); break;
	case ROLE_NAME:
		if (c->last_name)
			sqlite3_result_text(ctx, c->last_name, -1, SQLITE_STATIC);
		else
			sqlite3_result_error_nomem(ctx);
		break;
	case ROLE_CATEGORY:
		if (c->last_category)
			sqlite3_result_text(ctx, c->last_category, -1, SQLITE_STATIC);
		break;
	case ROLE_STREAM: sqlite3_result_int64(ctx, (sqlite3_int64)ev->stream_instance); break;
	case ROLE_ARGS: {
		c->scratch->pos = 0;
		tk_sql_args_json(c->scratch, ev);
		size_t len;
		const char *p = tk_writer_data(c->scratch, &len);
		if (c->scratch->error)
			sqlite3_result_error_nomem(ctx);
		else
			sqlite3_result_text64(ctx, p, len, SQLITE_TRANSIENT, SQLITE_UTF8);
		break;
	}
	case ROLE_FILE:
		sqlite3_result_text(ctx, c->vt->inputs[c->input]->path, -1, SQLITE_STATIC);
		break;
	case ROLE_MEMBER: {
		const tk_value *p = ev->payload;
		if (p && p->cls->kind == TK_TYPE_STRUCT && member < p->v.list.n)
			tk_sql_result_value(ctx, &p->v.list.items[member], c->scratch);
		break;
	}
	default: break;
	}
	return SQLITE_OK;
}

static int ev_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((ev_cursor *)base)->rowid;
	return SQLITE_OK;
}

static int ev_close(sqlite3_vtab_cursor *base)
{
	ev_cursor *c = (ev_cursor *)base;
	reset(c);
	tk_writer_abort(c->scratch);
	sqlite3_free(c->fast_classes);
	sqlite3_free(c->groups);
	sqlite3_free(c);
	return SQLITE_OK;
}

static const tk_sql_cursor_ops ev_ops = {
    .close = ev_close,
    .filter = ev_filter,
    .next = ev_next,
    .eof = ev_eof,
    .column = ev_column,
    .rowid = ev_rowid,
};

int tk_sql_event_open(tk_sql_vtab *vt, sqlite3_vtab_cursor **out)
{
	ev_cursor *c = sqlite3_malloc64(sizeof *c);
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	c->base.ops = &ev_ops;
	c->vt = vt;
	tk_error err;
	if (tk_writer_open_memory(&c->scratch, &err) != TK_OK) {
		sqlite3_free(c);
		return SQLITE_NOMEM;
	}
	reset(c);
	c->eof = true;
	*out = &c->base.base;
	return SQLITE_OK;
}

#endif /* TK_HAVE_SQLITE */
