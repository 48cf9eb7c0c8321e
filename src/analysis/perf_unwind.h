/* perf's thread__resolve_callchain_unwind(): the user frames of a
 * `--call-graph dwarf` sample, unwound by src/unwind over the thread
 * model's maps. The glue between the model and the unwinder, which knows
 * neither threads nor perf.data. */
#ifndef TK_ANALYSIS_PERF_UNWIND_H
#define TK_ANALYSIS_PERF_UNWIND_H

#include "analysis/threads_model.h"

/* true when the recording's attrs make perf unwind with DWARF: some event
 * samples both REGS_USER and STACK_USER (perf's combined sample type, as
 * script__setup_sample_type checks it) on an x86_64 recording (or one
 * without an ARCH header). */
bool tk_perf_unwind_wanted(const tk_perf_file *f);

/* The sample's unwound user frames into pcs (callee first, pcs[0] the
 * user ip; callers as return address - 1); returns their number, 0 when
 * the sample has no registers or stack, or when perf would not unwind in
 * this address space (no readable image mapped: maps->unwind_ready).
 * The unwinder is t's, made on first use (t->unwinder). */
size_t tk_perf_unwind_sample(tk_threads *t, const tk_thread *th, const tk_perf_attr *a,
			     const tk_perf_sample *s, uint64_t *pcs, size_t max);

#endif
