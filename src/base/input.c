/* Input medium: mmap for regular files, a bounded buffer for pipes. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/input.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels say EINVAL */
#endif
/* populate-ahead: steps, how far in front of the reader (resident memory
 * stays bounded), and the smallest mapping worth a thread */
#define POP_CHUNK    ((uint64_t)1 << 20)
#define POP_AHEAD    ((uint64_t)8 << 20)
#define POP_MIN_SIZE ((uint64_t)8 << 20)

struct tk_input {
	const uint8_t *data; /* mapped or memory input */
	uint64_t size;
	bool mapped;
	bool stream;
	int fd;
	bool own_fd;
	bool eof;
	/* stream window: buf[buf_lo] holds the byte at file offset buf_off,
	 * and buf_len bytes from there are valid */
	uint8_t *buf;
	size_t buf_lo;
	size_t buf_len;
	size_t buf_cap;
	uint64_t buf_off;
	uint64_t released_to; /* mapped: pages below this were dropped */
	/* populate-ahead helper (tk_input_populate_ahead) */
	pthread_t pop_thread;
	bool pop_started;
	pthread_mutex_t pop_mu;
	pthread_cond_t pop_cond;
	bool pop_stop;       /* under pop_mu */
	uint64_t pop_reader; /* written by the reader under pop_mu */
	char name[256];
};

static tk_input *input_new(const char *name)
{
	tk_input *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	in->fd = -1;
	size_t n = strlen(name);
	if (n >= sizeof in->name)
		n = sizeof in->name - 1;
	memcpy(in->name, name, n);
	return in;
}

static tk_status open_stream(tk_input *in, int fd, bool own, tk_error *err)
{
	in->stream = true;
	in->fd = fd;
	in->own_fd = own;
	in->size = UINT64_MAX;
	in->buf_cap = 1 << 20;
	in->buf = malloc(in->buf_cap);
	if (!in->buf)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "cannot allocate input buffer");
	return TK_OK;
}

tk_status tk_input_open(const char *path, tk_input **out, tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	tk_input *in = input_new(path);
	if (!in)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = TK_OK;
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open: %s", strerror(errno));
		goto out;
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0) {
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot stat: %s", strerror(errno));
		if (fd != STDIN_FILENO)
			close(fd);
		goto out;
	}
	if (S_ISDIR(sb.st_mode)) {
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "is a directory");
		close(fd);
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		st = open_stream(in, fd, fd != STDIN_FILENO, err);
		goto out;
	}
	in->size = (uint64_t)sb.st_size;
	in->fd = fd;
	in->own_fd = fd != STDIN_FILENO;
	if (in->size == 0) {
		in->data = (const uint8_t *)"";
		goto out;
	}
	void *map = mmap(NULL, (size_t)in->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot map: %s", strerror(errno));
		goto out;
	}
	/* Read-ahead of the whole file. (This was MADV_SEQUENTIAL |
	 * MADV_WILLNEED, which is MADV_WILLNEED: advice values are not flags.
	 * SEQUENTIAL is not wanted: reclaim would drop the pages a second
	 * read of the file wants.) */
	madvise(map, (size_t)in->size, MADV_WILLNEED);
	in->data = map;
	in->mapped = true;
	/* The mapping outlives the descriptor: a CTF trace of thousands of
	 * stream files must not need a descriptor per file. */
	if (in->own_fd) {
		close(fd);
		in->fd = -1;
	}
out:
	if (st != TK_OK) {
		tk_input_close(in);
		return st;
	}
	*out = in;
	return TK_OK;
}

tk_status tk_input_open_memory(const void *data, size_t size, const char *name, tk_input **out,
			       tk_error *err)
{
	tk_error_set_file(err, name);
	*out = input_new(name);
	if (!*out)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	(*out)->data = size ? data : (const uint8_t *)"";
	(*out)->size = size;
	return TK_OK;
}

tk_status tk_input_open_fd_stream(int fd, const char *name, tk_input **out, tk_error *err)
{
	tk_error_set_file(err, name);
	tk_input *in = input_new(name);
	if (!in)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = open_stream(in, fd, false, err);
	if (st != TK_OK) {
		tk_input_close(in);
		return st;
	}
	*out = in;
	return TK_OK;
}

