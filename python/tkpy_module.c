/* tracekit._tracekit: module setup, tracekit.Error and the filter
 * keywords every entry point shares. */
#include <math.h>
#include <string.h>

#include "tkpy.h"

PyObject *tkpy_error_type;

static PyObject *make_error(const char *text, const char *file, uint64_t offset,
			    const char *message, int status)
{
	PyObject *exc = PyObject_CallFunction(tkpy_error_type, "s", text);
	if (!exc)
		return NULL;
	PyObject *f = file && *file ? PyUnicode_DecodeFSDefault(file) : Py_NewRef(Py_None);
	PyObject *o =
	    offset == TK_NO_OFFSET ? Py_NewRef(Py_None) : PyLong_FromUnsignedLongLong(offset);
	PyObject *m = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
	PyObject *s = PyLong_FromLong(status);
	if (f && o && m && s) {
		PyObject_SetAttrString(exc, "file", f);
		PyObject_SetAttrString(exc, "offset", o);
		PyObject_SetAttrString(exc, "message", m);
		PyObject_SetAttrString(exc, "status", s);
	}
	Py_XDECREF(f);
	Py_XDECREF(o);
	Py_XDECREF(m);
	Py_XDECREF(s);
	return exc;
}

PyObject *tkpy_raise(const tk_error *err, const char *path)
{
	const char *file = err->file[0] ? err->file : path;
	char text[1024];
	if (err->offset != TK_NO_OFFSET)
		snprintf(text, sizeof text, "%s: offset 0x%llx: %s", file ? file : "",
			 (unsigned long long)err->offset, err->message);
	else if (file && *file)
		snprintf(text, sizeof text, "%s: %s", file, err->message);
	else
		snprintf(text, sizeof text, "%s", err->message);
	PyObject *exc = make_error(text, file, err->offset,
				   err->message[0] ? err->message : tk_status_str(err->status),
				   (int)err->status);
	if (exc) {
		PyErr_SetObject(tkpy_error_type, exc);
		Py_DECREF(exc);
	}
	return NULL;
}

PyObject *tkpy_raise_msg(const char *msg)
{
	PyObject *exc = make_error(msg, NULL, TK_NO_OFFSET, msg, (int)TK_ERR_USAGE);
	if (exc) {
		PyErr_SetObject(tkpy_error_type, exc);
		Py_DECREF(exc);
	}
	return NULL;
}

/* Seconds (int or float, as the CLI reads bare numbers) to ns. */
static int seconds_to_ns(PyObject *v, const char *what, uint64_t *out)
{
	double s = PyFloat_AsDouble(v);
	if (s == -1.0 && PyErr_Occurred())
		return -1;
	if (!(s >= 0) || s > 1.8e10) {
		PyErr_Format(PyExc_ValueError, "%s must be seconds between 0 and 1.8e10", what);
		return -1;
	}
	*out = (uint64_t)llround(s * 1e9);
	return 0;
}

static int get_i64(PyObject *v, const char *what, int64_t *out)
{
	long long x = PyLong_AsLongLong(v);
	if (x == -1 && PyErr_Occurred())
		return -1;
	if (x < 0) {
		PyErr_Format(PyExc_ValueError, "%s must not be negative", what);
		return -1;
	}
	*out = x;
	return 0;
}

/* pid=18, pid="18,21140" or cpu="0-1,3": perf's lists and ranges. */
static int id_set_arg(PyObject *v, const char *what, tk_id_set *out)
{
	if (PyUnicode_Check(v)) {
		const char *text = PyUnicode_AsUTF8(v);
		if (!text)
			return -1;
		if (tk_id_set_parse(out, text)) {
			PyErr_Format(PyExc_ValueError,
				     "%s: invalid list '%s' (N, N-M, comma-separated)", what, text);
			return -1;
		}
		return 0;
	}
	int64_t x;
	if (get_i64(v, what, &x))
		return -1;
	*out = tk_id_set_one(x);
	return 0;
}

