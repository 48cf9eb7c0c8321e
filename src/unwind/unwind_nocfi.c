/* Frames without CFI, stepped as perf steps them.
 *
 * Debian's perf unwinds with libunwind (1.6, x86_64 unw_step() in
 * Gstep.c); tracekit walks with libdwfl. Where an FDE covers the pc the
 * two agree. Where none does (crti's _init/_fini, hand-written assembly),
 * they part:
 * - libdwfl (x86_64_unwind) follows rbp as a frame pointer and sets the
 *   caller's rsp to rbp + 16, which is right when rbp is one;
 * - libunwind checks the guess (rbp within 16 KiB above the frame's CFA)
 *   and takes the same return address and saved rbp, but moves its CFA
 *   only by 16 from where it was. A caller whose CFI computes its CFA
 *   from rsp then starts from that CFA, so perf reads the next return
 *   address from the wrong slot whenever the frame pointer was not this
 *   frame's own (ld.so's _dl_fini calling a library's _fini).
 * - an address in no image (the [stack], an anonymous map) has no unwind
 *   table for libunwind: perf's walk ends there, libdwfl guesses on.
 * tk_unwind() stops libdwfl's walk at such a frame and restarts it from
 * the registers perf's guess gives (unwind.c). Not emulated: libunwind's
 * signal-trampoline and PLT-stub recognition (both have CFI in current
 * toolchains) and its "invalid previous ip" fix-up (an ip in no readable
 * image, which ends the walk above). */
#if TK_HAVE_LIBDW
#include <stdlib.h>

#include "unwind/unwind_memory.h"
#include "unwind/unwind_nocfi.h"

/* libunwind's limit on how far above the CFA a frame pointer may be */
#define GUESS_MAX_DISTANCE 0x4000

static bool covered(Dwarf_CFI *cfi, Dwarf_Addr bias, uint64_t pc)
{
	Dwarf_Frame *frame = NULL;
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
		return false;
	free(frame);
	return true;
}

tk_unwind_cfi tk_unwind_cfi_at(tk_unwinder *u, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->cur->dwfl, pc);
	if (!mod)
		return TK_UNWIND_CFI_NO_IMAGE;
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	if (covered(cfi, bias, pc))
		return TK_UNWIND_CFI_FOUND;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	return covered(cfi, bias, pc) ? TK_UNWIND_CFI_FOUND : TK_UNWIND_CFI_NONE;
}

bool tk_unwind_guess_caller(tk_unwinder *u, bool rbp_known, uint64_t rbp, uint64_t sp,
			    tk_unwind_guess *out)
{
	/* an unknown rbp, or 0 (the ABI's end of the call chain), ends it;
	 * the ip itself reads fine (its image is reported), so libunwind's
	 * fix-up for a bad ip does not apply */
	if (!rbp_known || rbp == 0)
		return false;
	uint64_t saved_rbp, ra;
	if (!tk_unwind_memory_read(NULL, rbp, &saved_rbp, u) || rbp < sp ||
	    rbp - sp > GUESS_MAX_DISTANCE || !tk_unwind_memory_read(NULL, rbp + 8, &ra, u))
		return false;
	out->rbp = saved_rbp;
	out->sp = sp + 16; /* libunwind's CFA += 16, not rbp + 16 */
	out->ra = ra;
	return true;
}
#else
typedef int tk_unwind_nocfi_empty; /* ISO C: no empty translation unit */
#endif
