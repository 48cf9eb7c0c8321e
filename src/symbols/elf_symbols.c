/* ELF images through libelf: function symbols (.symtab, else .dynsym, as
 * perf picks them), the GNU build id, .text and the PT_LOAD segments.
 * libelf checks section sizes against the file; we still treat every
 * count and index it hands back as untrusted. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/elf_plt.h"
#include "symbols/symtab_internal.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

static bool libelf_ready(void)
{
	/* elf_version() is idempotent; the result is cached by libelf. */
	return elf_version(EV_CURRENT) != EV_NONE;
}

/* Scans one block of notes for NT_GNU_BUILD_ID. */
static void scan_notes(Elf_Data *data, tk_symtab *t)
{
	if (!data || !data->d_buf)
		return;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while (off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0 &&
		    nh.n_descsz > 0) {
			size_t n = nh.n_descsz < TK_BUILD_ID_MAX ? nh.n_descsz : TK_BUILD_ID_MAX;
			memcpy(t->build_id, (const char *)data->d_buf + desc_off, n);
			t->build_id_len = n;
			return;
		}
	}
}

static tk_status read_segments(Elf *e, tk_symtab *t, tk_error *err)
{
	size_t n;
	if (elf_getphdrnum(e, &n) != 0)
		return TK_OK; /* no program headers (ET_REL) */
	if (n > 65535)
		return tk_error_set(err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "implausible program header count %zu", n);
	t->segs = calloc(n ? n : 1, sizeof *t->segs);
	if (!t->segs)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD) {
			t->segs[t->n_segs++] = (tk_elf_segment){
			    .vaddr = ph.p_vaddr,
			    .memsz = ph.p_memsz,
			    .offset = ph.p_offset,
			    .filesz = ph.p_filesz,
			    .exec = (ph.p_flags & PF_X) != 0,
			};
		} else if (ph.p_type == PT_NOTE && !t->build_id_len) {
			Elf_Data *d =
			    elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
			scan_notes(d, t);
		}
	}
	return TK_OK;
}

static char bind_type(int bind, bool func)
{
	char c = func ? 'T' : 'D';
	if (bind == STB_WEAK)
		return func ? 'W' : 'V';
	return bind == STB_LOCAL ? (char)(c | 0x20) : c;
}

/* What the symbol filter needs to know of each section, computed once per
 * table instead of once per symbol. */
enum { SEC_ALLOC = 1, SEC_TEXT_OR_DATA = 2 };

/* flags[i] for sections 0..*n-1: SHF_ALLOC, and a name containing "text"
 * or "data" (perf's elf_sec__filter for labels). NULL: out of memory. */
static uint8_t *section_flags(Elf *e, size_t shstrndx, size_t *n)
{
	if (elf_getshdrnum(e, n) != 0)
		*n = 0;
	if (*n > 65536)
		*n = 65536;
	uint8_t *flags = calloc(*n ? *n : 1, 1);
	if (!flags)
		return NULL;
	for (size_t i = 0; i < *n; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		GElf_Shdr sh;
		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_flags & SHF_ALLOC)
			flags[i] |= SEC_ALLOC;
		const char *name =
		    shstrndx != SHN_UNDEF ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (name && (strstr(name, "text") || strstr(name, "data")))
			flags[i] |= SEC_TEXT_OR_DATA;
	}
	return flags;
}

/* A string table's bytes, when libelf has them in one piece. */
typedef struct strtab {
	const char *p;
	size_t n;
} strtab;

static strtab get_strtab(Elf *e, size_t index)
{
	Elf_Scn *scn = elf_getscn(e, index);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB)
		return (strtab){NULL, 0};
	Elf_Data *d = elf_getdata(scn, NULL);
	/* one data block covering the section (else use elf_strptr) */
	if (!d || !d->d_buf || d->d_size != sh.sh_size || elf_getdata(scn, d))
		return (strtab){NULL, 0};
	return (strtab){d->d_buf, d->d_size};
}

/* The name at off with its length, as elf_strptr() finds it; NULL when
 * off is out of range or the string runs past the table. */
static const char *sym_name(Elf *e, size_t link, const strtab *st, size_t off, size_t *len)
{
	const char *name;
	if (st->p) {
		if (off >= st->n)
			return NULL;
		const char *nul = memchr(st->p + off, '\0', st->n - off);
		if (!nul)
			return NULL;
		name = st->p + off;
		*len = (size_t)(nul - name);
		return name;
	}
	name = elf_strptr(e, link, off);
	if (name)
		*len = strlen(name);
	return name;
}

