/* Writing symbol cache files off the main thread; see symcache_writer.h. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symcache_file.h"
#include "symbols/symcache_writer.h"

typedef struct job {
	struct job *next;
	void *buf;
	size_t len; /* bytes counted in queued_bytes */
	/* a lazy job (tk_symwriter_put_lazy): buf is made by make(arg) in
	 * the thread; make NULL: buf is the file */
	tk_symwriter_make_fn make;
	void *arg;
	char path[]; /* NUL-terminated */
} job;

struct tk_symwriter {
	pthread_mutex_t mu;
	pthread_cond_t wake; /* a job queued, or closing */
	pthread_cond_t done; /* a job finished */
	job *head, *tail;
	size_t queued_bytes;
	bool busy; /* the thread holds a job it took off the queue */
	const char *busy_path;
	bool closing;
	bool started, start_failed, sync; /* sync: no thread, ever */
	pthread_t thread;
	atomic_uint_fast64_t written;
	atomic_bool failed;
};

typedef struct bytes {
	const void *buf;
	size_t len;
} bytes;

static bool fill_bytes(int fd, void *arg)
{
	const bytes *b = arg;
	return tk_symfile_pwrite(fd, b->buf, b->len, 0);
}

int tk_symfile_write_atomic(const char *path, const void *buf, size_t len)
{
	bytes b = {buf, len};
	return tk_symfile_write_atomic_with(path, fill_bytes, &b);
}

int tk_symfile_write_atomic_with(const char *path, bool (*fill)(int fd, void *arg), void *arg)
{
	char tmp[4096 + 32];
	/* a unique temporary name beside the target: concurrent writers never
	 * share one, and rename() replaces the target whole */
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path) >= sizeof tmp)
		return -1;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	bool ok = fill(fd, arg);
	ok = close(fd) == 0 && ok;
	if (ok && rename(tmp, path) == 0)
		return 1;
	unlink(tmp);
	return 0;
}

static void write_bytes(tk_symwriter *w, const char *path, const void *buf, size_t len)
{
	int r = tk_symfile_write_atomic(path, buf, len);
	if (r > 0)
		atomic_fetch_add(&w->written, 1);
	else if (r < 0)
		atomic_store(&w->failed, true);
}

static void write_job(tk_symwriter *w, job *j)
{
	if (!j->make) {
		write_bytes(w, j->path, j->buf, j->len);
		return;
	}
	size_t len = 0;
	j->buf = j->make(j->arg, &len); /* frees arg */
	if (j->buf)
		write_bytes(w, j->path, j->buf, len);
}

static void *writer_main(void *arg)
{
	tk_symwriter *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->head && !w->closing)
			pthread_cond_wait(&w->wake, &w->mu);
		job *j = w->head;
		if (!j)
			break; /* closing, nothing left */
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		w->busy = true;
		w->busy_path = j->path;
		pthread_mutex_unlock(&w->mu);
		write_job(w, j);
		pthread_mutex_lock(&w->mu);
		w->busy = false;
		w->busy_path = NULL;
		w->queued_bytes -= j->len;
		free(j->buf);
		free(j);
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

tk_symwriter *tk_symwriter_new(void)
{
	tk_symwriter *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	atomic_init(&w->written, 0);
	atomic_init(&w->failed, false);
	const char *env = getenv("TRACEKIT_THREADS");
	w->sync = env && strcmp(env, "0") == 0;
	return w;
}

/* Starts the thread on first use, with every signal blocked (they go to
 * the caller's threads, as without it). false: write synchronously. */
static bool start(tk_symwriter *w)
{
	if (w->started)
		return true;
	if (w->sync || w->start_failed)
		return false;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->started = pthread_create(&w->thread, NULL, writer_main, w) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	w->start_failed = !w->started;
	return w->started;
}

/* Queues j (len bytes counted); the caller made it. */
static void enqueue(tk_symwriter *w, job *j, size_t len)
{
	pthread_mutex_lock(&w->mu);
	/* bounded: wait while the queue holds too much (never for the first) */
	while (w->queued_bytes && w->queued_bytes + len > TK_SYMWRITER_MAX_QUEUED)
		pthread_cond_wait(&w->done, &w->mu);
	if (w->tail)
		w->tail->next = j;
	else
		w->head = j;
	w->tail = j;
	w->queued_bytes += len;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->mu);
}

static job *new_job(tk_symwriter *w, const char *path)
{
	size_t plen = strlen(path);
	job *j = start(w) ? malloc(sizeof *j + plen + 1) : NULL;
	if (j) {
		memset(j, 0, sizeof *j);
		memcpy(j->path, path, plen + 1);
	}
	return j;
}

void tk_symwriter_put(tk_symwriter *w, const char *path, void *buf, size_t len)
{
	job *j = new_job(w, path);
	if (!j) {
		/* no thread (or no memory for the job): write it here */
		write_bytes(w, path, buf, len);
		free(buf);
		return;
	}
	j->buf = buf;
	j->len = len;
	enqueue(w, j, len);
}

void tk_symwriter_put_lazy(tk_symwriter *w, const char *path, tk_symwriter_make_fn make, void *arg,
			   size_t len)
{
	job *j = new_job(w, path);
	if (!j) {
		size_t n = 0;
		void *buf = make(arg, &n);
		if (buf)
			write_bytes(w, path, buf, n);
		free(buf);
		return;
	}
	j->make = make;
	j->arg = arg;
	j->len = len;
	enqueue(w, j, len);
}

void tk_symwriter_drain(tk_symwriter *w)
{
	if (!w || !w->started)
		return;
	pthread_mutex_lock(&w->mu);
	while (w->head || w->busy)
		pthread_cond_wait(&w->done, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

bool tk_symwriter_pending(tk_symwriter *w, const char *path)
{
	if (!w || !w->started)
		return false;
	bool found = false;
	pthread_mutex_lock(&w->mu);
	if (w->busy && strcmp(w->busy_path, path) == 0)
		found = true;
	for (const job *j = w->head; j && !found; j = j->next)
		found = strcmp(j->path, path) == 0;
	pthread_mutex_unlock(&w->mu);
	return found;
}

uint64_t tk_symwriter_written(tk_symwriter *w)
{
	return w ? (uint64_t)atomic_load(&w->written) : 0;
}

bool tk_symwriter_failed(tk_symwriter *w)
{
	return w && atomic_load(&w->failed);
}

void tk_symwriter_free(tk_symwriter *w)
{
	if (!w)
		return;
	if (w->started) {
		pthread_mutex_lock(&w->mu);
		w->closing = true;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->done);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
