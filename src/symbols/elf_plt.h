/* PLT entry symbols ("name@plt"), which no symbol table holds. */
#ifndef TK_ELF_PLT_H
#define TK_ELF_PLT_H

#include <gelf.h>

#include "symbols/symtab_internal.h"

/* Fills t->plt from .plt and .rela.plt/.rel.plt of e (nothing when the
 * image has none, e.g. a separate debug file). false: out of memory. */
bool tk_elf_read_plt(Elf *e, const GElf_Ehdr *eh, tk_symtab *t);

#endif
