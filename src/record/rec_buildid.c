/* HEADER_BUILD_ID for `tracekit record`: the GNU build id of every file
 * mapped (MMAP/MMAP2 of user code, synthesized or from the kernel) and of
 * the running kernel (/sys/kernel/notes), in perf's build_id_event layout:
 * header, pid (-1: the host), 20 id bytes + size byte (misc has
 * PERF_RECORD_MISC_BUILD_ID_SIZE), the file name padded to 64. Of the
 * hit files (rec_hits.c), as perf; of every mapped file when the pass
 * over the recording cannot be made. */
#include <elf.h>
#include <linux/perf_event.h>
#include <sys/auxv.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "symbols/kernel_syms.h"
#include "tracekit/symbols.h"

#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)
#endif

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 1099511628211ull;
	}
	return h;
}

/* Rebuilds the index at twice the names' capacity (load <= 1/2). */
static bool dsos_index(rec_dsos *d, size_t n_slots)
{
	uint32_t *slots = calloc(n_slots, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < d->n; i++) {
		size_t k = (size_t)name_hash(d->names[i]) & (n_slots - 1);
		while (slots[k])
			k = (k + 1) & (n_slots - 1);
		slots[k] = (uint32_t)(i + 1);
	}
	free(d->slots);
	d->slots = slots;
	d->n_slots = n_slots;
	return true;
}

void rec_dsos_add(rec_dsos *d, const char *name)
{
	if (!d || ((name[0] != '/' || name[1] == '/') && strcmp(name, "[vdso]") != 0))
		return; /* //anon, [heap]: no file; the vdso has an id in memory */
	if (2 * (d->n + 1) > d->n_slots && !dsos_index(d, d->n_slots ? 2 * d->n_slots : 128))
		return; /* a missing build id only costs perf a path lookup */
	size_t k = (size_t)name_hash(name) & (d->n_slots - 1);
	for (; d->slots[k]; k = (k + 1) & (d->n_slots - 1))
		if (strcmp(d->names[d->slots[k] - 1], name) == 0)
			return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		char **g = realloc(d->names, cap * sizeof *g);
		if (!g)
			return;
		d->names = g;
		d->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return;
	d->names[d->n++] = copy;
	d->slots[k] = (uint32_t)d->n;
}

void rec_dsos_free(rec_dsos *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d->slots);
	memset(d, 0, sizeof *d);
}

static size_t entry_size(const char *name)
{
	return 36 + ((strlen(name) + 1 + 63) & ~(size_t)63);
}

static uint8_t *put_entry(uint8_t *q, uint16_t misc, const uint8_t *id, size_t id_len,
			  const char *name)
{
	size_t size = entry_size(name);
	struct perf_event_header h = {.type = 0,
				      .misc = (uint16_t)(misc | PERF_RECORD_MISC_BUILD_ID_SIZE),
				      .size = (uint16_t)size};
	memcpy(q, &h, 8);
	int32_t pid = -1;
	memcpy(q + 8, &pid, 4);
	memcpy(q + 12, id, id_len > 20 ? 20 : id_len);
	q[32] = (uint8_t)(id_len > 20 ? 20 : id_len);
	memcpy(q + 36, name, strlen(name));
	return q + size;
}

/* The vdso's build id, as perf records it for [vdso]: every process maps
 * the same image, so ours (AT_SYSINFO_EHDR) is read, its PT_NOTE walked
 * for NT_GNU_BUILD_ID. */
static size_t vdso_build_id(uint8_t out[TK_BUILD_ID_MAX])
{
	const uint8_t *base = (const uint8_t *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (!base || memcmp(base, ELFMAG, SELFMAG) != 0 || base[EI_CLASS] != ELFCLASS64)
		return 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)base;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph =
		    (const Elf64_Phdr *)(const void *)(base + eh->e_phoff +
						       (size_t)i * eh->e_phentsize);
		if (ph->p_type != PT_NOTE)
			continue;
		const uint8_t *p = base + ph->p_offset, *end = p + ph->p_filesz;
		while (p + sizeof(Elf64_Nhdr) <= end) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(const void *)p;
			const uint8_t *name = p + sizeof *nh;
			const uint8_t *desc = name + ((nh->n_namesz + 3) & ~3u);
			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0 && nh->n_descsz <= TK_BUILD_ID_MAX) {
				memcpy(out, desc, nh->n_descsz);
				return nh->n_descsz;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

tk_status rec_add_build_ids(const rec_dsos *d, bool kernel, perfw_out *o, tk_error *err)
{
	uint8_t kid[TK_BUILD_ID_MAX];
	size_t klen = kernel ? tk_sysfs_build_id("/sys/kernel/notes", kid) : 0;
	uint8_t(*ids)[TK_BUILD_ID_MAX] = calloc(d->n ? d->n : 1, sizeof *ids);
	size_t *lens = calloc(d->n ? d->n : 1, sizeof *lens);
	if (!ids || !lens) {
		free(ids);
		free(lens);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	size_t size = klen ? entry_size("[kernel.kallsyms]") : 0;
	for (size_t i = 0; i < d->n; i++) {
		lens[i] = strcmp(d->names[i], "[vdso]") == 0 ? vdso_build_id(ids[i])
							     : tk_elf_build_id(d->names[i], ids[i]);
		if (lens[i] && entry_size(d->names[i]) <= 65535)
			size += entry_size(d->names[i]);
		else
			lens[i] = 0;
	}
	tk_status st = TK_OK;
	if (size) {
		uint8_t *p = calloc(1, size), *q = p;
		if (!p) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		} else {
			if (klen)
				q = put_entry(q, PERF_RECORD_MISC_KERNEL, kid, klen,
					      "[kernel.kallsyms]");
			for (size_t i = 0; i < d->n; i++)
				if (lens[i])
					q = put_entry(q, PERF_RECORD_MISC_USER, ids[i], lens[i],
						      d->names[i]);
			st = perfw_out_add_feature(o, TK_PERF_FEAT_BUILD_ID, p, size, err);
		}
	}
	free(ids);
	free(lens);
	return st;
}
