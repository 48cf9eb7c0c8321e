/* The column buffers of columns(): writable memory numpy wraps without a
 * copy (numpy.frombuffer keeps the buffer object alive while an array
 * uses it).
 *
 * Why not bytes objects: a batch of 1 M rows is 4-8 MB per column, and
 * fresh memory costs a page fault and a cleared page per 4 KiB on first
 * write plus an munmap when freed: a third of columns()' time on a
 * header-only read. Buffers of 2 MiB and more are mapped aligned with
 * transparent huge pages asked for (MADV_HUGEPAGE: one fault per 2 MiB),
 * and a freed one waits in a small pool for the next batch, its pages
 * already in place. The pool is touched only with the GIL held. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "tkpy.h"

#define HUGE_SIZE  ((size_t)2 << 20)
#define POOL_SLOTS 8
#define POOL_BYTES ((size_t)64 << 20)

typedef struct tkpy_buffer {
	PyObject_HEAD char *data;
	size_t len, cap;
	bool mapped; /* mmap'd (pool-able), else PyMem */
} tkpy_buffer;

static struct {
	char *data;
	size_t cap;
} pool[POOL_SLOTS];
static size_t n_pool, pool_bytes;

/* An anonymous mapping of cap bytes (a multiple of 2 MiB) starting on a
 * 2 MiB boundary, so that all of it can be huge pages. */
static char *map_aligned(size_t cap)
{
	size_t over = cap + HUGE_SIZE;
	char *p = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1);
	size_t head = a - (uintptr_t)p;
	if (head)
		munmap(p, head);
	if (over - head > cap)
		munmap((char *)a + cap, over - head - cap);
#ifdef MADV_HUGEPAGE
	madvise((void *)a, cap, MADV_HUGEPAGE); /* advice: fine if refused */
#endif
	return (char *)a;
}

PyObject *tkpy_buffer_new(size_t cap, char **data)
{
	tkpy_buffer *b = PyObject_New(tkpy_buffer, &tkpy_buffer_type);
	if (!b)
		return NULL;
	b->len = 0;
	b->mapped = cap >= HUGE_SIZE;
	if (!b->mapped) {
		b->cap = cap;
		b->data = PyMem_Malloc(cap ? cap : 1);
	} else {
		b->cap = (cap + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
		b->data = NULL;
		/* the smallest pooled buffer that fits and wastes at most half */
		size_t best = n_pool;
		for (size_t i = 0; i < n_pool; i++)
			if (pool[i].cap >= b->cap && pool[i].cap <= 2 * b->cap &&
			    (best == n_pool || pool[i].cap < pool[best].cap))
				best = i;
		if (best < n_pool) {
			b->data = pool[best].data;
			b->cap = pool[best].cap;
			pool_bytes -= pool[best].cap;
			pool[best] = pool[--n_pool];
		} else {
			b->data = map_aligned(b->cap);
		}
	}
	if (!b->data) {
		b->mapped = false;
		Py_DECREF(b);
		return PyErr_NoMemory();
	}
	*data = b->data;
	return (PyObject *)b;
}

void tkpy_buffer_set_len(PyObject *buf, size_t len)
{
	tkpy_buffer *b = (tkpy_buffer *)buf;
	b->len = len <= b->cap ? len : b->cap;
}

static void buffer_dealloc(tkpy_buffer *b)
{
	if (b->data && b->mapped) {
		if (n_pool < POOL_SLOTS && pool_bytes + b->cap <= POOL_BYTES) {
			pool[n_pool].data = b->data;
			pool[n_pool++].cap = b->cap;
			pool_bytes += b->cap;
		} else {
			munmap(b->data, b->cap);
		}
	} else if (b->data) {
		PyMem_Free(b->data);
	}
	Py_TYPE(b)->tp_free((PyObject *)b);
}

static int buffer_get(tkpy_buffer *b, Py_buffer *view, int flags)
{
	return PyBuffer_FillInfo(view, (PyObject *)b, b->data, (Py_ssize_t)b->len, 0, flags);
}

static Py_ssize_t buffer_length(tkpy_buffer *b)
{
	return (Py_ssize_t)b->len;
}

static PyBufferProcs buffer_procs = {
    .bf_getbuffer = (getbufferproc)buffer_get,
};

static PySequenceMethods buffer_seq = {
    .sq_length = (lenfunc)buffer_length,
};

PyTypeObject tkpy_buffer_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracekit._tracekit.ColumnBuffer",
    .tp_basicsize = sizeof(tkpy_buffer),
    .tp_dealloc = (destructor)buffer_dealloc,
    .tp_as_buffer = &buffer_procs,
    .tp_as_sequence = &buffer_seq,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Memory of one column of a columns() batch (wrap it with numpy.frombuffer).",
};
