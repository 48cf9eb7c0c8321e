/* tracekit.Source and tracekit.Event: iteration over model events, pulled
 * from a model session (tk_session_next) over the input.
 *
 * An Event copies the few scalars every user reads (name, ts, cpu, pid,
 * tid) and builds Python objects only when an attribute is read. Its
 * fields point into the source's per-event scratch memory, so they can be
 * read while the event is the source's current one (the usual
 * `for ev in src: ev.fields[...]`); open(..., fields=True) copies them at
 * once instead. Decoding runs with the GIL released; a source is used by
 * one thread at a time (a second caller gets tracekit.Error). */
#include <stdlib.h>
#include <string.h>

#include "tkpy.h"

/* ---- values ---- */

PyObject *tkpy_value(const tk_value *v)
{
	const tk_field_class *c = v->cls;
	switch (c->kind) {
	case TK_TYPE_INT:
		return c->is_signed ? PyLong_FromLongLong(v->v.i)
				    : PyLong_FromUnsignedLongLong(v->v.u);
	case TK_TYPE_FLOAT: return PyFloat_FromDouble(v->v.f);
	case TK_TYPE_STRING:
		return PyUnicode_DecodeUTF8(v->v.str.ptr, (Py_ssize_t)v->v.str.len, "replace");
	case TK_TYPE_BYTES:
		return PyBytes_FromStringAndSize(v->v.str.ptr, (Py_ssize_t)v->v.str.len);
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE: {
		PyObject *list = PyList_New((Py_ssize_t)v->v.list.n);
		for (size_t i = 0; list && i < v->v.list.n; i++) {
			PyObject *item = tkpy_value(&v->v.list.items[i]);
			if (!item) {
				Py_CLEAR(list);
				break;
			}
			PyList_SET_ITEM(list, (Py_ssize_t)i, item);
		}
		return list;
	}
	case TK_TYPE_STRUCT: {
		PyObject *d = PyDict_New();
		for (size_t i = 0; d && i < v->v.list.n && i < c->n_members; i++) {
			PyObject *item = tkpy_value(&v->v.list.items[i]);
			if (!item || PyDict_SetItemString(d, c->members[i].name, item) < 0)
				Py_CLEAR(d);
			Py_XDECREF(item);
		}
		return d;
	}
	case TK_TYPE_VARIANT:
		if (v->v.list.n == 0 || !v->v.list.items)
			Py_RETURN_NONE;
		return tkpy_value(&v->v.list.items[0]);
	}
	Py_RETURN_NONE;
}

static int add_struct(PyObject *d, const tk_value *s)
{
	if (!s || s->cls->kind != TK_TYPE_STRUCT)
		return 0;
	for (size_t i = 0; i < s->v.list.n && i < s->cls->n_members; i++) {
		PyObject *item = tkpy_value(&s->v.list.items[i]);
		int rc = item ? PyDict_SetItemString(d, s->cls->members[i].name, item) : -1;
		Py_XDECREF(item);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Contexts first, then the payload: a payload member wins a name clash. */
PyObject *tkpy_event_fields(const tk_event *ev)
{
	PyObject *d = PyDict_New();
	if (d && (add_struct(d, ev->stream_context) < 0 || add_struct(d, ev->context) < 0 ||
		  add_struct(d, ev->payload) < 0))
		Py_CLEAR(d);
	return d;
}

static PyObject *event_stack_of(const tk_event *ev)
{
	const tk_value *p = ev->payload;
	if (p && p->cls->kind == TK_TYPE_STRUCT) {
		for (size_t i = 0; i < p->v.list.n && i < p->cls->n_members; i++) {
			const tk_field_class *mc = p->cls->members[i].cls;
			if (mc->semantic == TK_SEM_CALLCHAIN)
				return tkpy_value(&p->v.list.items[i]);
		}
	}
	return PyList_New(0);
}

/* ---- classes seen by a source ---- */

tkpy_class *tkpy_source_class_c(tkpy_source *s, const tk_event_class *cls)
{
	/* Few classes, looked up once per event: the newest first. */
	for (size_t i = s->n_classes; i-- > 0;)
		if (s->classes[i].cls == cls)
			return &s->classes[i];
	if (s->n_classes == s->cap_classes) {
		size_t cap = s->cap_classes ? s->cap_classes * 2 : 16;
		tkpy_class *n = realloc(s->classes, cap * sizeof *n);
		if (!n)
			return NULL;
		s->classes = n;
		s->cap_classes = cap;
	}
	tkpy_class *c = &s->classes[s->n_classes];
	*c = (tkpy_class){.cls = cls, .name = NULL, .code = (uint32_t)s->n_classes};
	s->n_classes++;
	return c;
}

int tkpy_class_name(tkpy_class *c)
{
	if (c->name)
		return 0;
	const char *name = c->cls && c->cls->name ? c->cls->name : "";
	PyObject *py = PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name), "replace");
	if (!py)
		return -1;
	PyUnicode_InternInPlace(&py);
	c->name = py;
	return 0;
}

