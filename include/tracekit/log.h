/* tracekit's in-process event logger (libtracekit-log, also inside libtracekit).
 *
 * The job of VPP's elog, LTTng-UST and barectf: a C program logs small typed
 * events at a few nanoseconds each and later (or after a crash) dumps them
 * to CPEL, VPP's elog serialization or CTF 1.8.
 *
 *     TK_LOG_TYPE(rx_burst, "rx-burst: queue %d pkts %d", TK_LOG_U32, TK_LOG_U32);
 *     tk_log_open(NULL);                       // or tk_log_open_file("app.tklog", 64 << 20)
 *     TK_LOG(rx_burst, queue, n);              // no lock, no syscall, no allocation
 *     tk_log_dump("app.cpel", TK_LOG_DUMP_CPEL);
 *
 * Event types are static descriptors declared at file scope by TK_LOG_TYPE;
 * each registers itself on its first use (a mutex, once). The format is the
 * CPEL/elog format language (vppinfra's format(): %d %u %x %s %f %e %g, with
 * l, L or w for 64-bit integers, '-' '=' flags and a width that also
 * truncates; as in elog, "%ll" is not a directive).
 * Arguments are typed: u32, u64, i64, f64, a short inline string (at most
 * TK_LOG_STR_MAX bytes kept) and a string-table reference (tk_log_string()).
 * An event holds at most 6 words of arguments (an inline string takes 3).
 *
 * Each thread logs into its own ring (allocated on its first event) on its
 * own track, named after the thread unless tk_log_thread_track() renames it;
 * TK_LOG_ON() logs on a user-named track (tk_log_track()). Time is the TSC on
 * x86-64 (CLOCK_MONOTONIC elsewhere or on request; CLOCK_MONOTONIC_COARSE,
 * cheaper and coarser, as an option: TK_LOG_CLOCK_COARSE), converted with the
 * calibration pair taken at open and the one taken when logging stops
 * (tk_log_enable(0), the trigger, close) or, while it runs, at each dump.
 *
 * All rings, types, tracks and strings live in one mapping: anonymous memory
 * for tk_log_open(), a shared file for tk_log_open_file(). Each event carries
 * a commit word written last, so a file left by a process killed at any
 * instant reads back (`tracekit print FILE`) as every event fully written,
 * per thread in order, and a torn event is never misread. Several processes
 * may log into one file (tk_log_join_file): each gets rings of its own.
 *
 * Thread-safety: TK_LOG* from any thread. tk_log_open/close from one thread
 * while no other logs; a thread that logged into a closed log gets a ring
 * in the next one (up to 255 logs later). Dumps may run while threads log (events still being
 * written are left out). tk_log_dump_fd() with TK_LOG_DUMP_ELOG or
 * TK_LOG_DUMP_CTF is async-signal-safe (no allocation, no lock, only
 * write/pwrite/open/mkdir); CPEL formats %f/%e/%g with snprintf.
 *
 * Functions return 0 on success and -1 with errno set on failure. */
#ifndef TRACEKIT_LOG_H
#define TRACEKIT_LOG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Argument kinds (elog's format_args letters in parentheses). */
#define TK_LOG_U32  'u' /* i4 */
#define TK_LOG_U64  'U' /* i8 */
#define TK_LOG_I64  'i' /* i8 */
#define TK_LOG_F64  'f' /* f8 */
#define TK_LOG_STR  's' /* s0: inline copy of at most TK_LOG_STR_MAX bytes */
#define TK_LOG_SREF 'T' /* T4: offset returned by tk_log_string() */

#define TK_LOG_STR_MAX  23
#define TK_LOG_MAX_ARGS 6

/* A static event-type descriptor. Fields are the logger's: declare with
 * TK_LOG_TYPE and never touch them. */
typedef struct tk_log_type {
	_Atomic uint32_t key; /* 0 until registered: id | registered | n_args | flags */
	uint16_t id;
	uint8_t n_args;
	const char *format;
	char kinds[TK_LOG_MAX_ARGS + 2]; /* kinds[0] is 0; kinds from [1] */
	struct tk_log_type *next;        /* registered types, reset at close */
} tk_log_type;

