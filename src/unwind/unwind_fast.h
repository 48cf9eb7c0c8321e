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

#endif
