/* The model context's private state, shared by the files of src/context/
 * (one job each: context.c lifecycle and feeding, ctx_threads.c the thread
 * table, ctx_classes.c per-class field lookup, ctx_sched.c / ctx_pairs.c /
 * ctx_state.c span rules, ctx_spanq.c the span queue, ctx_perf.c the perf
 * side-band feed, ctx_stack.c symbolization, ctx_counter.c counters).
 *
 * Layer: src/context/ may include base, model, the format folders' public
 * API (perf.h) and symbols; analysis, output and convert sit above it. */
#ifndef TK_CONTEXT_INTERNAL_H
#define TK_CONTEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "context/threads_model.h"
#include "tracekit/tracekit.h"

#define CTX_COMM_MAX     32  /* names are kept up to 31 bytes, as perf keeps 16 */
#define CTX_STACK_MAX    256 /* open *_entry spans per thread */
#define CTX_MAX_CPUS     4096
#define CTX_MAX_SYSNAMES 4096 /* distinct raw syscall ids named; beyond: "syscall" */
#define CTX_NO_FIELD     0xFFFFu
#define CTX_TIME_UNSET   UINT64_MAX
#define CTX_CPU_UNKNOWN  (-2) /* perf per-thread --switch-events: no cpu recorded */

/* An open NAME_entry (or syscall) span of a thread. */
typedef struct ctx_open {
	const char *name;
	uint64_t begin;
	bool syscall;
} ctx_open;

typedef struct ctx_thread {
	int32_t pid, tid;
	char comm[CTX_COMM_MAX];
	uint8_t comm_len;
	bool exited;
	bool comm_from_perf; /* perf's thread model names it: payloads do not */
	uint64_t first_ns, last_ns;
	/* span state */
	int32_t running_cpu;     /* -1: not running; CTX_CPU_UNKNOWN: on some cpu */
	uint64_t running_since;  /* CTX_CPU_UNKNOWN: since when */
	uint64_t runnable_since; /* CTX_TIME_UNSET: not runnable */
	ctx_open *stack;         /* calls / syscall, grown amortized */
	uint16_t depth, cap;
} ctx_thread;

typedef struct ctx_cpu {
	bool known;  /* a switch was seen on this cpu */
	int32_t tid; /* running thread (0 idle) */
	int32_t pid;
	uint64_t since;
} ctx_cpu;

/* Where a member sits: scope (0 payload, 1 context, 2 stream context) and index. */
typedef struct ctx_ref {
	uint8_t scope;
	uint16_t idx; /* CTX_NO_FIELD: absent */
} ctx_ref;

typedef enum ctx_role {
	CTX_ROLE_NONE,
	CTX_ROLE_SWITCH,    /* sched_switch */
	CTX_ROLE_WAKEUP,    /* sched_wakeup, sched_wakeup_new */
	CTX_ROLE_FORK,      /* sched_process_fork */
	CTX_ROLE_EXIT,      /* sched_process_exit */
	CTX_ROLE_STATEDUMP, /* lttng_statedump_process_state */
	CTX_ROLE_SYS_ENTER, /* sys_enter_X, raw_syscalls:sys_enter, syscall_entry_X */
	CTX_ROLE_SYS_EXIT,
	CTX_ROLE_CALL_ENTRY, /* X_entry */
	CTX_ROLE_CALL_EXIT,  /* X_exit */
	CTX_ROLE_BIN_INFO,   /* lttng_ust_statedump:bin_info, lttng_ust_dl:dlopen */
} ctx_role;

/* An image mapped in an LTTng-UST process (bin_info / dlopen). */
typedef struct ctx_umap {
	int32_t pid;
	uint64_t start, end; /* [baddr, baddr + memsz) */
	const char *path;    /* interned */
	const char *base;    /* its basename */
	bool pic;            /* addresses in the image are offsets from baddr */
} ctx_umap;

/* What the context needs from one event class, found once. */
typedef struct ctx_class {
	const tk_event_class *cls;
	const tk_field_class *payload_cls, *context_cls, *stream_cls; /* as resolved */
	ctx_role role;
	const char *stem; /* syscall / call name (interned); NULL: from the id */
	const char *name; /* the class's name, interned: spans outlive the source */
	/* role fields (payload) */
	uint16_t f_prev_tid, f_next_tid, f_prev_state, f_prev_comm, f_next_comm;
	uint16_t f_tid, f_pid, f_comm, f_id; /* wakeup, statedump, raw syscall id */
	uint16_t f_child_tid, f_child_pid, f_child_comm;
	uint16_t f_track;                 /* CPEL/elog "track" */
	uint16_t f_perf_ip, f_perf_chain; /* perf samples */
	uint16_t f_counter;               /* the one number */
	const char *counter_name;
	/* LTTng contexts (context or stream context) */
	ctx_ref procname, vtid, vpid;
	ctx_ref ip;                                  /* LTTng "ip" context */
	uint16_t f_baddr, f_memsz, f_path, f_is_pic; /* bin_info */
} ctx_class;

typedef struct ctx_track {
	const char *name;
} ctx_track;

struct tk_context {
	unsigned flags;
	tk_context_options opt;
	tk_symcache_options symopt;
	bool have_symopt;
	tk_context_stats stats;
	uint64_t last_time; /* latest time fed: where tk_context_finish(c, 0) ends */
	/* the thread of the event fed last, as it was before the event's own
	 * effect (a sched_switch belongs to prev, not next) */
	const tk_event *cur_ev;
	uint64_t cur_off;
	int32_t cur_tid;
	tk_arena strings; /* interned names: stems, counter names, tracks */

