/* tracekit record: the recorder behind `tracekit record` (Linux
 * perf_event_open). Internal API shared by src/record/ and the CLI:
 *   rec_events.c  event names -> perf_event_attr type/config (+ suggestions)
 *   rec_ring.c    per-CPU counters, mmap rings, the drain loop
 *   rec_synth.c   side-band from /proc, header features, tracing data
 *   rec_modules.c module maps from /proc/modules (after the kernel map)
 *   rec_buildid.c HEADER_BUILD_ID; rec_hits.c which files samples hit
 *   rec_parse.c   -k clock names, -m sizes, --epoch durations and names
 * Output goes through the perf.data writer (src/perf/writer/perfw_out). */
#ifndef TK_RECORD_H
#define TK_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "perf/writer/perfw_out.h"
#include "tracekit/tracekit.h"

#define REC_MAX_EVENTS 64
#define REC_MAX_CPUS   1024
/* Data pages per ring by default: 1 MiB, twice perf's 512 KiB, woken at a
 * quarter (as often as perf, which wakes at half): under load the recorder
 * reaches a ring later, and the larger ring loses fewer records (bench/
 * README.md, session 27). Where locked memory is limited (not root), perf's
 * size (REC_RING_PAGES_MIN). */
#define REC_RING_PAGES     256u
#define REC_RING_PAGES_MIN 128u

typedef struct rec_event {
	char name[256]; /* as perf names it: "cpu-clock", "sched:sched_switch" */
	uint32_t type;  /* PERF_TYPE_* */
	uint64_t config;
	bool is_tp;
	char sys[64], tp[96]; /* tracepoint system and name */
	bool excl_user, excl_kernel;
} rec_event;

/* Resolves one event spec (name[:u|:k], sys:name[:mods]). On failure
 * returns false with msg "unknown event 'X' (similar: a, b)". */
bool rec_event_parse(const char *spec, rec_event *ev, char *msg, size_t cap);
/* Like rec_event_parse, and tracepoint globs (sched:sched_s*) expanded
 * into up to cap events in name order; returns the count, 0 with msg. */
size_t rec_event_expand(const char *spec, rec_event *out, size_t cap, char *msg, size_t msg_cap);
/* The tracefs directory ("/sys/kernel/tracing" or the debugfs one), or NULL. */
const char *rec_tracefs(void);

/* -k NAME: perf's clock names (monotonic/mono, monotonic_raw/raw,
 * realtime/real, boottime/boot, tai, an optional CLOCK_ prefix) or a
 * number; false when unknown. */
bool rec_clockid_parse(const char *s, int *out);
/* -m: pages (rounded up to a power of 2) or a size with B/K/M/G; false on
 * bad syntax or beyond 2^20 pages. */
bool rec_mmap_pages_parse(const char *s, long page_size, unsigned *out);
/* "--epoch 10m": seconds (s, m, h, d suffixes; plain: seconds), >= 1. */
bool rec_epoch_parse(const char *s, uint64_t *seconds);
/* An epoch directory name for an epoch starting at t: dcpid's YYMMDDHHMM
 * when epochs are whole minutes, else YYYYMMDDHHMMSS (both UTC, both read
 * by tk_dcpi_db_*). */
void rec_epoch_name(time_t t, uint64_t epoch_seconds, char buf[16]);
/* The time an epoch starting now is named by: now, or, when that would
 * give the previous epoch's name again (rotations late under load land
 * in one second, or one minute for whole-minute epochs), the first time
 * after `last` with a name of its own. last: 0 for the first epoch. */
time_t rec_epoch_time(time_t now, time_t last, uint64_t epoch_seconds);

/* A sample/side-band id trailer size for our sample_type (TID TIME CPU
 * IDENTIFIER), used by synthesized records (perf writes it zeroed). */
#define REC_ID_HDR_SIZE 32

/* Files mapped during the recording, for HEADER_BUILD_ID (rec_buildid.c). */
typedef struct rec_dsos {
	char **names;
	size_t n, cap;
	/* names[] index + 1 by name hash (open addressing, 0 = empty): one
	 * lookup per MMAP record while recording, not a scan of every name */
	uint32_t *slots;
	size_t n_slots; /* power of two, or 0 */
} rec_dsos;
void rec_dsos_add(rec_dsos *d, const char *name); /* files only, once each */
void rec_dsos_free(rec_dsos *d);
/* kernel: also the running kernel's ([kernel.kallsyms], /sys/kernel/notes). */
tk_status rec_add_build_ids(const rec_dsos *d, bool kernel, perfw_out *o, tk_error *err);
/* The files user samples of the recording at path hit, and whether any
 * kernel sample was taken (rec_hits.c). */
tk_status rec_hit_files(const char *path, rec_dsos *hit, bool *kernel_hit, tk_error *err);

