/* The dispatch to each machine's register mapping (unwind_regs_<machine>.c). */
#include <elf.h>

#include "unwind/unwind_regs.h"

bool tk_unwind_regs_load(const tk_unwind_input *in, tk_unwind_regs *out)
{
	switch (in->machine) {
	case EM_X86_64: return tk_unwind_regs_x86_64(in, out);
	case EM_AARCH64: return tk_unwind_regs_aarch64(in, out);
	default: return false;
	}
}
