/* Two lanes over one input (a perf.data file, a CTF trace): the chunk
 * sequencer; see print_lanes.h. */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/print_lanes.h"

/* 512 samples a chunk: about 350 KB of -g text, which stays in a core's
 * L2 between the formatting and the write, and a thousand chunks on a
 * 50 MB file. */
#define DEFAULT_CHUNK_BITS 9
/* Below this, a second reader's start costs more than it saves. */
#define MIN_FILE_BYTES ((off_t)4 << 20)
/* Late lanes: lane 1 joins only when this much of the input is left,
 * once it has read up to this many chunks before lane 0's. */
#define JOIN_MIN_REST ((uint64_t)16 << 20)
#define JOIN_CLOSE    3
/* Distinct warnings remembered (more are logged as they come). */
#define MAX_SEEN 64
/* Chunks not yet written lie in [turn, turn + 2 * TK_LANES_BUFFERS + 1]. */
#define N_SLOTS (4 * TK_LANES_BUFFERS)

typedef struct slot {
	uint64_t chunk;
	tk_writer *buf; /* NULL: free */
	bool ready;
} slot;

struct tk_lanes {
	pthread_mutex_t lock;
	/* held while out is written and while the caller's log runs: a log
	 * function may flush the output first (the CLI's does) */
	pthread_mutex_t out_lock;
	pthread_cond_t changed;
	tk_writer *out;
	uint64_t turn; /* the next chunk to write */
	uint64_t stop; /* chunks past this are dropped; UINT64_MAX: none */
	bool writing;  /* a lane is writing chunks out (without the lock) */
	slot slots[N_SLOTS];
	tk_writer *free[2][TK_LANES_BUFFERS];
	size_t n_free[2];
	tk_writer *all[2 * TK_LANES_BUFFERS];
	tk_log_fn log;
	void *log_user;
	uint64_t seen[MAX_SEEN];
	size_t n_seen;
	int verdict; /* tk_lanes_agree: 0 not yet, else a tk_lanes_mode + 1 */
	/* TK_LANES_LATE: lane 0 writes out alone (solo) until lane 1 joins
	 * at chunk join (UINT64_MAX: not yet), with lane 0's kernel table
	 * (lane 0 keeps it until lane 1 is done). Lane 1, invited, reads up
	 * to lane 0's chunk (lane0_chunk) and sets the join just after it. */
	bool solo, invited, lane0_done, lane1_done;
	uint64_t invited_at; /* lane 0's samples when it let lane 1 in (-v) */
	uint64_t join, lane0_chunk;
	const struct tk_symtab *kernel;
	uint64_t file_size; /* the input's (for the join's gain) */
	long hook;          /* TRACEKIT_LANE_JOIN, -1: not set */
	unsigned made;      /* what tk_lanes_new initialized: 1 lock, 2 out_lock, 4 changed */
};

static long env_long(const char *name, long fallback)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return fallback;
	char *end;
	long n = strtol(v, &end, 10);
	return *end ? fallback : n;
}

unsigned tk_lanes_chunk_bits(void)
{
	long bits = env_long("TRACEKIT_LANE_CHUNK", DEFAULT_CHUNK_BITS);
	return bits >= 0 && bits <= 24 ? (unsigned)bits : DEFAULT_CHUNK_BITS;
}

/* What the regular files below dir hold, up to cap: a CTF trace's
 * streams, or a folder of traces' (the metadata is left out: each lane
 * parses it whole, the events are what the lanes share); depth bounds
 * the walk (LTTng puts a trace 4 levels down: ust/uid/1000/64-bit). */
static uint64_t dir_bytes(const char *dir, unsigned depth, uint64_t cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	uint64_t sum = 0;
	struct dirent *e;
	char path[PATH_MAX];
	while (sum < cap && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "metadata") == 0)
			continue;
		struct stat st;
		int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof path || lstat(path, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode))
			sum += (uint64_t)st.st_size;
		else if (S_ISDIR(st.st_mode) && depth > 0)
			sum += dir_bytes(path, depth - 1, cap - sum);
	}
	closedir(d);
	return sum;
}