typedef struct rec_options {
	rec_event events[REC_MAX_EVENTS];
	size_t n_events;
	uint64_t period;      /* -c; 0: use freq */
	uint64_t freq;        /* -F */
	bool callchain;       /* -g */
	uint32_t dwarf_stack; /* --call-graph dwarf[,SIZE]: user stack bytes, 0: off */
	bool system_wide;
	int cpus[REC_MAX_CPUS]; /* -C, or every online CPU */
	size_t n_cpus;
	pid_t *pids;       /* -p: processes (every thread of each is opened) */
	bool threads_only; /* -t: pids are exactly the threads to open */
	size_t n_pids;
	pid_t workload; /* a forked child waiting for exec, or 0 */
	bool enable_on_exec;
	bool switch_events;  /* --switch-events: PERF_RECORD_SWITCH(_CPU_WIDE) */
	unsigned mmap_pages; /* -m: data pages per ring (a power of 2), 0: 128 */
	bool use_clockid;    /* -k: sample times from this clock, CLOCKID and */
	int clockid;         /* CLOCK_DATA features written */
} rec_options;

typedef struct rec_counter {
	int fd;
	int cpu;
	size_t event;
	uint64_t id;
} rec_counter;

typedef struct rec_ring {
	int fd; /* the counter whose buffer this is */
	int cpu;
	void *base; /* perf_event_mmap_page + data */
	size_t data_size;
	size_t map_len;
} rec_ring;

typedef struct rec_session {
	rec_options *opt;
	rec_counter *ctrs;
	size_t n_ctrs, cap_ctrs;
	rec_ring *rings;
	size_t n_rings;
	tk_perf_attr attrs[REC_MAX_EVENTS];
	uint64_t *ids[REC_MAX_EVENTS];
	uint64_t lost;    /* records the kernel reported lost */
	uint64_t samples; /* PERF_RECORD_SAMPLE records written */
	uint64_t records;
	uint8_t *scratch; /* one record across the ring's wrap */
	rec_dsos dsos;    /* files seen in MMAP/MMAP2 records */
	/* -k: the reference pair perf takes at the start (CLOCK_DATA): the
	 * time of day and the sample clock, in ns */
	uint64_t clock_ref_tod_ns, clock_ref_clock_ns;
} rec_session;

/* Opens every counter and maps the rings. On a permission error the
 * message names kernel.perf_event_paranoid. */
tk_status rec_open(rec_session *s, rec_options *opt, tk_error *err);
tk_status rec_enable(rec_session *s, tk_error *err);
void rec_disable(rec_session *s);
/* Waits up to timeout_ms for data (poll). True when every ring reports
 * POLLHUP: all the traced tasks are gone (-p, -t, a workload). */
bool rec_wait(rec_session *s, int timeout_ms);
/* One pass over every ring: records written, then FINISHED_ROUND when the
 * pass wrote any. */
tk_status rec_drain(rec_session *s, perfw_out *o, tk_error *err);
/* The same pass without the FINISHED_ROUND and the flush (while side-band
 * with time 0 is still being written, which no round may precede). */
tk_status rec_drain_records(rec_session *s, perfw_out *o, bool *wrote, tk_error *err);
void rec_close(rec_session *s);

/* Side-band before the data: the kernel map, then COMM and MMAP2 of the
 * given processes (all of /proc when pids is NULL). Flags: DATA_MAPS, the
 * non-exec file mappings too (for DWARF unwinding); FORKS, a FORK before
 * each thread's COMM, as perf for existing processes (not its workload).
 * live: counters already running (a --profile-db epoch's new stream): its
 * rings are drained after each process so that the walk of /proc, which
 * can take longer than a ring takes to fill, loses nothing. */
tk_status rec_synth_kernel(perfw_out *o, tk_error *err);
/* The module maps perf synthesizes after the kernel's (rec_modules.c). */
typedef struct rec_module {
	uint64_t start, size;
	char path[4096]; /* the .ko under modules_dir, else "[name]" */
} rec_module;
/* Parses a /proc/modules file (modules_dir: where to find the .ko files,
 * or NULL); *out malloc'd, in address order. */
size_t rec_modules_list(const char *proc_modules, const char *modules_dir, rec_module **out);
tk_status rec_synth_modules(perfw_out *o, tk_error *err);
/* PERF_RECORD_TIME_CONV from the first ring's mmap page (TSC to perf time),
 * written as perf does only when the kernel offers cap_user_time_zero. */
tk_status rec_synth_time_conv(const rec_session *s, perfw_out *o, tk_error *err);
enum { REC_SYNTH_DATA_MAPS = 1, REC_SYNTH_FORKS = 2 };
tk_status rec_synth_procs(perfw_out *o, const pid_t *pids, size_t n, unsigned flags, rec_dsos *dsos,
			  rec_session *live, tk_error *err);
/* Header features: hostname, osrelease, version, arch, nrcpus, cmdline,
 * event desc, tracing data (when there are tracepoints). */
tk_status rec_add_features(rec_session *s, perfw_out *o, int argc, char **argv, tk_error *err);

#endif
