/* The CPython extension `tracekit._tracekit`: shared declarations.
 *
 * The module is a thin layer over the public C API (tk_source, tk_sink,
 * the conversion pipeline): a Source iterates model events as light Event
 * objects whose attributes are built only when read; columns() decodes a
 * batch of events into flat C arrays with the GIL released. Python-side
 * conveniences (numpy arrays, pandas, the Dask cluster) live in
 * python/tracekit/. */
#ifndef TK_PYTHON_TKPY_H
#define TK_PYTHON_TKPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "model/filter.h"
#include "tracekit/tracekit.h"

/* tracekit.Error: .file, .offset (None when the error has no position),
 * .message, .status. */
extern PyObject *tkpy_error_type;

/* Raises tracekit.Error from a library error; returns NULL. */
PyObject *tkpy_raise(const tk_error *err, const char *path);
/* Raises tracekit.Error with only a message; returns NULL. */
PyObject *tkpy_raise_msg(const char *msg);

/* One event class seen by a source: its interned Python name and the
 * payload member indexes columns() asked for, resolved once. */
typedef struct tkpy_class {
	const tk_event_class *cls;
	PyObject *name; /* str, owned */
	uint32_t code;  /* index into the source's class list, for categoricals */
} tkpy_class;

typedef struct tk_lean tkpy_lean; /* context/lean_reader.h */

typedef struct tkpy_source {
	PyObject_HEAD tk_source *src;
	tkpy_lean *lean;          /* columns() reads through it once set (tkpy_lean.c) */
	tk_context *ctx;          /* fed by src: threads + symbols (Event.frames) */
	struct tkpy_whole *whole; /* threads()/spans()/symbolize() pass, or NULL */
	bool lean_ok;             /* opened in time order, from a file: lean may serve */
	char *path;
	tk_filter filter;
	char *events; /* owned copy of filter.events */
	uint64_t limit, count;
	uint64_t generation; /* bumps at every event read: Events check it */
	const tk_event *current;
	int busy; /* bit 0: a call is decoding with the GIL released; bit 1: eager
		   * fields; bit 2: a whole-input pass (tkpy_context.c) runs */
	tkpy_class *classes;
	size_t n_classes, cap_classes;
	PyObject *warnings; /* list of warning strings from the reader */
	tk_session *ses;    /* owns src: events are pulled from it (tkpy_source.c) */
} tkpy_source;

typedef struct tkpy_event {
	PyObject_HEAD tkpy_source *owner; /* strong reference */
	uint64_t generation;
	PyObject *name; /* the class's interned name (classes may move) */
	uint64_t ts;
	int64_t cpu, pid, tid;
	int has_time;
	PyObject *fields; /* dict, built on first access (or eagerly) */
} tkpy_event;

extern PyTypeObject tkpy_source_type;
extern PyTypeObject tkpy_event_type;
extern PyTypeObject tkpy_buffer_type;

/* A column buffer (tkpy_buffer.c) of cap bytes, length 0, its memory in
 * *data; NULL with an exception set. GIL held. */
PyObject *tkpy_buffer_new(size_t cap, char **data);
/* The length the buffer protocol shows (at most cap). */
void tkpy_buffer_set_len(PyObject *buf, size_t len);

/* The class record for an event class (added on first sight), with its
 * Python name. NULL with an exception set on failure. GIL held. */
tkpy_class *tkpy_source_class(tkpy_source *s, const tk_event_class *cls);
/* The same without touching Python (name left NULL; NULL when out of
 * memory): safe with the GIL released. tkpy_class_name() fills the name. */
tkpy_class *tkpy_source_class_c(tkpy_source *s, const tk_event_class *cls);
int tkpy_class_name(tkpy_class *c);

/* Converts a decoded value to Python (int, float, str, bytes, list, dict). */
PyObject *tkpy_value(const tk_value *v);
/* The payload (and context) of an event as a dict. */
PyObject *tkpy_event_fields(const tk_event *ev);

/* Module-level functions defined in their own files. */
PyObject *tkpy_open(PyObject *self, PyObject *args, PyObject *kw);
PyObject *tkpy_source_columns(tkpy_source *s, PyObject *args, PyObject *kw);
PyObject *tkpy_convert(PyObject *self, PyObject *args, PyObject *kw);
PyObject *tkpy_profile(PyObject *self, PyObject *args, PyObject *kw);
PyObject *tkpy_sql(PyObject *self, PyObject *args, PyObject *kw);
/* DCPI databases for the cluster (tkpy_dcpi.c). */
PyObject *tkpy_dcpi_convert(PyObject *self, PyObject *args, PyObject *kw);
PyObject *tkpy_dcpi_read(PyObject *self, PyObject *arg);
PyObject *tkpy_dcpi_write(PyObject *self, PyObject *args);

/* Lean readers for columns() (tkpy_lean.c): TKPY_LEAN_* bits name the
 * columns asked for. */
enum {
	TKPY_LEAN_TS = 1,
	TKPY_LEAN_CPU = 2,
	TKPY_LEAN_NAME = 4,
	TKPY_LEAN_OFFSET = 8,
	TKPY_LEAN_PID = 16,
	TKPY_LEAN_TID = 32,
	TKPY_LEAN_PERIOD = 64,
	TKPY_LEAN_OTHER = 128, /* a payload field */
};
/* Whether a lean reader of format gives those columns under filter f. */
bool tkpy_lean_serves(tk_format format, unsigned columns, const tk_filter *f);
tk_status tkpy_lean_open(const char *path, tk_format format, tk_log_fn log, void *log_user,
			 tkpy_lean **out, tk_error *err);
/* The next event (only header fields set; payload NULL) and, for perf.data,
 * its period (0 when none). Valid until the next call. */
tk_status tkpy_lean_next(tkpy_lean *l, const tk_event **out, uint64_t *period, tk_error *err);
void tkpy_lean_close(tkpy_lean *l); /* NULL is fine */
/* The model context (tkpy_context.c). */
tk_status tkpy_context_attach(tkpy_source *s, tk_error *err);
void tkpy_context_free(tkpy_source *s); /* after the source is closed */
/* ev's stack as [(ip, symbol or None, offset, dso or None)], innermost first. */
PyObject *tkpy_event_frames(tkpy_source *s, const tk_event *ev);
PyObject *tkpy_source_threads(tkpy_source *s, PyObject *unused);
PyObject *tkpy_source_spans(tkpy_source *s, PyObject *args, PyObject *kw);
PyObject *tkpy_source_symbolize(tkpy_source *s, PyObject *args, PyObject *kw);

/* The Source's warning collector (a tk_log_fn; user is the source). */
void tkpy_source_log(void *user, int level, const char *msg);

/* Paths of a whole-file call (tkpy_paths.c): one path (str, bytes,
 * os.PathLike) or a sequence of them -> a NULL-terminated array of owned
 * strings, *n of them; NULL with an exception set. GIL held. */
char **tkpy_paths(PyObject *obj, size_t *n);
void tkpy_paths_free(char **paths); /* NULL is fine */

/* Reads the common filter keywords (begin, end, events, pid, tid, cpu,
 * limit) from kw into f; 0 on success, -1 with an exception set. */
int tkpy_parse_filter(PyObject *kw, tk_filter *f, char **events_owned, uint64_t *limit);

#endif
