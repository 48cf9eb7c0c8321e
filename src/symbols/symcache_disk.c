/* The persistent symbol cache on disk; see symcache_disk.h. */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "symbols/kernel_prefetch.h"
#include "symbols/kernel_syms.h"
#include "symbols/symcache_disk.h"
#include "symbols/symcache_file.h"
#include "symbols/symcache_writer.h"
#include "symbols/symfile_maps.h"
#include "symbols/symtab_internal.h"

/* A cache file larger than this is not ours (kallsyms makes ~6 MB). */
#define SYMFILE_LIMIT ((size_t)1 << 30)

struct tk_symdisk {
	char *dir;
	char self_id[2 * TK_BUILD_ID_MAX + 1]; /* tracekit's own build id */
	bool dir_made;
	bool no_write; /* the directory cannot be written: stop trying */
	uint64_t hits, writes;
	tk_symwriter *writer; /* writes files in the background; NULL: here */
};

/* ---- tracekit's own build id, from its loaded notes ---- */

typedef struct self_search {
	uintptr_t addr; /* an address inside tracekit's code */
	char *hex;
	bool found;
} self_search;

static int find_self(struct dl_phdr_info *info, size_t size, void *user)
{
	(void)size;
	self_search *s = user;
	bool inside = false;
	for (int i = 0; i < info->dlpi_phnum && !inside; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		inside = ph->p_type == PT_LOAD && s->addr >= lo && s->addr - lo < ph->p_memsz;
	}
	if (!inside)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t pos = 0, n = ph->p_memsz;
		while (n - pos >= 12) {
			uint32_t namesz, descsz, type;
			memcpy(&namesz, p + pos, 4);
			memcpy(&descsz, p + pos + 4, 4);
			memcpy(&type, p + pos + 8, 4);
			pos += 12;
			size_t nroom = ((size_t)namesz + 3) & ~(size_t)3;
			size_t droom = ((size_t)descsz + 3) & ~(size_t)3;
			if (nroom > n - pos || droom > n - pos - nroom)
				break;
			if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
			    memcmp(p + pos, "GNU", 4) == 0 && descsz > 0 &&
			    descsz <= TK_BUILD_ID_MAX) {
				tk_build_id_hex(p + pos + nroom, descsz, s->hex);
				s->found = true;
				return 1;
			}
			pos += nroom + droom;
		}
	}
	return 1; /* our object, without a build id */
}

tk_symdisk *tk_symdisk_open(const char *cache_dir, bool disabled)
{
	const char *env = getenv("TRACEKIT_NO_SYMCACHE");
	if (disabled || (env && *env && strcmp(env, "0") != 0))
		return NULL;
	tk_symdisk *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	self_search s = {(uintptr_t)&tk_symdisk_open, d->self_id, false};
	dl_iterate_phdr(find_self, &s);
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	size_t room = 64 + (cache_dir ? strlen(cache_dir) : 0) + (xdg ? strlen(xdg) : 0) +
		      (home ? strlen(home) : 0);
	d->dir = s.found ? malloc(room) : NULL;
	if (!d->dir) {
		free(d);
		return NULL;
	}
	if (cache_dir && *cache_dir)
		snprintf(d->dir, room, "%s", cache_dir);
	else if (xdg && xdg[0] == '/') /* the XDG spec ignores relative paths */
		snprintf(d->dir, room, "%s/tracekit", xdg);
	else if (home && home[0] == '/')
		snprintf(d->dir, room, "%s/.cache/tracekit", home);
	else {
		free(d->dir);
		free(d);
		return NULL;
	}
	d->writer = tk_symwriter_new();
	return d;
}

void tk_symdisk_free(tk_symdisk *d)
{
	if (!d)
		return;
	tk_symwriter_free(d->writer); /* waits for the files still queued */
	free(d->dir);
	free(d);
}

uint64_t tk_symdisk_hits(const tk_symdisk *d)
{
	return d ? d->hits : 0;
}

uint64_t tk_symdisk_writes(const tk_symdisk *d)
{
	if (!d)
		return 0;
	tk_symwriter_drain(d->writer);
	return d->writes + tk_symwriter_written(d->writer);
}

/* ---- keys ---- */

static void key_put(tk_symkey *k, const char *s, size_t len)
{
	if (k->oom)
		return;
	if (k->n + len > k->cap) {
		size_t cap = k->cap ? k->cap : 512;
		while (cap < k->n + len)
			cap *= 2;
		char *nb = realloc(k->buf, cap);
		if (!nb) {
			k->oom = true;
			return;
		}
		k->buf = nb;
		k->cap = cap;
	}
	memcpy(k->buf + k->n, s, len);
	k->n += len;
}

