/* Kernel module maps for the side-band, as perf record synthesizes them
 * after the kernel map (perf_event__synthesize_modules): one MMAP per
 * module of /proc/modules, pid -1 (the host kernel), misc KERNEL, start
 * the module's address, len its size, pgoff 0, the file name the module's
 * .ko under /lib/modules/RELEASE (any compression suffix; '-' and '_'
 * alike in the name), else "[name]", in address order. */
#include <ftw.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "record/record.h"

/* The .ko files found by one walk of the modules directory. */
static struct {
	char **paths;
	size_t n, cap;
} found;

/* A module's name from its file name: up to ".ko", '-' read as '_'. */
static bool ko_name(const char *base, char *out, size_t cap)
{
	const char *ko = strstr(base, ".ko");
	if (!ko || (ko[3] && ko[3] != '.'))
		return false;
	size_t n = (size_t)(ko - base);
	if (n == 0 || n >= cap)
		return false;
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[n] = '\0';
	return true;
}

static int on_file(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	char name[256];
	if (flag != FTW_F || !ko_name(path + ftw->base, name, sizeof name))
		return 0;
	if (found.n == found.cap) {
		size_t cap = found.cap ? 2 * found.cap : 256;
		char **g = realloc(found.paths, cap * sizeof *g);
		if (!g)
			return 1;
		found.paths = g;
		found.cap = cap;
	}
	char *copy = strdup(path);
	if (!copy)
		return 1;
	found.paths[found.n++] = copy;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const rec_module *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

size_t rec_modules_list(const char *proc_modules, const char *modules_dir, rec_module **out)
{
	*out = NULL;
	FILE *f = fopen(proc_modules, "r");
	if (!f)
		return 0; /* a kernel without modules */
	found.n = 0;
	if (modules_dir)
		nftw(modules_dir, on_file, 16, FTW_PHYS);
	rec_module *v = NULL;
	size_t n = 0, cap = 0;
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		char name[256], state[32];
		unsigned long long size, addr;
		/* name size refcount deps state address */
		if (sscanf(line, "%255s %llu %*s %*s %31s %llx", name, &size, state, &addr) != 4 ||
		    !addr)
			continue; /* kptr_restrict hides the addresses */
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 64;
			rec_module *g = realloc(v, nc * sizeof *g);
			if (!g)
				break;
			v = g;
			cap = nc;
		}
		rec_module *m = &v[n++];
		m->start = addr;
		m->size = size;
		snprintf(m->path, sizeof m->path, "[%s]", name);
		for (size_t i = 0; i < found.n; i++) {
			const char *p = found.paths[i], *base = strrchr(p, '/');
			char kn[256];
			if (ko_name(base ? base + 1 : p, kn, sizeof kn) && strcmp(kn, name) == 0 &&
			    strlen(p) < sizeof m->path) {
				strcpy(m->path, p);
				break;
			}
		}
	}
	fclose(f);
	for (size_t i = 0; i < found.n; i++)
		free(found.paths[i]);
	free(found.paths);
	found.paths = NULL;
	found.n = found.cap = 0;
	if (n > 1)
		qsort(v, n, sizeof *v, by_start);
	*out = v;
	return n;
}

tk_status rec_synth_modules(perfw_out *o, tk_error *err)
{
	struct utsname u;
	char dir[512];
	snprintf(dir, sizeof dir, "/lib/modules/%s", uname(&u) == 0 ? u.release : "");
	rec_module *mods;
	size_t n = rec_modules_list("/proc/modules", dir, &mods);
	tk_status st = TK_OK;
	uint8_t r[40 + sizeof mods->path + 8 + REC_ID_HDR_SIZE];
	for (size_t i = 0; i < n && st == TK_OK; i++) {
		memset(r, 0, sizeof r);
		int32_t pid = -1;
		memcpy(r + 8, &pid, 4); /* pid, tid 0 */
		memcpy(r + 16, &mods[i].start, 8);
		memcpy(r + 24, &mods[i].size, 8);
		size_t len = strlen(mods[i].path), padded = (len + 1 + 7) & ~(size_t)7;
		memcpy(r + 40, mods[i].path, len);
		size_t size = 40 + padded + REC_ID_HDR_SIZE;
		struct perf_event_header h = {.type = PERF_RECORD_MMAP,
					      .misc = PERF_RECORD_MISC_KERNEL,
					      .size = (uint16_t)size};
		memcpy(r, &h, sizeof h);
		st = perfw_out_record(o, r, size, NULL, 0, err);
	}
	free(mods);
	return st;
}