/* The input's size, when two lanes are wanted; 0 otherwise. */
static off_t wanted_size(const char *path, const tk_writer *out)
{
	long lanes = env_long("TRACEKIT_LANES", 0);
	if (lanes == 1 || !path || !out || out->fd < 0 || strcmp(path, "-") == 0)
		return false;
	/* the tests' hook for deferred kernel frames needs the one-lane path;
	 * TRACEKIT_THREADS=0 means no thread at all */
	const char *defer = getenv("TRACEKIT_KERNEL_DEFER");
	const char *threads = getenv("TRACEKIT_THREADS");
	if ((defer && strcmp(defer, "always") == 0) || (threads && strcmp(threads, "0") == 0))
		return false;
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	off_t size;
	if (S_ISREG(st.st_mode))
		size = st.st_size;
	else if (S_ISDIR(st.st_mode))
		size = (off_t)dir_bytes(path, 6, (uint64_t)1 << 40);
	else
		return false;
	return lanes == 2 || size >= MIN_FILE_BYTES ? size + !size : 0;
}

bool tk_lanes_forced(void)
{
	return env_long("TRACEKIT_LANES", 0) == 2;
}

bool tk_lanes_wanted(const char *path, const tk_writer *out)
{
	return wanted_size(path, out) > 0;
}

/* TRACEKIT_LANE_JOIN=k (tests): late lanes even on a warm cache, lane 1
 * joining at the first sample of chunk k or after; -1: not set. */
static long join_hook(void)
{
	return env_long("TRACEKIT_LANE_JOIN", -1);
}

/* Frees what tk_lanes_new made, however far it got. */
static void destroy(tk_lanes *l)
{
	for (size_t i = 0; i < 2 * TK_LANES_BUFFERS; i++)
		tk_writer_abort(l->all[i]);
	if (l->made & 4)
		pthread_cond_destroy(&l->changed);
	if (l->made & 2)
		pthread_mutex_destroy(&l->out_lock);
	if (l->made & 1)
		pthread_mutex_destroy(&l->lock);
	free(l);
}

tk_lanes *tk_lanes_new(tk_writer *out, tk_log_fn log, void *log_user)
{
	tk_lanes *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	for (size_t i = 0; i < 2 * TK_LANES_BUFFERS; i++) {
		if (tk_writer_open_memory(&l->all[i], NULL) != TK_OK)
			goto fail;
		l->free[i & 1][l->n_free[i & 1]++] = l->all[i];
	}
	if (pthread_mutex_init(&l->lock, NULL) != 0)
		goto fail;
	l->made |= 1;
	if (pthread_mutex_init(&l->out_lock, NULL) != 0)
		goto fail;
	l->made |= 2;
	if (pthread_cond_init(&l->changed, NULL) != 0)
		goto fail;
	l->made |= 4;
	l->out = out;
	l->stop = UINT64_MAX;
	l->join = UINT64_MAX;
	l->hook = join_hook();
	l->log = log;
	l->log_user = log_user;
	return l;
fail:
	destroy(l);
	return NULL;
}

/* Writes the chunks that are ready, in order, unless a lane is at it
 * already (that lane writes them: it looks again before it stops). Called
 * with the lock held; returns with it held. */
static void write_ready(tk_lanes *l)
{
	if (l->writing || l->solo)
		return;
	l->writing = true;
	for (;;) {
		slot *s = &l->slots[l->turn % N_SLOTS];
		if (l->turn > l->stop || !s->buf || s->chunk != l->turn || !s->ready)
			break;
		tk_writer *b = s->buf;
		pthread_mutex_unlock(&l->lock);
		pthread_mutex_lock(&l->out_lock);
		tk_put_mem_direct(l->out, b->buf, b->pos);
		bool failed = l->out->error != 0;
		pthread_mutex_unlock(&l->out_lock);
		pthread_mutex_lock(&l->lock);
		/* a write failed (the reader left: `| head`): the lanes stop
		 * here; the caller reports it as it commits the output */
		if (failed && l->turn < l->stop) {
			l->stop = l->turn;
			pthread_cond_broadcast(&l->changed);
		}
		b->pos = 0;
		s->buf = NULL;
		l->free[l->turn & 1][l->n_free[l->turn & 1]++] = b;
		l->turn++;
		pthread_cond_broadcast(&l->changed);
	}
	l->writing = false;
}

void tk_lanes_free(tk_lanes *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	write_ready(l);
	pthread_mutex_unlock(&l->lock);
	destroy(l);
}

void tk_lanes_log(void *user, int level, const char *msg)
{
	tk_lanes *l = user;
	if (!l->log)
		return;
	pthread_mutex_lock(&l->out_lock);
	l->log(l->log_user, level, msg);
	pthread_mutex_unlock(&l->out_lock);
}

