/* aarch64 register mapping (perf's arch/arm64/include/uapi/asm/perf_regs.h
 * order -> the AArch64 DWARF numbers; perf's arch/arm64/util/unwind-libdw.c).
 * Not used by the frame walk yet (tk_unwind_available() says x86_64): the
 * table is here, tested, so enabling aarch64 is the walk's work only. */
#include "unwind/unwind_regs_map.h"

/* perf_event_arm64_regs: X0..X28 = 0..28, X29 (fp) = 29, LR = 30, SP = 31,
 * PC = 32; the DWARF numbers are the same for x0..x30 and sp (31) */
enum { PERF_ARM64_LR = 30, PERF_ARM64_SP = 31, PERF_ARM64_PC = 32 };

bool tk_unwind_regs_aarch64(const tk_unwind_input *in, tk_unwind_regs *out)
{
	if (in->regs_abi != TK_UNWIND_ABI_64)
		return false;
	for (unsigned i = 0; i <= PERF_ARM64_SP; i++)
		if (!tk_unwind_perf_reg(in, i, &out->dwarf[i]))
			return false;
	if (!tk_unwind_perf_reg(in, PERF_ARM64_PC, &out->ip))
		return false;
	/* the pc is no DWARF register here (the return address column is
	 * x30): it is handed to libdwfl apart, as perf does */
	out->n = PERF_ARM64_SP + 1;
	out->sp = out->dwarf[PERF_ARM64_SP];
	out->pc_apart = true;
	return true;
}
