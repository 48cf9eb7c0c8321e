/* PLT symbols the way perf 6.1 synthesizes them (dso__synthesize_plt_
 * symbols() in tools/perf/util/symbol-elf.c): the i-th relocation of
 * .rela.plt (or .rel.plt) names the i-th .plt entry after the header, as
 * "<dynsym name>@plt"; entry and header sizes per architecture, else the
 * section's sh_entsize. (perf 6.3 added .plt.sec, a ".plt" header symbol
 * and x86 relocation sorting; perf 6.1, the oracle here, has none.) */
#include <stdlib.h>
#include <string.h>

#include "symbols/elf_plt.h"

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

typedef struct sec {
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t index;
} sec;

static bool find_section(Elf *e, size_t shstrndx, const char *name, sec *out)
{
	Elf_Scn *scn = NULL;
	size_t guard = 0;
	while ((scn = elf_nextscn(e, scn)) && guard++ < 65536) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *n = elf_strptr(e, shstrndx, sh.sh_name);
		if (n && strcmp(n, name) == 0) {
			*out = (sec){scn, sh, elf_ndxscn(scn)};
			return true;
		}
	}
	return false;
}

static bool find_dynsym(Elf *e, sec *out)
{
	Elf_Scn *scn = NULL;
	size_t guard = 0;
	while ((scn = elf_nextscn(e, scn)) && guard++ < 65536) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM) {
			*out = (sec){scn, sh, elf_ndxscn(scn)};
			return true;
		}
	}
	return false;
}

static bool add_plt(tk_symtab *t, size_t *cap, const char *name, size_t name_len, uint64_t start,
		    uint64_t size)
{
	if (t->n_plt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		tk_symbol *p = realloc(t->plt, ncap * sizeof *p);
		if (!p)
			return false;
		t->plt = p;
		*cap = ncap;
	}
	/* name + "@plt" */
	char *s = tk_arena_alloc(&t->names, name_len + 5);
	if (!s)
		return false;
	memcpy(s, name, name_len);
	memcpy(s + name_len, "@plt", 5);
	t->plt[t->n_plt++] = (tk_symbol){.name = s, .start = start, .size = size, .type = 'T'};
	return true;
}

bool tk_elf_read_plt(Elf *e, const GElf_Ehdr *eh, tk_symtab *t)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return true;
	sec plt, rel, dynsym;
	if (!find_section(e, shstrndx, ".plt", &plt) || !find_dynsym(e, &dynsym))
		return true;
	if (!find_section(e, shstrndx, ".rela.plt", &rel) &&
	    !find_section(e, shstrndx, ".rel.plt", &rel))
		return true;
	if ((rel.sh.sh_type != SHT_RELA && rel.sh.sh_type != SHT_REL) ||
	    rel.sh.sh_link != dynsym.index || rel.sh.sh_entsize == 0 ||
	    plt.sh.sh_type == SHT_NOBITS)
		return true;
	Elf_Data *reldata = elf_getdata(rel.scn, NULL);
	Elf_Data *syms = elf_getdata(dynsym.scn, NULL);
	Elf_Scn *str_scn = elf_getscn(e, dynsym.sh.sh_link);
	if (!reldata || !reldata->d_buf || !syms || !str_scn)
		return true;
	uint64_t header, entry;
	switch (eh->e_machine) {
	case EM_ARM:
		header = 20;
		entry = 12;
		break;
	case EM_AARCH64:
		header = 32;
		entry = 16;
		break;
	case EM_SPARC:
		header = 48;
		entry = 12;
		break;
	case EM_SPARCV9:
		header = 128;
		entry = 32;
		break;
	default: header = entry = plt.sh.sh_entsize; break;
	}
	if (entry == 0)
		return true;
	uint64_t n = rel.sh.sh_size / rel.sh.sh_entsize;
	size_t fsize =
	    gelf_fsize(e, rel.sh.sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	if (fsize == 0)
		return true;
	if (n > reldata->d_size / fsize)
		n = reldata->d_size / fsize; /* the section header lies */
	uint64_t addr = plt.sh.sh_addr + header;
	size_t cap = 0;
	for (uint64_t i = 0; i < n; i++, addr += entry) {
		uint64_t info;
		if (rel.sh.sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			GElf_Rel r;
			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			info = r.r_info;
		}
		/* GELF_R_SYM works for both classes once widened by gelf. */
		GElf_Sym sym;
		const char *name = NULL;
		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			name = elf_strptr(e, dynsym.sh.sh_link, sym.st_name);
		if (!name)
			name = "";
		if (!add_plt(t, &cap, name, strlen(name), addr, entry))
			return false;
	}
	return true;
}
