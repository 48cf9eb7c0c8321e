/* The cached frame walk (see unwind_fast.h).
 *
 * Why: libdwfl re-parses the CFI of every frame of every sample
 * (dwarf_cfi_addrframe() mallocs a Dwarf_Frame, handle_cfi() asks
 * dwarf_frame_register() for each of the 17 registers and runs its
 * expression evaluator, which mallocs a stack, and a Dwfl_Frame is
 * malloc'd per frame). Profiles hit the same few hundred pcs thousands
 * of times, so the rules libdw derives for a pc are kept here, per
 * (Dwfl, pc), and applied without libdw.
 *
 * One departure from libdwfl, libunwind's (Debian's perf unwinds with
 * libunwind): a register the CFI leaves undefined keeps its value in the
 * caller, as libunwind's DWARF_WHERE_SAME default has it. libdw 0.188's
 * x86_64 ABI defaults name DWARF register 0 (rax) where they mean rbx,
 * so libdwfl loses rbx in the caller of any frame that does not save it,
 * and ld.so's _dl_runtime_resolve (CFA = rbx + 32) then ends its walk.
 * libdw cannot tell an explicit DW_CFA_undefined from no rule at all;
 * the return address, whose explicit undefined ends a stack, stays
 * undefined. unwind.c's libdwfl walk carries such registers the same way.
 *
 * Only the rule shapes libdw 0.188 produces for ordinary .eh_frame code
 * are cached: CFA = register + offset; each register undefined, same
 * value, saved at CFA + N, or CFA + N as a value. Anything else (a CFA
 * expression, a signal frame, no .eh_frame entry, a register-to-register
 * rule) makes the walk give up, and tk_unwind() redoes the sample with
 * libdwfl's own walk, so the result never depends on what is cached.
 *
 * The walk reproduces libdwfl's (frame_unwind.c handle_cfi/expr_eval and
 * dwfl_thread_getframes, as on_frame in unwind.c drives it) step for
 * step: the same module reports and the same memory reads in the same
 * order (registers 0..16, each read after its CFA evaluation), the same
 * end (return address undefined or 0). */
#if TK_HAVE_LIBDW
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind_fast.h"
#include "unwind/unwind_memory.h"

/* x86_64: DWARF registers 0..16, 16 the return address (rip) */
#define NREGS  17
#define RA_REG 16

enum {
	RULE_UNDEF = 0, /* register not recovered (the return address only) */
	RULE_SAME,      /* caller's value = this frame's */
	RULE_AT_CFA,    /* saved in memory at CFA + off */
	RULE_VAL_CFA,   /* value CFA + off */
};

enum { SLOT_EMPTY = 0, SLOT_RULES, SLOT_UNSUPPORTED };

struct tk_unwind_rule {
	uint64_t gen; /* the space's Dwfl */
	uint64_t pc;  /* the pc the CFI was looked up at (pc - 1 for callers) */
	int64_t cfa_off;
	int64_t off[NREGS];
	uint8_t state; /* SLOT_* */
	uint8_t cfa_reg;
	uint8_t kind[NREGS];
	/* most registers keep their value: those that do not, in order */
	uint32_t same; /* bits of the RULE_SAME registers */
	uint8_t n_moved;
	uint8_t moved[NREGS];
};

/* ops of a register rule as dwarf_frame_register() builds them for
 * offset(N) / val_offset(N): call_frame_cfa [plus_uconst N] [stack_value] */
static bool parse_reg(const Dwarf_Op *ops, size_t nops, uint8_t *kind, int64_t *off)
{
	if (nops < 1 || nops > 3 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	size_t i = 1;
	*off = 0;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[i++].number;
	*kind = RULE_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		*kind = RULE_VAL_CFA;
		i++;
	}
	return i == nops;
}

/* Fills r from libdw's frame state for lookup pc; false when a rule has
 * a shape this walk does not evaluate. */
static bool derive(Dwarf_Frame *frame, tk_unwind_rule *r)
{
	Dwarf_Addr start, end;
	bool signal = false;
	if (dwarf_frame_info(frame, &start, &end, &signal) != RA_REG || signal)
		return false;
	Dwarf_Op *ops;
	size_t nops;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx && ops[0].number < NREGS) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom < DW_OP_breg0 + NREGS) {
		r->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	for (int regno = 0; regno < NREGS; regno++) {
		Dwarf_Op mem[3], *rops;
		size_t rn;
		if (dwarf_frame_register(frame, regno, mem, &rops, &rn) != 0)
			return false;
		r->off[regno] = 0;
		if (rn == 0 && rops == mem)
			r->kind[regno] = regno == RA_REG ? RULE_UNDEF : RULE_SAME;
		else if (rn == 0 && rops == NULL)
			r->kind[regno] = RULE_SAME;
		else if (!parse_reg(rops, rn, &r->kind[regno], &r->off[regno]))
			return false;
	}
	r->same = 0;
	r->n_moved = 0;
	for (uint8_t regno = 0; regno < NREGS; regno++)
		if (r->kind[regno] == RULE_SAME)
			r->same |= 1u << regno;
		else
			r->moved[r->n_moved++] = regno;
	return true;
}

