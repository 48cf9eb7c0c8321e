/* Model context: what a trace says about its machine, derived once per input
 * and shared by every consumer (perf's util/machine.c + thread.c, Perfetto's
 * process/sched trackers):
 * - threads and processes with their names over time (perf COMM/FORK/EXIT,
 *   LTTng procname/vpid/vtid contexts, sched_switch/sched_process_fork/exit and
 *   lttng_statedump_process_state payloads, CPEL/elog track names);
 * - address spaces and maps (perf MMAP/MMAP2, LTTng-UST statedump bin_info
 *   and dlopen) and symbolization of an event's ip and call chain (ip ->
 *   image, symbol, offset), lazy and cached;
 * - spans derived from events: thread running/runnable slices (sched_switch,
 *   sched_wakeup, perf --switch-events), syscall enter/exit pairs, LTTng
 *   NAME_entry/NAME_exit pairs, CPEL/elog state intervals (report --state's rule);
 * - counters: events whose payload is one number (LTTng-UST counters).
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * A consumer asks for what it needs with TK_CTX_* flags; nothing else is
 * derived. The context is fed in time order: tk_source_set_context() makes a
 * source feed it (every event before the source returns it, and for perf.data
 * the side-band records COMM/FORK/EXIT/MMAP, MMAP2, SWITCH too), or a driver calls
 * tk_context_feed_event() / tk_context_feed_perf() itself. Queries answer for
 * the state at the last event fed ("names over time": ask while reading).
 *
 * Memory: per thread, map, image and open span, grown amortized; nothing is
 * allocated per event. Tables are capped (options): beyond a cap new items
 * are dropped and counted (tk_context_stats), never an unbounded allocation.
 * Strings returned stay valid until tk_context_free() unless said otherwise,
 * also after the source is closed (names are interned copies). Event
 * classes are recognised by address: feed one input's events only, while
 * its source is open.
 * Not thread-safe: one context per reading thread. NULL ctx is accepted by
 * every query (answers "nothing known"). */
#ifndef TRACEKIT_CONTEXT_H
#define TRACEKIT_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "perf.h"
#include "session.h"
#include "source.h"
#include "status.h"
#include "symbols.h"

typedef struct tk_context tk_context;

/* What to derive (tk_context_options.flags, tk_context_want). */
enum {
	TK_CTX_THREADS = 1u << 0,      /* thread/process table with names */
	TK_CTX_SYMBOLS = 1u << 1,      /* maps + symbolization (implies THREADS) */
	TK_CTX_SPAN_SCHED = 1u << 2,   /* running / runnable slices */
	TK_CTX_SPAN_SYSCALL = 1u << 3, /* syscall enter/exit pairs */
	TK_CTX_SPAN_CALL = 1u << 4,    /* NAME_entry / NAME_exit pairs (LTTng) */
	TK_CTX_SPAN_STATE = 1u << 5,   /* CPEL/elog state intervals */
	TK_CTX_COUNTERS = 1u << 6,     /* counter values (tk_context_counter) */
	TK_CTX_SPANS =
	    TK_CTX_SPAN_SCHED | TK_CTX_SPAN_SYSCALL | TK_CTX_SPAN_CALL | TK_CTX_SPAN_STATE,
	TK_CTX_ALL = 0x7f,
};

typedef struct tk_context_options {
	unsigned flags;                     /* TK_CTX_* */
	const tk_symcache_options *symbols; /* NULL: defaults (~/.debug, /proc/kallsyms) */
	size_t max_threads;                 /* 0: 1 << 20 */
	size_t max_open_spans;              /* 0: 1 << 20 (queued + open) */
	tk_log_fn log;                      /* warnings; NULL: dropped */
	void *log_user;
	/* spans wholly outside [begin_ns, end_ns] are not queued (the consumer's
	 * time window); has_*: false = unbounded on that side */
	bool has_begin, has_end;
	uint64_t begin_ns, end_ns;
} tk_context_options;

tk_status tk_context_new(const tk_context_options *opt, tk_context **out, tk_error *err);
void tk_context_free(tk_context *ctx); /* NULL is fine */
/* Adds derivations before feeding starts (a consumer joining late gets
 * what is derived from then on). */
void tk_context_want(tk_context *ctx, unsigned flags);
unsigned tk_context_flags(const tk_context *ctx);

/* Makes src feed ctx (which must outlive src's reading; src does not own
 * it). Each event returned by src has then been fed, and tk_context_of()
 * gives ctx for it. Call before the first tk_source_next(). */
void tk_source_set_context(tk_source *src, tk_context *ctx);
/* The context of the source that returned ev, or NULL. */
tk_context *tk_context_of(const tk_event *ev);

/* A session observer (tk_session_add_observer(s, tk_context_observe, ctx,
 * err)): feeds ctx every item of the session, native perf.data records
 * (with their file) and model events. The session's consumers then query
 * ctx themselves (tk_context_of is for events of tk_source_set_context). */
tk_status tk_context_observe(void *ctx, tk_session *s, const tk_session_item *item, tk_error *err);

/* Feeding (drivers). Errors only for out of memory; odd values in the
 * trace are ignored (a thread that never ran, an exit without entry). */
tk_status tk_context_feed_event(tk_context *ctx, const tk_event *ev, tk_error *err);
/* A perf.data record as tk_perf_next() returns it (samples too: they
 * create threads as perf does and give the next event's cpumode). f may be
 * NULL only for records read without a typed parse (SAMPLE, SWITCH*):
 * COMM/FORK/EXIT/MMAP* are then skipped. */
tk_status tk_context_feed_perf(tk_context *ctx, const tk_perf_file *f, const tk_perf_record *rec,
			       tk_error *err);
