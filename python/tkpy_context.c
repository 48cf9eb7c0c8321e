/* The model context from Python (include/tracekit/context.h):
 *
 * - Event.frames: the event's stack symbolized by the context the Source
 *   feeds while it is iterated (each Source has one, threads + symbols;
 *   images are loaded on the first stack that needs them);
 * - Source.threads(), Source.spans(kind), Source.symbolize(ips, pid):
 *   answers about the whole input, from one extra pass over it with its
 *   own context (threads, symbols, every span kind), made on the first
 *   call and kept until the Source is closed. The pass ignores the
 *   Source's filters (a thread's name or a span does not depend on which
 *   events one prints) and releases the GIL.
 *
 * Spans are copied out of the context as they complete (the context keeps
 * only open ones); names are interned by the context and live as long as
 * it does. */
#include <stdlib.h>
#include <string.h>

#include "tkpy.h"

struct tkpy_whole {
	tk_context *ctx;
	tk_span *spans;
	size_t n_spans, cap_spans;
	uint64_t last_ns;
};

tk_status tkpy_context_attach(tkpy_source *s, tk_error *err)
{
	tk_context_options co = {
	    .flags = TK_CTX_THREADS | TK_CTX_SYMBOLS, .log = tkpy_source_log, .log_user = s};
	tk_status st = tk_context_new(&co, &s->ctx, err);
	if (st == TK_OK)
		tk_source_set_context(s->src, s->ctx);
	return st;
}

void tkpy_context_free(tkpy_source *s)
{
	tk_context_free(s->ctx);
	s->ctx = NULL;
	if (s->whole) {
		tk_context_free(s->whole->ctx);
		free(s->whole->spans);
		free(s->whole);
		s->whole = NULL;
	}
}

static PyObject *frame_tuple(const tk_frame *f)
{
	PyObject *sym = f->sym ? PyUnicode_DecodeUTF8(f->sym, (Py_ssize_t)f->sym_len, "replace")
			       : Py_NewRef(Py_None);
	PyObject *dso = f->dso ? PyUnicode_DecodeUTF8(f->dso, (Py_ssize_t)strlen(f->dso), "replace")
			       : Py_NewRef(Py_None);
	PyObject *t = NULL;
	if (sym && dso)
		t = Py_BuildValue("(KOKO)", (unsigned long long)f->ip, sym,
				  (unsigned long long)f->sym_off, dso);
	Py_XDECREF(sym);
	Py_XDECREF(dso);
	return t;
}

PyObject *tkpy_event_frames(tkpy_source *s, const tk_event *ev)
{
	if (!s->ctx)
		return tkpy_raise_msg("frames need the model context: open without context=False");
	tk_frame stack[256];
	size_t n = tk_context_stack(s->ctx, ev, stack, 256);
	if (n > 256)
		n = 256;
	PyObject *list = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; list && i < n; i++) {
		PyObject *t = frame_tuple(&stack[i]);
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	return list;
}

/* ---- the whole-input pass ---- */

static tk_status keep_spans(struct tkpy_whole *w, tk_error *err)
{
	const tk_span *sp;
	while ((sp = tk_context_next_span(w->ctx))) {
		if (w->n_spans == w->cap_spans) {
			size_t cap = w->cap_spans ? w->cap_spans * 2 : 1024;
			tk_span *n = realloc(w->spans, cap * sizeof *n);
			if (!n)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory");
			w->spans = n;
			w->cap_spans = cap;
		}
		w->spans[w->n_spans++] = *sp;
	}
	return TK_OK;
}

static tk_status whole_pass(const char *path, tkpy_source *s, struct tkpy_whole *w, tk_error *err)
{
	tk_open_options oo = {.log = NULL};
	tk_session *ses;
	tk_status st = tk_session_open(path, &oo, TK_SESSION_MODEL, &ses, err);
	if (st != TK_OK)
		return st;
	(void)s;
	tk_context_options co = {.flags = TK_CTX_ALL};
	if ((st = tk_context_new(&co, &w->ctx, err)) != TK_OK) {
		tk_session_close(ses);
		return st;
	}
	tk_source_set_context(tk_session_source(ses), w->ctx);
	const tk_session_item *it;
	while ((st = tk_session_next(ses, &it, err)) == TK_OK) {
		const tk_event *ev = it->event;
		if (ev->has_time && ev->time_ns > w->last_ns)
			w->last_ns = ev->time_ns;
		if ((st = keep_spans(w, err)) != TK_OK)
			break;
	}
	if (st == TK_END) {
		tk_context_finish(w->ctx, w->last_ns);
		st = keep_spans(w, err);
	}
	tk_session_close(ses);
	return st;
}

/* The whole-input context of s, made on first use. NULL with an
 * exception set on failure. */
static struct tkpy_whole *whole_of(tkpy_source *s)
{
	if (!s->src) {
		tkpy_raise_msg("the source is closed");
		return NULL;
	}
	if (s->whole)
		return s->whole;
	if (strcmp(s->path, "-") == 0) {
		tkpy_raise_msg("threads(), spans() and symbolize() read the input again: not "
			       "from stdin");
		return NULL;
	}
	if (s->busy & 4) {
		tkpy_raise_msg("the source is in use by another thread");
		return NULL;
	}
	struct tkpy_whole *w = calloc(1, sizeof *w);
	if (!w) {
		PyErr_NoMemory();
		return NULL;
	}
	tk_error err;
	tk_error_clear(&err);
	tk_status st;
	s->busy |= 4; /* bit 2: a whole-input pass runs (it reads its own source) */
	Py_BEGIN_ALLOW_THREADS st = whole_pass(s->path, s, w, &err);
	Py_END_ALLOW_THREADS s->busy &= ~4;
	if (st != TK_OK) {
		tk_context_free(w->ctx);
		free(w->spans);
		free(w);
		tkpy_raise(&err, s->path);
		return NULL;
	}
	s->whole = w;
	return w;
}