tkpy_class *tkpy_source_class(tkpy_source *s, const tk_event_class *cls)
{
	tkpy_class *c = tkpy_source_class_c(s, cls);
	if (!c) {
		PyErr_NoMemory();
		return NULL;
	}
	return tkpy_class_name(c) < 0 ? NULL : c;
}

/* ---- Event ---- */

static void event_dealloc(tkpy_event *e)
{
	Py_XDECREF(e->owner);
	Py_XDECREF(e->name);
	Py_XDECREF(e->fields);
	Py_TYPE(e)->tp_free((PyObject *)e);
}

static const tk_event *event_live(tkpy_event *e, const char *what)
{
	tkpy_source *s = e->owner;
	if (!s->src || s->generation != e->generation || !s->current) {
		char msg[256];
		snprintf(msg, sizeof msg,
			 "the event's %s are gone: they can be read until the next event is "
			 "read or the source is closed (open with fields=True to keep them)",
			 what);
		tkpy_raise_msg(msg);
		return NULL;
	}
	return s->current;
}

static PyObject *event_get_fields(tkpy_event *e, void *closure)
{
	(void)closure;
	if (!e->fields) {
		const tk_event *ev = event_live(e, "fields");
		if (!ev)
			return NULL;
		e->fields = tkpy_event_fields(ev);
		if (!e->fields)
			return NULL;
	}
	return Py_NewRef(e->fields);
}

static PyObject *event_get_stack(tkpy_event *e, void *closure)
{
	(void)closure;
	const tk_event *ev = event_live(e, "stack");
	return ev ? event_stack_of(ev) : NULL;
}

static PyObject *event_get_frames(tkpy_event *e, void *closure)
{
	(void)closure;
	const tk_event *ev = event_live(e, "frames");
	return ev ? tkpy_event_frames(e->owner, ev) : NULL;
}

static PyObject *event_get_name(tkpy_event *e, void *closure)
{
	(void)closure;
	return Py_NewRef(e->name);
}

static PyObject *opt_int(int64_t v, int64_t none)
{
	if (v == none)
		Py_RETURN_NONE;
	return PyLong_FromLongLong(v);
}

static PyObject *event_get_ts(tkpy_event *e, void *closure)
{
	(void)closure;
	if (!e->has_time)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(e->ts);
}

static PyObject *event_get_cpu(tkpy_event *e, void *closure)
{
	(void)closure;
	return opt_int(e->cpu, TK_CPU_NONE);
}

static PyObject *event_get_pid(tkpy_event *e, void *closure)
{
	(void)closure;
	return opt_int(e->pid, TK_PID_NONE);
}

static PyObject *event_get_tid(tkpy_event *e, void *closure)
{
	(void)closure;
	return opt_int(e->tid, TK_PID_NONE);
}

static PyObject *event_repr(tkpy_event *e)
{
	return PyUnicode_FromFormat("<tracekit.Event %U ts=%llu cpu=%lld tid=%lld>", e->name,
				    (unsigned long long)e->ts, (long long)e->cpu,
				    (long long)e->tid);
}