void tk_lanes_log_once(void *user, int level, const char *msg)
{
	tk_lanes *l = user;
	if (!l->log)
		return;
	/* a warning one run gives once (its first sample of a kind) each
	 * lane gives once */
	uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)level;
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	pthread_mutex_lock(&l->lock);
	bool dup = false;
	for (size_t i = 0; i < l->n_seen && !dup; i++)
		dup = l->seen[i] == h;
	if (!dup && l->n_seen < MAX_SEEN)
		l->seen[l->n_seen++] = h;
	pthread_mutex_unlock(&l->lock);
	if (!dup)
		tk_lanes_log(l, level, msg);
}

tk_writer *tk_lanes_take(tk_lanes *l, uint64_t chunk)
{
	unsigned lane = (unsigned)(chunk & 1);
	tk_writer *b = NULL;
	pthread_mutex_lock(&l->lock);
	/* the chunk before this lane's oldest unwritten one is the other
	 * lane's, which it is formatting: it will be written, a buffer freed */
	while (chunk <= l->stop && !l->n_free[lane])
		pthread_cond_wait(&l->changed, &l->lock);
	if (chunk <= l->stop) {
		b = l->free[lane][--l->n_free[lane]];
		l->slots[chunk % N_SLOTS] = (slot){.chunk = chunk, .buf = b};
	}
	pthread_mutex_unlock(&l->lock);
	return b;
}

void tk_lanes_publish(tk_lanes *l, uint64_t chunk)
{
	pthread_mutex_lock(&l->lock);
	slot *s = &l->slots[chunk % N_SLOTS];
	if (s->buf && s->chunk == chunk)
		s->ready = true;
	write_ready(l);
	pthread_mutex_unlock(&l->lock);
}

void tk_lanes_stop(tk_lanes *l, uint64_t chunk)
{
	pthread_mutex_lock(&l->lock);
	if (chunk < l->stop)
		l->stop = chunk;
	pthread_cond_broadcast(&l->changed);
	pthread_mutex_unlock(&l->lock);
}

/* ---- a lane's side ---- */

bool tk_lane_cursor_init(tk_lane_cursor *c, tk_lanes *lanes, unsigned lane)
{
	*c = (tk_lane_cursor){
	    .lanes = lanes,
	    .lane = lane,
	    .bits = tk_lanes_chunk_bits(),
	    .chunk = UINT64_MAX,
	    .open = UINT64_MAX,
	};
	if (lanes) {
		pthread_mutex_lock(&lanes->lock);
		c->join = lanes->verdict == TK_LANES_LATE + 1 ? UINT64_MAX : 0;
		pthread_mutex_unlock(&lanes->lock);
	}
	return !lanes || tk_writer_open_memory(&c->sink, NULL) == TK_OK;
}

void tk_lane_cursor_free(tk_lane_cursor *c)
{
	tk_writer_abort(c->sink);
	c->sink = NULL;
}

/* Late lanes, a lane entering chunk before the join: lane 0 says where
 * it is; lane 1, close enough behind it, sets the join just after it
 * (lane 0 reads the join as it enters its next chunk: it has not printed
 * that one). c->join: the join as now known. false: lane 1 should stop
 * (the output ends before it joined). */
static bool late_step(tk_lane_cursor *c, uint64_t chunk)
{
	tk_lanes *l = c->lanes;
	pthread_mutex_lock(&l->lock);
	bool go = true;
	if (c->lane == 0) {
		l->lane0_chunk = chunk;
	} else if (l->stop != UINT64_MAX && (l->join == UINT64_MAX || chunk > l->stop)) {
		go = false;
	} else if (l->join == UINT64_MAX && chunk + JOIN_CLOSE >= l->lane0_chunk) {
		l->join = (chunk > l->lane0_chunk ? chunk : l->lane0_chunk) + 1;
		l->turn = l->join; /* the first chunk the lanes write */
	}
	c->join = l->join;
	pthread_mutex_unlock(&l->lock);
	return go;
}

/* Lane 0 leaves the output's writer to the lanes. */
static void end_solo(tk_lanes *l)
{
	pthread_mutex_lock(&l->lock);
	if (l->solo) {
		l->solo = false;
		write_ready(l);
	}
	pthread_mutex_unlock(&l->lock);
}

/* The open chunk is complete: out it goes (in its turn). false: its text
 * was lost (out of memory); the lanes stop. */
static bool publish(tk_lane_cursor *c)
{
	bool ok = !c->text->error;
	if (ok)
		tk_lanes_publish(c->lanes, c->open);
	else
		tk_lanes_stop(c->lanes, 0);
	c->open = UINT64_MAX;
	c->text = NULL;
	return ok;
}

