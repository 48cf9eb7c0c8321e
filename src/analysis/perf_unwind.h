/* perf's thread__resolve_callchain_unwind(): the user frames of a
 * `--call-graph dwarf` sample, unwound by src/unwind over the thread
 * model's maps. The glue between the model and the unwinder, which knows
 * neither threads nor perf.data. */
#ifndef TK_ANALYSIS_PERF_UNWIND_H
#define TK_ANALYSIS_PERF_UNWIND_H

#include "context/perf_callchain.h"
#include "context/threads_model.h"

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

/* Most frames one unwound address expands to. */
#define TK_PERF_INLINE_MAX 16

/* One frame of perf's append_inlines() list. */
typedef struct tk_perf_inline_frame {
	const char *name; /* demangled, as perf prints it */
	size_t name_len;
	bool inlined; /* a function inlined there: printed "(inlined)"; else loc's own symbol */
} tk_perf_inline_frame;

/* perf's append_inlines() for an unwound frame ip of th resolved to loc
 * (which has a map and a symbol): the functions DWARF places there,
 * innermost first; one whose name is loc's symbol's is loc itself, any
 * other a fake "(inlined)" symbol at loc's offset. 0: no DWARF there,
 * the frame prints as loc alone. Names valid until the next unwind. */
size_t tk_perf_unwind_inlines(tk_threads *t, const tk_thread *th, const tk_addr_loc *loc,
			      uint64_t ip, tk_perf_inline_frame *out, size_t max);

/* perf's thread__resolve_callchain_unwind() after the sampled chain: the
 * sample's DWARF-unwound user frames (perf_unwind.h), each expanded into
 * its inline frames, appended to out (up to TK_CALLCHAIN_CAP frames).
 * Nothing for a sample without user registers and stack. */
void tk_callchain_append_unwound(tk_threads *t, const tk_thread *th, const tk_perf_attr *a,
				 const tk_perf_sample *s, tk_callchain *out);

#endif
