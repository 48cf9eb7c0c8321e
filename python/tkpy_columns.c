/* Source._columns(): up to `batch` events decoded into flat C arrays with
 * the GIL released, returned as column buffers (tkpy_buffer.c) the Python
 * side wraps as numpy arrays without copying (numpy.frombuffer).
 *
 * Columns and their element types:
 *   ts, offset, period      uint64 (period 0 when the event has none)
 *   cpu, pid, tid           int32 (-1 when unknown)
 *   name                    uint32 codes into the source's class names
 *   field:NAME              int64 (INT64_MIN when the event has no such
 *                           integer or float field; floats truncated)
 *   field:NAME:f            float64 (NaN when absent)
 * A field is looked up by name in the payload, then the event context,
 * then the stream context, once per event class. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context/lean_reader.h"
#include "tkpy.h"

enum col_kind {
	COL_TS,
	COL_OFFSET,
	COL_PERIOD,
	COL_CPU,
	COL_PID,
	COL_TID,
	COL_NAME,
	COL_INT,
	COL_F64
};

typedef struct column {
	enum col_kind kind;
	const char *field; /* COL_INT / COL_F64: member name (points into the arg) */
	size_t width;
	PyObject *bytes; /* a tkpy_buffer, filled in place; its length the rows read */
	char *data;      /* its buffer */
} column;

/* The next model event of the source's session (the same pull as
 * iteration, so columns() and iteration share one position). */
static tk_status session_event(tk_session *ses, const tk_event **ev, tk_error *err)
{
	const tk_session_item *it;
	tk_status st = tk_session_next(ses, &it, err);
	if (st == TK_OK)
		*ev = it->event;
	return st;
}

/* Where a field lives for one class: which struct and member. */
typedef struct field_ref {
	signed char scope; /* -1 absent, 0 payload, 1 context, 2 stream context */
	int member;
} field_ref;

typedef struct class_plan {
	const tk_event_class *cls;
	int period;        /* payload member index, -1 none */
	field_ref *fields; /* one per column (only field columns used) */
} class_plan;

static int member_index(const tk_field_class *sc, const char *name)
{
	if (!sc || sc->kind != TK_TYPE_STRUCT)
		return -1;
	for (size_t i = 0; i < sc->n_members; i++)
		if (strcmp(sc->members[i].name, name) == 0)
			return (int)i;
	return -1;
}

static const tk_value *scope_value(const tk_event *ev, int scope)
{
	return scope == 0 ? ev->payload : scope == 1 ? ev->context : ev->stream_context;
}

/* Resolved from the first event of a class: the classes' field classes
 * for contexts live on the stream class, the event tells us which. */
static int plan_for(class_plan **plans, size_t *n, const tk_event *ev, const column *cols,
		    size_t n_cols, class_plan **out)
{
	for (size_t i = 0; i < *n; i++)
		if ((*plans)[i].cls == ev->cls) {
			*out = &(*plans)[i];
			return 0;
		}
	class_plan *np = realloc(*plans, (*n + 1) * sizeof *np);
	if (!np)
		return -1;
	*plans = np;
	class_plan *p = &np[*n];
	p->cls = ev->cls;
	p->period = -1;
	p->fields = calloc(n_cols ? n_cols : 1, sizeof *p->fields);
	if (!p->fields)
		return -1;
	(*n)++;
	const tk_value *pl = ev->payload;
	if (pl && pl->cls->kind == TK_TYPE_STRUCT)
		for (size_t i = 0; i < pl->cls->n_members; i++)
			if (pl->cls->members[i].cls->semantic == TK_SEM_PERIOD) {
				p->period = (int)i;
				break;
			}
	for (size_t c = 0; c < n_cols; c++) {
		p->fields[c].scope = -1;
		if (cols[c].kind != COL_INT && cols[c].kind != COL_F64)
			continue;
		for (int scope = 0; scope < 3; scope++) {
			const tk_value *sv = scope_value(ev, scope);
			int m = sv ? member_index(sv->cls, cols[c].field) : -1;
			if (m >= 0) {
				p->fields[c].scope = (signed char)scope;
				p->fields[c].member = m;
				break;
			}
		}
	}
	*out = p;
	return 0;
}

static const tk_value *field_value(const tk_event *ev, const field_ref *r)
{
	if (r->scope < 0)
		return NULL;
	const tk_value *sv = scope_value(ev, r->scope);
	if (!sv || sv->cls->kind != TK_TYPE_STRUCT || (size_t)r->member >= sv->v.list.n)
		return NULL;
	return &sv->v.list.items[r->member];
}