tk_status tk_lane_step(tk_lane_cursor *c, bool sample, tk_writer **w, tk_error *err)
{
	uint64_t chunk = c->seen >> c->bits;
	c->seen += sample;
	c->sink->pos = 0; /* what the previous record wrote there */
	if (chunk == c->chunk)
		return TK_OK;
	c->chunk = chunk;
	if (chunk < c->join) {
		if (!late_step(c, chunk))
			return TK_END;
		if (chunk < c->join) {
			/* lane 0 alone: its writer stays; lane 1 reads on */
			if (c->lane == 1)
				*w = c->sink;
			return TK_OK;
		}
	}
	if (c->lane == 0 && c->join && !c->joined) {
		/* the join: lane 0's own writer is left as it is, the
		 * chunks from here on go through the lanes */
		c->joined = true;
		end_solo(c->lanes);
	}
	if ((chunk & 1) != c->lane) {
		*w = c->sink;
		return TK_OK;
	}
	if ((c->open != UINT64_MAX && !publish(c)) || c->sink->error) {
		tk_lanes_stop(c->lanes, 0);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "out of memory for the output");
	}
	c->text = tk_lanes_take(c->lanes, chunk);
	if (!c->text) {
		*w = c->sink;
		return TK_END; /* the output ended before this chunk */
	}
	c->open = chunk;
	*w = c->text;
	return TK_OK;
}

tk_status tk_lane_end(tk_lane_cursor *c, tk_status st, tk_error *err)
{
	if (c->lane == 0)
		end_solo(c->lanes);
	/* nothing past this lane's last record: an error ends the output
	 * there, as with one lane */
	if (st < 0 && c->chunk == UINT64_MAX)
		c->chunk = 0;
	tk_lanes_stop(c->lanes, c->chunk);
	if (c->open != UINT64_MAX && !publish(c) && st >= 0)
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for the output");
	return st;
}