#define TK_LOG_TYPE(var, fmt, ...)                                                                 \
	static tk_log_type var = {.format = fmt, .kinds = {0, __VA_ARGS__}}

typedef enum tk_log_mode {
	TK_LOG_FLIGHT = 0,        /* overwrite the oldest events of a full ring */
	TK_LOG_STOP_WHEN_FULL = 1 /* keep the first events, count the rest as dropped */
} tk_log_mode;

typedef enum tk_log_clock {
	TK_LOG_CLOCK_DEFAULT = 0, /* TSC on x86-64, else CLOCK_MONOTONIC */
	TK_LOG_CLOCK_TSC = 1,
	TK_LOG_CLOCK_MONOTONIC = 2,
	/* CLOCK_MONOTONIC_COARSE (Linux), an option for the cheapest time stamp:
	 * no rdtsc, a read of the kernel's last tick through the vDSO (4.7 ns
	 * against rdtsc's 9.6 on the VM of bench/README.md), but the time only
	 * moves once per kernel tick (clock_getres(): 4 ms there). Events of a
	 * thread stay in the order logged (ring order); events of one tick
	 * share a time stamp, so across threads their merged order within a
	 * tick is the rings' order, not the order they happened in. */
	TK_LOG_CLOCK_COARSE = 3
} tk_log_clock;

typedef struct tk_log_config {
	const char *path;     /* NULL: anonymous memory; else the mapped file */
	size_t ring_events;   /* events per thread ring, rounded up to a power of 2;
				 0: 65536, or what fits `size` for a file */
	size_t size;          /* file size when ring_events is 0 (tk_log_open_file) */
	unsigned max_threads; /* rings (threads, over all processes); 0: 64 */
	tk_log_mode mode;
	tk_log_clock clock;
	int shared_ring; /* 1: VPP elog's single ring for all threads, indexed by an
			    atomic fetch-add (every event then takes the out-of-line
			    path: slower, but one ring holds everything in order) */
	/* path: join the log another process made there (then the file's own
	 * layout, mode and clock apply; sizes are ignored); 0: replace it */
	int join;
	/* 1: a thread's ring is faulted in, writable, when it is made (at the
	 * thread's first event, or tk_log_thread_track()), so no event takes a
	 * page fault; that first event then costs about a millisecond per 4 MiB
	 * of ring (65536 events) and the ring is resident at once. 0: pages
	 * are faulted in by the ring's first lap (one fault per 64 events). */
	int prefault;
} tk_log_config;

/* Opens the process-wide logger (cfg NULL: defaults, anonymous memory). */
int tk_log_open(const tk_log_config *cfg);
/* tk_log_open with the rings in the file path of about `size` bytes. The
 * new log is made beside path and renamed over it: a file at path is always
 * a whole log, and a process still logging into the old file keeps it. */
int tk_log_open_file(const char *path, size_t size);
/* Joins the log file another process (running or not) made at path: this
 * process gets rings of its own in it. Fails (EINVAL) if path holds no log. */
int tk_log_join_file(const char *path);
/* Unmaps the log. Threads must have stopped logging. */
void tk_log_close(void);

void tk_log_enable(int on); /* logging is on after open */
/* Stops all logging after `after` more events once an event of type t is
 * logged (after 0: t is the last event). One trigger at a time. */
int tk_log_trigger(tk_log_type *t, uint64_t after);

/* Interns s in the log's string table; returns its offset for a TK_LOG_SREF
 * argument, or UINT32_MAX when the table is full or no log is open. */
uint32_t tk_log_string(const char *s);
/* A user-named track (like VPP's "worker 1"); returns its id, -1 on error.
 * The same name returns the same track within a process. */
int tk_log_track(const char *name);
/* Renames the calling thread's own track. */
int tk_log_thread_track(const char *name);
/* The track "cpu N" of the CPU the caller runs on now (for TK_LOG_ON), or -1. */
int tk_log_cpu_track(void);