void tk_symkey_add(tk_symkey *k, const char *label, const char *value)
{
	key_put(k, label, strlen(label));
	key_put(k, " ", 1);
	key_put(k, value, strlen(value));
	key_put(k, "\n", 1);
}

void tk_symkey_init(tk_symkey *k, const tk_symdisk *d, const char *kind)
{
	memset(k, 0, sizeof *k);
	char v[32];
	snprintf(v, sizeof v, "%u", TK_SYMFILE_VERSION);
	tk_symkey_add(k, "tracekit-symbol-cache", v);
	tk_symkey_add(k, "tracekit", d ? d->self_id : "");
	tk_symkey_add(k, "kind", kind);
}

void tk_symkey_free(tk_symkey *k)
{
	free(k->buf);
	memset(k, 0, sizeof *k);
}

void tk_symkey_add_file(tk_symkey *k, const char *label, const char *path)
{
	/* Everything that changes when the file is replaced, rewritten in
	 * place or (re)linked: a stale table is never used. */
	struct stat sb;
	char v[4096 + 160];
	if (stat(path, &sb) == 0)
		snprintf(v, sizeof v, "%s %llu %llu %llu %lld.%09ld %lld.%09ld", path,
			 (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino,
			 (unsigned long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
			 sb.st_mtim.tv_nsec, (long long)sb.st_ctim.tv_sec, sb.st_ctim.tv_nsec);
	else
		snprintf(v, sizeof v, "%s absent", path);
	tk_symkey_add(k, label, v);
}

/* A small text file's content, trimmed; false when unreadable. */
static bool read_small(const char *path, char *buf, size_t room)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t r = read(fd, buf, room - 1);
	close(fd);
	if (r <= 0)
		return false;
	size_t n = (size_t)r;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return n > 0;
}

/* FNV-1a of a file's whole content ("absent" when it cannot be opened). */
static void hash_file(const char *path, char *out, size_t room)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out, room, "absent");
		return;
	}
	uint64_t h = 0xcbf29ce484222325ull, total = 0;
	unsigned char buf[16384];
	ssize_t r;
	while ((r = read(fd, buf, sizeof buf)) > 0 && total < ((uint64_t)64 << 20)) {
		for (ssize_t i = 0; i < r; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
		total += (uint64_t)r;
	}
	close(fd);
	snprintf(out, room, "%016llx %llu", (unsigned long long)h, (unsigned long long)total);
}

/* The loaded BPF programs' ids (never reused while the kernel runs), as
 * a hash: their JITed images are kallsyms lines ("[bpf]") that come and go
 * within one boot. "unknown" without the right to list them. */
static void bpf_ids(char *out, size_t room)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t id = 0;
	unsigned long n = 0;
	for (;;) {
		union bpf_attr attr;
		memset(&attr, 0, sizeof attr);
		attr.start_id = id;
		if (syscall(SYS_bpf, BPF_PROG_GET_NEXT_ID, &attr, sizeof attr) != 0)
			break;
		id = attr.next_id;
		h = (h ^ id) * 0x100000001b3ull;
		if (++n > (1ul << 20))
			break;
	}
	if (errno == ENOENT) /* the end of the list */
		snprintf(out, room, "%lu %016llx", n, (unsigned long long)h);
	else
		snprintf(out, room, "unknown");
}

bool tk_symkey_add_running_core(tk_symkey *k)
{
	uint8_t id[TK_BUILD_ID_MAX];
	size_t id_len = tk_sysfs_build_id(NULL, id);
	char hex[2 * TK_BUILD_ID_MAX + 1], boot[128], v[128];
	if (!id_len || !read_small("/proc/sys/kernel/random/boot_id", boot, sizeof boot))
		return false;
	tk_build_id_hex(id, id_len, hex);
	tk_symkey_add(k, "kernel-build-id", hex);
	tk_symkey_add(k, "boot-id", boot);
	snprintf(v, sizeof v, "%lu", (unsigned long)geteuid());
	tk_symkey_add(k, "euid", v);
	if (!read_small("/proc/sys/kernel/kptr_restrict", v, sizeof v))
		snprintf(v, sizeof v, "unknown");
	tk_symkey_add(k, "kptr_restrict", v);
	return true;
}

bool tk_symkey_add_running_kernel(tk_symkey *k)
{
	char v[128];
	if (!tk_symkey_add_running_core(k))
		return false;
	/* modules loaded or unloaded since change the symbols */
	hash_file("/proc/modules", v, sizeof v);
	tk_symkey_add(k, "modules", v);
	bpf_ids(v, sizeof v);
	tk_symkey_add(k, "bpf-programs", v);
	return true;
}

