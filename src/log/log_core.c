/* The process-wide logger: open/close, registration of types, tracks and
 * strings, per-thread rings, the slow path of TK_LOG, enable and trigger.
 *
 * Everything here but the first event of a thread or type runs rarely; the
 * hot path is tk_log__emit() in log.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log/log_clock.h"
#include "log/log_core.h"

/* gate bits: any set sends TK_LOG to the slow path */
#define GATE_OFF       TK_LOG__GATE_OFF /* disabled, stopped by the trigger, or not open */
#define GATE_COUNTDOWN 2u
#define GATE_SLOWCLOCK 4u /* x86-64 log on CLOCK_MONOTONIC: the slow path reads the clock */

/* key bits above the registered/n_args field */
#define KEY_TRIGGER (1u << 20)
#define KEY_STRINGS (1u << 21)
#define KEY_BAD     (1u << 22)
#define KEY_GEN(g)  ((uint32_t)(g) << 24)

_Thread_local tk_log__tls tk_log__t __attribute__((tls_model("initial-exec")));
_Atomic uint32_t tk_log__gate = GATE_OFF;

tk_lg_state tk_lg_g = {.fd = -1};
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t enabled_flag = 1;
static tk_log_type *trigger_type;
static tk_log_type *registered;               /* every type registered in this log */
static _Atomic int cpu_tracks[LG_MAX_TRACKS]; /* cpu -> its track + 1 */
static _Atomic int64_t countdown;
static uint32_t clock_bits(void);

static uint8_t *at(uint64_t off)
{
	return tk_lg_g.base + off;
}

static uint32_t my_tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* ---- open / close ---- */

static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;
	while (p * 2 <= v)
		p *= 2;
	return p;
}

static uint64_t pow2_ceil(uint64_t v)
{
	uint64_t p = 1;
	while (p < v && p < ((uint64_t)1 << 40))
		p *= 2;
	return p;
}

static bool layout_matches(const tk_lg_header *h, uint64_t size)
{
	return memcmp(h->magic, LG_MAGIC, 8) == 0 && h->endian == LG_ENDIAN &&
	       h->header_size == LG_HEADER_SIZE && h->file_size == size && h->max_rings > 0 &&
	       h->max_rings <= LG_MAX_RINGS &&
	       tk_lg_region_size(h->ring_slots, h->max_rings) == size;
}

static void start_clock(tk_lg_header *h)
{
	h->init_tps = tk_lg_calibrate(h->clock, &h->init_ticks, &h->init_mono_ns, &h->init_real_ns);
}

static int fail_fd(int fd, const char *unlink_path)
{
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (unlink_path)
		unlink(unlink_path);
	errno = e;
	return -1;
}

/* Joins the log at c->path, or makes a new one beside it and renames it
 * over the path: a file at the path is always a whole log, and a process
 * still mapping the old file keeps it (truncating it would kill that
 * process with SIGBUS). Returns the open fd. */
static int map_file(const tk_log_config *c, uint64_t slots, uint32_t max_rings, unsigned clock,
		    void **base, uint64_t *size)
{
	if (c->join) {
		int fd = open(c->path, O_RDWR | O_CLOEXEC);
		struct stat sb;
		tk_lg_header probe;
		if (fd < 0)
			return -1;
		if (fstat(fd, &sb) != 0 || (uint64_t)sb.st_size < LG_HEADER_SIZE ||
		    pread(fd, &probe, sizeof probe, 0) != (ssize_t)sizeof probe ||
		    !layout_matches(&probe, (uint64_t)sb.st_size)) {
			errno = EINVAL; /* nothing to join */
			return fail_fd(fd, NULL);
		}
		*size = (uint64_t)sb.st_size;
		*base = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		return *base == MAP_FAILED ? fail_fd(fd, NULL) : fd;
	}
	static _Atomic unsigned serial;
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", c->path, (long)getpid(),
		     atomic_fetch_add(&serial, 1)) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)*size) != 0)
		return fail_fd(fd, tmp);
	*base = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*base == MAP_FAILED)
		return fail_fd(fd, tmp);
	tk_lg_header *h = *base;
	h->clock = clock;
	start_clock(h);
	tk_lg_region_init(*base, *size, slots, max_rings, c->mode, clock, c->shared_ring != 0);
	if (rename(tmp, c->path) != 0) {
		munmap(*base, *size);
		return fail_fd(fd, tmp);
	}
	return fd;
}