/* One symbol table entry, whatever the class. */
static void get_sym(const Elf_Data *data, bool is64, size_t i, GElf_Sym *out)
{
	if (is64) {
		const Elf64_Sym *s = (const Elf64_Sym *)data->d_buf + i;
		*out = (GElf_Sym){s->st_name,  s->st_info,  s->st_other,
				  s->st_shndx, s->st_value, s->st_size};
	} else {
		const Elf32_Sym *s = (const Elf32_Sym *)data->d_buf + i;
		*out = (GElf_Sym){s->st_name,  s->st_info,  s->st_other,
				  s->st_shndx, s->st_value, s->st_size};
	}
}

/* perf's dso__load_sym() filter: functions and data objects with a name and
 * a section, plus "labels" (untyped symbols, not hidden) in text or data sections; ARM
 * mapping symbols ($a, $d, $t, $x) are dropped. The entries are read from
 * libelf's translated (host order) array directly: gelf_getsym() and
 * elf_strptr() per symbol cost more than the rest of the loading. */
static tk_status read_symbols(Elf *e, const GElf_Ehdr *eh, size_t shstrndx, Elf_Scn *scn,
			      const GElf_Shdr *sh, tk_symtab *t, tk_error *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf || data->d_type != ELF_T_SYM)
		return TK_OK;
	int cls = gelf_getclass(e);
	if (cls != ELFCLASS64 && cls != ELFCLASS32)
		return TK_OK;
	bool is64 = cls == ELFCLASS64;
	size_t entsize = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	size_t n = data->d_size / entsize;
	size_t n_secs;
	uint8_t *secs = section_flags(e, shstrndx, &n_secs);
	if (!secs || !tk_symtab_reserve(t, n)) {
		free(secs);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for symbols");
	}
	strtab st = get_strtab(e, sh->sh_link);
	bool arm = eh->e_machine == EM_ARM || eh->e_machine == 183 /* EM_AARCH64 */;
	tk_status status = TK_OK;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		get_sym(data, is64, i, &sym);
		int type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF)
			continue;
		/* As perf's dso__load_sym: absolute symbols (version definitions
		 * such as GLIBC_2.2.5, value 0) and symbols of sections that take
		 * no memory at run time (.gnu.warning.*) name no code. Special
		 * indexes (SHN_COMMON...) have no section header: kept. */
		if (sym.st_shndx == SHN_ABS)
			continue;
		bool special = sym.st_shndx >= SHN_LORESERVE;
		uint8_t sf = sym.st_shndx < n_secs ? secs[sym.st_shndx] : 0;
		if (!special && !(sf & SEC_ALLOC))
			continue;
		bool func = type == STT_FUNC || type == STT_GNU_IFUNC;
		/* perf's elf_sym__is_label(): not hidden or internal ones (an
		 * assembly loop's entry, as zstd's HUF_..._fast_asm_loop:
		 * perf leaves its samples [unknown]) */
		int vis = GELF_ST_VISIBILITY(sym.st_other);
		bool label =
		    type == STT_NOTYPE && !special && vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!func && type != STT_OBJECT && !label)
			continue;
		size_t len;
		const char *name = sym_name(e, sh->sh_link, &st, sym.st_name, &len);
		if (!name || !*name)
			continue;
		if (arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		if (label && !(sf & SEC_TEXT_OR_DATA))
			continue;
		/* Thumb functions carry bit 0 set in their address. */
		if (eh->e_machine == EM_ARM && type == STT_FUNC && (sym.st_value & 1))
			sym.st_value--;
		int b = GELF_ST_BIND(sym.st_info);
		int bind = b == STB_GLOBAL ? TK_BIND_GLOBAL
			   : b == STB_WEAK ? TK_BIND_WEAK
					   : TK_BIND_LOCAL;
		if (!tk_symtab_add(t, name, len, sym.st_value, sym.st_size,
				   bind_type(b, func || label), bind, NULL, 0)) {
			status = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					      "out of memory for symbols");
			break;
		}
	}
	free(secs);
	return status;
}