PyObject *tkpy_source_threads(tkpy_source *s, PyObject *unused)
{
	(void)unused;
	struct tkpy_whole *w = whole_of(s);
	if (!w)
		return NULL;
	size_t n = tk_context_n_threads(w->ctx);
	PyObject *list = PyList_New(0);
	for (size_t i = 0; list && i < n; i++) {
		tk_ctx_thread t;
		if (!tk_context_thread_at(w->ctx, i, &t))
			continue;
		const char *pname =
		    t.pid != TK_PID_NONE ? tk_context_process_name(w->ctx, t.pid) : "";
		PyObject *pid = t.pid != TK_PID_NONE ? PyLong_FromLong(t.pid) : Py_NewRef(Py_None);
		PyObject *d =
		    pid ? Py_BuildValue("{s:i,s:O,s:s#,s:s,s:K,s:K,s:O}", "tid", (int)t.tid, "pid",
					pid, "name", t.comm, (Py_ssize_t)t.comm_len, "process",
					pname ? pname : "", "first_ns",
					(unsigned long long)t.first_ns, "last_ns",
					(unsigned long long)t.last_ns, "exited",
					t.exited ? Py_True : Py_False)
			: NULL;
		Py_XDECREF(pid);
		if (!d || PyList_Append(list, d) < 0)
			Py_CLEAR(list);
		Py_XDECREF(d);
	}
	return list;
}

static const char *const kind_names[] = {"running", "runnable", "syscall", "call", "state"};

PyObject *tkpy_source_spans(tkpy_source *s, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"kind", NULL};
	const char *kind = "sched";
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|s:spans", kwlist, &kind))
		return NULL;
	unsigned want = 0;
	if (strcmp(kind, "sched") == 0)
		want = 1u << TK_SPAN_RUNNING | 1u << TK_SPAN_RUNNABLE;
	else if (strcmp(kind, "all") == 0)
		want = ~0u;
	else
		for (unsigned k = 0; k < sizeof kind_names / sizeof kind_names[0]; k++)
			if (strcmp(kind, kind_names[k]) == 0)
				want = 1u << k;
	if (!want) {
		PyErr_Format(PyExc_ValueError,
			     "unknown span kind '%s' (sched, running, runnable, syscall, call, "
			     "state, all)",
			     kind);
		return NULL;
	}
	struct tkpy_whole *w = whole_of(s);
	if (!w)
		return NULL;
	PyObject *list = PyList_New(0);
	for (size_t i = 0; list && i < w->n_spans; i++) {
		const tk_span *sp = &w->spans[i];
		if (!(want & (1u << sp->kind)))
			continue;
		PyObject *cpu =
		    sp->cpu != TK_CPU_NONE ? PyLong_FromLong(sp->cpu) : Py_NewRef(Py_None);
		PyObject *pid =
		    sp->pid != TK_PID_NONE ? PyLong_FromLong(sp->pid) : Py_NewRef(Py_None);
		PyObject *tid =
		    sp->tid != TK_PID_NONE ? PyLong_FromLong(sp->tid) : Py_NewRef(Py_None);
		PyObject *t =
		    cpu && pid && tid
			? Py_BuildValue("(ssKKOOOLIO)", kind_names[sp->kind],
					sp->name ? sp->name : "", (unsigned long long)sp->begin_ns,
					(unsigned long long)sp->end_ns, cpu, pid, tid,
					(long long)sp->track, (unsigned)sp->depth,
					sp->truncated ? Py_True : Py_False)
			: NULL;
		Py_XDECREF(cpu);
		Py_XDECREF(pid);
		Py_XDECREF(tid);
		if (!t || PyList_Append(list, t) < 0)
			Py_CLEAR(list);
		Py_XDECREF(t);
	}
	return list;
}

PyObject *tkpy_source_symbolize(tkpy_source *s, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"ips", "pid", "tid", "kernel", NULL};
	PyObject *ips;
	int pid = -1, tid = -1;
	PyObject *kernel = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|iO:symbolize", kwlist, &ips, &pid, &tid,
					 &kernel))
		return NULL;
	unsigned cpumode = 0; /* guess from the address */
	if (kernel != Py_None) {
		int k = PyObject_IsTrue(kernel);
		if (k < 0)
			return NULL;
		cpumode = k ? 1 : 2;
	}
	PyObject *seq = PySequence_Fast(ips, "ips must be a sequence of addresses");
	if (!seq)
		return NULL;
	struct tkpy_whole *w = whole_of(s);
	if (!w) {
		Py_DECREF(seq);
		return NULL;
	}
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	PyObject *list = PyList_New(n);
	for (Py_ssize_t i = 0; list && i < n; i++) {
		unsigned long long ip =
		    PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
		if (PyErr_Occurred()) {
			Py_CLEAR(list);
			break;
		}
		tk_frame f;
		memset(&f, 0, sizeof f);
		f.ip = ip;
		PyObject *t;
		if (tk_context_symbolize(w->ctx, pid, tid >= 0 ? tid : pid, cpumode, ip, &f)) {
			f.ip = ip;
			t = frame_tuple(&f);
		} else {
			t = Py_BuildValue("(KOKO)", ip, Py_None, 0ULL, Py_None);
		}
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, i, t);
	}
	Py_DECREF(seq);
	return list;
}
