/* Source lines with libdw (see srcline.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/srcline.h"
#include "base/arena.h"
#include "base/hashmap.h"

/* Images with a Dwfl open at once; more are looked up uncached (a new
 * Dwfl per call) rather than holding every file of a system profile. */
#define SRCLINE_IMAGES 64
/* perf's A2L_FAIL_LIMIT (util/srcline.c) */
#define A2L_FAIL_LIMIT 123

#if TK_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>

#include "tracekit/symbols.h"

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

typedef struct fsym fsym;

typedef struct image {
	const char *path; /* arena */
	Dwfl *dwfl;       /* NULL: the file could not be read */
	Dwfl_Module *mod;
	/* the symbol table's function symbols, for lines without DWARF
	 * (symtab_file), made on first use */
	bool fsyms_built;
	fsym *fsyms;
	size_t n_fsyms;
	Elf *symelf; /* the file of that table, and its bias */
	Dwarf_Addr symbias;
	/* perf's dso->a2l_fails (1 until a lookup succeeds, then 0) and
	 * !dso->has_srcline */
	unsigned a2l_fails;
	bool a2l_off;
} image;
#endif

struct tk_srcline {
	tk_arena text;
	bool fail_limit;       /* tk_srcline_fail_limit() */
	const char *debug_dir; /* tk_srcline_debug_dir(), arena */
	tk_hashmap cache;      /* hash(path, off) -> entry *, probing on collision */
#if TK_HAVE_LIBDW
	image images[SRCLINE_IMAGES];
	size_t n_images;
#endif
};

/* one cached lookup (the cache maps a hash of (path, off) to it) */
typedef struct entry {
	const char *path;
	uint64_t off;
	bool full;
	const char *text;
} entry;

tk_srcline *tk_srcline_new(void)
{
	tk_srcline *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	tk_arena_init(&s->text, 16 * 1024);
	tk_hashmap_init(&s->cache);
	return s;
}

void tk_srcline_fail_limit(tk_srcline *s, bool on)
{
	if (s)
		s->fail_limit = on;
}

void tk_srcline_debug_dir(tk_srcline *s, const char *dir)
{
	if (s)
		s->debug_dir = dir ? tk_arena_strdup(&s->text, dir) : NULL;
}

void tk_srcline_free(tk_srcline *s)
{
	if (!s)
		return;
#if TK_HAVE_LIBDW
	for (size_t i = 0; i < s->n_images; i++) {
		if (s->images[i].dwfl)
			dwfl_end(s->images[i].dwfl);
		free(s->images[i].fsyms);
	}
#endif
	tk_hashmap_free(&s->cache);
	tk_arena_free(&s->text);
	free(s);
}

#if TK_HAVE_LIBDW
/* Whether the ELF file at path has a .symtab. */
static bool has_symtab(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool found = false;
	elf_version(EV_CURRENT); /* libelf's handshake, before any Dwfl did it */
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn && !found;
	     scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		found = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB;
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* The file perf's symbols come from, which it gives addr2line (the dso's
 * symsrc_filename): the build-id cache's copy when it has a .symtab
 * (perf's candidates come in that order), else the path, whose separate
 * debug file libdwfl finds by build id as perf's next candidates. */
static const char *symbol_file(const tk_srcline *s, const char *path, const uint8_t *id,
			       size_t id_len, char *buf, size_t size)
{
	if (!s->debug_dir || !id_len || id_len > TK_BUILD_ID_MAX)
		return path;
	char hex[2 * TK_BUILD_ID_MAX + 1];
	tk_build_id_hex(id, id_len, hex);
	snprintf(buf, size, "%s/.build-id/%.2s/%s/elf", s->debug_dir, hex, hex + 2);
	return has_symtab(buf) ? buf : path;
}

static image *image_of(tk_srcline *s, const char *path, const uint8_t *id, size_t id_len,
		       image *tmp)
{
	for (size_t i = 0; i < s->n_images; i++)
		if (strcmp(s->images[i].path, path) == 0)
			return &s->images[i];
	image *im = s->n_images < SRCLINE_IMAGES ? &s->images[s->n_images] : tmp;
	memset(im, 0, sizeof *im);
	im->path = tk_arena_strdup(&s->text, path);
	if (!im->path)
		return NULL;
	im->a2l_fails = 1;
	char buf[4096];
	const char *file = symbol_file(s, path, id, id_len, buf, sizeof buf);
	if ((im->dwfl = dwfl_begin(&callbacks))) {
		/* at its link-time addresses (bias 0) */
		im->mod = dwfl_report_offline(im->dwfl, file, file, -1);
		dwfl_report_end(im->dwfl, NULL, NULL);
		if (!im->mod) {
			dwfl_end(im->dwfl);
			im->dwfl = NULL;
		}
	}
	if (im != tmp)
		s->n_images++;
	return im;
}

/* The link-time address of file offset off: the PT_LOAD holding it. */
static bool vaddr_of(Dwfl_Module *mod, uint64_t off, uint64_t *vaddr)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t n;
	if (!elf || elf_getphdrnum(elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && off >= ph.p_offset &&
		    off - ph.p_offset < ph.p_filesz) {
			*vaddr = off - ph.p_offset + ph.p_vaddr + bias;
			return true;
		}
	}
	return false;
}

