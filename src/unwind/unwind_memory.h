/* Memory reads during an unwind (see unwind_memory.c). */
#ifndef TK_UNWIND_UNWIND_MEMORY_H
#define TK_UNWIND_UNWIND_MEMORY_H

#include "unwind/unwind_space.h"

/* libdwfl's memory_read callback: the stack copy, else the mapped file. */
bool tk_unwind_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg);

#endif