/* The trace ended at end_ns (0: at the latest time fed): open spans are
 * closed there (marked truncated) and queued. Calling it again is harmless. */
void tk_context_finish(tk_context *ctx, uint64_t end_ns);

/* ---- threads and processes ---- */

typedef struct tk_ctx_thread {
	int32_t pid, tid; /* pid TK_PID_NONE when unknown */
	const char *comm; /* current name, NUL-terminated; "" when unknown.
			   * Valid until the next feed. */
	size_t comm_len;
	uint64_t first_ns; /* first time seen (0: no time yet) */
	uint64_t last_ns;  /* last time seen */
	bool exited;
} tk_ctx_thread;

/* The thread tid as of the last event fed; false when unknown. */
bool tk_context_thread(const tk_context *ctx, int32_t tid, tk_ctx_thread *out);
/* Every thread seen, in order of first sight (0 <= i < n). */
size_t tk_context_n_threads(const tk_context *ctx);
bool tk_context_thread_at(const tk_context *ctx, size_t i, tk_ctx_thread *out);
/* A process's name: its leader thread's (tid == pid) name, "" unknown. */
const char *tk_context_process_name(const tk_context *ctx, int32_t pid);
/* The thread ev belongs to (its tid, else LTTng vtid/procname contexts);
 * false when the event names none. */
bool tk_context_event_thread(const tk_context *ctx, const tk_event *ev, tk_ctx_thread *out);

/* CPEL/elog tracks (the payload's "track" string), in order of first sight. */
size_t tk_context_n_tracks(const tk_context *ctx);
const char *tk_context_track_name(const tk_context *ctx, size_t i);
/* The track index of ev; -1 when it has none. */
int64_t tk_context_event_track(const tk_context *ctx, const tk_event *ev);

/* ---- symbols ---- */

typedef struct tk_frame {
	uint64_t ip;
	const char *sym; /* symbol name as perf prints it (demangled); NULL unknown */
	size_t sym_len;
	uint64_t sym_off;     /* ip's offset into sym */
	const char *dso;      /* image short name as perf's --to-json ("libc.so.6",
			       * "[kernel.kallsyms]"); NULL when no map holds ip */
	const char *dso_path; /* full name ("/usr/lib/x86_64-linux-gnu/libc.so.6") */
	bool kernel;
	uint64_t dso_off; /* ip's offset in the image (perf: the map-relative
			   * address; LTTng-UST: ip - baddr for a PIC image, as
			   * babeltrace2's debug-info "bin+0x..."); valid with dso */
} tk_frame;

/* The stack of ev, leaf first: its call chain (context markers dropped,
 * each frame resolved in the address space perf would use), else its ip
 * (perf samples; LTTng events with an "ip" context, resolved to the image
 * of the process's bin_info statedump).
 * Writes up to max frames, returns how many there are (may exceed max).
 * Needs TK_CTX_SYMBOLS; without it frames carry only ip. Strings stay
 * valid until tk_context_free(). */
size_t tk_context_stack(tk_context *ctx, const tk_event *ev, tk_frame *frames, size_t max);
/* One address of a thread (cpumode: 1 kernel, 2 user, 0 guess from ip). */
bool tk_context_symbolize(tk_context *ctx, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			  tk_frame *out);

/* ---- spans ---- */

typedef enum tk_span_kind {
	TK_SPAN_RUNNING,  /* tid on cpu, from switch-in to switch-out */
	TK_SPAN_RUNNABLE, /* tid woken (or preempted) until it runs */
	TK_SPAN_SYSCALL,  /* syscall entry to exit on one thread */
	TK_SPAN_CALL,     /* NAME_entry to NAME_exit on one thread (nested) */
	TK_SPAN_STATE,    /* CPEL/elog: an event until its next occurrence on
			   * its track (report --state); may overlap others */
} tk_span_kind;

typedef struct tk_span {
	tk_span_kind kind;
	const char *name; /* "running", "runnable", the syscall, the call's
			   * stem, the state's event name; NUL-terminated,
			   * valid until tk_context_free() */
	uint64_t begin_ns, end_ns;
	int32_t cpu;      /* TK_CPU_NONE when unknown */
	int32_t pid, tid; /* TK_PID_NONE when unknown */
	int64_t track;    /* STATE: track index; else -1 */
	uint32_t depth;   /* CALL: nesting depth (0 outermost) */
	bool truncated;   /* closed by tk_context_finish, not its end event */
} tk_span;

/* The next completed span (in order of completion); NULL when none is
 * pending. The span stays valid until the next call. One consumer drains
 * a context. */
const tk_span *tk_context_next_span(tk_context *ctx);

/* ---- counters ---- */

typedef struct tk_counter {
	const char *name; /* "<event class>.<field>", valid until tk_context_free() */
	double value;
	bool is_int;
	int64_t i; /* the value when is_int (signed view of the raw bits
		    * when the field is signed, else raw u64 as int64) */
	uint64_t u;
} tk_counter;

/* Whether ev is a counter sample (TK_CTX_COUNTERS): a payload holding one
 * numeric field besides ids (pid/tid/cpu/ip/id/timestamp). */
bool tk_context_counter(tk_context *ctx, const tk_event *ev, tk_counter *out);

/* ---- accounting ---- */

typedef struct tk_context_stats {
	uint64_t events, perf_records;
	uint64_t threads, spans, dropped_threads, dropped_spans;
	bool oom; /* an allocation failed: results may be incomplete */
} tk_context_stats;

void tk_context_get_stats(const tk_context *ctx, tk_context_stats *out);

#endif
