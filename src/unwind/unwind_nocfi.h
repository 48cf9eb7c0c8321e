/* A frame the CFI does not cover, stepped as perf's unwinder steps it
 * (see unwind_nocfi.c): libdwfl's own answer there differs from perf's. */
#ifndef TK_UNWIND_UNWIND_NOCFI_H
#define TK_UNWIND_UNWIND_NOCFI_H

#include "unwind/unwind_space.h"

typedef enum tk_unwind_cfi {
	TK_UNWIND_CFI_FOUND,    /* an FDE covers the pc: libdwfl's step is perf's */
	TK_UNWIND_CFI_NO_IMAGE, /* no image is reported there: perf's walk ends */
	TK_UNWIND_CFI_NONE,     /* an image without an FDE there: the guess below */
} tk_unwind_cfi;

/* Whether the current space's CFI (.eh_frame, then .debug_frame, as
 * libdwfl looks) covers lookup pc `pc` (a caller's return address - 1). */
tk_unwind_cfi tk_unwind_cfi_at(tk_unwinder *u, uint64_t pc);

/* The caller of a frame without CFI, as perf's unwinder guesses it from
 * the frame's rbp (rbp_known false: undefined) and rsp; false when perf's
 * walk ends at this frame. */
bool tk_unwind_guess_caller(tk_unwinder *u, bool rbp_known, uint64_t rbp, uint64_t sp,
			    tk_unwind_guess *out);

#endif
