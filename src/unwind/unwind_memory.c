/* Memory reads during an unwind (perf's unwind-libdw.c memory_read and
 * access_dso_mem): the sampled stack copy first; other addresses (a
 * CFA expression reading a constant, a PLT slot) from the file mapped
 * there, at its file offset. Every read is bounds-checked: a damaged
 * stack pointer or dump only makes reads fail. */
#if TK_HAVE_LIBDW
#include <string.h>

#include "unwind/unwind_memory.h"

/* perf's access_dso_mem(): -1 when no map holds addr (libunwind's read
 * fails), else 1 with the 8 bytes of the file mapped there, or 0 when
 * the map has no file or the file no such bytes (perf reads them as 0). */
static int image_read(tk_unwinder *u, uint64_t addr, uint64_t *out)
{
	Dwfl_Module *mod;
	tk_unwind_map map;
	tk_unwind_report r = tk_unwind_report_module(u, addr, &mod, &map);
	if (r == TK_UNWIND_NO_MAP)
		return -1;
	if (r != TK_UNWIND_REPORTED)
		return 0;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t len = 0;
	const char *raw = elf ? elf_rawfile(elf, &len) : NULL;
	uint64_t off = addr - map.start + map.pgoff;
	if (!raw || len < 8 || off > len - 8)
		return 0;
	memcpy(out, raw + off, 8);
	return 1;
}

/* perf's libunwind access_mem(), which Debian's perf uses: the last 8
 * bytes of the copy count as outside it, and an address outside the copy
 * reads from the file mapped there; where that map has no such bytes
 * the read gives 0 rather than failing (so a return address past a
 * truncated copy unwinds to pc 0, which tk_unwind turns into perf's
 * 0 - 1 frame), where no map holds the address it fails (a return
 * address read there ends perf's walk without that frame). */
bool tk_unwind_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	tk_unwinder *u = arg;
	uint64_t sp = u->regs.sp, size = u->in->stack_size, v = 0;
	if (addr > UINT64_MAX - 8)
		return false;
	u->last_read_frame = u->n;
	u->last_read_zero = false;
	if (addr >= sp && size > 8 && addr - sp < size - 8) {
		memcpy(&v, u->in->stack + (addr - sp), 8);
		if (u->in->swap)
			v = __builtin_bswap64(v);
	} else {
		int r = image_read(u, addr, &v);
		if (r < 0)
			return false;
		if (r == 0)
			v = 0;
	}
	/* the file is in the machine's byte order: x86_64 only so far */
	*result = v;
	u->last_read_zero = v == 0;
	return true;
}
#else
typedef int tk_unwind_memory_empty; /* ISO C: no empty translation unit */
#endif