int tk_log_open(const tk_log_config *cfg)
{
	tk_log_config c = cfg ? *cfg : (tk_log_config){0};
	if (tk_lg_g.base) {
		errno = EBUSY;
		return -1;
	}
	uint32_t max_rings = c.max_threads ? c.max_threads : 64;
	if (max_rings > LG_MAX_RINGS ||
	    (c.mode != TK_LOG_FLIGHT && c.mode != TK_LOG_STOP_WHEN_FULL)) {
		errno = EINVAL;
		return -1;
	}
	unsigned clock = c.clock == TK_LOG_CLOCK_COARSE ? LG_CLOCK_COARSE : LG_CLOCK_MONO;
	if (c.clock > TK_LOG_CLOCK_COARSE) {
		errno = EINVAL;
		return -1;
	}
	if (c.clock == TK_LOG_CLOCK_TSC || c.clock == TK_LOG_CLOCK_DEFAULT)
		clock = tk_lg_have_tsc() ? LG_CLOCK_TSC : LG_CLOCK_MONO;
	if (c.clock == TK_LOG_CLOCK_TSC && !tk_lg_have_tsc()) {
		errno = ENOTSUP;
		return -1;
	}
	uint64_t slots = c.ring_events ? pow2_ceil(c.ring_events) : 65536;
	if (c.path && !c.ring_events && !c.join) {
		uint64_t fixed =
		    tk_lg_region_size(1, max_rings) - (uint64_t)max_rings * LG_SLOT_SIZE;
		if (c.size <= fixed + (uint64_t)max_rings * LG_SLOT_SIZE * 16) {
			errno = EINVAL; /* not even 16 events per ring */
			return -1;
		}
		slots = pow2_floor((c.size - fixed) / max_rings / LG_SLOT_SIZE);
	}
	uint64_t size = tk_lg_region_size(slots, max_rings);
	if (!size) {
		errno = EINVAL;
		return -1;
	}
	void *base;
	if (!c.path) {
		base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED)
			return -1;
		tk_lg_region_init(base, size, slots, max_rings, c.mode, clock, c.shared_ring != 0);
		start_clock(base);
	} else {
		int fd = map_file(&c, slots, max_rings, clock, &base, &size);
		if (fd < 0)
			return -1;
		tk_lg_g.fd = fd;
	}
	tk_lg_g.base = base;
	tk_lg_g.size = size;
	tk_lg_g.prefault = c.prefault != 0;
	tk_lg_g.h = base;
	tk_lg_use_clock(tk_lg_g.h->clock);
	memset(&tk_log__t, 0, sizeof tk_log__t);
	tk_lg_g.n_local_tracks = 0;
	/* types registered and thread rings made before are of another log */
	tk_lg_g.gen = tk_lg_g.gen % 255 + 1;
	atomic_store(&enabled_flag, 1);
	trigger_type = NULL;
	atomic_store(&tk_log__gate, clock_bits());
	return 0;
}

int tk_log_open_file(const char *path, size_t size)
{
	tk_log_config c = {.path = path, .size = size};
	return tk_log_open(&c);
}

int tk_log_join_file(const char *path)
{
	tk_log_config c = {.path = path, .join = 1};
	return tk_log_open(&c);
}

void tk_log_close(void)
{
	pthread_mutex_lock(&mu);
	atomic_store(&tk_log__gate, GATE_OFF);
	/* the next log numbers its types afresh */
	for (tk_log_type *t = registered, *nx; t; t = nx) {
		nx = t->next;
		t->next = NULL;
		atomic_store(&t->key, 0);
	}
	registered = NULL;
	trigger_type = NULL;
	for (unsigned i = 0; i < LG_MAX_TRACKS; i++)
		atomic_store(&cpu_tracks[i], 0);
	atomic_store(&countdown, 0);
	if (tk_lg_g.base) {
		tk_lg_take_end_pair();
		munmap(tk_lg_g.base, tk_lg_g.size);
	}
	if (tk_lg_g.fd >= 0)
		close(tk_lg_g.fd);
	tk_lg_g.base = NULL;
	tk_lg_g.h = NULL;
	tk_lg_g.fd = -1;
	memset(&tk_log__t, 0, sizeof tk_log__t);
	pthread_mutex_unlock(&mu);
}