/* ---- files ---- */

tk_symtab *tk_symdisk_load(tk_symdisk *d, const char *name, const tk_symkey *k)
{
	if (!d || k->oom)
		return NULL;
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", d->dir, name) >= sizeof path)
		return NULL;
	if (tk_symwriter_pending(d->writer, path))
		tk_symwriter_drain(d->writer); /* this process is writing it */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat sb;
	void *map = NULL;
	size_t len = 0;
	bool checked = false;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (uint64_t)sb.st_size <= SYMFILE_LIMIT) {
		len = (size_t)sb.st_size;
		/* the mapping another table (print's other lane) has of this
		 * file, if any: symfile_maps.h */
		map = tk_symfile_map(fd, &sb, len, &checked);
	}
	close(fd);
	if (!map)
		return NULL;
	tk_symtab *t;
	if (tk_symfile_decode(map, len, k->buf, k->n, !checked, &t, NULL) != TK_OK) {
		tk_symfile_unmap(map, len);
		return NULL;
	}
	tk_symfile_map_checked(map);
	t->map_base = map;
	t->map_len = len;
	d->hits++;
	return t;
}

/* mkdir -p of d->dir, private to the user (0700) where it creates. */
static bool make_dir(tk_symdisk *d)
{
	if (d->dir_made)
		return true;
	char path[4096];
	size_t n = strlen(d->dir);
	if (n >= sizeof path)
		return false;
	memcpy(path, d->dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		char c = path[i];
		path[i] = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return false;
		path[i] = c;
	}
	d->dir_made = true;
	return true;
}

/* The file name's path, when the directory is writable (checked before
 * anything is encoded: a read-only cache costs no encoding). */
static bool store_path(tk_symdisk *d, const char *name, char path[4096])
{
	if (!d || d->no_write)
		return false;
	if ((size_t)snprintf(path, 4096, "%s/%s", d->dir, name) >= 4096)
		return false;
	/* access() cannot tell everything: a write that failed says so too */
	if (tk_symwriter_failed(d->writer) || !make_dir(d) || access(d->dir, W_OK) != 0) {
		d->no_write = true;
		return false;
	}
	return true;
}

static void write_file(tk_symdisk *d, const char *path, void *buf, size_t len)
{
	if (d->writer) {
		tk_symwriter_put(d->writer, path, buf, len);
		return;
	}
	int r = tk_symfile_write_atomic(path, buf, len);
	free(buf);
	if (r > 0)
		d->writes++;
	else if (r < 0)
		d->no_write = true;
}

/* A table to encode in the writer thread: a snapshot and its key. */
typedef struct encode_job {
	tk_symtab *snap;
	size_t key_len;
	unsigned char key[];
} encode_job;

static void *encode_lazy(void *arg, size_t *len)
{
	encode_job *j = arg;
	void *buf = NULL;
	if (!tk_symfile_encode(j->snap, j->key, j->key_len, &buf, len))
		buf = NULL;
	tk_symfile_snapshot_free(j->snap);
	free(j);
	return buf;
}

void tk_symdisk_store(tk_symdisk *d, const char *name, const tk_symkey *k, const tk_symtab *t)
{
	char path[4096];
	if (k->oom || !t || !store_path(d, name, path))
		return;
	void *buf;
	size_t len;
	/* Encoding (a hash per name) cost the main thread about as much as
	 * loading the image: done beside it when a writer thread runs. */
	encode_job *j = d->writer && tk_symbols_threads_enabled() ? malloc(sizeof *j + k->n) : NULL;
	if (j && (j->snap = tk_symfile_snapshot(t))) {
		j->key_len = k->n;
		memcpy(j->key, k->buf, k->n);
		tk_symwriter_put_lazy(d->writer, path, encode_lazy, j,
				      t->n * (sizeof *t->syms + 16) + k->n);
		return;
	}
	free(j);
	if (tk_symfile_encode(t, k->buf, k->n, &buf, &len))
		write_file(d, path, buf, len);
}

bool tk_symdisk_file_path(tk_symdisk *d, const char *name, char path[4096])
{
	return store_path(d, name, path);
}

void tk_symdisk_count_write(tk_symdisk *d, int result)
{
	if (d && result == 1)
		d->writes++;
	else if (d && result < 0)
		d->no_write = true;
}

void tk_symdisk_drain(tk_symdisk *d)
{
	if (d)
		tk_symwriter_drain(d->writer);
}

void tk_symdisk_store_encoded(tk_symdisk *d, const char *name, void *buf, size_t len)
{
	char path[4096];
	if (!store_path(d, name, path)) {
		free(buf);
		return;
	}
	write_file(d, path, buf, len);
}
