/* perf's sampled user registers -> the DWARF register set libdwfl starts
 * unwinding from: the register set, reading one register of a sample, and
 * one mapping per machine (unwind_regs_<machine>.c), so aarch64 (and x86's
 * 32-bit ABI) can follow without touching the frame walk. */
#ifndef TK_UNWIND_UNWIND_REGS_MAP_H
#define TK_UNWIND_UNWIND_REGS_MAP_H

#include "unwind/unwind_types.h"

/* DWARF registers handed to dwfl_thread_state_registers(), from 0. */
#define TK_UNWIND_DWARF_REGS_MAX 33

typedef struct tk_unwind_regs {
	uint64_t dwarf[TK_UNWIND_DWARF_REGS_MAX];
	unsigned n; /* registers 0..n-1 are set */
	uint64_t ip, sp;
	bool pc_apart; /* ip is no DWARF register: dwfl_thread_state_register_pc */
} tk_unwind_regs;

/* perf_reg_value(): register `id` (perf's numbering) of the sample; false
 * when the sample does not hold it. */
bool tk_unwind_perf_reg(const tk_unwind_input *in, unsigned id, uint64_t *v);

/* x86_64 (perf's arch/x86/util/unwind-libdw.c): false when the ABI is
 * not 64-bit or a register is missing. */
bool tk_unwind_regs_x86_64(const tk_unwind_input *in, tk_unwind_regs *out);

/* aarch64 (perf's arch/arm64/util/unwind-libdw.c): x0..x30 and sp as
 * DWARF 0..31, the pc apart; false when the ABI is not 64-bit or a
 * register is missing. */
bool tk_unwind_regs_aarch64(const tk_unwind_input *in, tk_unwind_regs *out);

#endif