void tk_lg_take_end_pair(void)
{
	tk_lg_header *h = tk_lg_g.h;
	if (!h)
		return;
	uint64_t t, m, r;
	tk_lg_pair(h->clock, &t, &m, &r);
	atomic_store(&h->end_valid, 0);
	h->end_ticks = t;
	h->end_mono_ns = m;
	h->end_real_ns = r;
	atomic_store_explicit(&h->end_valid, 1, memory_order_release);
}

/* ---- enable and trigger ---- */

/* The hot path reads the TSC on x86-64 (tk_log__fast_now), or the coarse
 * clock when the thread's state says so: a log on CLOCK_MONOTONIC sends its
 * events through the slow path instead. */
static uint32_t clock_bits(void)
{
#if defined(__x86_64__)
	return tk_lg_g.h && tk_lg_g.h->clock == LG_CLOCK_MONO ? GATE_SLOWCLOCK : 0;
#else
	return 0;
#endif
}

static void update_gate(void)
{
	uint32_t g = 0;
	if (!tk_lg_g.base || !atomic_load(&enabled_flag))
		g |= GATE_OFF;
	else if (atomic_load(&countdown) > 0)
		g |= GATE_COUNTDOWN;
	g |= clock_bits();
	atomic_store(&tk_log__gate, g);
}

void tk_log_enable(int on)
{
	pthread_mutex_lock(&mu);
	atomic_store(&enabled_flag, on ? 1 : 0);
	if (!on)
		tk_lg_take_end_pair(); /* the calibration pair of this stop */
	update_gate();
	pthread_mutex_unlock(&mu);
}

static void register_type(tk_log_type *t);

