/* Source lines with libdw (see srcline.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/srcline.h"
#include "base/arena.h"
#include "base/hashmap.h"

/* Images with a Dwfl open at once; more are looked up uncached (a new
 * Dwfl per call) rather than holding every file of a system profile. */
#define SRCLINE_IMAGES 64

#if TK_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

typedef struct image {
	const char *path; /* arena */
	Dwfl *dwfl;       /* NULL: the file could not be read */
	Dwfl_Module *mod;
} image;
#endif

struct tk_srcline {
	tk_arena text;
	tk_hashmap cache; /* hash(path, off) -> entry *, probing on collision */
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

void tk_srcline_free(tk_srcline *s)
{
	if (!s)
		return;
#if TK_HAVE_LIBDW
	for (size_t i = 0; i < s->n_images; i++)
		if (s->images[i].dwfl)
			dwfl_end(s->images[i].dwfl);
#endif
	tk_hashmap_free(&s->cache);
	tk_arena_free(&s->text);
	free(s);
}

#if TK_HAVE_LIBDW
static image *image_of(tk_srcline *s, const char *path, image *tmp)
{
	for (size_t i = 0; i < s->n_images; i++)
		if (strcmp(s->images[i].path, path) == 0)
			return &s->images[i];
	image *im = s->n_images < SRCLINE_IMAGES ? &s->images[s->n_images] : tmp;
	memset(im, 0, sizeof *im);
	im->path = tk_arena_strdup(&s->text, path);
	if (!im->path)
		return NULL;
	if ((im->dwfl = dwfl_begin(&callbacks))) {
		/* at its link-time addresses (bias 0) */
		im->mod = dwfl_report_offline(im->dwfl, path, path, -1);
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

static const char *lookup(tk_srcline *s, const char *path, uint64_t off, bool full)
{
	image tmp;
	image *im = image_of(s, path, &tmp);
	const char *out = NULL;
	uint64_t va;
	if (im && im->mod && vaddr_of(im->mod, off, &va)) {
		/* no line: addr2line's "??:0", which perf shows, except in the
		 * PLT, where perf falls back to its synthesized "sym@plt+off" */
		if (!in_plt(im->mod, va))
			out = "??:0";
		Dwfl_Line *line = dwfl_module_getsrc(im->mod, va);
		int lineno = 0;
		const char *file =
		    line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (file && outside_cu(line, va))
			file = NULL;
		if (file)
			file = addr2line_file(line, file);
		if (file) {
			const char *base = full ? file : strrchr(file, '/');
			base = base ? (full ? base : base + 1) : file;
			char buf[4096];
			snprintf(buf, sizeof buf, "%s:%d", base, lineno);
			out = tk_arena_strdup(&s->text, buf);
		}
	}
	if (im == &tmp && tmp.dwfl)
		dwfl_end(tmp.dwfl);
	return out;
}
#else
static const char *lookup(tk_srcline *s, const char *path, uint64_t off, bool full)
{
	(void)s;
	(void)path;
	(void)off;
	(void)full;
	return NULL;
}
#endif

const char *tk_srcline_get(tk_srcline *s, const char *path, uint64_t off, bool full_path)
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
		return lookup(s, path, off, full_path);
	e->path = tk_arena_strdup(&s->text, path);
	e->off = off;
	e->full = full_path;
	e->text = lookup(s, path, off, full_path);
	if (e->path)
		tk_hashmap_put(&s->cache, h, (uint64_t)(uintptr_t)e);
	return e->text;
}
