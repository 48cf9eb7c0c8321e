/* Inline frames at an unwound pc, from the image's DWARF (libdw's
 * dwarf_getscopes), in the order addr2line -i prints them, which is what
 * perf 6.1 turns into "(inlined)" frames (util/srcline.c, machine.c
 * append_inlines). Only looked up on a cache miss: dwarf_getscopes walks
 * the compilation unit's DIE tree and allocates its result. */
#if TK_HAVE_LIBDW
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind.h"
#include "unwind/unwind_image.h"
#include "unwind/unwind_space.h"

/* addr2line's function name: the linkage name when there is one (C++),
 * else DW_AT_name, following abstract origins and specifications. */
static const char *die_function_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	static const unsigned names[] = {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *s = dwarf_formstring(dwarf_attr_integrate(die, names[i], &attr));
		if (s && *s)
			return s;
	}
	return NULL;
}

/* Aliases: assembly files describe one body under several names (glibc's
 * memmove and memcpy variants). binutils' addr2line takes, among the
 * functions of the smallest range holding the address, the one read
 * last; libdw gives the first. The later siblings with the same range
 * decide. */
static const char *last_alias_name(Dwarf_Die *fn, const char *name)
{
	Dwarf_Addr lo, hi;
	if (dwarf_lowpc(fn, &lo) != 0 || dwarf_highpc(fn, &hi) != 0)
		return name;
	Dwarf_Die cur = *fn, next;
	/* bounded by the compilation unit's size */
	while (dwarf_siblingof(&cur, &next) == 0) {
		Dwarf_Addr l2, h2;
		if (dwarf_tag(&next) == DW_TAG_subprogram && dwarf_lowpc(&next, &l2) == 0 &&
		    dwarf_highpc(&next, &h2) == 0 && l2 == lo && h2 == hi) {
			const char *n2 = die_function_name(&next);
			if (n2)
				name = n2;
		}
		cur = next;
	}
	return name;
}

static size_t lookup(tk_unwinder *u, tk_unwind_space *s, uint64_t pc, const char **names,
		     size_t max)
{
	Dwfl_Module *mod = dwfl_addrmodule(s->dwfl, pc);
	Dwarf_Addr bias = 0;
	Dwarf_Die cu_mem, *cu = NULL;
	Dwarf *dw = NULL;
	tk_unwind_image_result r = mod && u->images
				       ? tk_unwind_image_dwarf(u->images, mod, &dw, &bias)
				       : TK_UNWIND_IMAGE_DEFER;
	if (r == TK_UNWIND_IMAGE_DWARF)
		cu = dwarf_addrdie(dw, pc - bias, &cu_mem);
	else if (r == TK_UNWIND_IMAGE_DEFER && mod)
		cu = dwfl_module_addrdie(mod, pc, &bias);
	if (!cu)
		return 0;
	/* dwarf_getscopes() stops at the innermost inlined instance (then
	 * gives its abstract definition's scopes); the concrete tree above
	 * it, with the function it was inlined into, comes from
	 * dwarf_getscopes_die() on that instance */
	Dwarf_Die *scopes = NULL, *outer = NULL;
	int n = dwarf_getscopes(cu, pc - bias, &scopes);
	int first = -1;
	for (int i = 0; i < n && first < 0; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			first = i;
	}
	Dwarf_Die *chain = scopes;
	int n_chain = 0;
	if (first >= 0 && dwarf_tag(&scopes[first]) == DW_TAG_inlined_subroutine) {
		n_chain = dwarf_getscopes_die(&scopes[first], &outer);
		chain = outer;
	} else if (first >= 0) {
		chain = &scopes[first];
		n_chain = 1;
	}
	size_t out = 0;
	for (int i = 0; i < n_chain && out < max; i++) {
		int tag = dwarf_tag(&chain[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		const char *name = die_function_name(&chain[i]);
		if (tag == DW_TAG_subprogram && name)
			name = last_alias_name(&chain[i], name);
		names[out++] = name ? name : "??";
		if (tag == DW_TAG_subprogram)
			break; /* the function that holds the inlined ones */
	}
	free(outer);
	free(scopes);
	return out;
}

size_t tk_unwind_inlines(tk_unwinder *u, const void *space, uint64_t pc, const char **names,
			 size_t max)
{
	tk_unwind_space *s = NULL;
	for (size_t i = 0; u && i < TK_UNWIND_SPACES; i++)
		if (u->spaces[i].key == space && u->spaces[i].dwfl)
			s = &u->spaces[i];
	if (!s)
		return 0;
	if (!u->inlines && !(u->inlines = calloc(TK_UNWIND_INLINE_SLOTS, sizeof *u->inlines)))
		return lookup(u, s, pc, names, max);
	uint64_t h = (pc ^ s->gen * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
	tk_unwind_inline_slot *slot = &u->inlines[(h >> 40) % TK_UNWIND_INLINE_SLOTS];
	if (slot->gen != s->gen || slot->pc != pc) {
		slot->gen = s->gen;
		slot->pc = pc;
		slot->n = (uint8_t)lookup(u, s, pc, slot->names, TK_UNWIND_INLINE_MAX);
	}
	size_t n = slot->n < max ? slot->n : max;
	memcpy(names, slot->names, n * sizeof *names);
	return n;
}
#else
typedef int tk_unwind_inline_empty; /* ISO C: no empty translation unit */
#endif
