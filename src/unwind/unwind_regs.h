/* The register mapping of a sample's machine (see unwind_regs_map.h). */
#ifndef TK_UNWIND_UNWIND_REGS_H
#define TK_UNWIND_UNWIND_REGS_H

#include "unwind/unwind_regs_map.h"

/* Dispatch on in->machine; false for a machine without a mapping. */
bool tk_unwind_regs_load(const tk_unwind_input *in, tk_unwind_regs *out);

#endif