/* events="sched:*" or events=["a", "b*"]: one comma-separated glob list. */
static int events_arg(PyObject *v, char **out)
{
	PyObject *joined;
	if (PyUnicode_Check(v)) {
		joined = Py_NewRef(v);
	} else {
		PyObject *sep = PyUnicode_FromString(",");
		if (!sep)
			return -1;
		joined = PyUnicode_Join(sep, v);
		Py_DECREF(sep);
		if (!joined)
			return -1;
	}
	const char *s = PyUnicode_AsUTF8(joined);
	if (s)
		*out = strdup(s);
	Py_DECREF(joined);
	if (!s)
		return -1;
	if (!*out) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

int tkpy_parse_filter(PyObject *kw, tk_filter *f, char **events_owned, uint64_t *limit)
{
	*f = (tk_filter){0};
	*events_owned = NULL;
	*limit = 0;
	if (!kw)
		return 0;
	PyObject *key, *v;
	Py_ssize_t pos = 0;
	while (PyDict_Next(kw, &pos, &key, &v)) {
		const char *k = PyUnicode_AsUTF8(key);
		if (!k)
			return -1;
		if (v == Py_None)
			continue;
		int rc = 0;
		if (strcmp(k, "begin") == 0) {
			f->has_begin = true;
			rc = seconds_to_ns(v, k, &f->begin_ns);
		} else if (strcmp(k, "end") == 0) {
			f->has_end = true;
			rc = seconds_to_ns(v, k, &f->end_ns);
		} else if (strcmp(k, "begin_ns") == 0 || strcmp(k, "end_ns") == 0) {
			int64_t ns = 0;
			rc = get_i64(v, k, &ns);
			if (k[0] == 'b') {
				f->has_begin = true;
				f->begin_ns = (uint64_t)ns;
			} else {
				f->has_end = true;
				f->end_ns = (uint64_t)ns;
			}
		} else if (strcmp(k, "events") == 0) {
			rc = events_arg(v, events_owned);
			f->events = *events_owned;
		} else if (strcmp(k, "pid") == 0) {
			rc = id_set_arg(v, k, &f->pid);
		} else if (strcmp(k, "tid") == 0) {
			rc = id_set_arg(v, k, &f->tid);
		} else if (strcmp(k, "cpu") == 0) {
			rc = id_set_arg(v, k, &f->cpu);
		} else if (strcmp(k, "limit") == 0) {
			int64_t n = 0;
			rc = get_i64(v, k, &n);
			*limit = (uint64_t)n;
		} else {
			PyErr_Format(PyExc_TypeError,
				     "unknown filter '%s' (begin, end, begin_ns, "
				     "end_ns, events, pid, tid, cpu, limit)",
				     k);
			rc = -1;
		}
		if (rc)
			return -1;
	}
	if (f->has_begin && f->has_end && f->begin_ns > f->end_ns) {
		PyErr_SetString(PyExc_ValueError, "begin is after end");
		return -1;
	}
	return 0;
}

static PyObject *format_of(PyObject *self, PyObject *args)
{
	(void)self;
	PyObject *path_obj;
	if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
		return NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_format fmt;
	Py_BEGIN_ALLOW_THREADS fmt = tk_detect_format(PyBytes_AS_STRING(path_obj), &err);
	Py_END_ALLOW_THREADS if (fmt == TK_FORMAT_UNKNOWN)
	{
		PyObject *r = tkpy_raise(&err, PyBytes_AS_STRING(path_obj));
		Py_DECREF(path_obj);
		return r;
	}
	Py_DECREF(path_obj);
	return PyUnicode_FromString(tk_format_name(fmt));
}

static PyObject *keep_kallsyms(PyObject *self, PyObject *arg)
{
	(void)self;
	int on = PyObject_IsTrue(arg);
	if (on < 0)
		return NULL;
	tk_symbols_keep_kallsyms(on != 0);
	Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"open", (PyCFunction)(void (*)(void))tkpy_open, METH_VARARGS | METH_KEYWORDS,
     "open(path, *, format=None, all_records=False, raw_order=False, fields=False, "
     "**filters) -> Source"},
    {"convert", (PyCFunction)(void (*)(void))tkpy_convert, METH_VARARGS | METH_KEYWORDS,
     "convert(inputs, output, to=None, **filters) -> number of events written"},
    {"profile", (PyCFunction)(void (*)(void))tkpy_profile, METH_VARARGS | METH_KEYWORDS,
     "profile(path, by='symbol', events=None) -> list of (event, dso, symbol, samples, "
     "period)"},
    {"format_of", format_of, METH_VARARGS, "format_of(path) -> format name"},
    {"keep_kallsyms", keep_kallsyms, METH_O,
     "keep_kallsyms(on): read /proc/kallsyms once for the process (cluster workers)"},
    {"sql", (PyCFunction)(void (*)(void))tkpy_sql, METH_VARARGS | METH_KEYWORDS,
     "sql(paths, query, all_records=False) -> (column names, list of row tuples)"},
    {"dcpi_convert", (PyCFunction)(void (*)(void))tkpy_dcpi_convert, METH_VARARGS | METH_KEYWORDS,
     "dcpi_convert(perf_path, db, events=None): `tracekit convert --to dcpi`"},
    {"dcpi_read", tkpy_dcpi_read, METH_O,
     "dcpi_read(path) -> [(name, fields, {offset: count})] for every profile below path"},
    {"dcpi_write", tkpy_dcpi_write, METH_VARARGS,
     "dcpi_write(db, epoch, host, file, fields, {offset: count}) -> path written"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_tracekit",
    "tracekit's C extension (use the tracekit package)",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__tracekit(void);
PyMODINIT_FUNC PyInit__tracekit(void)
{
	if (PyType_Ready(&tkpy_source_type) < 0 || PyType_Ready(&tkpy_event_type) < 0 ||
	    PyType_Ready(&tkpy_buffer_type) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&module_def);
	if (!m)
		return NULL;
	tkpy_error_type = PyErr_NewExceptionWithDoc(
	    "tracekit.Error",
	    "A tracekit error: .file and .offset say where the input went wrong "
	    "(.offset is None when the error has no position), .message what.",
	    NULL, NULL);
	if (!tkpy_error_type || PyModule_AddObjectRef(m, "Error", tkpy_error_type) < 0 ||
	    PyModule_AddObjectRef(m, "Source", (PyObject *)&tkpy_source_type) < 0 ||
	    PyModule_AddObjectRef(m, "Event", (PyObject *)&tkpy_event_type) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