/* Whether va lies in a .plt* section. */
static bool in_plt(Dwfl_Module *mod, uint64_t va)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t shstrndx;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    va - bias < sh.sh_addr || va - bias - sh.sh_addr >= sh.sh_size)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		return name && strncmp(name, ".plt", 4) == 0;
	}
	return false;
}

/* The start of the CU's address range holding addr (its sequence: gcc
 * emits one per contiguous piece of a section), or addr itself. */
static Dwarf_Addr range_start(Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	while ((off = dwarf_ranges(cu, off, &base, &start, &end)) > 0)
		if (addr >= start && addr < end)
			return start;
	return addr;
}

/* dl's index in lines (sorted by address: bisected to the first row at
 * its address, at), n when it is not there. */
static size_t row_index(Dwarf_Lines *lines, size_t n, Dwarf_Line *dl, Dwarf_Addr at)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr a = 0;
		dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
		if (a < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, lo);
		Dwarf_Addr a = 0;
		if (l == dl)
			return lo;
		if (!l || dwarf_lineaddr(l, &a) != 0 || a != at)
			break;
	}
	return n;
}

/* The file binutils' addr2line (perf's) names for a row: in a DWARF 5
 * line table it starts each sequence with entry 0's name, although the
 * file register starts at 1, until the first DW_LNS_set_file. gcc sets
 * the file only when it changes, so the rows of a sequence that are all
 * in file 1 up to this one are those (glibc's dl-cacheinfo.h rows in
 * dl-get-cpu-features.c's table: addr2line says dl-get-cpu-features.c).
 * libdw sorts a CU's rows by address, sequences abutting or interleaved
 * at their ends: the sequence is taken as the CU's range holding the
 * row. */
static const char *addr2line_file(Dwfl_Line *line, const char *file)
{
	Dwarf_Addr bias, at;
	Dwarf_Line *dl = dwfl_dwarf_line(line, &bias);
	Dwarf_Die *cu = dwfl_linecu(line);
	Dwarf_Files *files;
	size_t idx, n;
	Dwarf_Half version;
	Dwarf_Lines *lines;
	if (!dl || !cu || dwarf_line_file(dl, &files, &idx) != 0 || idx != 1 ||
	    dwarf_lineaddr(dl, &at) != 0 ||
	    dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0 ||
	    version < 5 || dwarf_getsrclines(cu, &lines, &n) != 0)
		return file;
	size_t i = row_index(lines, n, dl, at);
	if (i == n)
		return file;
	Dwarf_Addr start = range_start(cu, at);
	while (i-- > 0) {
		Dwarf_Line *p = dwarf_onesrcline(lines, i);
		Dwarf_Addr pa;
		bool end = true;
		Dwarf_Files *pf;
		size_t pidx;
		if (!p || dwarf_lineaddr(p, &pa) != 0 || pa < start)
			break;
		if (dwarf_lineendsequence(p, &end) != 0 || end)
			continue; /* another sequence ending where this one starts */
		if (dwarf_line_file(p, &pf, &pidx) != 0 || pidx != 1)
			return file;
	}
	const char *zero = dwarf_filesrc(files, 0, NULL, NULL);
	return zero ? zero : file;
}

/* The index of the allocated section of elf holding va (a link-time
 * address), 0 for none. */
static size_t section_of(Elf *elf, GElf_Addr va)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && va >= sh.sh_addr &&
		    va - sh.sh_addr < sh.sh_size)
			return elf_ndxscn(scn);
	}
	return 0;
}

/* A symbol binutils takes for a function (_bfd_elf_maybe_function_sym):
 * its size (0 for one it skips), a symbol of size 0 counting as 1. */
