/* Per-image DWARF for the inline frames, loaded ahead on a worker thread
 * (see unwind_image.h). */
#if TK_HAVE_LIBDW
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if TK_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "unwind/unwind_image.h"

#define BUILD_ID_MAX 64

enum { QUEUED, LOADING, DONE };

/* More compressed sections than that are left to libelf. */
#define IMAGE_INFLATED 16

typedef struct image {
	struct image *next;
	char *path;
	uint8_t build_id[BUILD_ID_MAX];
	size_t build_id_len;
	int state; /* under the mutex */
	tk_unwind_image_result result;
	int fd;
	Elf *elf;
	Dwarf *dw;
	void *inflated[IMAGE_INFLATED]; /* section bytes inflated here, freed after elf_end */
	size_t n_inflated;
} image;

struct tk_unwind_images {
	pthread_mutex_t mu;
	pthread_cond_t done; /* an image became DONE */
	image *head;
	bool started, stop;
	pthread_t worker;
};

/* Sections dwarf_getscopes() and the name lookups never read: hidden
 * from libdw so that it does not inflate them. */
static const char *const unread[] = {
    ".debug_line",    ".debug_loc",      ".debug_loclists", ".debug_frame",     ".debug_macro",
    ".debug_macinfo", ".debug_pubnames", ".debug_pubtypes", ".zdebug_line",     ".zdebug_loc",
    ".zdebug_frame",  ".zdebug_macro",   ".zdebug_macinfo", ".zdebug_pubnames", ".zdebug_pubtypes",
};

static bool name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

/* Whether elf has a section (with bytes) of one of the names. */
static bool has_section(Elf *elf, const char *const *names, size_t n)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS && sh.sh_size &&
		    !(sh.sh_flags & SHF_GROUP) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    name_in(name, names, n))
			return true;
	}
	return false;
}

/* What makes dwarf_begin_elf() accept a file (its valid_p()): libdwfl
 * takes the image itself as its debug file when this holds. */
static bool has_dwarf(Elf *elf)
{
	static const char *const standalone[] = {".debug_info",  ".debug_line",  ".debug_frame",
						 ".zdebug_info", ".zdebug_line", ".zdebug_frame"};
	return has_section(elf, standalone, sizeof standalone / sizeof standalone[0]);
}

static void hide_unread(Elf *elf)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    name_in(name, unread, sizeof unread / sizeof unread[0])) {
			/* the private copy-on-write mapping is changed, not the file */
			sh.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &sh);
		}
	}
}

#if TK_HAVE_LIBDEFLATE
/* Inflates the compressed (SHF_COMPRESSED, zlib) sections libdw will
 * read with libdeflate, about twice as fast as libelf's zlib on glibc's
 * .debug_info, and hands libdw the result as the section's data: the
 * Elf_Data libelf gives for the section is pointed at the inflated bytes
 * and the in-memory header loses SHF_COMPRESSED, so dwarf_begin_elf()
 * has nothing left to elf_compress(). A section that does not inflate
 * cleanly is left as it was (libelf then tries, as before). */