/* Everything from one open Elf handle. want_symbols false: build id only. */
static tk_status load(Elf *e, tk_symtab *t, bool want_symbols, tk_error *err)
{
	if (elf_kind(e) != ELF_K_ELF)
		return tk_error_set(err, TK_ERR_FORMAT, 0, "not an ELF file");
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return tk_error_set(err, TK_ERR_FORMAT, 0, "bad ELF header: %s", elf_errmsg(-1));
	t->is_elf = true;
	t->relocatable = eh.e_type == ET_DYN || eh.e_type == ET_REL;
	tk_status st = read_segments(e, t, err);
	if (st != TK_OK)
		return st;
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		shstrndx = SHN_UNDEF; /* stripped of section names: still usable */
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr symtab_sh, dynsym_sh;
	size_t guard = 0;
	while ((scn = elf_nextscn(e, scn)) && guard++ < 65536) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_NOTE && !t->build_id_len)
			scan_notes(elf_getdata(scn, NULL), t);
		else if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symtab_sh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsym_sh = sh;
		}
		const char *name =
		    shstrndx != SHN_UNDEF ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (name && strcmp(name, ".text") == 0 && !t->has_text) {
			t->has_text = true;
			t->text_vaddr = sh.sh_addr;
			t->text_size = sh.sh_size;
			t->text_offset = sh.sh_offset;
		}
	}
	if (!t->has_text) {
		/* No section headers: the first executable segment. */
		for (size_t i = 0; i < t->n_segs; i++)
			if (t->segs[i].exec) {
				t->has_text = true;
				t->text_vaddr = t->segs[i].vaddr;
				t->text_size = t->segs[i].memsz;
				t->text_offset = t->segs[i].offset;
				break;
			}
	}
	if (!want_symbols)
		return TK_OK;
	if (symtab)
		st = read_symbols(e, &eh, shstrndx, symtab, &symtab_sh, t, err);
	t->from_symtab = t->n > 0;
	if (st == TK_OK && t->n == 0 && dynsym)
		st = read_symbols(e, &eh, shstrndx, dynsym, &dynsym_sh, t, err);
	if (st == TK_OK)
		tk_symtab_finish(t, TK_SYMTAB_ELF);
	/* PLT entries after the end fix-ups, as perf adds them. */
	if (st == TK_OK && (!tk_elf_read_plt(e, &eh, t) || !tk_symtab_merge_plt(t, t)))
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for PLT symbols");
	return st;
}

tk_status tk_symtab_load_elf_memory(const void *data, size_t size, const char *name,
				    tk_symtab **out, tk_error *err)
{
	*out = NULL;
	if (name)
		tk_error_set_file(err, name);
	if (!libelf_ready())
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "libelf: %s",
				    elf_errmsg(-1));
	/* libelf may convert data in place for foreign byte orders: work on
	 * a private copy so the caller's buffer stays untouched. */
	char *copy = malloc(size ? size : 1);
	tk_symtab *t = tk_symtab_new(name);
	if (!copy || !t) {
		free(copy);
		tk_symtab_free(t);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	memcpy(copy, data, size);
	tk_status st;
	Elf *e = elf_memory(copy, size);
	if (!e)
		st = tk_error_set(err, TK_ERR_FORMAT, 0, "not an ELF file: %s", elf_errmsg(-1));
	else
		st = load(e, t, true, err);
	if (e)
		elf_end(e);
	free(copy);
	if (st != TK_OK) {
		tk_symtab_free(t);
		return st;
	}
	*out = t;
	return TK_OK;
}

static tk_status load_file(const char *path, bool want_symbols, tk_symtab **out, tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	if (!libelf_ready())
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "libelf: %s",
				    elf_errmsg(-1));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open: %s",
				    strerror(errno));
	tk_symtab *t = tk_symtab_new(path);
	if (!t) {
		close(fd);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_status st;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		st = tk_error_set(err, TK_ERR_FORMAT, 0, "not an ELF file: %s", elf_errmsg(-1));
	else
		st = load(e, t, want_symbols, err);
	if (e)
		elf_end(e);
	close(fd);
	if (st != TK_OK) {
		tk_symtab_free(t);
		return st;
	}
	*out = t;
	return TK_OK;
}

tk_status tk_symtab_load_elf(const char *path, tk_symtab **out, tk_error *err)
{
	return load_file(path, true, out, err);
}

size_t tk_elf_build_id(const char *path, uint8_t id[TK_BUILD_ID_MAX])
{
	tk_symtab *t;
	if (load_file(path, false, &t, NULL) != TK_OK)
		return 0;
	size_t n = tk_symtab_build_id(t, id);
	tk_symtab_free(t);
	return n;
}
