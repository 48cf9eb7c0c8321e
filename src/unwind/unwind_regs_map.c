/* perf_reg_value(): one register of a sample's dump (see unwind_regs_map.h). */
#include <string.h>

#include "unwind/unwind_regs_map.h"

/* The set bits of x. __builtin_popcountll() is a libgcc call without
 * -mpopcnt (x86-64 baseline): 17 of them per sample showed in profiles. */
static unsigned popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

bool tk_unwind_perf_reg(const tk_unwind_input *in, unsigned id, uint64_t *v)
{
	if (id >= 64 || !in->regs || !(in->regs_mask & (1ull << id)))
		return false;
	size_t idx = popcount64(in->regs_mask & ((1ull << id) - 1));
	if (idx >= in->regs_n)
		return false;
	uint64_t x;
	memcpy(&x, in->regs + idx * 8, 8);
	*v = in->swap ? __builtin_bswap64(x) : x;
	return true;
}
