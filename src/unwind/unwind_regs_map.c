/* perf_reg_value(): one register of a sample's dump (see unwind_regs_map.h). */
#include <string.h>

#include "unwind/unwind_regs_map.h"

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
