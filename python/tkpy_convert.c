/* tracekit.convert() and tracekit.profile(): whole-file jobs run with the
 * GIL released (the cluster's workers run profile() in threads). */
#include <stdlib.h>
#include <string.h>

#include "convert/convert.h"
#include "output/profile_inputs.h"
#include "tkpy.h"

/* convert(inputs, output, to, **filters): the library's tk_convert(), as
 * `tracekit convert` runs it (native routes such as perf -> folded or
 * perf -> DCPI, else the model pipeline with the model context where the
 * output shows it); the output appears complete or not at all. */
PyObject *tkpy_convert(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	PyObject *inputs, *output_obj = NULL;
	const char *to;
	if (!PyArg_ParseTuple(args, "OO&s:convert", &inputs, PyUnicode_FSConverter, &output_obj,
			      &to))
		return NULL;
	tk_format fmt = tk_format_from_name(to);
	if (fmt == TK_FORMAT_UNKNOWN) {
		Py_DECREF(output_obj);
		return PyErr_Format(PyExc_ValueError, "unknown output format '%s'", to);
	}
	size_t n = 0;
	char **paths = tkpy_paths(inputs, &n);
	tk_filter f;
	uint64_t limit = 0;
	char *events = NULL;
	PyObject *result = NULL;
	if (!paths)
		goto out;
	if (n == 0) {
		PyErr_SetString(PyExc_ValueError, "no input");
		goto out;
	}
	if (tkpy_parse_filter(kw, &f, &events, &limit) < 0)
		goto out;
	tk_convert_options co = {.to = fmt};
	co.opt.limit = limit;
	co.opt.has_begin = f.has_begin;
	co.opt.begin_ns = f.begin_ns;
	co.opt.has_end = f.has_end;
	co.opt.end_ns = f.end_ns;
	co.opt.events = f.events;
	co.opt.pid = f.pid;
	co.opt.tid = f.tid;
	co.opt.cpu = f.cpu;
	const char *output = PyBytes_AS_STRING(output_obj);
	tk_error err;
	tk_error_clear(&err);
	tk_convert_result res = {0};
	tk_status st;
	Py_BEGIN_ALLOW_THREADS st =
	    tk_convert((const char *const *)paths, n, output, &co, &res, &err);
	Py_END_ALLOW_THREADS if (st != TK_OK)
	{
		if (res.refused)
			PyErr_SetString(PyExc_ValueError, err.message);
		else
			tkpy_raise(&err, err.file[0] ? NULL : paths[0]);
	}
	else if (res.model) result = PyLong_FromUnsignedLongLong(res.events);
	else result = Py_NewRef(Py_None); /* a native route: no event count */
out:
	free(events);
	tkpy_paths_free(paths);
	Py_DECREF(output_obj);
	return result;
}

/* profile(path, by="symbol", events=None) -> (rows, samples): rows are
 * (event, image, symbol or None, address, weight) with weight the summed
 * period for perf.data (as `tracekit report`) and the count for DCPI;
 * samples maps each event to its number of samples. */
PyObject *tkpy_profile(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	static char *kwlist[] = {"path", "by", "events", NULL};
	PyObject *path_obj;
	const char *by = "symbol", *events = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|sz:profile", kwlist, PyUnicode_FSConverter,
					 &path_obj, &by, &events))
		return NULL;
	const char *path = PyBytes_AS_STRING(path_obj);
	tk_profile_key key;
	if (!tk_perf_parse_sort(by, &key)) {
		Py_DECREF(path_obj);
		return PyErr_Format(PyExc_ValueError, "unknown key '%s' (symbol, image, address)",
				    by);
	}
	tk_error err;
	tk_error_clear(&err);
	tk_perf_profile prof = {0};
	tk_status st;
	Py_BEGIN_ALLOW_THREADS tk_format fmt = tk_detect_format(path, &err);
	if (tk_profile_readable(fmt))
		st = tk_profile_load_any(path, fmt, key, events, false, &prof, &err);
	else if (fmt == TK_FORMAT_UNKNOWN)
		st = err.status ? err.status : TK_ERR_FORMAT;
	else
		st = tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				  "profiles need perf.data or DCPI input (%s given)",
				  tk_format_name(fmt));
	Py_END_ALLOW_THREADS if (st != TK_OK)
	{
		tkpy_raise(&err, path);
		Py_DECREF(path_obj);
		return NULL;
	}
	PyObject *rows = PyList_New(0), *samples = PyDict_New(), *result = NULL;
	for (size_t e = 0; rows && samples && e < prof.n; e++) {
		PyObject *cnt = PyLong_FromUnsignedLongLong(prof.samples[e]);
		if (!cnt || PyDict_SetItemString(samples, prof.events[e], cnt) < 0) {
			Py_XDECREF(cnt);
			goto out;
		}
		Py_DECREF(cnt);
		size_t nr;
		const tk_profile_row *r = tk_profile_agg_rows(prof.aggs[e], &nr);
		for (size_t i = 0; i < nr; i++) {
			PyObject *t = Py_BuildValue("(sszKK)", prof.events[e], r[i].image,
						    r[i].symbol, (unsigned long long)r[i].addr,
						    (unsigned long long)r[i].count);
			if (!t || PyList_Append(rows, t) < 0) {
				Py_XDECREF(t);
				goto out;
			}
			Py_DECREF(t);
		}
	}
	if (rows && samples)
		result = Py_BuildValue("(OO)", rows, samples);
out:
	Py_XDECREF(rows);
	Py_XDECREF(samples);
	tk_perf_profile_free(&prof);
	Py_DECREF(path_obj);
	return result;
}
