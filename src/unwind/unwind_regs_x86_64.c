/* x86_64 register mapping (perf's arch/x86/include/uapi/asm/perf_regs.h
 * order -> the System V psABI's DWARF numbers). */
#include <elf.h>

#include "unwind/unwind_regs_map.h"

/* perf_event_x86_regs */
enum {
	PERF_X86_AX = 0,
	PERF_X86_BX = 1,
	PERF_X86_CX = 2,
	PERF_X86_DX = 3,
	PERF_X86_SI = 4,
	PERF_X86_DI = 5,
	PERF_X86_BP = 6,
	PERF_X86_SP = 7,
	PERF_X86_IP = 8,
	PERF_X86_R8 = 16,
};

bool tk_unwind_regs_x86_64(const tk_unwind_input *in, tk_unwind_regs *out)
{
	/* DWARF 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip(return address) */
	static const unsigned char perf_of_dwarf[17] = {
	    PERF_X86_AX,     PERF_X86_DX,     PERF_X86_CX,     PERF_X86_BX,     PERF_X86_SI,
	    PERF_X86_DI,     PERF_X86_BP,     PERF_X86_SP,     PERF_X86_R8,     PERF_X86_R8 + 1,
	    PERF_X86_R8 + 2, PERF_X86_R8 + 3, PERF_X86_R8 + 4, PERF_X86_R8 + 5, PERF_X86_R8 + 6,
	    PERF_X86_R8 + 7, PERF_X86_IP};
	if (in->regs_abi != TK_UNWIND_ABI_64)
		return false;
	for (unsigned i = 0; i < 17; i++)
		if (!tk_unwind_perf_reg(in, perf_of_dwarf[i], &out->dwarf[i]))
			return false;
	out->n = 17;
	out->ip = out->dwarf[16];
	out->sp = out->dwarf[7];
	out->pc_apart = false;
	return true;
}