static void inflate_sections(image *im, Elf *elf)
{
	struct libdeflate_decompressor *dec = NULL;
	size_t shstrndx, hdr = gelf_fsize(elf, ELF_T_CHDR, 1, EV_CURRENT);
	if (!hdr || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn && im->n_inflated < IMAGE_INFLATED;
	     scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(sh.sh_flags & SHF_COMPRESSED) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".debug_", 7) != 0 || !gelf_getchdr(scn, &ch) ||
		    ch.ch_type != ELFCOMPRESS_ZLIB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		/* deflate expands at most ~1032:1: a larger claimed size is a
		 * damaged header, not an allocation to make */
		if (!d || !d->d_buf || d->d_size <= hdr || !ch.ch_size ||
		    ch.ch_size / 1032 > d->d_size)
			continue;
		if (!dec && !(dec = libdeflate_alloc_decompressor()))
			return;
		void *buf = malloc(ch.ch_size);
		size_t got = 0;
		if (!buf ||
		    libdeflate_zlib_decompress(dec, (const char *)d->d_buf + hdr, d->d_size - hdr,
					       buf, ch.ch_size, &got) != LIBDEFLATE_SUCCESS ||
		    got != ch.ch_size) {
			free(buf);
			continue;
		}
		sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
		sh.sh_size = ch.ch_size;
		sh.sh_addralign = ch.ch_addralign;
		if (!gelf_update_shdr(scn, &sh)) {
			free(buf);
			continue;
		}
		d->d_buf = buf;
		d->d_size = ch.ch_size;
		d->d_type = ELF_T_BYTE;
		d->d_align = ch.ch_addralign ? ch.ch_addralign : 1;
		im->inflated[im->n_inflated++] = buf;
	}
	libdeflate_free_decompressor(dec);
}
#else
static void inflate_sections(image *im, Elf *elf)
{
	(void)im;
	(void)elf; /* libelf inflates (zlib) in dwarf_begin_elf() */
}
#endif

/* __libdwfl_open_by_build_id()'s path under the default debuginfo path
 * (the absolute entry /usr/lib/debug). */
static void build_id_path(const uint8_t *id, size_t len, char *out, size_t cap)
{
	size_t o = (size_t)snprintf(out, cap, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (size_t i = 1; i < len && o + 3 < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%02x", id[i]);
	snprintf(out + o, cap > o ? cap - o : 0, ".debug");
}

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	/* private: hide_unread() writes the section headers in memory */
	Elf *elf = elf_begin(*fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(*fd);
		*fd = -1;
		return NULL;
	}
	return elf;
}

/* The build-id debug file of an image, when it exists and carries that
 * build id (libdwfl's check); NULL otherwise. */
static Elf *open_build_id_file(const uint8_t *id, size_t len, int *fd)
{
	*fd = -1;
	if (len < 2 || len > BUILD_ID_MAX)
		return NULL;
	char path[64 + 2 * BUILD_ID_MAX];
	build_id_path(id, len, path, sizeof path);
	Elf *elf = open_elf(path, fd);
	const void *got;
	if (elf && dwelf_elf_gnu_build_id(elf, &got) == (ssize_t)len && memcmp(got, id, len) == 0)
		return elf;
	if (elf) {
		elf_end(elf);
		close(*fd);
		*fd = -1;
	}
	return NULL;
}

static bool exists(const char *dir, const char *sub, const char *name)
{
	char path[4096];
	int n = snprintf(path, sizeof path, "%s%s%s/%s", dir, sub && *sub ? "/" : "",
			 sub ? sub : "", name);
	return n > 0 && (size_t)n < sizeof path && access(path, F_OK) == 0;
}

/* Whether any file libdwfl's path search (find_debuginfo_in_path() under
 * the default debuginfo path ":.debug:/usr/lib/debug") could take for
 * the image exists: dir/link, dir/.debug/link and /usr/lib/debug/<each
 * tail of dir>/link, for the image's directory and its real path's,
 * with the basename too (not in dir itself) when the image has no
 * .gnu_debuglink (then link is basename.debug). A superset
 * of what libdwfl opens: anything found leaves the decision to libdwfl. */
static bool path_candidates(const char *file, const char *link)
{
	char *real = realpath(file, NULL);
	const char *files[2] = {file, real};
	char invented[1024];
	bool found = false;
	for (int f = 0; f < 2 && !found && files[f]; f++) {
		const char *base = strrchr(files[f], '/');
		if (!base || base == files[f])
			continue;
		char dir[2048];
		size_t dlen = (size_t)(base - files[f]);
		if (dlen >= sizeof dir)
			continue;
		memcpy(dir, files[f], dlen);
		dir[dlen] = 0;
		base++;
		const char *names[2] = {link, NULL};
		if (!link) {
			snprintf(invented, sizeof invented, "%s.debug", base);
			names[0] = invented;
			names[1] = base;
		}
		for (int k = 0; k < 2 && !found && names[k]; k++) {
			/* the image's own directory: the link name only (libdwfl
			 * does not try the basename there, the image itself) */
			found = (k == 0 && exists(dir, NULL, names[k])) ||
				exists(dir, ".debug", names[k]);
			/* /usr/lib/debug + "usr/lib/x", "lib/x", "x", "" */
			for (const char *tail = dir; tail && !found; tail = strchr(tail + 1, '/'))
				found = exists("/usr/lib/debug", tail + 1, names[k]);
			found = found || exists("/usr/lib/debug", NULL, names[k]);
		}
	}
	free(real);
	return found;
}

/* true when libdwfl's dwfl_standard_find_debuginfo() would find no debug
 * file for the image (file, its .gnu_debuglink name or NULL), having
 * checked the build-id path already: then it also need not be asked
 * (it loads libdebuginfod and its TLS stack, ~5% of a run, to find
 * nothing when DEBUGINFOD_URLS is unset). */
static bool nothing_to_find(const char *file, const char *link)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	if ((urls && *urls) || !file || file[0] != '/')
		return false;
	return !path_candidates(file, link);
}

