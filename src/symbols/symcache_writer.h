/* Writing symbol cache files off the main thread.
 *
 * Why: a cold run creates one cache file per image (~90 on a `perf record
 * -a` file); creating, filling and renaming them is kernel work (ext4
 * inode allocation, page-cache copies) that took about a quarter of a cold
 * `print --format perf-script` run. The caller either encodes a table or
 * hands over a private copy of it to be encoded here (lazy jobs: the
 * tables are not thread-safe, see tk_symfile_snapshot); the bytes are
 * written by a writer thread, which writes them the way tk_symfile_write_atomic() does. The
 * output of a run never depends on the cache files it writes, so it is the
 * same with or without the thread.
 *
 * TRACEKIT_THREADS=0 (or a thread that cannot be started) writes each file
 * in the caller instead. tk_symwriter_free() waits for every queued file:
 * a run leaves whole files behind, as before. Memory: queued files are
 * held until written (at most a few tables at a time in practice; the
 * queue is bounded by TK_SYMWRITER_MAX_QUEUED bytes, beyond which a put
 * waits). A writer is used from one thread (its owner); the writer thread
 * is internal. */
#ifndef TK_SYMCACHE_WRITER_H
#define TK_SYMCACHE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TK_SYMWRITER_MAX_QUEUED ((size_t)64 << 20)

typedef struct tk_symwriter tk_symwriter;

/* NULL when out of memory (callers then write synchronously). */
tk_symwriter *tk_symwriter_new(void);
/* Waits for the queued files, then frees w. NULL is fine. */
void tk_symwriter_free(tk_symwriter *w);

/* Writes buf (len bytes, malloc'ed; w takes it) as file path, in the
 * background when a thread runs. */
void tk_symwriter_put(tk_symwriter *w, const char *path, void *buf, size_t len);
/* Makes a file's bytes from arg (and frees arg): malloc'ed, their count
 * in *len; NULL: nothing to write. */
typedef void *(*tk_symwriter_make_fn)(void *arg, size_t *len);
/* Like tk_symwriter_put, with the bytes made by make(arg) in the writer
 * thread (in the caller without one): encoding a table costs as much as
 * writing it. len: about the memory arg holds, for the queue's bound. */
void tk_symwriter_put_lazy(tk_symwriter *w, const char *path, tk_symwriter_make_fn make, void *arg,
			   size_t len);
/* Waits until every queued file is written. */
void tk_symwriter_drain(tk_symwriter *w);
/* path is queued and not written yet. */
bool tk_symwriter_pending(tk_symwriter *w, const char *path);
/* Files written (renamed into place) so far; a write that failed to make
 * its temporary file sets failed (the directory cannot be written). */
uint64_t tk_symwriter_written(tk_symwriter *w);
bool tk_symwriter_failed(tk_symwriter *w);

/* path written whole or not at all: a unique temporary file beside it,
 * renamed into place. 1 written, 0 failed, -1 the temporary could not be
 * made. */
int tk_symfile_write_atomic(const char *path, const void *buf, size_t len);
/* The same with the bytes written by fill(fd, arg) into the temporary
 * file (false: they could not all be written). */
int tk_symfile_write_atomic_with(const char *path, bool (*fill)(int fd, void *arg), void *arg);

#endif