static GElf_Xword function_size(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_TLS ||
	    type == STT_COMMON)
		return 0;
	if (sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL && type == STT_NOTYPE &&
	    GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN)
		return 0; /* annobin's markers */
	return sym->st_size ? sym->st_size : 1;
}

/* Where the DWARF names no file for va, binutils' addr2line (which perf
 * asks) names the file of the function symbol best fitting va
 * (_bfd_elf_find_function): the closest symbol at or below va in va's
 * section, among those at one address one covering va, a function over
 * other types, a typed one over NOTYPE, then the smaller; its file is
 * the STT_FILE symbol before it in the table, for a local symbol (or any
 * symbol while no file symbol has come after another symbol). addr2line
 * prints that file with line "?", which perf reads as 0.
 *
 * The candidates, each with the file the table's order gives it, are
 * listed once per image sorted by address (table order among equals),
 * so a lookup is a bisection, not a pass over the table. */
typedef struct fsym {
	GElf_Addr off; /* biased, as the addresses looked up */
	GElf_Xword size;
	const char *file; /* NULL: none */
	uint32_t index;   /* in the table */
	uint16_t shndx;
	uint8_t type;
} fsym;

static int fsym_cmp(const void *pa, const void *pb)
{
	const fsym *a = pa, *b = pb;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static void build_fsyms(image *im)
{
	im->fsyms_built = true;
	int n = dwfl_module_getsymtab(im->mod);
	if (n <= 1 || !(im->fsyms = malloc((size_t)n * sizeof *im->fsyms)))
		return;
	const char *file = NULL;
	bool seen = false, file_after = false;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name =
		    dwfl_module_getsym_info(im->mod, i, &sym, &addr, &shndx, &elf, &bias);
		if (!name)
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = name;
			file_after |= seen;
			continue;
		}
		seen = true;
		GElf_Xword size = function_size(&sym);
		if (!size || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		im->symelf = elf;
		im->symbias = bias;
		bool named = GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after;
		im->fsyms[im->n_fsyms++] = (fsym){.off = addr,
						  .size = size,
						  .file = named ? file : NULL,
						  .index = (uint32_t)i,
						  .shndx = (uint16_t)shndx,
						  .type = (uint8_t)GELF_ST_TYPE(sym.st_info)};
	}
	qsort(im->fsyms, im->n_fsyms, sizeof *im->fsyms, fsym_cmp);
}

/* better_fit() of binutils for two symbols at one address. */
static bool fits_better(const fsym *best, const fsym *c, GElf_Addr va)
{
	if (best->off + best->size <= va)
		return c->size > best->size; /* neither covers va: the larger */
	if (c->off + c->size <= va)
		return false;
	if ((best->type == STT_FUNC) != (c->type == STT_FUNC))
		return c->type == STT_FUNC;
	if ((best->type == STT_NOTYPE) != (c->type == STT_NOTYPE))
		return best->type == STT_NOTYPE;
	return c->size < best->size;
}

/* Whether binutils finds a function symbol for va (biased), and the
 * file it names then (*file, NULL for none: "??:?"). */
