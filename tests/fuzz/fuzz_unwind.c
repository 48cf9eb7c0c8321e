/* Fuzz target: the DWARF unwinder (src/unwind) on damaged samples. The
 * input is a register dump and a stack copy; the address space holds
 * real images so libdw walks real CFI (.eh_frame of this executable and
 * of the C library) driven by hostile stack words:
 *   byte 0     flags: bit 0 ABI 32 instead of 64, bit 1 drop a register
 *              from the mask (byte 1 says which), bit 2 ip taken as is
 *              (else folded into this executable's image), bit 3 forget
 *              the cached Dwfl first, bits 4-7 frame limit / 16
 *   byte 1     register dropped (bit 1)
 *   bytes 2-   17 registers (perf's x86_64 order, mask 0xff0fff: 20 u64s),
 *              then the stack copy (its first word at sp).
 * Map layout: this executable at 0x10000000, libc at 0x20000000, a
 * non-ELF file at 0x30000000, nothing elsewhere. Checks: at most the
 * frame limit comes back, never a crash, hang or leak. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unwind/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EXE_BASE  0x10000000ull
#define LIBC_BASE 0x20000000ull
#define JUNK_BASE 0x30000000ull

static tk_unwinder *unwinder;
static char exe_path[4096];
static uint64_t exe_size, libc_size;
static const char *libc_path;

static uint64_t file_size(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void setup(void)
{
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
	exe_path[n > 0 ? n : 0] = '\0';
	exe_size = file_size(exe_path);
	static const char *libcs[] = {"/usr/lib/x86_64-linux-gnu/libc.so.6",
				      "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6"};
	for (size_t i = 0; i < 3 && !libc_path; i++)
		if ((libc_size = file_size(libcs[i])))
			libc_path = libcs[i];
	unwinder = tk_unwinder_new();
}

static bool find_map(void *user, uint64_t addr, tk_unwind_map *out)
{
	(void)user;
	struct {
		uint64_t base, size;
		const char *path;
	} maps[] = {{EXE_BASE, exe_size, exe_path},
		    {LIBC_BASE, libc_size, libc_path},
		    {JUNK_BASE, 4096, "/dev/null"}};
	for (size_t i = 0; i < 3; i++) {
		if (maps[i].path && addr >= maps[i].base && addr - maps[i].base < maps[i].size) {
			*out = (tk_unwind_map){.start = maps[i].base,
					       .end = maps[i].base + maps[i].size,
					       .pgoff = 0,
					       .path = maps[i].path};
			return true;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!unwinder)
		setup();
	if (!unwinder || size < 2 + 20 * 8)
		return 0;
	uint8_t flags = data[0];
	uint64_t mask = 0xff0fffull;
	if (flags & 2)
		mask &= ~(1ull << (data[1] % 24));
	uint8_t regs[20 * 8];
	memcpy(regs, data + 2, sizeof regs);
	if (!(flags & 4) && exe_size) {
		/* ip (perf register 8) inside this executable's image */
		uint64_t ip;
		memcpy(&ip, regs + 8 * 8, 8);
		ip = EXE_BASE + ip % exe_size;
		memcpy(regs + 8 * 8, &ip, 8);
	}
	if (flags & 8)
		tk_unwinder_forget(unwinder, &unwinder);
	size_t max = (size_t)(flags >> 4) * 16 + 1;
	tk_unwind_input in = {
	    .space = &unwinder,
	    .space_gen = 1, /* the maps never change: the image cache is used */
	    .pid = 1,
	    .machine = EM_X86_64,
	    .regs_abi = flags & 1 ? 1 : 2,
	    .regs_mask = mask,
	    .regs = regs,
	    .regs_n = (size_t)__builtin_popcountll(mask),
	    .stack = data + 2 + sizeof regs,
	    .stack_size = size - 2 - sizeof regs,
	    .find_map = find_map,
	};
	uint64_t pcs[TK_UNWIND_INLINE_MAX * 16 + 1];
	size_t n = tk_unwind(unwinder, &in, pcs, max);
	if (getenv("FUZZ_UNWIND_VERBOSE"))
		fprintf(stderr, "unwind: %zu frames (max %zu)\n", n, max);
	if (n > max)
		abort();
	for (size_t i = 0; i < n; i++) {
		const char *names[TK_UNWIND_INLINE_MAX];
		size_t k =
		    tk_unwind_inlines(unwinder, &unwinder, pcs[i], names, TK_UNWIND_INLINE_MAX);
		for (size_t j = 0; j < k; j++)
			if (!names[j])
				abort();
	}
	return 0;
}