	/* threads, in order of first sight */
	ctx_thread *threads;
	size_t n_threads, cap_threads;
	tk_hashmap by_tid; /* (u32)tid -> index */

	/* classes */
	ctx_class *classes;
	size_t n_classes, cap_classes;
	tk_hashmap class_by_ptr;     /* (uintptr)cls -> index */
	const ctx_class *last_class; /* one-entry cache: most traces repeat classes */

	/* sched */
	ctx_cpu *cpus;
	size_t n_cpus;
	bool saw_switch_tp; /* sched_switch tracepoints win over perf SWITCH records */

	/* tracks */
	ctx_track *tracks;
	size_t n_tracks, cap_tracks;
	tk_hashmap track_by_hash; /* FNV of the name (probed) -> index */
	/* open states: (track << 32 | class index) -> time of the last
	 * occurrence of that event on that track */
	tk_hashmap state_open;

	/* LTTng-UST images, sorted by (pid, start) */
	ctx_umap *umaps;
	size_t n_umaps, cap_umaps;

	size_t n_open; /* open call/syscall entries of every thread (capped) */

	/* raw syscall names ("sys_<id>"), interned by id (at most CTX_MAX_SYSNAMES) */
	tk_hashmap sysname_by_id; /* id -> (uintptr) name */

	/* completed spans: a ring drained by tk_context_next_span */
	tk_span *q;
	size_t q_head, q_n, q_cap;
	tk_span out; /* the span handed out last */

	/* the source's native hook this context took over (tk_source_set_context) */
	tk_status (*chained_native)(void *user, const void *file, const void *record,
				    tk_error *err);
	void *chained_user;

	/* perf */
	tk_threads *perf; /* perf's thread/maps model, created on the first record */
	const tk_perf_file *perf_file;
	uint64_t sample_offset; /* the last SAMPLE record: its offset and cpumode */
	unsigned sample_cpumode;
	bool have_sample;
};

/* ctx_threads.c */
ctx_thread *ctx_thread_get(tk_context *c, int32_t tid); /* NULL: unknown */
/* Finds or adds tid (pid may be TK_PID_NONE); NULL past max_threads / OOM. */
ctx_thread *ctx_thread_findnew(tk_context *c, int32_t pid, int32_t tid, uint64_t t);
void ctx_thread_set_comm(ctx_thread *th, const char *s, size_t n);
void ctx_thread_fill(const ctx_thread *th, tk_ctx_thread *out);
void ctx_threads_free(tk_context *c);
/* Updates the table from one model event (ids, LTTng contexts, sched and
 * statedump payloads). */
tk_status ctx_threads_event(tk_context *c, const ctx_class *k, const tk_event *ev, tk_error *err);

/* ctx_classes.c */
const ctx_class *ctx_class_of(tk_context *c, const tk_event *ev); /* NULL: OOM */
void ctx_classes_free(tk_context *c);
const tk_value *ctx_field(const tk_event *ev, uint16_t idx); /* payload member or NULL */
const tk_value *ctx_ref_value(const tk_event *ev, ctx_ref r);
bool ctx_value_int(const tk_value *v, int64_t *out);
bool ctx_value_str(const tk_value *v, const char **s, size_t *n);
const char *ctx_intern(tk_context *c, const char *s, size_t n); /* NULL: OOM */

/* ctx_spanq.c */
void ctx_span_emit(tk_context *c, const tk_span *s);
void ctx_spanq_free(tk_context *c);

/* ctx_sched.c: a switch on cpu at t (prev_state < 0: unknown) */
void ctx_sched_switch(tk_context *c, int32_t cpu, uint64_t t, int32_t prev_tid, int64_t prev_state,
		      int32_t next_tid);
void ctx_sched_wakeup(tk_context *c, uint64_t t, int32_t tid);
/* perf --switch-events: tid switched in (out=false) or out on cpu */
void ctx_sched_switch_record(tk_context *c, int32_t cpu, uint64_t t, int32_t pid, int32_t tid,
			     bool out, bool preempt);
void ctx_sched_finish(tk_context *c, uint64_t end);
int32_t ctx_sched_current(const tk_context *c, int32_t cpu); /* running tid or -1 */
void ctx_sched_free(tk_context *c);

/* ctx_pairs.c: syscalls and *_entry/_exit pairs */
void ctx_pairs_event(tk_context *c, const ctx_class *k, const tk_event *ev);
void ctx_pairs_finish(tk_context *c, uint64_t end);

/* ctx_state.c: CPEL/elog tracks and their state intervals */
int64_t ctx_track_of(const tk_context *c, const ctx_class *k, const tk_event *ev);
tk_status ctx_state_event(tk_context *c, const ctx_class *k, const tk_event *ev, tk_error *err);
void ctx_state_finish(tk_context *c, uint64_t end);
void ctx_tracks_free(tk_context *c);

/* ctx_umaps.c: LTTng-UST images (bin_info) and the lookup of an address */
void ctx_umaps_event(tk_context *c, const ctx_class *k, const tk_event *ev);
const ctx_umap *ctx_umap_find(const tk_context *c, int32_t pid, uint64_t ip);
void ctx_umaps_free(tk_context *c);

/* ctx_perf.c */
tk_status ctx_perf_feed(tk_context *c, const tk_perf_file *f, const tk_perf_record *rec,
			tk_error *err);
void ctx_perf_free(tk_context *c);

#endif
