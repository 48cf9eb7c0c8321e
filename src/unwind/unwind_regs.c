/* perf's sampled user registers: reading one (perf_reg_value) and the
 * dispatch to each machine's mapping (unwind_regs_<machine>.c). */
#include <elf.h>
#include <string.h>

#include "unwind/unwind_regs.h"

bool tk_unwind_perf_reg(const tk_unwind_input *in, unsigned id, uint64_t *v)
{
	if (id >= 64 || !in->regs || !(in->regs_mask & (1ull << id)))
		return false;
	size_t idx = (size_t)__builtin_popcountll(in->regs_mask & ((1ull << id) - 1));
	if (idx >= in->regs_n)
		return false;
	uint64_t x;
	memcpy(&x, in->regs + idx * 8, 8);
	*v = in->swap ? __builtin_bswap64(x) : x;
	return true;
}

bool tk_unwind_regs_load(const tk_unwind_input *in, tk_unwind_regs *out)
{
	switch (in->machine) {
	case EM_X86_64: return tk_unwind_regs_x86_64(in, out);
	case EM_AARCH64: return tk_unwind_regs_aarch64(in, out);
	default: return false;
	}
}