/* Finds and opens the image's DWARF as libdwfl would (the image itself,
 * else its build-id debug file), with the unread sections hidden. Any
 * thread; touches only im. */
static void load(image *im)
{
	im->result = TK_UNWIND_IMAGE_DEFER;
	int fd;
	Elf *elf = open_elf(im->path, &fd);
	if (elf && !has_dwarf(elf)) {
		Elf *main_elf = elf;
		int main_fd = fd;
		elf = open_build_id_file(im->build_id, im->build_id_len, &fd);
		GElf_Word crc;
		if (!elf && nothing_to_find(im->path, dwelf_elf_gnu_debuglink(main_elf, &crc)))
			im->result = TK_UNWIND_IMAGE_NONE;
		elf_end(main_elf);
		close(main_fd);
	}
	if (!elf)
		return; /* debuglink, debuginfod or nothing: libdwfl's business */
	hide_unread(elf);
	inflate_sections(im, elf);
	im->fd = fd;
	im->elf = elf;
	im->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	im->result = im->dw ? TK_UNWIND_IMAGE_DWARF : TK_UNWIND_IMAGE_NONE;
}

static void *work(void *arg)
{
	tk_unwind_images *ims = arg;
	pthread_mutex_lock(&ims->mu);
	for (;;) {
		image *im = ims->head;
		while (im && im->state != QUEUED)
			im = im->next;
		if (!im || ims->stop)
			break;
		im->state = LOADING;
		pthread_mutex_unlock(&ims->mu);
		load(im);
		pthread_mutex_lock(&ims->mu);
		im->state = DONE;
		pthread_cond_broadcast(&ims->done);
	}
	pthread_mutex_unlock(&ims->mu);
	return NULL;
}

tk_unwind_images *tk_unwind_images_new(void)
{
	tk_unwind_images *ims = calloc(1, sizeof *ims);
	if (!ims)
		return NULL;
	pthread_mutex_init(&ims->mu, NULL);
	pthread_cond_init(&ims->done, NULL);
	elf_version(EV_CURRENT); /* before any thread uses libelf */
	return ims;
}

void tk_unwind_images_free(tk_unwind_images *ims)
{
	if (!ims)
		return;
	if (ims->started) {
		pthread_mutex_lock(&ims->mu);
		ims->stop = true;
		pthread_mutex_unlock(&ims->mu);
		pthread_join(ims->worker, NULL);
	}
	for (image *im = ims->head, *next; im; im = next) {
		next = im->next;
		dwarf_end(im->dw);
		elf_end(im->elf);
		if (im->elf)
			close(im->fd);
		for (size_t i = 0; i < im->n_inflated; i++)
			free(im->inflated[i]);
		free(im->path);
		free(im);
	}
	pthread_cond_destroy(&ims->done);
	pthread_mutex_destroy(&ims->mu);
	free(ims);
}