/* The rules at lookup pc `pc` of the current space, from the cache or
 * from libdw (.eh_frame only: libdwfl tries it first and a hit there
 * ends its search); NULL when they cannot be cached. */
static const tk_unwind_rule *rules_at(tk_unwinder *u, uint64_t pc)
{
	tk_unwind_space *s = u->cur;
	if (!u->rules && !(u->rules = calloc(TK_UNWIND_RULE_SLOTS, sizeof *u->rules)))
		return NULL;
	uint64_t h = (pc ^ s->gen * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
	tk_unwind_rule *r = &u->rules[(h >> 40) % TK_UNWIND_RULE_SLOTS];
	if (r->state != SLOT_EMPTY && r->gen == s->gen && r->pc == pc)
		return r->state == SLOT_RULES ? r : NULL;
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, pc);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	if (!mod)
		return NULL; /* not cached: the image may be reported later */
	Dwarf_Frame *frame = NULL;
	r->gen = s->gen;
	r->pc = pc;
	r->state = SLOT_UNSUPPORTED;
	if (cfi && dwarf_cfi_addrframe(cfi, pc - bias, &frame) == 0 && derive(frame, r))
		r->state = SLOT_RULES;
	free(frame);
	return r->state == SLOT_RULES ? r : NULL;
}

/* handle_cfi() for one frame: regs/set become the caller's. false when
 * the rules are not cached-evaluable (the caller falls back). *pc_set
 * says whether the caller's pc is defined (return address set, not 0). */
static bool step(tk_unwinder *u, const tk_unwind_rule *r, uint64_t *regs, uint32_t *set,
		 bool *pc_set)
{
	bool cfa_ok = (*set >> r->cfa_reg) & 1;
	uint64_t cfa = regs[r->cfa_reg] + (uint64_t)r->cfa_off;
	uint32_t out_set = *set & r->same;
	/* the others in register order: libdwfl reads memory in that order */
	for (unsigned i = 0; i < r->n_moved; i++) {
		unsigned regno = r->moved[i];
		uint64_t v;
		switch (r->kind[regno]) {
		case RULE_AT_CFA:
			if (!cfa_ok ||
			    !tk_unwind_memory_read(NULL, cfa + (uint64_t)r->off[regno], &v, u))
				continue;
			break;
		case RULE_VAL_CFA:
			if (!cfa_ok)
				continue;
			v = cfa + (uint64_t)r->off[regno];
			break;
		default: continue;
		}
		regs[regno] = v;
		out_set |= 1u << regno;
	}
	*pc_set = ((out_set >> RA_REG) & 1) && regs[RA_REG] != 0;
	*set = out_set;
	return true;
}

bool tk_unwind_fast_cfa_uses(tk_unwinder *u, uint64_t pc, uint32_t mask)
{
	const tk_unwind_rule *r = rules_at(u, pc);
	return !r || ((mask >> r->cfa_reg) & 1);
}

tk_unwind_fast_result tk_unwind_fast(tk_unwinder *u)
{
	uint64_t regs[NREGS];
	if (u->regs.n != NREGS)
		return TK_UNWIND_FAST_FALLBACK;
	memcpy(regs, u->regs.dwarf, sizeof regs);
	uint32_t set = (1u << NREGS) - 1;
	uint64_t pc = u->regs.ip;
	for (bool initial = true;; initial = false) {
		/* on_frame(): the image at pc reported first */
		Dwfl_Module *mod;
		tk_unwind_map map;
		if (tk_unwind_report_module(u, pc, &mod, &map) == TK_UNWIND_CONFLICT)
			return TK_UNWIND_FAST_ABORTED;
		const tk_unwind_rule *r = NULL;
		bool pc_set = false;
		if (!initial) {
			/* libdwfl unwinds a caller frame while on_frame asks
			 * whether it is an activation, before it is counted */
			if (!(r = rules_at(u, pc - 1)) || !step(u, r, regs, &set, &pc_set))
				return TK_UNWIND_FAST_FALLBACK;
			u->pcs[u->n++] = pc - 1;
		} else {
			u->pcs[u->n++] = pc;
		}
		if (u->n >= u->max)
			return TK_UNWIND_FAST_ABORTED;
		if (initial && (!(r = rules_at(u, pc)) || !step(u, r, regs, &set, &pc_set)))
			return TK_UNWIND_FAST_FALLBACK;
		if (!pc_set)
			return TK_UNWIND_FAST_ENDED; /* dwfl_getthread_frames() gives 0 */
		pc = regs[RA_REG];
	}
}
#else
typedef int tk_unwind_fast_empty; /* ISO C: no empty translation unit */
#endif
