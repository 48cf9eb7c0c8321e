/* The unwinder's private state, shared by its files, and the Dwfl cache
 * (one per address space) with module reporting (libdw builds only). */
#ifndef TK_UNWIND_UNWIND_SPACE_H
#define TK_UNWIND_UNWIND_SPACE_H

#include <elfutils/libdwfl.h>

#include "unwind/unwind_regs.h"
#include "unwind/unwind_types.h"

typedef struct tk_unwinder tk_unwinder;

/* Images whose file could not be opened, remembered per space so a
 * missing binary costs one open() per space, not one per sample. */
#define TK_UNWIND_FAILED 16

/* One address space: a Dwfl with the images reported into it so far. */
typedef struct tk_unwind_space {
	const void *key; /* NULL: free slot */
	Dwfl *dwfl;
	bool attached; /* dwfl_attach_state done */
	bool stale;    /* an image conflicted: drop after the current walk */
	uint64_t last_used;
	uint64_t gen; /* unique per Dwfl made: inline cache entries key on it */
	/* the last image reported at a pc: any pc in [last_lo, last_hi) (its
	 * map and its module both hold it) gives the same answer while the
	 * maps (last_space_gen) and the Dwfl's modules stay the same */
	uint64_t last_lo, last_hi, last_space_gen;
	Dwfl_Module *last_mod;
	tk_unwind_map last_map;
	uint64_t failed_base[TK_UNWIND_FAILED];
	const char *failed_path[TK_UNWIND_FAILED];
	unsigned n_failed;
} tk_unwind_space;

/* Inline lists of pcs already looked up (direct mapped). */
#define TK_UNWIND_INLINE_SLOTS 4096

typedef struct tk_unwind_inline_slot {
	uint64_t gen; /* 0: empty */
	uint64_t pc;
	uint8_t n;
	const char *names[TK_UNWIND_INLINE_MAX];
} tk_unwind_inline_slot;

/* CFI rules of pcs already looked up (direct mapped, unwind_fast.c). */
#define TK_UNWIND_RULE_SLOTS 8192
typedef struct tk_unwind_rule tk_unwind_rule;

struct tk_unwind_images;

struct tk_unwinder {
	/* per-image DWARF for the inline frames (unwind_image.h); NULL with
	 * TRACEKIT_UNWIND_NO_CACHE: libdwfl's own Dwarf per space */
	struct tk_unwind_images *images;
	bool prefetch;                  /* TRACEKIT_UNWIND_PREFETCH: the worker thread */
	tk_unwind_inline_slot *inlines; /* TK_UNWIND_INLINE_SLOTS, made on first use */
	tk_unwind_rule *rules;          /* TK_UNWIND_RULE_SLOTS, made on first use */
	bool no_fast;                   /* TRACEKIT_UNWIND_NO_CACHE: libdwfl's walk only */
	tk_unwind_space spaces[TK_UNWIND_SPACES];
	uint64_t clock;
	/* the walk in progress, read by the libdwfl callbacks */
	const tk_unwind_input *in;
	tk_unwind_space *cur;
	tk_unwind_regs regs;
	uint64_t *pcs;
	size_t n, max;
	/* the last memory read: frames produced before it (libdwfl unwinds
	 * frame k's caller inside the callback for frame k, when asked
	 * whether k is an activation), and whether it gave 0 (the return
	 * address of a walk that ended on pc 0) */
	size_t last_read_frame;
	bool last_read_zero;
	/* a frame without CFI stopped libdwfl's walk (unwind_nocfi.h):
	 * guessed says so, restart has the next walk start from guess */
	bool guessed, restart;
	tk_unwind_guess guess;
	/* libdwfl's walk: its last frame's registers (the 17 of x86_64's
	 * DWARF numbering, carry_set), those it left undefined carried from
	 * the frame below (carried), as unwind_fast.c's rules carry them;
	 * carry_restart has the next walk start from that frame again */
	uint64_t carry[17], carry_pc;
	uint32_t carry_set, carried;
	bool carry_restart;
};

/* The space for key, made (or recycled, least recently used first) when
 * missing; its Dwfl is NULL only when out of memory. */
tk_unwind_space *tk_unwind_space_get(tk_unwinder *u, const void *key);
/* Ends the space's Dwfl and frees the slot. */
void tk_unwind_space_drop(tk_unwind_space *s);

typedef enum tk_unwind_report {
	TK_UNWIND_REPORTED, /* the module holding pc is in the Dwfl */
	TK_UNWIND_NO_MAP,   /* no map holds pc */
	TK_UNWIND_NO_IMAGE, /* a map without a readable ELF file */
	TK_UNWIND_CONFLICT, /* another image sits at pc in this Dwfl */
} tk_unwind_report;

/* perf's __report_module(): makes sure the image mapped at pc is reported
 * in the current space's Dwfl (at the bias map start - pgoff); *mod and
 * *map are filled when it is. */
tk_unwind_report tk_unwind_report_module(tk_unwinder *u, uint64_t pc, Dwfl_Module **mod,
					 tk_unwind_map *map);

#endif
