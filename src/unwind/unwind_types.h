/* The unwinder's input types (see unwind.h), apart so the register
 * mapping and the private state can use them without the API. */
#ifndef TK_UNWIND_UNWIND_TYPES_H
#define TK_UNWIND_UNWIND_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TK_UNWIND_SPACES 32

/* The map holding an address, as the recording's MMAP records give it. */
typedef struct tk_unwind_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;      /* file offset of start */
	const char *path;    /* the image file; NULL or "" when there is none */
} tk_unwind_map;

/* false: no map holds addr. */
typedef bool (*tk_unwind_find_map_fn)(void *user, uint64_t addr, tk_unwind_map *out);

/* perf's PERF_SAMPLE_REGS_ABI_* */
enum { TK_UNWIND_ABI_NONE = 0, TK_UNWIND_ABI_32 = 1, TK_UNWIND_ABI_64 = 2 };

typedef struct tk_unwind_input {
	/* Identity of the address space (e.g. the process's maps): the key
	 * of the Dwfl cache. Two samples with the same key must see the same
	 * images at the same addresses (or addresses the other never used). */
	const void *space;
	/* Changes whenever the maps of space change (0: unknown): the image
	 * found for a pc is reused while it stays the same. */
	uint64_t space_gen;
	int32_t pid;
	uint16_t machine; /* ELF e_machine of the recording (EM_X86_64) */
	uint64_t regs_abi;
	uint64_t regs_mask;   /* attr.sample_regs_user */
	const uint8_t *regs;  /* popcount(regs_mask) u64s, in file byte order */
	size_t regs_n;        /* u64s available at regs */
	bool swap;            /* regs and stack in the other byte order */
	const uint8_t *stack; /* the stack copy, from the sampled sp up */
	uint64_t stack_size;  /* bytes valid at stack (perf's dyn_size) */
	tk_unwind_find_map_fn find_map;
	void *find_user;
} tk_unwind_input;

/* The caller of a frame without CFI, as perf's unwinder guesses it
 * (unwind_nocfi.h). */
typedef struct tk_unwind_guess {
	uint64_t rbp; /* the caller's frame pointer */
	uint64_t sp;  /* what the caller's rsp-based CFA rule starts from */
	uint64_t ra;  /* the return address: the caller's pc + 1 */
} tk_unwind_guess;

/* Most inline levels reported for one pc (deeper ones are dropped). */
#define TK_UNWIND_INLINE_MAX 16

#endif