int tk_log_trigger(tk_log_type *t, uint64_t after)
{
	if (!tk_lg_g.base || (int64_t)after < 0) {
		errno = EINVAL;
		return -1;
	}
	register_type(t);
	pthread_mutex_lock(&mu);
	if (trigger_type)
		atomic_fetch_and(&trigger_type->key, ~KEY_TRIGGER);
	trigger_type = t;
	tk_lg_g.trigger_after = after;
	atomic_fetch_or(&t->key, KEY_TRIGGER);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* The trigger fired: `after` more events, then off. */
static void trigger_fire(void)
{
	pthread_mutex_lock(&mu);
	if (trigger_type) {
		atomic_fetch_and(&trigger_type->key, ~KEY_TRIGGER);
		trigger_type = NULL;
		if (tk_lg_g.trigger_after == 0) {
			atomic_store(&enabled_flag, 0);
			tk_lg_take_end_pair();
		} else {
			atomic_store(&countdown, (int64_t)tk_lg_g.trigger_after);
		}
		update_gate();
	}
	pthread_mutex_unlock(&mu);
}

/* ---- registration ---- */

static void register_type(tk_log_type *t)
{
	if (atomic_load_explicit(&t->key, memory_order_acquire))
		return;
	pthread_mutex_lock(&mu);
	if (atomic_load(&t->key) || !tk_lg_g.h) {
		pthread_mutex_unlock(&mu);
		return;
	}
	tk_lg_header *h = tk_lg_g.h;
	unsigned n = 0, words = 0;
	bool strings = false, ok = t->format != NULL && t->kinds[0] == 0;
	while (ok && n < TK_LOG_MAX_ARGS + 1 && t->kinds[1 + n]) {
		unsigned w = tk_lg_kind_words(t->kinds[1 + n]);
		strings |= t->kinds[1 + n] == TK_LOG_STR;
		ok = w != 0;
		words += w;
		n++;
	}
	ok = ok && n <= TK_LOG_MAX_ARGS && words <= TK_LOG_MAX_ARGS;
	uint32_t id = atomic_fetch_add(&h->n_types, 1);
	if (id >= h->max_types || id > 0xffff)
		ok = false;
	if (ok) {
		tk_lg_type_entry *e =
		    (tk_lg_type_entry *)at(h->types_off + (uint64_t)id * LG_TYPE_SIZE);
		e->n_args = (uint8_t)n;
		memcpy(e->kinds, t->kinds + 1, n);
		e->kinds[n] = 0;
		size_t fl = strnlen(t->format, LG_FORMAT_MAX - 1);
		memcpy(e->format, t->format, fl);
		e->format[fl] = 0;
		atomic_store_explicit(&e->commit, 1, memory_order_release);
	}
	t->id = (uint16_t)id;
	t->n_args = (uint8_t)n;
	t->next = registered;
	registered = t;
	uint32_t key =
	    (ok ? id : 0) | (TK_LOG__REGISTERED | (uint32_t)n << 1) << 16 | KEY_GEN(tk_lg_g.gen);
	if (strings)
		key |= KEY_STRINGS;
	if (!ok)
		key |= KEY_BAD;
	/* a key set is the registration: tk_log_close() does not undo it, so
	 * a type is registered once per process */
	atomic_store_explicit(&t->key, key, memory_order_release);
	pthread_mutex_unlock(&mu);
}

static int new_track(const char *name)
{
	tk_lg_header *h = tk_lg_g.h;
	uint32_t id = atomic_fetch_add(&h->n_tracks, 1);
	if (id >= h->max_tracks || id > 0xffff)
		return -1;
	tk_lg_track_entry *e =
	    (tk_lg_track_entry *)at(h->tracks_off + (uint64_t)id * LG_TRACK_SIZE);
	e->pid = (uint32_t)getpid();
	size_t n = strnlen(name, LG_TRACK_NAME - 1);
	memcpy(e->name, name, n);
	e->name[n] = 0;
	atomic_store_explicit(&e->commit, 1, memory_order_release);
	return (int)id;
}

int tk_log_track(const char *name)
{
	pthread_mutex_lock(&mu);
	int id = -1;
	if (!tk_lg_g.h || !name) {
		errno = EINVAL;
		goto out;
	}
	for (unsigned i = 0; i < tk_lg_g.n_local_tracks; i++)
		if (strncmp(tk_lg_g.local_tracks[i].name, name, LG_TRACK_NAME - 1) == 0) {
			id = tk_lg_g.local_tracks[i].id;
			goto out;
		}
	id = new_track(name);
	if (id < 0) {
		errno = ENOSPC;
		goto out;
	}
	if (tk_lg_g.n_local_tracks < LG_MAX_TRACKS) {
		tk_lg_local_track *lt = &tk_lg_g.local_tracks[tk_lg_g.n_local_tracks++];
		size_t n = strnlen(name, LG_TRACK_NAME - 1);
		memcpy(lt->name, name, n);
		lt->name[n] = 0;
		lt->id = id;
	}
out:
	pthread_mutex_unlock(&mu);
	return id;
}

uint32_t tk_log_string(const char *s)
{
	pthread_mutex_lock(&mu);
	uint32_t off = UINT32_MAX;
	tk_lg_header *h = tk_lg_g.h;
	if (!h || !s)
		goto out;
	char *tab = (char *)at(h->strtab_off);
	uint32_t len = atomic_load(&h->strtab_len);
	if (len > h->strtab_cap)
		len = (uint32_t)h->strtab_cap;
	size_t n = strlen(s);
	for (uint32_t i = 0; i < len;) {
		size_t l = strnlen(tab + i, len - i);
		if (l == n && memcmp(tab + i, s, n) == 0) {
			off = i;
			goto out;
		}
		i += (uint32_t)l + 1;
	}
	if (n >= h->strtab_cap)
		goto out;
	uint32_t o = atomic_fetch_add(&h->strtab_len, (uint32_t)n + 1);
	if ((uint64_t)o + n + 1 > h->strtab_cap)
		goto out; /* full (the counter stays past the cap: readers clamp) */
	memcpy(tab + o, s, n + 1);
	off = o;
out:
	pthread_mutex_unlock(&mu);
	return off;
}

/* ---- rings ---- */

/* Events lost with no ring to hold them, or of a type that cannot be logged. */
static void count_noring(void)
{
	if (tk_lg_g.h)
		atomic_fetch_add_explicit(&tk_lg_g.h->dropped_noring, 1, memory_order_relaxed);
}

/* The calling thread's own track, "thread TID". */
static int thread_track(uint32_t tid)
{
	char name[LG_TRACK_NAME];
	memcpy(name, "thread ", 7);
	size_t n = 7;
	char d[16];
	size_t nd = 0;
	uint32_t v = tid;
	do
		d[nd++] = (char)('0' + v % 10);
	while ((v /= 10) && nd < sizeof d);
	while (nd)
		name[n++] = d[--nd];
	name[n] = 0;
	pthread_mutex_lock(&mu);
	int track = new_track(name);
	pthread_mutex_unlock(&mu);
	return track;
}

/* tk_log_config.prefault: faults a new ring's pages in, writable, before
 * its first event; the first lap of a ring would otherwise take a page
 * fault every 64 events (bench/README.md: the p99 of TK_LOG is that lap).
 * The ring is this thread's alone and still all zeros: the fallback writes
 * zeros inside it only (its first and last pages may hold another ring's
 * slots). */
static void prefault(uint8_t *p, uint64_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(page - 1);
	if (page && madvise((void *)a, (size_t)((uintptr_t)p + len - a), MADV_POPULATE_WRITE) == 0)
		return;
#endif
	volatile uint8_t *v = p;
	for (uint64_t off = 0; off < len; off += 4096)
		v[off] = 0;
	if (len)
		v[len - 1] = 0;
}

static void fill_dir(tk_lg_ring_dir *dir, uint32_t idx, uint32_t tid, int track)
{
	tk_lg_header *h = tk_lg_g.h;
	dir->pid = (uint32_t)getpid();
	dir->tid = tid;
	dir->track = (uint32_t)track;
	dir->slots_off = h->rings_off + (uint64_t)idx * h->ring_slots * LG_SLOT_SIZE;
	if (tk_lg_g.prefault)
		prefault(at(dir->slots_off), h->ring_slots * LG_SLOT_SIZE);
	atomic_store_explicit(&dir->commit, 1, memory_order_release);
}

/* A thread's first event: its ring (or elog's shared ring) and its track. */
static bool make_ring(tk_log__tls *r)
{
	tk_lg_header *h = tk_lg_g.h;
	uint32_t tid = my_tid();
	tk_lg_ring_dir *dir;
	uint32_t idx = 0;
	if (h->shared_ring) {
		dir = (tk_lg_ring_dir *)at(h->rings_dir_off);
		uint32_t zero = 0;
		/* the first thread of any process makes ring 0 */
		if (atomic_compare_exchange_strong(&h->n_rings, &zero, 1))
			fill_dir(dir, 0, 0, 0);
		while (atomic_load_explicit(&dir->commit, memory_order_acquire) != 1)
			sched_yield();
	} else {
		idx = atomic_fetch_add(&h->n_rings, 1);
		if (idx >= h->max_rings)
			return false;
		dir = (tk_lg_ring_dir *)at(h->rings_dir_off + (uint64_t)idx * LG_RING_SIZE);
	}
	int track = thread_track(tid);
	if (track < 0)
		return false;
	if (!h->shared_ring)
		fill_dir(dir, idx, tid, track);
	r->slots = (tk_log__slot *)at(dir->slots_off);
	r->mask = h->ring_slots - 1;
	r->head = 0;
	/* shared: the index is the ring's atomic head, so the slow path logs */
	r->limit = h->shared_ring                     ? 0
		   : h->mode == TK_LOG_STOP_WHEN_FULL ? h->ring_slots
						      : UINT64_MAX;
	r->pub = &dir->head;
	r->dir = dir;
	r->track = (uint16_t)track;
	r->lead = tk_log__lead(0, (uint16_t)track);
	r->coarse = h->clock == LG_CLOCK_COARSE;
	r->gen = KEY_GEN(tk_lg_g.gen);
	return true;
}

/* The calling thread's state, forgotten if it belongs to an earlier log. */
static tk_log__tls *my_state(void)
{
	tk_log__tls *r = &tk_log__t;
	if (r->dir && r->gen != KEY_GEN(tk_lg_g.gen))
		memset(r, 0, sizeof *r);
	return r;
}

int tk_log_cpu_track(void)
{
	int cpu = sched_getcpu();
	if (cpu < 0 || cpu >= (int)LG_MAX_TRACKS || !tk_lg_g.h)
		return -1;
	int id = atomic_load_explicit(&cpu_tracks[cpu], memory_order_relaxed);
	if (id)
		return id - 1;
	char name[32];
	snprintf(name, sizeof name, "cpu %d", cpu);
	id = tk_log_track(name);
	if (id >= 0)
		atomic_store(&cpu_tracks[cpu], id + 1);
	return id;
}

int tk_log_thread_track(const char *name)
{
	tk_log__tls *r = my_state();
	if (!tk_lg_g.h || !name || (!r->dir && !make_ring(r))) {
		errno = tk_lg_g.h ? ENOSPC : EINVAL;
		return -1;
	}
	tk_lg_track_entry *e =
	    (tk_lg_track_entry *)at(tk_lg_g.h->tracks_off + (uint64_t)r->track * LG_TRACK_SIZE);
	size_t n = strnlen(name, LG_TRACK_NAME - 1);
	memcpy(e->name, name, n);
	e->name[n] = 0;
	return r->track;
}

void tk_log__emit_slow(tk_log_type *t, int track, const uint64_t *v, unsigned n)
{
	if (!tk_lg_g.h)
		return;
	uint32_t key = atomic_load_explicit(&t->key, memory_order_acquire);
	if (!key) {
		register_type(t);
		key = atomic_load_explicit(&t->key, memory_order_acquire);
	}
	if ((key & KEY_BAD) || ((key >> 16) & 0xf) != (TK_LOG__REGISTERED | n << 1)) {
		count_noring(); /* a bad descriptor, or the wrong argument count */
		return;
	}
	uint32_t gate = atomic_load_explicit(&tk_log__gate, memory_order_acquire);
	if (gate & GATE_OFF)
		return;
	bool last = false;
	if (gate & GATE_COUNTDOWN) {
		int64_t left = atomic_fetch_sub(&countdown, 1);
		if (left <= 0)
			return;
		last = left == 1;
	}
	tk_log__tls *r = my_state();
	if (!r->dir && !make_ring(r)) {
		count_noring();
		return;
	}
	if (track >= 0 && (uint32_t)track >= atomic_load(&tk_lg_g.h->n_tracks)) {
		count_noring();
		return;
	}
	tk_lg_ring_dir *dir = r->dir;
	bool shared = tk_lg_g.h->shared_ring;
	uint64_t seq = shared ? atomic_fetch_add(&dir->head, 1) : r->head;
	uint64_t limit = shared && tk_lg_g.h->mode == TK_LOG_STOP_WHEN_FULL ? tk_lg_g.h->ring_slots
			 : shared                                           ? UINT64_MAX
									    : r->limit;
	if (seq >= limit) {
		if (shared)
			atomic_fetch_add_explicit(&dir->dropped, 1, memory_order_relaxed);
		else
			atomic_store_explicit(
			    &dir->dropped,
			    atomic_load_explicit(&dir->dropped, memory_order_relaxed) + 1,
			    memory_order_relaxed);
	} else {
		tk_log__slot *s = &r->slots[seq & r->mask];
		uint16_t tr = track >= 0 ? (uint16_t)track : r->track;
		atomic_store_explicit(&s->lead, tk_log__lead((uint16_t)key, tr),
				      memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
		s->time = tk_log__now();
		unsigned wi = 0;
		for (unsigned i = 0; i < n; i++) {
			if (t->kinds[1 + i] == TK_LOG_STR) {
				char buf[LG_STR_WORDS * 8] = {0};
				const char *p = (const char *)(uintptr_t)v[i];
				if (p)
					memcpy(buf, p, strnlen(p, TK_LOG_STR_MAX));
				memcpy(&s->w[wi], buf, sizeof buf);
				wi += LG_STR_WORDS;
			} else {
				s->w[wi++] = v[i];
			}
		}
		atomic_store_explicit(&s->commit, (uint32_t)(seq + 1), memory_order_release);
		if (!shared) {
			r->head++;
			atomic_store_explicit(r->pub, r->head, memory_order_relaxed);
		}
	}
	if (key & KEY_TRIGGER)
		trigger_fire();
	if (last) {
		pthread_mutex_lock(&mu);
		atomic_store(&enabled_flag, 0);
		atomic_store(&countdown, 0);
		tk_lg_take_end_pair();
		update_gate();
		pthread_mutex_unlock(&mu);
	}
}

void tk_log_get_stats(tk_log_stats *st)
{
	memset(st, 0, sizeof *st);
	tk_lg_header *h = tk_lg_g.h;
	if (!h)
		return;
	uint32_t n = atomic_load(&h->n_rings);
	if (n > h->max_rings)
		n = h->max_rings;
	st->rings = n;
	st->dropped = atomic_load(&h->dropped_noring);
	for (uint32_t i = 0; i < n; i++) {
		tk_lg_ring_dir *d =
		    (tk_lg_ring_dir *)at(h->rings_dir_off + (uint64_t)i * LG_RING_SIZE);
		if (!atomic_load_explicit(&d->commit, memory_order_acquire))
			continue;
		uint64_t head = atomic_load(&d->head);
		if (h->mode == TK_LOG_STOP_WHEN_FULL && head > h->ring_slots)
			head = h->ring_slots; /* the shared ring's index counts drops too */
		st->logged += head;
		st->dropped += atomic_load(&d->dropped);
	}
}
