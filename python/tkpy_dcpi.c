/* DCPI profile databases for tracekit.cluster: a worker converts each
 * perf.data file with the library's perf -> DCPI conversion (what
 * `tracekit convert --to dcpi` runs) and reads the profiles back as
 * (header fields, {offset: count}); the client writes the merged profiles
 * with the library's DCPI writer. Python never sees the file format.
 *
 *   dcpi_convert(perf_path, db, events=None)
 *   dcpi_read(path) -> [(name, fields, counts)]  (a database, a directory
 *       of one, or one profile; name is the file's path below `path`)
 *   dcpi_write(db, epoch, host, file, fields, counts) -> path written
 *
 * fields: a dict of image, epoch, platform, event, period, tstart, tsize,
 * cpuspeed, path (None when absent), cpucount (None when absent). The
 * conversion and the writes run with the GIL released. */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_to_dcpi.h"
#include "tkpy.h"

PyObject *tkpy_dcpi_convert(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	static char *kwlist[] = {"path", "db", "events", NULL};
	PyObject *in_b = NULL, *db_b = NULL;
	const char *events = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|z:dcpi_convert", kwlist,
					 PyUnicode_FSConverter, &in_b, PyUnicode_FSConverter, &db_b,
					 &events))
		goto fail;
	tk_perf_dcpi_options opt = {.events = events};
	tk_error err;
	tk_error_clear(&err);
	tk_status st;
	const char *in = PyBytes_AS_STRING(in_b), *db = PyBytes_AS_STRING(db_b);
	Py_BEGIN_ALLOW_THREADS st = tk_perf_to_dcpi(in, db, &opt, &err);
	Py_END_ALLOW_THREADS if (st != TK_OK)
	{
		tkpy_raise(&err, in);
		goto fail;
	}
	Py_DECREF(in_b);
	Py_DECREF(db_b);
	Py_RETURN_NONE;
fail:
	Py_XDECREF(in_b);
	Py_XDECREF(db_b);
	return NULL;
}

static int set_str(PyObject *d, const char *key, const char *v)
{
	PyObject *o = v ? PyUnicode_DecodeUTF8(v, (Py_ssize_t)strlen(v), "surrogateescape")
			: Py_NewRef(Py_None);
	int rc = o ? PyDict_SetItemString(d, key, o) : -1;
	Py_XDECREF(o);
	return rc;
}

static int set_u64(PyObject *d, const char *key, bool has, uint64_t v)
{
	PyObject *o = has ? PyLong_FromUnsignedLongLong(v) : Py_NewRef(Py_None);
	int rc = o ? PyDict_SetItemString(d, key, o) : -1;
	Py_XDECREF(o);
	return rc;
}

static PyObject *header_dict(const tk_dcpi_header *h)
{
	PyObject *d = PyDict_New();
	if (!d || set_str(d, "image", h->image) || set_str(d, "epoch", h->epoch) ||
	    set_str(d, "platform", h->platform) || set_str(d, "event", h->event) ||
	    set_u64(d, "period", true, h->period) || set_u64(d, "tstart", true, h->tstart) ||
	    set_u64(d, "tsize", true, h->tsize) || set_u64(d, "cpuspeed", true, h->cpuspeed) ||
	    set_str(d, "path", h->path) || set_u64(d, "cpucount", h->has_cpucount, h->cpucount)) {
		Py_XDECREF(d);
		return NULL;
	}
	return d;
}

typedef struct count_walk {
	PyObject *counts;
	uint64_t tstart;
} count_walk;

static tk_status put_count(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	count_walk *w = user;
	PyObject *k = PyLong_FromUnsignedLongLong(addr - w->tstart);
	PyObject *v = PyLong_FromUnsignedLong(count);
	int rc = k && v ? PyDict_SetItem(w->counts, k, v) : -1;
	Py_XDECREF(k);
	Py_XDECREF(v);
	return rc < 0 ? tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory") : TK_OK;
}

/* One profile as (name, fields, counts); NULL with an exception set. */
static PyObject *read_one(const char *file, const char *name)
{
	tk_dcpi_profile *p;
	tk_error err;
	tk_error_clear(&err);
	if (tk_dcpi_open(file, &p, &err) != TK_OK)
		return tkpy_raise(&err, file);
	PyObject *out = NULL, *fields = header_dict(tk_dcpi_profile_header(p));
	count_walk w = {PyDict_New(), tk_dcpi_profile_header(p)->tstart};
	if (fields && w.counts) {
		if (tk_dcpi_each_count(p, put_count, &w, &err) != TK_OK) {
			if (!PyErr_Occurred())
				tkpy_raise(&err, file);
		} else {
			out = Py_BuildValue("(sOO)", name, fields, w.counts);
		}
	}
	Py_XDECREF(fields);
	Py_XDECREF(w.counts);
	tk_dcpi_close(p);
	return out;
}

