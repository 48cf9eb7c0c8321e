/* Path arguments of the whole-file calls (convert(), sql()): one path (str,
 * bytes or os.PathLike) or a sequence of them, as owned C strings in the
 * file system encoding. One helper so the calls accept the same forms and
 * fail the same way. */
#include <stdlib.h>
#include <string.h>

#include "tkpy.h"

char **tkpy_paths(PyObject *obj, size_t *n)
{
	PyObject *seq;
	if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyObject_HasAttrString(obj, "__fspath__"))
		seq = PyTuple_Pack(1, obj);
	else
		seq = PySequence_Fast(obj, "paths must be a path or a sequence of paths");
	if (!seq)
		return NULL;
	Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
	char **out = calloc((size_t)k + 1, sizeof *out);
	if (!out) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return NULL;
	}
	for (Py_ssize_t i = 0; i < k; i++) {
		PyObject *b;
		if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b))
			goto fail;
		out[i] = strdup(PyBytes_AS_STRING(b));
		Py_DECREF(b);
		if (!out[i]) {
			PyErr_NoMemory();
			goto fail;
		}
	}
	Py_DECREF(seq);
	*n = (size_t)k;
	return out;
fail:
	tkpy_paths_free(out);
	Py_DECREF(seq);
	return NULL;
}

void tkpy_paths_free(char **paths)
{
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
}
