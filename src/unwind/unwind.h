/* DWARF unwinding of the user stacks perf samples with `--call-graph
 * dwarf` (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), done with
 * elfutils' libdwfl the way perf's util/unwind-libdw.c does it: a Dwfl per
 * address space, dwfl_attach_state() with callbacks that give the sampled
 * registers and read memory from the sampled stack copy (then from the
 * mapped ELF files), and dwfl_getthread_frames() walking .eh_frame /
 * .debug_frame (debuglink and build-id debug files are found by libdwfl's
 * standard callbacks under /usr/lib/debug).
 *
 * Independent of any thread model: the caller gives the registers, the
 * stack bytes and a callback that finds the map holding an address.
 *
 * Caches: one Dwfl per address space (up to TK_UNWIND_SPACES, least
 * recently used dropped), each keeping the images reported into it and
 * the CFI libdw parsed from them, so the DWARF is read once per image and
 * process, not once per sample (perf builds and drops a Dwfl per sample).
 * Our code allocates nothing per sample; libdwfl allocates one small
 * state per frame it unwinds, freed before tk_unwind returns.
 *
 * Bounds: at most `max` frames (perf's max_stack, 127 by default) are
 * produced whatever the stack holds; memory reads are checked against the
 * stack copy and the mapped file's size. A damaged stack or register dump
 * gives a short (or empty) stack, never a crash or a loop.
 *
 * Without libdw at build time (TK_HAVE_LIBDW 0) tk_unwind() returns 0
 * frames and tk_unwind_available() says so. Not thread-safe: one
 * tk_unwinder per thread. */
#ifndef TK_UNWIND_UNWIND_H
#define TK_UNWIND_UNWIND_H

#include "unwind/unwind_types.h"

typedef struct tk_unwinder tk_unwinder;

/* NULL when out of memory. */
tk_unwinder *tk_unwinder_new(void);
/* NULL is fine. */
void tk_unwinder_free(tk_unwinder *u);

/* Drops the cached Dwfl of one address space (its maps changed so that
 * an address now holds another image). */
void tk_unwinder_forget(tk_unwinder *u, const void *space);

/* The images a recording samples (perf's build-id table lists them), to
 * load their DWARF for the inline frames ahead, on a worker thread that
 * tk_unwinder_preload_start() starts. Opt-in (TRACEKIT_UNWIND_PREFETCH=1;
 * otherwise both do nothing and each image loads on first use): perf
 * script's first sample already needs glibc's DWARF, so the worker had
 * no work of the main thread to overlap with (measured: no gain, slower
 * on a loaded machine). The output is the same either way. */
void tk_unwinder_preload(tk_unwinder *u, const char *path, const uint8_t *build_id,
			 size_t build_id_len);
void tk_unwinder_preload_start(tk_unwinder *u);

/* false when built without libdw (or for a machine with no register
 * mapping): tk_unwind then gives nothing. */
bool tk_unwind_available(uint16_t machine);

/* Unwinds one sample into pcs (callee first): pcs[0] is the sampled
 * instruction pointer, each caller's entry its return address minus one
 * (dwfl_frame_pc's non-activation rule, as perf prints them). Returns the
 * number of frames written (0..max); 0 when nothing could be unwound
 * (no registers, ip outside any readable image, no libdw). */
size_t tk_unwind(tk_unwinder *u, const tk_unwind_input *in, uint64_t *pcs, size_t max);

/* The functions DWARF places at an unwound pc of `space`, innermost first:
 * the inlined functions, then the one containing them (what perf's
 * append_inlines() gets from addr2line -i -f: linkage names preferred,
 * still mangled). 0 when no DWARF covers pc or the space is not cached.
 * The names are libdw's, valid until the next tk_unwind() call. Results
 * are cached per (space, pc). */
size_t tk_unwind_inlines(tk_unwinder *u, const void *space, uint64_t pc, const char **names,
			 size_t max);

#endif
