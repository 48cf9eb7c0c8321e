/* `perf script --show-*-events`: the side-band records (COMM, FORK, EXIT,
 * MMAP, MMAP2, SWITCH, LOST, NAMESPACES, CGROUP, KSYMBOL, BPF_EVENT,
 * TEXT_POKE, FINISHED_ROUND) printed the way perf 6.1's builtin-script.c
 * (print_event_with_time, perf_sample__fprintf_start) and util/event.c
 * (perf_event__fprintf_*) print them, byte for byte.
 *
 * The thread shown is perf's: the record is fed to the thread model
 * before printing (COMM, FORK, MMAP...), except EXIT, printed first.
 * Filters, as perf script applies them to these records: only --cpu
 * (filter_cpu); --pid/--tid/--begin/--end/--event select samples only.
 * --show-round-events also needs the records in file order (perf turns
 * its ordering off for it): the CLI sets raw_order with it.
 *
 * No allocation and no printf per record (tk_put_* into the writer).
 * Not thread-safe (the thread model is not). */
#ifndef TK_OUTPUT_PERF_SCRIPT_EVENTS_H
#define TK_OUTPUT_PERF_SCRIPT_EVENTS_H

#include "context/threads_model.h"
#include "base/writer.h"
#include "model/render.h"

/* tk_render_options.script_show bits: one per perf script option. */
enum {
	TK_SHOW_TASK_EVENTS = 1u << 0,      /* --show-task-events: COMM FORK EXIT */
	TK_SHOW_MMAP_EVENTS = 1u << 1,      /* --show-mmap-events: MMAP MMAP2 */
	TK_SHOW_SWITCH_EVENTS = 1u << 2,    /* --show-switch-events: SWITCH(_CPU_WIDE) */
	TK_SHOW_LOST_EVENTS = 1u << 3,      /* --show-lost-events: LOST */
	TK_SHOW_NAMESPACE_EVENTS = 1u << 4, /* --show-namespace-events */
	TK_SHOW_CGROUP_EVENTS = 1u << 5,    /* --show-cgroup-events */
	TK_SHOW_BPF_EVENTS = 1u << 6,       /* --show-bpf-events: KSYMBOL BPF_EVENT */
	TK_SHOW_TEXT_POKE_EVENTS = 1u << 7, /* --show-text-poke-events: KSYMBOL TEXT_POKE */
	TK_SHOW_ROUND_EVENTS = 1u << 8,     /* --show-round-events: FINISHED_ROUND */
};

/* True when `show` asks for records of this type. */
bool tk_perf_script_shows(unsigned show, uint32_t type);

/* Feeds one non-sample record to the thread model t (as
 * tk_threads_process does) and, when opt->script_show asks for its
 * type, prints it to w. Errors: a record too short for its type (with
 * its offset), out of memory. */
tk_status tk_perf_script_side_band(tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
				   const tk_render_options *opt, tk_writer *w, tk_error *err);

#endif