typedef enum tk_log_format {
	TK_LOG_DUMP_CPEL = 1, /* a file, as VPP's c2cpel writes one from elog */
	TK_LOG_DUMP_ELOG = 2, /* a file, VPP's serialize_elog_main layout */
	TK_LOG_DUMP_CTF = 3   /* a directory, CTF 1.8, one stream per track */
} tk_log_format;

/* Dumps every committed event (all processes of a shared file). path is
 * replaced atomically for files (a temporary beside it, then rename). */
int tk_log_dump(const char *path, tk_log_format fmt);
/* Async-signal-safe dump into an open file (ELOG, CPEL) or directory (CTF:
 * dirfd of an existing directory). */
int tk_log_dump_fd(int fd, tk_log_format fmt);
/* Dumps to path at exit (atexit). */
int tk_log_dump_at_exit(const char *path, tk_log_format fmt);

typedef struct tk_log_stats {
	uint64_t logged;  /* events written (some may be overwritten since) */
	uint64_t dropped; /* stop-when-full losses, events with no ring (more threads
			     than rings) and events of a type that cannot be logged (more
			     than 6 words of arguments, wrong argument count) */
	unsigned rings;
} tk_log_stats;
void tk_log_get_stats(tk_log_stats *st);

/* ---- hot path (inline; not an API) ---- */

typedef struct tk_log__slot {
	union {
		struct {
			_Atomic uint32_t commit; /* low 32 bits of seq + 1, written last */
			uint16_t type, track;
		};
		/* commit (zeroed), type and track in one store (tk_log__emit) */
		_Atomic uint64_t lead;
	};
	uint64_t time;
	uint64_t w[TK_LOG_MAX_ARGS];
} tk_log__slot;

typedef struct tk_log__tls {
	tk_log__slot *slots;
	uint64_t mask, head, limit;
	_Atomic uint64_t *pub; /* the ring's published head, read by dumps */
	void *dir;
	uint64_t lead; /* tk_log__lead(0, track) */
	uint32_t gen;  /* the log this state belongs to, as in type keys (bits 24-31) */
	uint16_t track;
	uint8_t coarse; /* the log's clock is TK_LOG_CLOCK_COARSE */
} tk_log__tls;

/* initial-exec: a fixed offset from the thread pointer even when the
 * logger is a shared library (no __tls_get_addr call per event) */
extern _Thread_local tk_log__tls tk_log__t __attribute__((tls_model("initial-exec")));
extern _Atomic uint32_t tk_log__gate; /* 0: log; else take the slow path */
#define TK_LOG__GATE_OFF 1u           /* disabled, stopped by the trigger, or not open */
extern int tk_log__use_tsc;

void tk_log__emit_slow(tk_log_type *t, int track, const uint64_t *v, unsigned n);
uint64_t tk_log__now_slow(void);
uint64_t tk_log__now_coarse(void);

/* A type's key: id (bits 0-15), registered + argument count (16-19), rare
 * flags (20-23), the open log's generation (24-31). */
#define TK_LOG__REGISTERED 1u
static inline uint32_t tk_log__expect(unsigned n)
{
	return (TK_LOG__REGISTERED | (uint32_t)n << 1) << 16;
}

static inline uint64_t tk_log__now(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(tk_log__use_tsc, 1))
		return __builtin_ia32_rdtsc();
#endif
	return tk_log__now_slow();
}