/* Under the mutex (or before the worker starts). */
static image *find(tk_unwind_images *ims, const char *path, const uint8_t *id, size_t len)
{
	for (image *im = ims->head; im; im = im->next)
		if (im->build_id_len == len && memcmp(im->build_id, id, len) == 0 &&
		    strcmp(im->path, path) == 0)
			return im;
	return NULL;
}

static image *add(tk_unwind_images *ims, const char *path, const uint8_t *id, size_t len, int state)
{
	if (len > BUILD_ID_MAX)
		len = 0;
	image *im = calloc(1, sizeof *im);
	if (!im || !(im->path = strdup(path))) {
		free(im);
		return NULL;
	}
	memcpy(im->build_id, id, len);
	im->build_id_len = len;
	im->state = state;
	im->fd = -1;
	im->next = ims->head;
	ims->head = im;
	return im;
}

void tk_unwind_images_add(tk_unwind_images *ims, const char *path, const uint8_t *build_id,
			  size_t build_id_len)
{
	if (!ims || ims->started || !path || build_id_len > BUILD_ID_MAX ||
	    find(ims, path, build_id, build_id_len))
		return;
	add(ims, path, build_id, build_id_len, QUEUED);
}

void tk_unwind_images_start(tk_unwind_images *ims)
{
	if (!ims || ims->started || !ims->head)
		return;
	ims->started = pthread_create(&ims->worker, NULL, work, ims) == 0;
}

tk_unwind_image_result tk_unwind_image_dwarf(tk_unwind_images *ims, Dwfl_Module *mod, Dwarf **dw,
					     Dwarf_Addr *bias)
{
	const char *path = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	const unsigned char *id = NULL;
	GElf_Addr id_vaddr;
	int len = dwfl_module_build_id(mod, &id, &id_vaddr);
	if (!ims || !path || len < 0 || len > BUILD_ID_MAX)
		return TK_UNWIND_IMAGE_DEFER;
	/* the Dwarf's addresses are the image's link-time ones, as its main
	 * file's (no prelink): the main file's bias applies */
	if (!dwfl_module_getelf(mod, bias))
		return TK_UNWIND_IMAGE_DEFER;
	pthread_mutex_lock(&ims->mu);
	image *im = find(ims, path, id, (size_t)len);
	if (!im && !(im = add(ims, path, id, (size_t)len, QUEUED))) {
		pthread_mutex_unlock(&ims->mu);
		return TK_UNWIND_IMAGE_DEFER;
	}
	/* queued and not taken by the worker: load it here rather than wait
	 * behind the worker's other images */
	bool mine = im->state == QUEUED;
	if (mine)
		im->state = LOADING;
	pthread_mutex_unlock(&ims->mu);
	if (mine) {
		load(im);
		pthread_mutex_lock(&ims->mu);
		im->state = DONE;
		pthread_cond_broadcast(&ims->done);
		pthread_mutex_unlock(&ims->mu);
	} else {
		pthread_mutex_lock(&ims->mu);
		while (im->state != DONE)
			pthread_cond_wait(&ims->done, &ims->mu);
		pthread_mutex_unlock(&ims->mu);
	}
	*dw = im->dw;
	return im->result;
}

bool tk_unwind_image_skip_debuginfo(Dwfl_Module *mod, const char *file_name,
				    const char *debuglink_file)
{
	const unsigned char *id = NULL;
	GElf_Addr id_vaddr;
	int len = dwfl_module_build_id(mod, &id, &id_vaddr);
	int fd;
	Elf *elf = len > 0 ? open_build_id_file(id, (size_t)len, &fd) : NULL;
	if (!elf)
		return nothing_to_find(file_name, debuglink_file);
	static const char *const frame[] = {".debug_frame", ".zdebug_frame"};
	bool skip = !has_section(elf, frame, 2);
	elf_end(elf);
	close(fd);
	return skip;
}
#else
typedef int tk_unwind_image_empty; /* ISO C: no empty translation unit */
#endif