static void *lane_main(void *arg)
{
	tk_lane_run *r = arg;
	tk_lanes *l = r->lanes; /* the run may drop it (one lane) */
	r->run(r);
	/* lane 0 may free the kernel table lane 1 borrowed */
	pthread_mutex_lock(&l->lock);
	l->lane1_done = true;
	pthread_cond_broadcast(&l->changed);
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

tk_lanes_mode tk_lanes_agree(tk_lanes *l, unsigned lane, bool warm)
{
	pthread_mutex_lock(&l->lock);
	if (lane == 0) {
		tk_lanes_mode m = warm && l->hook < 0 ? TK_LANES_TWO : TK_LANES_LATE;
		/* too small a file for lane 1 ever to join (tk_lanes_may_join) */
		if (m == TK_LANES_LATE && l->hook < 0 && l->file_size < JOIN_MIN_REST)
			m = TK_LANES_ONE;
		l->verdict = (int)m + 1;
		if (m == TK_LANES_LATE)
			l->solo = true;
		pthread_cond_broadcast(&l->changed);
	}
	while (!l->verdict)
		pthread_cond_wait(&l->changed, &l->lock);
	tk_lanes_mode m = (tk_lanes_mode)(l->verdict - 1);
	pthread_mutex_unlock(&l->lock);
	return m;
}

bool tk_lanes_may_join(tk_lane_cursor *c, uint64_t offset, bool held)
{
	if (!c->lanes || c->lane != 0 || c->join != UINT64_MAX || c->lent || c->no_join)
		return false;
	long k = c->lanes->hook;
	if (k >= 0)
		return c->chunk >= (uint64_t)k;
	if (held)
		return false;
	/* lane 1 reads all that lane 0 has read (a third of lane 0's time
	 * for it) and loads its images' symbols: worth it for a large rest
	 * only, and then on the other core's free time */
	uint64_t size = c->lanes->file_size;
	c->no_join = offset >= size / 2 || size - offset < JOIN_MIN_REST;
	return !c->no_join;
}

void tk_lanes_join(tk_lane_cursor *c, const struct tk_symtab *kernel)
{
	tk_lanes *l = c->lanes;
	/* lane 1 reads the records up to lane 0's without printing them
	 * (faster than lane 0 prints, by how much depends on the other
	 * core's load: the cache files are written then) and sets the join
	 * once it is close (late_step) */
	pthread_mutex_lock(&l->lock);
	c->lent = true;
	l->invited = true;
	l->invited_at = c->seen;
	l->kernel = kernel;
	pthread_cond_broadcast(&l->changed);
	pthread_mutex_unlock(&l->lock);
}

bool tk_lanes_await_join(tk_lanes *l, const struct tk_symtab **kernel)
{
	pthread_mutex_lock(&l->lock);
	while (!l->invited && !l->lane0_done)
		pthread_cond_wait(&l->changed, &l->lock);
	bool go = l->invited && l->stop == UINT64_MAX;
	*kernel = l->kernel;
	pthread_mutex_unlock(&l->lock);
	return go;
}

bool tk_lane_begin(tk_lane_run *r, bool warm, bool *late, const struct tk_symtab **lent)
{
	*late = false;
	*lent = NULL;
	if (!r->lanes)
		return true;
	tk_lanes_mode mode = tk_lanes_agree(r->lanes, r->lane, warm);
	*late = mode == TK_LANES_LATE;
	if (mode == TK_LANES_ONE) {
		r->lanes = NULL;
		return r->lane == 0;
	}
	if (r->lane == 1 && *late && !tk_lanes_await_join(r->lanes, lent)) {
		r->lanes = NULL;
		return false;
	}
	return true;
}

void tk_lanes_wait_lane1(tk_lanes *l)
{
	pthread_mutex_lock(&l->lock);
	while (!l->lane1_done)
		pthread_cond_wait(&l->changed, &l->lock);
	pthread_mutex_unlock(&l->lock);
}

tk_status tk_lanes_run(tk_lanes *l, tk_lane_run *r0, tk_lane_run *r1, tk_error *err)
{
	r0->lane = 0;
	r1->lane = 1;
	r0->lanes = r1->lanes = l;
	pthread_t other;
	if (pthread_create(&other, NULL, lane_main, r1) != 0) {
		r0->lanes = NULL;
		tk_lanes_free(l);
		r0->run(r0);
		if (err && r0->st < 0)
			*err = r0->err;
		return r0->st;
	}
	r0->run(r0);
	pthread_mutex_lock(&l->lock);
	if (!l->verdict)
		l->verdict = TK_LANES_ONE + 1; /* lane 0 ended before it said */
	l->lane0_done = true;
	pthread_cond_broadcast(&l->changed);
	pthread_mutex_unlock(&l->lock);
	pthread_join(other, NULL);
	bool two = l->verdict == TK_LANES_TWO + 1 || l->join != UINT64_MAX;
	if (l->log) { /* -v: what the lanes decided (the tests read it) */
		char msg[128];
		uint64_t from = l->join == UINT64_MAX ? 0 : l->join << tk_lanes_chunk_bits();
		if (two)
			snprintf(msg, sizeof msg,
				 "print: two lanes, the second from event %" PRIu64, from);
		else if (l->invited) /* lane 0 was done before lane 1 caught up */
			snprintf(msg, sizeof msg,
				 "print: one lane; the second, let in after event %" PRIu64
				 ", had not caught up at the end",
				 l->invited_at);
		else
			snprintf(msg, sizeof msg, "print: one lane");
		l->log(l->log_user, 1, msg);
	}
	tk_lanes_free(l);
	tk_lane_run *bad = r0->st < 0 ? r0 : NULL;
	if (two && r1->st < 0 && (!bad || r1->stop < bad->stop))
		bad = r1;
	if (!bad)
		return TK_OK;
	if (err)
		*err = bad->err;
	return bad->st;
}

void tk_lane_logs(const tk_lane_run *r, const tk_render_options *opt, tk_render_options *lane_opt,
		  tk_log_fn *sample_log, void **sample_user)
{
	*lane_opt = *opt;
	*sample_log = opt->log;
	*sample_user = opt->log_user;
	if (!r->lanes || !opt->log)
		return;
	/* lane 1's reader warnings are lane 0's (the same records); lane 0's
	 * never run beside a write of the output */
	lane_opt->log = r->lane == 1 ? NULL : tk_lanes_log;
	lane_opt->log_user = r->lanes;
	*sample_log = tk_lanes_log_once;
	*sample_user = r->lanes;
}

tk_status tk_lanes_print(const char *path, const tk_render_options *opt, tk_writer *w,
			 void (*run)(tk_lane_run *r), void *user, tk_error *err)
{
	tk_lane_run r0 = {.run = run, .user = user}, r1 = r0;
	off_t size = opt->limit ? 0 : wanted_size(path, w);
	tk_lanes *l = size > 0 ? tk_lanes_new(w, opt->log, opt->log_user) : NULL;
	if (l) {
		l->file_size = (uint64_t)size;
		return tk_lanes_run(l, &r0, &r1, err);
	}
	run(&r0);
	if (err && r0.st < 0)
		*err = r0.err;
	return r0.st;
}