static bool symtab_file(image *im, GElf_Addr va, const char **file)
{
	*file = NULL;
	if (!im->fsyms_built)
		build_fsyms(im);
	if (!im->n_fsyms || !im->symelf)
		return false;
	size_t shndx = section_of(im->symelf, va - im->symbias);
	if (!shndx)
		return false;
	/* the last candidate at or below va */
	size_t lo = 0, hi = im->n_fsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (im->fsyms[mid].off <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the closest address in va's section, then its symbols in table
	 * order */
	size_t end = lo;
	while (end > 0 && im->fsyms[end - 1].shndx != shndx)
		end--;
	if (!end)
		return false;
	GElf_Addr at = im->fsyms[end - 1].off;
	size_t first = end - 1;
	while (first > 0 && im->fsyms[first - 1].off == at)
		first--;
	const fsym *best = NULL;
	for (size_t i = first; i < end; i++)
		if (im->fsyms[i].shndx == shndx && (!best || fits_better(best, &im->fsyms[i], va)))
			best = &im->fsyms[i];
	if (!best)
		return false;
	*file = best->file;
	return true;
}

/* Whether va lies outside the address ranges of line's CU: libdw returns
 * the last row at or below va, also one a sequence ends on (an empty row
 * on the padding after a function, sorted after the sequence's end),
 * where addr2line finds no line. A CU without ranges is not judged. */
static bool outside_cu(Dwfl_Line *line, Dwarf_Addr va)
{
	Dwarf_Addr bias, base, start, end;
	Dwarf_Die *cu = dwfl_linecu(line);
	if (!dwfl_dwarf_line(line, &bias) || !cu)
		return false;
	ptrdiff_t off = 0;
	bool any = false;
	while ((off = dwarf_ranges(cu, off, &base, &start, &end)) > 0) {
		any = true;
		if (va - bias >= start && va - bias < end)
			return false;
	}
	return any;
}

/* binutils' answer for off in path as perf reads it: "file:line";
 * "file:0" or "??:0" for addr2line's "file:?" and "??:?" (a function
 * symbol found, no line); NULL where addr2line finds nothing ("??:0",
 * which perf counts as a failure and replaces by sym+off or dso[addr]:
 * also the PLT, which has no symbols) or the file cannot be read. */
static const char *lookup(tk_srcline *s, image *im, uint64_t off, bool full)
{
	const char *out = NULL;
	uint64_t va;
	if (im && im->mod && vaddr_of(im->mod, off, &va)) {
		Dwfl_Line *line = dwfl_module_getsrc(im->mod, va);
		int lineno = 0;
		const char *file =
		    line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (file && outside_cu(line, va))
			file = NULL;
		if (file) {
			file = addr2line_file(line, file);
		} else if (!in_plt(im->mod, va) && symtab_file(im, va, &file)) {
			lineno = 0; /* "file.c:?" from addr2line */
			if (!file)
				return "??:0"; /* "??:?" */
		}
		if (file) {
			const char *base = full ? file : strrchr(file, '/');
			base = base ? (full ? base : base + 1) : file;
			char buf[4096];
			snprintf(buf, sizeof buf, "%s:%d", base, lineno);
			out = tk_arena_strdup(&s->text, buf);
		}
	}
	return out;
}

/* lookup() with perf's failure limit when asked for: an image whose
 * first A2L_FAIL_LIMIT lookups all fail is not asked again
 * (__get_srcline), so its later addresses fail too. */
static const char *lookup_limited(tk_srcline *s, const char *path, const uint8_t *id, size_t id_len,
				  uint64_t off, bool full)
{
	image tmp;
	image *im = image_of(s, path, id, id_len, &tmp);
	const char *out = NULL;
	bool counted = s->fail_limit && im && im != &tmp;
	if (!counted || !im->a2l_off)
		out = lookup(s, im, off, full);
	if (counted && out)
		im->a2l_fails = 0;
	else if (counted && im->a2l_fails && ++im->a2l_fails > A2L_FAIL_LIMIT)
		im->a2l_off = true;
	if (im == &tmp && tmp.dwfl)
		dwfl_end(tmp.dwfl);
	if (im == &tmp)
		free(tmp.fsyms);
	return out;
}
#else
static const char *lookup_limited(tk_srcline *s, const char *path, const uint8_t *id, size_t id_len,
				  uint64_t off, bool full)
{
	(void)s;
	(void)path;
	(void)id;
	(void)id_len;
	(void)off;
	(void)full;
	return NULL;
}
#endif

const char *tk_srcline_get(tk_srcline *s, const char *path, uint64_t off, bool full_path)
{
	return tk_srcline_get_id(s, path, NULL, 0, off, full_path);
}

const char *tk_srcline_get_id(tk_srcline *s, const char *path, const uint8_t *id, size_t id_len,
			      uint64_t off, bool full_path)
{
	if (!s || !path || !*path)
		return NULL;
	uint64_t h = 1469598103934665603ull ^ off ^ ((uint64_t)full_path << 63);
	for (const char *p = path; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	for (;; h++) {
		uint64_t *v = tk_hashmap_get(&s->cache, h);
		if (!v)
			break;
		const entry *e = (const entry *)(uintptr_t)*v;
		if (e->off == off && e->full == full_path && strcmp(e->path, path) == 0)
			return e->text;
	}
	entry *e = tk_arena_alloc(&s->text, sizeof *e);
	if (!e)
		return lookup_limited(s, path, id, id_len, off, full_path);
	e->path = tk_arena_strdup(&s->text, path);
	e->off = off;
	e->full = full_path;
	e->text = lookup_limited(s, path, id, id_len, off, full_path);
	if (e->path)
		tk_hashmap_put(&s->cache, h, (uint64_t)(uintptr_t)e);
	return e->text;
}