/* The hot path's clock. On x86-64 a plain rdtsc, unless the thread's ring
 * is in a log on TK_LOG_CLOCK_COARSE (a thread with no ring yet takes the
 * slow path, which reads the clock again); a log on CLOCK_MONOTONIC sets a
 * gate bit, so its events never get here.
 * Why neither rdtscp nor lfence; rdtsc: the order that matters is the
 * ring's, and it does not come from the clock. A reader takes a slot only
 * when its commit word, stored after the slot's other bytes, matches, and
 * reads a ring's events in sequence order: whether the time stamp is read
 * before or after the slot's stores (here: before them, after the tests,
 * so a disabled TK_LOG reads no clock) changes no event's content nor
 * place. What an unfenced rdtsc may do is execute a few dozen
 * cycles before earlier instructions retire, so an event logged by one
 * thread right after it saw another thread's store can carry a time up to
 * that much (~10-20 ns) earlier than the other thread's event logged
 * before the store: only the merge of two threads' events closer in time
 * than that can come out swapped. Fencing would bound it at twice the
 * cost (bench/README.md, the AMD EPYC VM: rdtsc 9.55 ns, lfence; rdtsc
 * 18.5 ns, rdtscp 18.2 ns), and a plain rdtsc is already the whole cost of
 * TK_LOG there. */
static inline uint64_t tk_log__fast_now(const tk_log__tls *r)
{
	if (__builtin_expect(r->coarse != 0, 0))
		return tk_log__now_coarse();
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#else
	return tk_log__now_slow();
#endif
}

/* The slot's first 8 bytes as one word: commit 0, type, track (bytes
 * 0-3, 4-5, 6-7 of the struct in the host's byte order; log_impl.h
 * asserts the layout and test_log_core reads back type and track). */
static inline uint64_t tk_log__lead(uint16_t type, uint16_t track)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint64_t)type << 16 | track;
#else
	return (uint64_t)type << 32 | (uint64_t)track << 48;
#endif
}

/* One event of n words (a0.. a5, the unused ones 0) on the calling thread's
 * ring. Everything is read into locals before the first store (the slot's
 * uint64_t stores could alias the thread state, which would be read again
 * after each), and the words stay in registers: they reach memory as an
 * array only on the slow path. No atomic read-modify-write and no fence
 * instruction: the ring has one writer, so plain stores in program order
 * (x86-64: every store is a release) publish the event; the commit word
 * is zeroed first and written last, so a reader of a slot being rewritten
 * (flight recorder) sees commit 0 or a commit that does not match. */