static void put_u64(char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void put_i32(char *p, int32_t v)
{
	memcpy(p, &v, 4);
}

static void fill_row(column *cols, size_t n_cols, size_t row, const tk_event *ev,
		     const class_plan *p, uint32_t code, const uint64_t *lean_period)
{
	for (size_t c = 0; c < n_cols; c++) {
		char *d = cols[c].data + row * cols[c].width;
		switch (cols[c].kind) {
		case COL_TS: put_u64(d, ev->time_ns); break;
		case COL_OFFSET: put_u64(d, ev->offset); break;
		case COL_PERIOD: {
			uint64_t v = 0;
			if (lean_period)
				v = *lean_period;
			else if (p->period >= 0 && ev->payload &&
				 (size_t)p->period < ev->payload->v.list.n)
				v = ev->payload->v.list.items[p->period].v.u;
			put_u64(d, v);
			break;
		}
		case COL_CPU: put_i32(d, ev->cpu); break;
		case COL_PID: put_i32(d, ev->pid); break;
		case COL_TID: put_i32(d, ev->tid); break;
		case COL_NAME: memcpy(d, &code, 4); break;
		case COL_INT: {
			const tk_value *v = field_value(ev, &p->fields[c]);
			int64_t x = INT64_MIN;
			if (v && v->cls->kind == TK_TYPE_INT)
				x = v->cls->is_signed ? v->v.i : (int64_t)v->v.u;
			else if (v && v->cls->kind == TK_TYPE_FLOAT && isfinite(v->v.f) &&
				 fabs(v->v.f) < 9.2e18)
				x = (int64_t)v->v.f;
			put_u64(d, (uint64_t)x);
			break;
		}
		case COL_F64: {
			const tk_value *v = field_value(ev, &p->fields[c]);
			double x = NAN;
			if (v && v->cls->kind == TK_TYPE_INT)
				x = v->cls->is_signed ? (double)v->v.i : (double)v->v.u;
			else if (v && v->cls->kind == TK_TYPE_FLOAT)
				x = v->v.f;
			memcpy(d, &x, 8);
			break;
		}
		}
	}
}

/* columns() of a lean source without a filter: the library writes the
 * header columns straight into the buffers (tk_lean_read), a chunk of
 * rows at a time, and the chunk's classes become name codes here. Only
 * when each column kind appears once (a repeated column takes the
 * per-event path). GIL released: no Python here. */
enum { CHUNK = 4096 };

static bool direct_ok(const column *cols, size_t n_cols)
{
	unsigned seen = 0;
	for (size_t c = 0; c < n_cols; c++) {
		unsigned bit = 1u << cols[c].kind;
		if ((seen & bit) || cols[c].kind == COL_INT || cols[c].kind == COL_F64)
			return false;
		seen |= bit;
	}
	return true;
}

static tk_status read_direct(tkpy_source *s, column *cols, size_t n_cols, size_t want,
			     size_t *rows_out, int *oom, tk_error *err)
{
	const tk_event_class *chunk_cls[CHUNK];
	const tk_event_class *last_cls = NULL;
	uint32_t last_code = 0;
	size_t rows = 0;
	tk_status st = TK_OK;
	while (rows < want && st == TK_OK) {
		size_t max = want - rows < CHUNK ? want - rows : CHUNK, n = 0;
		tk_lean_columns lc = {0};
		uint32_t *codes = NULL;
		for (size_t c = 0; c < n_cols; c++) {
			char *d = cols[c].data + rows * cols[c].width;
			switch (cols[c].kind) {
			case COL_TS: lc.ts = (uint64_t *)(void *)d; break;
			case COL_OFFSET: lc.offset = (uint64_t *)(void *)d; break;
			case COL_PERIOD: lc.period = (uint64_t *)(void *)d; break;
			case COL_CPU: lc.cpu = (int32_t *)(void *)d; break;
			case COL_PID: lc.pid = (int32_t *)(void *)d; break;
			case COL_TID: lc.tid = (int32_t *)(void *)d; break;
			case COL_NAME:
				lc.cls = chunk_cls;
				codes = (uint32_t *)(void *)d;
				break;
			default: break;
			}
		}
		st = tk_lean_read(s->lean, &lc, max, &n, err);
		for (size_t i = 0; codes && i < n; i++) {
			/* runs of one class are the rule: look up on a change */
			if (chunk_cls[i] != last_cls) {
				tkpy_class *tc = tkpy_source_class_c(s, chunk_cls[i]);
				if (!tc) {
					*oom = 1;
					*rows_out = rows;
					return TK_OK;
				}
				last_cls = chunk_cls[i];
				last_code = tc->code;
			}
			codes[i] = last_code;
		}
		rows += n;
	}
	*rows_out = rows;
	return st;
}

static int parse_column(const char *name, column *col)
{
	static const struct {
		const char *name;
		enum col_kind kind;
		size_t width;
	} fixed[] = {
	    {"ts", COL_TS, 8},     {"offset", COL_OFFSET, 8}, {"period", COL_PERIOD, 8},
	    {"cpu", COL_CPU, 4},   {"pid", COL_PID, 4},       {"tid", COL_TID, 4},
	    {"name", COL_NAME, 4},
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(name, fixed[i].name) == 0) {
			*col = (column){.kind = fixed[i].kind, .width = fixed[i].width};
			return 0;
		}
	if (strncmp(name, "field:", 6) == 0 && name[6]) {
		size_t n = strlen(name);
		bool f64 = n > 8 && strcmp(name + n - 2, ":f") == 0;
		*col = (column){.kind = f64 ? COL_F64 : COL_INT, .field = name + 6, .width = 8};
		return 0;
	}
	PyErr_Format(PyExc_ValueError,
		     "unknown column '%s' (ts, offset, period, cpu, pid, tid, name, "
		     "field:NAME, field:NAME:f)",
		     name);
	return -1;
}

PyObject *tkpy_source_columns(tkpy_source *s, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"names", "batch", NULL};
	PyObject *names;
	Py_ssize_t batch = 1000000;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|n:_columns", kwlist, &names, &batch))
		return NULL;
	if (batch <= 0 || batch > ((Py_ssize_t)1 << 31)) {
		PyErr_SetString(PyExc_ValueError, "batch must be between 1 and 2**31");
		return NULL;
	}
	if (!s->src)
		return tkpy_raise_msg("the source is closed");
	if (s->busy & 1)
		return tkpy_raise_msg("the source is in use by another thread");
	PyObject *seq = PySequence_Fast(names, "names must be a sequence of column names");
	if (!seq)
		return NULL;
	size_t n_cols = (size_t)PySequence_Fast_GET_SIZE(seq);
	column *cols = calloc(n_cols ? n_cols : 1, sizeof *cols);
	char **field_names = calloc(n_cols ? n_cols : 1, sizeof *field_names);
	class_plan *plans = NULL;
	size_t n_plans = 0;
	PyObject *result = NULL;
	if (!cols || !field_names) {
		PyErr_NoMemory();
		goto out;
	}
	for (size_t c = 0; c < n_cols; c++) {
		const char *nm = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)c));
		if (!nm)
			goto out;
		field_names[c] = strdup(nm);
		if (!field_names[c]) {
			PyErr_NoMemory();
			goto out;
		}
		if (parse_column(field_names[c], &cols[c]) < 0)
			goto out;
		if (cols[c].kind == COL_F64) /* drop the ":f" from the looked-up name */
			field_names[c][strlen(field_names[c]) - 2] = '\0';
		/* The buffers numpy will wrap, written directly: no second
		 * buffer and no copy (tkpy_buffer.c). */
		cols[c].bytes = tkpy_buffer_new((size_t)batch * cols[c].width, &cols[c].data);
		if (!cols[c].bytes)
			goto out;
	}
	if (s->limit && s->count >= s->limit) {
		result = Py_NewRef(Py_None);
		goto out;
	}
	/* Columns from the event header only: a lean reader serves them if
	 * nothing was read yet (tkpy_lean.c). */
	unsigned lean_cols = 0;
	for (size_t c = 0; c < n_cols; c++) {
		static const unsigned bit[] = {
		    [COL_TS] = TKPY_LEAN_TS,         [COL_OFFSET] = TKPY_LEAN_OFFSET,
		    [COL_PERIOD] = TKPY_LEAN_PERIOD, [COL_CPU] = TKPY_LEAN_CPU,
		    [COL_PID] = TKPY_LEAN_PID,       [COL_TID] = TKPY_LEAN_TID,
		    [COL_NAME] = TKPY_LEAN_NAME,     [COL_INT] = TKPY_LEAN_OTHER,
		    [COL_F64] = TKPY_LEAN_OTHER};
		lean_cols |= bit[cols[c].kind];
	}
	tk_format format = tk_source_info(s->src)->format;
	if (!s->lean && s->lean_ok && s->generation == 0 && strcmp(s->path, "-") != 0 &&
	    tkpy_lean_serves(format, lean_cols, &s->filter)) {
		tk_error oerr;
		tk_error_clear(&oerr);
		tk_status ost;
		s->busy |= 1; /* no other thread reads or closes it meanwhile */
		Py_BEGIN_ALLOW_THREADS ost =
		    tkpy_lean_open(s->path, format, tkpy_source_log, s, &s->lean, &oerr);
		Py_END_ALLOW_THREADS s->busy &= ~1;
		if (ost != TK_OK) {
			tkpy_raise(&oerr, s->path);
			goto out;
		}
	} else if (s->lean && !tkpy_lean_serves(format, lean_cols, &s->filter)) {
		tkpy_raise_msg("this source is read by columns() from the event headers only "
			       "(ts, cpu, name, offset; perf.data also pid, tid, period): open "
			       "the file again for other columns");
		goto out;
	}
	uint64_t want = (uint64_t)batch;
	if (s->limit && s->limit - s->count < want)
		want = s->limit - s->count;
	size_t rows = 0;
	tk_status st = TK_OK;
	int oom = 0;
	tk_error err;
	tk_error_clear(&err);
	bool filtered = !tk_filter_is_empty(&s->filter);
	s->busy |= 1;
	s->current = NULL;
	s->generation++;
	Py_BEGIN_ALLOW_THREADS const tk_event *ev;
	uint64_t period = 0;
	tkpy_lean *lean = s->lean;
	if (lean && !filtered && direct_ok(cols, n_cols)) {
		st = read_direct(s, cols, n_cols, (size_t)want, &rows, &oom, &err);
		want = 0; /* done: skip the per-event loop */
	}
	const tk_event_class *last_cls = NULL;
	uint32_t last_code = 0;
	size_t last_plan = 0;
	while (rows < want && (st = lean ? tkpy_lean_next(lean, &ev, &period, &err)
					 : session_event(s->ses, &ev, &err)) == TK_OK) {
		if (filtered && !tk_filter_match(&s->filter, ev))
			continue;
		/* runs of one class are the rule: look up only on a change */
		if (!last_cls || ev->cls != last_cls) {
			class_plan *p;
			tkpy_class *tc = tkpy_source_class_c(s, ev->cls);
			if (!tc || plan_for(&plans, &n_plans, ev, cols, n_cols, &p) < 0) {
				oom = 1;
				break;
			}
			last_cls = ev->cls;
			last_code = tc->code;
			last_plan = (size_t)(p - plans);
		}
		fill_row(cols, n_cols, rows, ev, &plans[last_plan], last_code,
			 lean ? &period : NULL);
		rows++;
	}
	Py_END_ALLOW_THREADS s->busy &= ~1;
	s->count += rows;
	if (oom) {
		PyErr_NoMemory();
		goto out;
	}
	if (st != TK_OK && st != TK_END) {
		tkpy_raise(&err, s->path);
		goto out;
	}
	if (rows == 0 && st == TK_END) {
		result = Py_NewRef(Py_None);
		goto out;
	}
	PyObject *d = PyDict_New();
	PyObject *class_names = PyList_New((Py_ssize_t)s->n_classes);
	if (!d || !class_names) {
		Py_XDECREF(d);
		Py_XDECREF(class_names);
		goto out;
	}
	for (size_t i = 0; i < s->n_classes; i++) {
		if (tkpy_class_name(&s->classes[i]) < 0) {
			Py_DECREF(d);
			Py_DECREF(class_names);
			goto out;
		}
		PyList_SET_ITEM(class_names, (Py_ssize_t)i, Py_NewRef(s->classes[i].name));
	}
	int rc = PyDict_SetItemString(d, "__names__", class_names);
	Py_DECREF(class_names);
	for (size_t c = 0; rc == 0 && c < n_cols; c++) {
		tkpy_buffer_set_len(cols[c].bytes, rows * cols[c].width);
		rc = PyDict_SetItem(d, PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)c), cols[c].bytes);
	}
	if (rc < 0) {
		Py_DECREF(d);
		goto out;
	}
	result = d;
out:
	for (size_t c = 0; cols && c < n_cols; c++)
		Py_XDECREF(cols[c].bytes);
	for (size_t c = 0; field_names && c < n_cols; c++)
		free(field_names[c]);
	for (size_t i = 0; i < n_plans; i++)
		free(plans[i].fields);
	free(plans);
	free(cols);
	free(field_names);
	Py_DECREF(seq);
	return result;
}
