/* A frame walk over cached CFI rules (see unwind_fast.c): the fast path
 * of tk_unwind(), giving exactly what libdwfl's walk gives or saying
 * that libdwfl must do this sample. */
#ifndef TK_UNWIND_UNWIND_FAST_H
#define TK_UNWIND_UNWIND_FAST_H

#include "unwind/unwind_space.h"

typedef enum tk_unwind_fast_result {
	TK_UNWIND_FAST_FALLBACK, /* a frame's rules are not cached: redo with libdwfl */
	TK_UNWIND_FAST_ENDED,    /* the return address became undefined (walk gives 0) */
	TK_UNWIND_FAST_ABORTED,  /* the frame limit or an image conflict stopped it */
} tk_unwind_fast_result;

/* Walks u->regs over u->cur's images into u->pcs (u->n frames), as
 * dwfl_getthread_frames() with unwind.c's on_frame would. Needs u->in,
 * u->cur (with its Dwfl), u->regs, u->pcs, u->max set and u->n == 0. */
tk_unwind_fast_result tk_unwind_fast(tk_unwinder *u);

/* Whether the CFA of the frame at lookup pc pc (of u->cur) is computed
 * from a register in mask (bits of DWARF numbers), or its rules are not
 * of the cached shapes (then it may be): unwind.c's libdwfl walk asks it
 * before it redoes a frame with the registers libdwfl lost. */
bool tk_unwind_fast_cfa_uses(tk_unwinder *u, uint64_t pc, uint32_t mask);

#endif