void tk_input_close(tk_input *in)
{
	if (!in)
		return;
	if (in->pop_started) {
		pthread_mutex_lock(&in->pop_mu);
		in->pop_stop = true;
		pthread_cond_signal(&in->pop_cond);
		pthread_mutex_unlock(&in->pop_mu);
		pthread_join(in->pop_thread, NULL);
		pthread_mutex_destroy(&in->pop_mu);
		pthread_cond_destroy(&in->pop_cond);
	}
	if (in->mapped)
		munmap((void *)in->data, (size_t)in->size);
	if (in->own_fd && in->fd >= 0)
		close(in->fd);
	free(in->buf);
	free(in);
}

const char *tk_input_name(const tk_input *in)
{
	return in->name;
}
bool tk_input_is_stream(const tk_input *in)
{
	return in->stream;
}
uint64_t tk_input_size(const tk_input *in)
{
	return in->size;
}
const uint8_t *tk_input_data(const tk_input *in)
{
	return in->stream ? NULL : in->data;
}

/* Reads more bytes after the window; returns bytes read, 0 at EOF, -1 on error. */
static ssize_t fill(tk_input *in)
{
	if (in->eof)
		return 0;
	size_t end = in->buf_lo + in->buf_len;
	for (;;) {
		ssize_t n = read(in->fd, in->buf + end, in->buf_cap - end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			in->eof = true;
		if (n > 0)
			in->buf_len += (size_t)n;
		return n;
	}
}

/* Makes room for len bytes from buf_lo: moves the window to the front only
 * when it does not fit where it is (so small fetches cost no copying), and
 * grows the buffer only for a range larger than it. */
static tk_status make_room(tk_input *in, size_t len, uint64_t off, tk_error *err)
{
	if (in->buf_lo + len <= in->buf_cap && in->buf_lo + in->buf_len < in->buf_cap)
		return TK_OK;
	memmove(in->buf, in->buf + in->buf_lo, in->buf_len);
	in->buf_lo = 0;
	if (len <= in->buf_cap)
		return TK_OK;
	size_t cap = in->buf_cap;
	while (cap < len)
		cap *= 2;
	uint8_t *nb = realloc(in->buf, cap);
	if (!nb)
		return tk_error_set(err, TK_ERR_NOMEM, off, "cannot grow input buffer to %zu", cap);
	in->buf = nb;
	in->buf_cap = cap;
	return TK_OK;
}

static tk_status stream_fetch(tk_input *in, uint64_t off, size_t len, const uint8_t **p,
			      tk_error *err)
{
	if (off < in->buf_off)
		return tk_error_set(err, TK_ERR_USAGE, off,
				    "stream input cannot go back to offset 0x%llx",
				    (unsigned long long)off);
	if (len > TK_INPUT_MAX_FETCH)
		return tk_error_set(err, TK_ERR_LIMIT, off, "range of %zu bytes is too large", len);
	/* Drop what lies before off; when off is past the window, read through. */
	for (;;) {
		uint64_t end = in->buf_off + in->buf_len;
		if (off <= end) {
			size_t drop = (size_t)(off - in->buf_off);
			in->buf_lo += drop;
			in->buf_len -= drop;
			in->buf_off = off;
			break;
		}
		in->buf_off = end;
		in->buf_lo = 0;
		in->buf_len = 0;
		ssize_t n = fill(in);
		if (n < 0)
			return tk_error_set(err, TK_ERR_IO, in->buf_off, "read failed: %s",
					    strerror(errno));
		if (n == 0)
			return tk_error_set(err, TK_ERR_TRUNCATED, in->buf_off,
					    "input ends before offset 0x%llx",
					    (unsigned long long)off);
	}
	while (in->buf_len < len) {
		tk_status st = make_room(in, len, off, err);
		if (st != TK_OK)
			return st;
		ssize_t n = fill(in);
		if (n < 0)
			return tk_error_set(err, TK_ERR_IO, in->buf_off + in->buf_len,
					    "read failed: %s", strerror(errno));
		if (n == 0) {
			if (in->buf_len == 0 && len > 0)
				return TK_END;
			return tk_error_set(err, TK_ERR_TRUNCATED, in->buf_off,
					    "need %zu bytes, input ends after %zu", len,
					    in->buf_len);
		}
	}
	*p = in->buf + in->buf_lo;
	return TK_OK;
}

tk_status tk_input_fetch(tk_input *in, uint64_t off, size_t len, const uint8_t **p, tk_error *err)
{
	if (in->stream)
		return stream_fetch(in, off, len, p, err);
	if (off == in->size && len > 0)
		return TK_END;
	if (!tk_range_ok(off, len, in->size))
		return tk_error_set(err, TK_ERR_TRUNCATED, off,
				    "need %zu bytes, file has %llu after this offset", len,
				    (unsigned long long)(off < in->size ? in->size - off : 0));
	*p = in->data + off;
	return TK_OK;
}

/* Mapped files: drop the pages more than RELEASE_LAG behind the reader, in
 * steps of RELEASE_STEP, so resident memory stays flat however large the
 * file. Safe even for bytes still referenced (e.g. records queued for time
 * ordering): the mapping is private and never written, so a later access
 * re-reads the same bytes from the page cache. Streams compact lazily in
 * the next fetch. 4 MiB behind, 4 MiB at a time: perf's ordering queue
 * holds a round or two (~100-200 KB on a -g -a recording); print's two
 * lanes each map the file, so the lag counts twice (16 + 8 MiB made a
 * 50 MB file's peak RSS 113 MB with two lanes, 81 MB now). */
#define RELEASE_LAG  ((uint64_t)4 << 20)
#define RELEASE_STEP ((uint64_t)4 << 20)

void tk_input_release(tk_input *in, uint64_t off)
{
	if (in->pop_started && off >= in->pop_reader + POP_CHUNK) { /* once per MiB */
		pthread_mutex_lock(&in->pop_mu);
		in->pop_reader = off;
		pthread_cond_signal(&in->pop_cond);
		pthread_mutex_unlock(&in->pop_mu);
	}
	if (!in->mapped || off < RELEASE_LAG + RELEASE_STEP || off > in->size)
		return;
	uint64_t to = (off - RELEASE_LAG) & ~(uint64_t)0xFFFFF; /* 1 MiB: page aligned */
	if (to < in->released_to + RELEASE_STEP)
		return;
	madvise((void *)(in->data + in->released_to), (size_t)(to - in->released_to),
		MADV_DONTNEED);
	in->released_to = to;
}

/* Populate-ahead: the helper maps the pages in front of the reader with
 * MADV_POPULATE_READ, a MiB at a time and at most POP_AHEAD past the last
 * tk_input_release offset, so a cached file's page faults (about a third
 * of stats' time on a 50 MB perf.data) run on another core while the
 * reader counts. A failing madvise (an older kernel; a file cut short
 * under us: EFAULT, where a load would raise SIGBUS) only ends the helper:
 * the reader faults the pages itself, as without it. */
static void *populate_main(void *arg)
{
	tk_input *in = arg;
	for (uint64_t off = 0; off < in->size; off += POP_CHUNK) {
		pthread_mutex_lock(&in->pop_mu);
		while (!in->pop_stop && off > in->pop_reader + POP_AHEAD)
			pthread_cond_wait(&in->pop_cond, &in->pop_mu);
		bool stop = in->pop_stop;
		pthread_mutex_unlock(&in->pop_mu);
		if (stop)
			break;
		uint64_t n = in->size - off < POP_CHUNK ? in->size - off : POP_CHUNK;
		if (madvise((void *)(in->data + off), (size_t)n, MADV_POPULATE_READ) != 0)
			break;
	}
	return NULL;
}

void tk_input_populate_ahead(tk_input *in)
{
	const char *threads = getenv("TRACEKIT_THREADS");
	if (!in->mapped || in->pop_started || in->size < POP_MIN_SIZE ||
	    (threads && strcmp(threads, "0") == 0))
		return;
	pthread_mutex_init(&in->pop_mu, NULL);
	pthread_cond_init(&in->pop_cond, NULL);
	in->pop_started = pthread_create(&in->pop_thread, NULL, populate_main, in) == 0;
	if (!in->pop_started) {
		pthread_mutex_destroy(&in->pop_mu);
		pthread_cond_destroy(&in->pop_cond);
	}
}