PyObject *tkpy_dcpi_read(PyObject *self, PyObject *arg)
{
	(void)self;
	PyObject *path_b;
	if (!PyUnicode_FSConverter(arg, &path_b))
		return NULL;
	const char *path = PyBytes_AS_STRING(path_b);
	char **files = NULL;
	size_t n = 0;
	tk_error err;
	tk_error_clear(&err);
	PyObject *list = NULL;
	if (tk_dcpi_db_list(path, &files, &n, &err) != TK_OK) {
		tkpy_raise(&err, path);
		goto out;
	}
	if (!(list = PyList_New(0)))
		goto out;
	size_t plen = strlen(path);
	for (size_t i = 0; i < n; i++) {
		/* the name below `path` (the file's own name for a profile) */
		const char *name = files[i];
		if (strncmp(name, path, plen) == 0 && name[plen] == '/')
			name += plen + 1;
		else if (strrchr(name, '/'))
			name = strrchr(name, '/') + 1;
		PyObject *one = read_one(files[i], name);
		if (!one || PyList_Append(list, one) < 0) {
			Py_XDECREF(one);
			Py_CLEAR(list);
			break;
		}
		Py_DECREF(one);
	}
out:
	tk_dcpi_db_free_list(files, n);
	Py_DECREF(path_b);
	return list;
}

/* A str field (NULL when absent or None); the bytes object stays in *keep. */
static int get_str(PyObject *d, const char *key, const char **out, PyObject **keep)
{
	*out = NULL;
	PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
	if (!v || v == Py_None)
		return 0;
	*keep = PyUnicode_AsEncodedString(v, "utf-8", "surrogateescape");
	if (!*keep)
		return -1;
	*out = PyBytes_AS_STRING(*keep);
	return 0;
}

static int get_u64(PyObject *d, const char *key, bool *has, uint64_t *out)
{
	*out = 0;
	if (has)
		*has = false;
	PyObject *v = PyDict_GetItemString(d, key);
	if (!v || v == Py_None)
		return 0;
	*out = PyLong_AsUnsignedLongLong(v);
	if (PyErr_Occurred())
		return -1;
	if (has)
		*has = true;
	return 0;
}

PyObject *tkpy_dcpi_write(PyObject *self, PyObject *args)
{
	(void)self;
	PyObject *db_b = NULL, *fields, *counts;
	const char *epoch, *host, *file;
	if (!PyArg_ParseTuple(args, "O&sssO!O!:dcpi_write", PyUnicode_FSConverter, &db_b, &epoch,
			      &host, &file, &PyDict_Type, &fields, &PyDict_Type, &counts))
		return NULL;
	enum { N_STR = 5 };
	PyObject *keep[N_STR] = {0};
	tk_dcpi_sample *samples = NULL;
	PyObject *result = NULL;
	tk_dcpi_fields f = {.epoch = epoch};
	if (get_str(fields, "image", &f.image, &keep[0]) ||
	    get_str(fields, "platform", &f.platform, &keep[1]) ||
	    get_str(fields, "event", &f.event, &keep[2]) ||
	    get_str(fields, "path", &f.path, &keep[3]) ||
	    get_u64(fields, "period", NULL, &f.period) ||
	    get_u64(fields, "tstart", NULL, &f.tstart) ||
	    get_u64(fields, "tsize", NULL, &f.tsize) ||
	    get_u64(fields, "cpuspeed", NULL, &f.cpuspeed) ||
	    get_u64(fields, "cpucount", &f.has_cpucount, &f.cpucount))
		goto out;
	size_t n = (size_t)PyDict_Size(counts);
	samples = calloc(n ? n : 1, sizeof *samples);
	if (!samples) {
		PyErr_NoMemory();
		goto out;
	}
	Py_ssize_t pos = 0, i = 0;
	PyObject *k, *v;
	while (PyDict_Next(counts, &pos, &k, &v)) {
		samples[i].offset = PyLong_AsUnsignedLongLong(k);
		samples[i].count = PyLong_AsUnsignedLongLong(v);
		if (PyErr_Occurred())
			goto out;
		i++;
	}
	tk_error err;
	tk_error_clear(&err);
	tk_status st;
	const char *db = PyBytes_AS_STRING(db_b);
	Py_BEGIN_ALLOW_THREADS st = tk_dcpi_db_write(db, epoch, host, file, &f, samples, n, &err);
	Py_END_ALLOW_THREADS if (st != TK_OK)
	{
		tkpy_raise(&err, db);
		goto out;
	}
	result = PyUnicode_FromFormat("%s/%s/%s/%s", db, epoch, host, file);
out:
	for (int j = 0; j < N_STR; j++)
		Py_XDECREF(keep[j]);
	free(samples);
	Py_DECREF(db_b);
	return result;
}