static inline void tk_log__emit(tk_log_type *t, unsigned n, uint64_t a0, uint64_t a1, uint64_t a2,
				uint64_t a3, uint64_t a4, uint64_t a5)
{
	tk_log__tls *r = &tk_log__t;
	uint32_t k = atomic_load_explicit(&t->key, memory_order_relaxed);
	uint64_t head = r->head;
	/* the rare cases, in two tests (a compare and branch each, fewer
	 * instructions than folding the second into the first): type not
	 * registered in this log or flagged, thread state from an earlier
	 * log, logging off, counting down or on CLOCK_MONOTONIC; then ring
	 * full or not made */
	uint32_t gate = atomic_load_explicit(&tk_log__gate, memory_order_relaxed);
	uint32_t odd = (k & 0xffff0000u) ^ (tk_log__expect(n) | r->gen);
	if (__builtin_expect((odd | gate) != 0, 0))
		goto slow;
	if (__builtin_expect(head >= r->limit, 0))
		goto slow;
	/* the time after the tests: a disabled TK_LOG reads no clock */
	uint64_t now = tk_log__fast_now(r);
	tk_log__slot *s = &r->slots[head & r->mask];
	_Atomic uint64_t *pub = r->pub;
	/* invalidate before overwriting, so a reader never pairs an old commit
	 * word with new bytes: the commit word is zeroed by the same store that
	 * writes type and track, the first into the slot; on x86-64 the release
	 * fence is a compiler barrier only (stores are not reordered with
	 * stores) */
	atomic_store_explicit(&s->lead, tk_log__lead((uint16_t)k, 0) | r->lead,
			      memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	s->time = now;
	if (n > 0)
		s->w[0] = a0;
	if (n > 1)
		s->w[1] = a1;
	if (n > 2)
		s->w[2] = a2;
	if (n > 3)
		s->w[3] = a3;
	if (n > 4)
		s->w[4] = a4;
	if (n > 5)
		s->w[5] = a5;
	head++;
	r->head = head;
	atomic_store_explicit(&s->commit, (uint32_t)head, memory_order_release);
	atomic_store_explicit(pub, head, memory_order_relaxed);
	return;
slow:
	/* logging off (or no log open): nothing to do, and no call to do it
	 * (a type is registered by its first event while logging is on) */
	if (gate & TK_LOG__GATE_OFF)
		return;
	const uint64_t v[TK_LOG_MAX_ARGS] = {a0, a1, a2, a3, a4, a5};
	tk_log__emit_slow(t, -1, v, n);
}

static inline uint64_t tk_log__wu(uint64_t x)
{
	return x;
}
static inline uint64_t tk_log__wd(double x)
{
	union {
		double d;
		uint64_t u;
	} c = {.d = x};
	return c.u;
}
static inline uint64_t tk_log__wp(const char *x)
{
	return (uint64_t)(uintptr_t)x;
}

#define TK_LOG__W(x)                                                                               \
	_Generic((x),                                                                              \
	    double: tk_log__wd,                                                                    \
	    float: tk_log__wd,                                                                     \
	    char *: tk_log__wp,                                                                    \
	    const char *: tk_log__wp,                                                              \
	    default: tk_log__wu)(x)

#define TK_LOG__N(_0, _1, _2, _3, _4, _5, _6, N, ...) N
#define TK_LOG__NARGS(...)                            TK_LOG__N(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0, x)
#define TK_LOG__CAT2(a, b)                            a##b
#define TK_LOG__CAT(a, b)                             TK_LOG__CAT2(a, b)

#define TK_LOG__A0(k, t)       tk_log__emit_on((k), &(t), 0, 0, 0, 0, 0, 0, 0)
#define TK_LOG__A1(k, t, a)    tk_log__emit_on((k), &(t), 1, TK_LOG__W(a), 0, 0, 0, 0, 0)
#define TK_LOG__A2(k, t, a, b) tk_log__emit_on((k), &(t), 2, TK_LOG__W(a), TK_LOG__W(b), 0, 0, 0, 0)
#define TK_LOG__A3(k, t, a, b, c)                                                                  \
	tk_log__emit_on((k), &(t), 3, TK_LOG__W(a), TK_LOG__W(b), TK_LOG__W(c), 0, 0, 0)
#define TK_LOG__A4(k, t, a, b, c, d)                                                               \
	tk_log__emit_on((k), &(t), 4, TK_LOG__W(a), TK_LOG__W(b), TK_LOG__W(c), TK_LOG__W(d), 0, 0)
#define TK_LOG__A5(k, t, a, b, c, d, e)                                                            \
	tk_log__emit_on((k), &(t), 5, TK_LOG__W(a), TK_LOG__W(b), TK_LOG__W(c), TK_LOG__W(d),      \
			TK_LOG__W(e), 0)
#define TK_LOG__A6(k, t, a, b, c, d, e, f)                                                         \
	tk_log__emit_on((k), &(t), 6, TK_LOG__W(a), TK_LOG__W(b), TK_LOG__W(c), TK_LOG__W(d),      \
			TK_LOG__W(e), TK_LOG__W(f))

static inline void tk_log__emit_on(int track, tk_log_type *t, unsigned n, uint64_t a0, uint64_t a1,
				   uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	if (track < 0) {
		tk_log__emit(t, n, a0, a1, a2, a3, a4, a5);
	} else {
		const uint64_t v[TK_LOG_MAX_ARGS] = {a0, a1, a2, a3, a4, a5};
		tk_log__emit_slow(t, track, v, n);
	}
}

/* TK_LOG(type, args...): logs one event on the calling thread's track. */
#define TK_LOG(...) TK_LOG__CAT(TK_LOG__A, TK_LOG__NARGS(__VA_ARGS__))(-1, __VA_ARGS__)

/* TK_LOG_ON(track, type, args...): logs on a track from tk_log_track()
 * (through the slow path: a few ns more than TK_LOG). */
#define TK_LOG_ON(track, ...)                                                                      \
	TK_LOG__CAT(TK_LOG__A, TK_LOG__NARGS(__VA_ARGS__))((track), __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