static PyGetSetDef event_getset[] = {
    {"name", (getter)event_get_name, NULL, "event class name", NULL},
    {"ts", (getter)event_get_ts, NULL, "time in ns in the trace's clock (None: no time)", NULL},
    {"cpu", (getter)event_get_cpu, NULL, "CPU or None", NULL},
    {"pid", (getter)event_get_pid, NULL, "process id or None", NULL},
    {"tid", (getter)event_get_tid, NULL, "thread id or None", NULL},
    {"fields", (getter)event_get_fields, NULL, "context and payload fields as a dict", NULL},
    {"stack", (getter)event_get_stack, NULL, "call chain addresses, innermost first", NULL},
    {"frames", (getter)event_get_frames, NULL,
     "the stack symbolized: [(ip, symbol, offset, dso)], innermost first (symbol/dso None "
     "when unknown)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject tkpy_event_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracekit.Event",
    .tp_basicsize = sizeof(tkpy_event),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_repr = (reprfunc)event_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One event of a Source (see Source).",
    .tp_getset = event_getset,
};

/* ---- Source ---- */

void tkpy_source_log(void *user, int level, const char *msg)
{
	tkpy_source *s = user;
	if (level > 0)
		return;
	PyGILState_STATE g = PyGILState_Ensure();
	PyObject *str = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
	if (str) {
		PyList_Append(s->warnings, str);
		Py_DECREF(str);
	} else {
		PyErr_Clear();
	}
	PyGILState_Release(g);
}

PyObject *tkpy_open(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	PyObject *path_obj = NULL;
	if (!PyArg_ParseTuple(args, "O&:open", PyUnicode_FSConverter, &path_obj))
		return NULL;
	/* Options of open() itself; the rest are filters. */
	PyObject *filters = kw ? PyDict_Copy(kw) : PyDict_New();
	if (!filters) {
		Py_DECREF(path_obj);
		return NULL;
	}
	tk_open_options oo = {0};
	int fields = 0, context = 1;
	static const char *const flags[] = {"all_records", "raw_order", "fields", "context"};
	for (size_t i = 0; i < 4; i++) {
		PyObject *v = PyDict_GetItemString(filters, flags[i]);
		if (!v)
			continue;
		int t = PyObject_IsTrue(v);
		if (t < 0)
			goto fail;
		if (i == 0)
			oo.all_records = t;
		else if (i == 1)
			oo.raw_order = t;
		else if (i == 2)
			fields = t;
		else
			context = t;
		PyDict_DelItemString(filters, flags[i]);
	}
	PyObject *fmt = PyDict_GetItemString(filters, "format");
	if (fmt) {
		if (fmt != Py_None) {
			const char *name = PyUnicode_AsUTF8(fmt);
			if (!name)
				goto fail;
			oo.format = tk_format_from_name(name);
			if (oo.format == TK_FORMAT_UNKNOWN) {
				PyErr_Format(PyExc_ValueError,
					     "unknown format '%s' (perf, ctf, cpel, elog, dcpi)",
					     name);
				goto fail;
			}
		}
		PyDict_DelItemString(filters, "format");
	}
	tkpy_source *s = PyObject_New(tkpy_source, &tkpy_source_type);
	if (!s)
		goto fail;
	s->src = NULL;
	s->ses = NULL;
	s->lean = NULL;
	s->ctx = NULL;
	s->whole = NULL;
	s->lean_ok = !oo.all_records && !oo.raw_order;
	s->path = strdup(PyBytes_AS_STRING(path_obj));
	s->events = NULL;
	s->count = 0;
	s->generation = 0;
	s->current = NULL;
	s->busy = fields ? 2 : 0; /* bit 1: eager fields; bit 0: decoding */
	s->classes = NULL;
	s->n_classes = s->cap_classes = 0;
	s->warnings = PyList_New(0);
	if (!s->path || !s->warnings) {
		Py_DECREF(s);
		PyErr_NoMemory();
		goto fail;
	}
	if (tkpy_parse_filter(filters, &s->filter, &s->events, &s->limit) < 0) {
		Py_DECREF(s);
		goto fail;
	}
	oo.log = tkpy_source_log;
	oo.log_user = s;
	tk_error err;
	tk_error_clear(&err);
	tk_status st;
	Py_BEGIN_ALLOW_THREADS st = tk_session_open(s->path, &oo, TK_SESSION_MODEL, &s->ses, &err);
	Py_END_ALLOW_THREADS if (st != TK_OK)
	{
		s->ses = NULL;
		tkpy_raise(&err, s->path);
		Py_DECREF(s);
		goto fail;
	}
	s->src = tk_session_source(s->ses);
	if (context && tkpy_context_attach(s, &err) != TK_OK) {
		tkpy_raise(&err, s->path);
		Py_DECREF(s);
		goto fail;
	}
	Py_DECREF(filters);
	Py_DECREF(path_obj);
	return (PyObject *)s;
fail:
	Py_DECREF(filters);
	Py_DECREF(path_obj);
	return NULL;
}

static void source_close_now(tkpy_source *s)
{
	tk_session_close(s->ses); /* and its source */
	s->ses = NULL;
	s->src = NULL;
	tkpy_lean_close(s->lean);
	s->lean = NULL;
	tkpy_context_free(s);
	s->current = NULL;
	s->generation++;
}

static void source_dealloc(tkpy_source *s)
{
	source_close_now(s);
	for (size_t i = 0; i < s->n_classes; i++)
		Py_XDECREF(s->classes[i].name);
	free(s->classes);
	free(s->path);
	free(s->events);
	Py_XDECREF(s->warnings);
	Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *source_iter(PyObject *self)
{
	return Py_NewRef(self);
}

static int source_ready(tkpy_source *s)
{
	if (!s->src) {
		tkpy_raise_msg("the source is closed");
		return -1;
	}
	if (s->busy & 1) {
		tkpy_raise_msg("the source is in use by another thread");
		return -1;
	}
	return 0;
}

static PyObject *source_next(tkpy_source *s)
{
	if (source_ready(s) < 0)
		return NULL;
	if (s->lean)
		return tkpy_raise_msg("the source is being read by columns(): open the file again "
				      "to iterate its events");
	if (s->limit && s->count >= s->limit)
		return NULL; /* StopIteration */
	const tk_event *ev = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st;
	bool filtered = !tk_filter_is_empty(&s->filter);
	s->busy |= 1;
	s->current = NULL;
	s->generation++;
	Py_BEGIN_ALLOW_THREADS do
	{
		const tk_session_item *it;
		st = tk_session_next(s->ses, &it, &err);
		ev = st == TK_OK ? it->event : NULL;
	}
	while (st == TK_OK && filtered && !tk_filter_match(&s->filter, ev))
		;
	Py_END_ALLOW_THREADS s->busy &= ~1;
	if (st == TK_END)
		return NULL;
	if (st != TK_OK)
		return tkpy_raise(&err, s->path);
	s->current = ev;
	s->count++;
	tkpy_class *c = tkpy_source_class(s, ev->cls);
	if (!c)
		return NULL;
	tkpy_event *e = PyObject_New(tkpy_event, &tkpy_event_type);
	if (!e)
		return NULL;
	e->owner = (tkpy_source *)Py_NewRef((PyObject *)s);
	e->generation = s->generation;
	e->name = Py_NewRef(c->name);
	e->ts = ev->time_ns;
	e->has_time = ev->has_time;
	e->cpu = ev->cpu;
	e->pid = ev->pid;
	e->tid = ev->tid;
	e->fields = NULL;
	if (s->busy & 2) {
		e->fields = tkpy_event_fields(ev);
		if (!e->fields) {
			Py_DECREF(e);
			return NULL;
		}
	}
	return (PyObject *)e;
}

static PyObject *source_close(tkpy_source *s, PyObject *unused)
{
	(void)unused;
	if (s->busy & 1)
		return tkpy_raise_msg("the source is in use by another thread");
	source_close_now(s);
	Py_RETURN_NONE;
}

static PyObject *source_enter(PyObject *self, PyObject *unused)
{
	(void)unused;
	return Py_NewRef(self);
}

static PyObject *source_exit(tkpy_source *s, PyObject *args)
{
	(void)args;
	PyObject *r = source_close(s, NULL);
	if (!r)
		return NULL;
	Py_DECREF(r);
	Py_RETURN_FALSE;
}

static PyObject *clock_dict(const tk_clock_info *c)
{
	return Py_BuildValue(
	    "{s:s,s:z,s:z,s:K,s:K,s:L,s:L,s:O}", "name", c->name ? c->name : "", "description",
	    c->description, "uuid", c->uuid, "frequency", (unsigned long long)c->freq, "precision",
	    (unsigned long long)c->precision, "offset_s", (long long)c->offset_s, "offset_cycles",
	    (long long)c->offset_cycles, "absolute", c->absolute ? Py_True : Py_False);
}

static PyObject *source_get_info(tkpy_source *s, void *closure)
{
	(void)closure;
	if (source_ready(s) < 0)
		return NULL;
	const tk_trace_info *ti = tk_source_info(s->src);
	PyObject *env = PyDict_New(), *clocks = PyList_New(0), *classes = PyList_New(0);
	PyObject *r = NULL;
	if (!env || !clocks || !classes)
		goto out;
	for (size_t i = 0; i < ti->n_env; i++) {
		const tk_env_entry *e = &ti->env[i];
		PyObject *v =
		    e->is_int
			? PyLong_FromLongLong(e->i)
			: PyUnicode_DecodeUTF8(e->str ? e->str : "",
					       (Py_ssize_t)strlen(e->str ? e->str : ""), "replace");
		if (!v || PyDict_SetItemString(env, e->key, v) < 0) {
			Py_XDECREF(v);
			goto out;
		}
		Py_DECREF(v);
	}
	for (size_t i = 0; i < ti->n_clocks; i++) {
		PyObject *c = clock_dict(&ti->clocks[i]);
		if (!c || PyList_Append(clocks, c) < 0) {
			Py_XDECREF(c);
			goto out;
		}
		Py_DECREF(c);
	}
	for (size_t i = 0; i < ti->n_event_classes; i++) {
		const tk_event_class *ec = ti->event_classes[i];
		PyObject *c = Py_BuildValue("{s:K,s:s,s:K}", "id", (unsigned long long)ec->id,
					    "name", ec->name ? ec->name : "", "stream_class_id",
					    (unsigned long long)ec->stream_class_id);
		if (!c || PyList_Append(classes, c) < 0) {
			Py_XDECREF(c);
			goto out;
		}
		Py_DECREF(c);
	}
	r = Py_BuildValue("{s:s,s:z,s:O,s:O,s:O}", "format", tk_format_name(ti->format), "name",
			  ti->name, "env", env, "clocks", clocks, "event_classes", classes);
out:
	Py_XDECREF(env);
	Py_XDECREF(clocks);
	Py_XDECREF(classes);
	return r;
}

static PyObject *source_get_warnings(tkpy_source *s, void *closure)
{
	(void)closure;
	return PyList_GetSlice(s->warnings, 0, PyList_GET_SIZE(s->warnings));
}

static PyObject *source_get_closed(tkpy_source *s, void *closure)
{
	(void)closure;
	return PyBool_FromLong(s->src == NULL);
}

static PyObject *source_get_path(tkpy_source *s, void *closure)
{
	(void)closure;
	return PyUnicode_DecodeFSDefault(s->path);
}

static PyMethodDef source_methods[] = {
    {"close", (PyCFunction)source_close, METH_NOARGS, "close the source (idempotent)"},
    {"__enter__", source_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)source_exit, METH_VARARGS, NULL},
    {"_columns", (PyCFunction)(void (*)(void))tkpy_source_columns, METH_VARARGS | METH_KEYWORDS,
     "_columns(names, batch) -> dict of bytes columns, or None at the end (see "
     "Source.columns)"},
    {"threads", (PyCFunction)tkpy_source_threads, METH_NOARGS,
     "threads() -> [dict(tid, pid, name, process, first_ns, last_ns, exited)] of the whole "
     "input"},
    {"spans", (PyCFunction)(void (*)(void))tkpy_source_spans, METH_VARARGS | METH_KEYWORDS,
     "spans(kind='sched') -> [(kind, name, begin_ns, end_ns, cpu, pid, tid, track, depth, "
     "truncated)]"},
    {"symbolize", (PyCFunction)(void (*)(void))tkpy_source_symbolize, METH_VARARGS | METH_KEYWORDS,
     "symbolize(ips, pid, tid=None, kernel=None) -> [(ip, symbol, offset, dso)]"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef source_getset[] = {
    {"info", (getter)source_get_info, NULL,
     "format, name, env, clocks and event classes (the list may grow while reading)", NULL},
    {"warnings", (getter)source_get_warnings, NULL, "the reader's warnings so far", NULL},
    {"closed", (getter)source_get_closed, NULL, "True once closed", NULL},
    {"path", (getter)source_get_path, NULL, "the input path", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject tkpy_source_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracekit._tracekit.Source",
    .tp_basicsize = sizeof(tkpy_source),
    .tp_dealloc = (destructor)source_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An open input: iterate it for Events, or read columns().",
    .tp_iter = source_iter,
    .tp_iternext = (iternextfunc)source_next,
    .tp_methods = source_methods,
    .tp_getset = source_getset,
};
