/* Threads, maps and images of a recording, as perf's machine code keeps
 * them. See threads_model.h for the rules followed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/maps_pool.h"
#include "context/threads_model.h"
#include "symbols/kernel_syms.h"

#define MISC_CPUMODE_MASK  7u
#define MISC_MMAP_DATA     (1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14)
#define PROT_EXEC_BIT      4u

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static bool grow(void **v, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *nv = realloc(*v, ncap * elem);
	if (!nv)
		return false;
	*v = nv;
	*cap = ncap;
	return true;
}

/* ---- maps ---- */

const tk_map *tk_maps_find(const tk_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && m->v[lo].start <= addr && addr < m->v[lo].end)
		return &m->v[lo];
	return NULL;
}

bool tk_maps_insert(tk_maps *m, const tk_map *map)
{
	m->gen++;
	if (map->end <= map->start)
		return true; /* empty mapping: nothing can be found in it */
	/* first map ending after the new start (ends are sorted: no overlaps) */
	size_t i = 0, hi = m->n;
	while (i < hi) {
		size_t mid = i + (hi - i) / 2;
		if (m->v[mid].end <= map->start)
			i = mid + 1;
		else
			hi = mid;
	}
	size_t j = i;
	while (j < m->n && m->v[j].start < map->end)
		j++;
	tk_map piece[3];
	size_t np = 0;
	if (j > i && m->v[i].start < map->start) {
		piece[np] = m->v[i];
		piece[np++].end = map->start;
	}
	piece[np++] = *map;
	if (j > i && m->v[j - 1].end > map->end) {
		tk_map after = m->v[j - 1];
		if (!after.identity)
			after.pgoff += map->end - after.start;
		after.start = map->end;
		piece[np++] = after;
	}
	size_t removed = j - i;
	size_t n_new = m->n - removed + np;
	bool shared = m->shared && *m->shared > 1;
	if (m->shared && !shared)
		m->shared = NULL; /* the others made their own: v is this map's */
	if (shared || n_new > m->cap) {
		size_t ncap = m->cap ? m->cap : 8;
		while (ncap < n_new)
			ncap *= 2;
		tk_map *nv = tk_maps_pool_get(m->pool, &ncap, sizeof *nv);
		if (!nv)
			return false;
		if (m->n)
			memcpy(nv, m->v, m->n * sizeof *nv);
		if (shared) {
			(*m->shared)--;
			m->shared = NULL;
		} else {
			tk_maps_pool_put(m->pool, m->v, m->cap);
		}
		m->v = nv;
		m->cap = ncap;
	}
	memmove(m->v + i + np, m->v + j, (m->n - j) * sizeof *m->v);
	memcpy(m->v + i, piece, np * sizeof *piece);
	m->n = n_new;
	return true;
}

_Static_assert(sizeof(tk_map) <= TK_MAPS_POOL_MAX_ELEM, "map arrays fit the pool's chunks");

static tk_maps *maps_new(tk_threads *t, tk_maps *copy)
{
	if (!grow((void **)&t->all_maps, &t->cap_all_maps, t->n_all_maps, sizeof *t->all_maps))
		return NULL;
	tk_maps *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->pool = t->maps_pool;
	if (copy)
		m->unwind_ready = copy->unwind_ready;
	if (copy && copy->n) {
		if (!copy->shared) {
			copy->shared = tk_arena_alloc(&t->arena, sizeof *copy->shared);
			if (!copy->shared) {
				free(m);
				return NULL;
			}
			*copy->shared = 1;
		}
		(*copy->shared)++;
		m->shared = copy->shared;
		m->v = copy->v;
		m->n = copy->n;
		m->cap = copy->cap;
	}
	if (copy && copy->tag_owner && copy->tag_gen == copy->gen) {
		/* the same content as the parent's at its tagged generation, so
		 * the same tag until the copy's first insert: a forked child's
		 * frames are found under its parent's id (a cache on top sees
		 * one space, not one per fork of a shell or a pre-forking
		 * server) */
		m->tag_owner = copy->tag_owner;
		m->tag_epoch = copy->tag_epoch;
		m->tag = copy->tag;
		m->tag_gen = m->gen;
	}
	t->all_maps[t->n_all_maps++] = m;
	return m;
}

/* ---- images ---- */

static void find_header_build_id(tk_threads *t, tk_dso *d)
{
	if (!t->features)
		return;
	for (size_t i = 0; i < t->features->n_build_ids; i++) {
		const tk_perf_build_id *b = &t->features->build_ids[i];
		if (b->filename && strcmp(b->filename, d->name) == 0 && b->size <= sizeof b->id) {
			memcpy(d->build_id, b->id, b->size);
			d->build_id_len = b->size;
			return;
		}
	}
}

static tk_dso *dso_findnew(tk_threads *t, const char *name, tk_dso_kind kind, int pid)
{
	uint64_t h = name_hash(name);
	for (uint64_t probe = 0;; probe++) {
		uint64_t key = h + probe * 0x9e3779b97f4a7c15ull;
		uint64_t *idx = tk_hashmap_get(&t->dso_by_hash, key);
		if (!idx)
			break;
		tk_dso *d = t->dsos[*idx - 1];
		if (strcmp(d->name, name) == 0)
			return d;
	}
	if (!grow((void **)&t->dsos, &t->cap_dsos, t->n_dsos, sizeof *t->dsos))
		return NULL;
	tk_dso *d = tk_arena_calloc(&t->arena, 1, sizeof *d);
	char *copy = d ? tk_arena_strdup(&t->arena, name) : NULL;
	if (!copy)
		return NULL;
	d->name = copy;
	d->name_len = strlen(copy);
	const char *slash = strrchr(copy, '/');
	d->short_name = slash ? slash + 1 : copy;
	d->kind = kind;
	d->pid = pid;
	d->elf_class = -1;
	find_header_build_id(t, d);
	for (uint64_t probe = 0;; probe++) {
		uint64_t key = h + probe * 0x9e3779b97f4a7c15ull;
		if (!tk_hashmap_get(&t->dso_by_hash, key)) {
			if (!tk_hashmap_put(&t->dso_by_hash, key, t->n_dsos + 1))
				return NULL;
			break;
		}
	}
	t->dsos[t->n_dsos++] = d;
	return d;
}

void tk_threads_prefetch_kernel(tk_threads *t, const tk_perf_file *f, bool cached_only)
{
	bool kernel = false;
	size_t n = tk_perf_attr_count(f);
	for (size_t i = 0; i < n && !kernel; i++)
		kernel = !tk_perf_attr_flag(tk_perf_attr_at(f, i), TK_PERF_ATTR_EXCLUDE_KERNEL);
	if (!kernel)
		return;
	if (!t->features)
		t->features = tk_perf_get_features(f);
	/* the build id kernel_symbols() will use: the header's for the
	 * image a kernel MMAP creates (find_header_build_id) */
	tk_dso k = {.name = "[kernel.kallsyms]"};
	find_header_build_id(t, &k);
	tk_symcache_prefetch_kernel(t->symbols, k.build_id, k.build_id_len, t->kernel_notes,
				    cached_only);
}

const tk_symtab *tk_threads_kernel_table(tk_threads *t)
{
	return t->symbols ? tk_symcache_kernel_loaded(t->symbols) : NULL;
}

bool tk_threads_adopt_kernel(tk_threads *t, const tk_symtab *from)
{
	return t->symbols && from && tk_symcache_adopt_kernel(t->symbols, from);
}

bool tk_threads_kernel_pending(const tk_threads *t)
{
	return !t->kernel_chosen && t->symbols && tk_symcache_kernel_pending(t->symbols);
}

/* The kallsyms perf would load for this recording's kernel and the
 * relocation it applies (kernel_syms.h): no symbols at all when the
 * reference symbol is missing from the table, as perf's load fails then. */
static const tk_symtab *kernel_symbols(tk_threads *t)
{
	if (t->kernel_chosen)
		return t->kernel_syms;
	t->kernel_chosen = true;
	const tk_dso *k = t->kernel_dso;
	const tk_symtab *st = tk_symcache_kernel_for(t->symbols, k ? k->build_id : NULL,
						     k ? k->build_id_len : 0, t->kernel_notes);
	if (st && t->ref_reloc_addr) {
		uint64_t at;
		if (tk_kallsyms_function_start(st, t->ref_reloc_name, &at))
			t->kernel_delta = at - t->ref_reloc_addr;
		else
			st = NULL;
	}
	t->kernel_syms = st;
	return st;
}

static const tk_symtab *dso_symtab(tk_threads *t, tk_dso *d)
{
	if (d->tried)
		return d->symtab;
	d->tried = true;
	switch (d->kind) {
	case TK_DSO_FILE:
		if (strcmp(d->name, "[vdso]") == 0 && !d->build_id_len) {
			/* perf uses its own vdso for one recorded without id */
			d->symtab = tk_symcache_host_vdso(t->symbols);
			break;
		}
		if (strcmp(d->name, "[vdso]") == 0 && d->build_id_len) {
			/* perf keeps the vdso image it saw at record time in its
			 * build-id cache as [vdso]/<build id>/vdso */
			char hex[2 * TK_BUILD_ID_MAX + 1], path[4096];
			const char *dir = tk_symcache_debug_dir(t->symbols);
			if (!dir)
				break;
			tk_build_id_hex(d->build_id, d->build_id_len, hex);
			snprintf(path, sizeof path, "%s/[vdso]/%s/vdso", dir, hex);
			d->symtab =
			    tk_symcache_image(t->symbols, path, d->build_id, d->build_id_len);
			break;
		}
		d->symtab = tk_symcache_image(
		    t->symbols, d->name, d->build_id_len ? d->build_id : NULL, d->build_id_len);
		break;
	case TK_DSO_KERNEL:
	case TK_DSO_MODULE: d->symtab = kernel_symbols(t); break;
	case TK_DSO_PERFMAP: d->symtab = tk_symcache_perf_map(t->symbols, d->pid); break;
	}
	return d->symtab;
}

/* ---- threads ---- */

static tk_thread *thread_new(tk_threads *t, int32_t pid, int32_t tid)
{
	if (!grow((void **)&t->threads, &t->cap_threads, t->n_threads, sizeof *t->threads))
		return NULL;
	tk_thread *th = tk_arena_calloc(&t->arena, 1, sizeof *th);
	if (!th)
		return NULL;
	th->pid = pid;
	th->tid = tid;
	snprintf(th->comm, sizeof th->comm, ":%d", (int)tid);
	if (!tk_hashmap_put(&t->by_tid, (uint32_t)tid, t->n_threads))
		return NULL;
	t->threads[t->n_threads++] = th;
	if (pid == tid || pid == -1) {
		th->maps = maps_new(t, NULL);
	} else {
		tk_thread *leader = tk_threads_findnew(t, pid, pid);
		th->maps = leader ? leader->maps : NULL;
	}
	if (!th->maps) {
		t->oom = true;
		return NULL;
	}
	return th;
}

tk_thread *tk_threads_findnew(tk_threads *t, int32_t pid, int32_t tid)
{
	uint64_t *idx = tk_hashmap_get(&t->by_tid, (uint32_t)tid);
	if (idx) {
		tk_thread *th = t->threads[*idx];
		/* perf's machine__update_thread_pid: a thread first seen
		 * without its pid joins its process once the pid is known */
		if (th->pid == -1 && pid != -1 && pid != tid) {
			tk_thread *leader = tk_threads_findnew(t, pid, pid);
			th = t->threads[*tk_hashmap_get(&t->by_tid, (uint32_t)tid)];
			th->pid = pid;
			if (leader && th->maps && th->maps->n == 0)
				th->maps = leader->maps;
		} else if (th->pid == -1 && pid != -1) {
			th->pid = pid;
		}
		return th;
	}
	tk_thread *th = thread_new(t, pid, tid);
	if (!th)
		t->oom = true;
	return th;
}

static void set_comm(tk_thread *th, const char *comm)
{
	size_t n = strnlen(comm, sizeof th->comm - 1);
	memcpy(th->comm, comm, n);
	th->comm[n] = '\0';
	th->comm_set = true;
}

bool tk_threads_init(tk_threads *t, const tk_symcache_options *cache_opt)
{
	memset(t, 0, sizeof *t);
	if (!(t->maps_pool = calloc(1, sizeof *t->maps_pool)))
		return false;
	t->kernel.pool = t->maps_pool;
	tk_arena_init(&t->arena, 64 * 1024);
	tk_hashmap_init(&t->by_tid);
	tk_hashmap_init(&t->dso_by_hash);
	tk_demangler_init(&t->demangler);
	tk_symcache_options def = {0};
	t->symbols = tk_symcache_new(cache_opt ? cache_opt : &def);
	if (!t->symbols)
		return false;
	tk_thread *idle = tk_threads_findnew(t, 0, 0);
	if (!idle)
		return false;
	set_comm(idle, "swapper");
	return true;
}

void tk_threads_free(tk_threads *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_all_maps; i++) {
		tk_maps *m = t->all_maps[i];
		if (!m->shared || --*m->shared == 0) /* the array's last holder */
			tk_maps_pool_put(t->maps_pool, m->v, m->cap);
		free(m);
	}
	free(t->all_maps);
	tk_maps_pool_put(t->maps_pool, t->kernel.v, t->kernel.cap);
	tk_maps_pool_free(t->maps_pool);
	free(t->maps_pool);
	free(t->threads);
	free(t->dsos);
	tk_hashmap_free(&t->by_tid);
	tk_hashmap_free(&t->dso_by_hash);
	tk_symcache_free(t->symbols);
	tk_demangler_free(&t->demangler);
	if (t->unwinder_free)
		t->unwinder_free(t->unwinder);
	tk_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}

static void process_fork(tk_threads *t, const tk_perf_event *ev)
{
	int32_t pid = (int32_t)ev->u.fork.pid, tid = (int32_t)ev->u.fork.tid;
	int32_t ppid = (int32_t)ev->u.fork.ppid, ptid = (int32_t)ev->u.fork.ptid;
	tk_thread *parent = tk_threads_findnew(t, ppid, ptid);
	if (!parent)
		return;
	/* the child replaces any thread that had its tid */
	tk_thread *th = thread_new(t, pid, tid);
	if (!th) {
		t->oom = true;
		return;
	}
	parent = tk_threads_findnew(t, ppid, ptid);
	if (parent && parent->comm_set)
		set_comm(th, parent->comm);
	if (parent && pid != parent->pid && th->maps != parent->maps) {
		tk_maps *clone = maps_new(t, parent->maps);
		if (!clone) {
			t->oom = true;
			return;
		}
		th->maps = clone;
	}
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* kmod_path__parse_name: "/lib/modules/x/kernel/fs/ext4/ext4.ko.xz" -> "[ext4]" */
static void module_name(const char *path, char *out, size_t cap)
{
	if (path[0] == '[') {
		snprintf(out, cap, "%s", path);
		return;
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strstr(base, ".ko");
	size_t n = dot ? (size_t)(dot - base) : strlen(base);
	if (n > cap - 3)
		n = cap - 3;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[1 + i] = base[i] == '-' ? '_' : base[i];
	out[1 + n] = ']';
	out[2 + n] = '\0';
}

/* perf names a module's image by the path its build id was recorded
 * under (the header's build-id table creates that image first and a module
 * MMAP finds it by its "[name]"), else "[name]". */
static const char *module_image_name(const tk_threads *t, const char *short_name)
{
	if (!t->features)
		return short_name;
	for (size_t i = 0; i < t->features->n_build_ids; i++) {
		const tk_perf_build_id *b = &t->features->build_ids[i];
		unsigned cpumode = b->misc & MISC_CPUMODE_MASK;
		if (!b->filename || b->filename[0] != '/' ||
		    (cpumode != TK_CPUMODE_KERNEL && cpumode != TK_CPUMODE_GUEST_KERNEL) ||
		    !strstr(b->filename, ".ko"))
			continue;
		char name[256];
		module_name(b->filename, name, sizeof name);
		if (strcmp(name, short_name) == 0)
			return b->filename;
	}
	return short_name;
}

static void process_kernel_mmap(tk_threads *t, uint64_t start, uint64_t len, uint64_t pgoff,
				const char *filename)
{
	tk_map m = {.start = start, .end = start + len, .pgoff = pgoff, .identity = true};
	if (m.end < start || len == 0)
		m.end = UINT64_MAX;
	static const char kernel_prefix[] = "[kernel.kallsyms]";
	if (starts_with(filename, kernel_prefix) ||
	    starts_with(filename, "[guest.kernel.kallsyms")) {
		if (!t->kernel_dso)
			t->kernel_dso = dso_findnew(t, "[kernel.kallsyms]", TK_DSO_KERNEL, -1);
		m.dso = t->kernel_dso;
		/* machine__process_kernel_mmap_event: pgoff 0 means the
		 * addresses were hidden at record time: no reference then */
		if (pgoff != 0 && starts_with(filename, kernel_prefix)) {
			snprintf(t->ref_reloc_name, sizeof t->ref_reloc_name, "%s",
				 filename + sizeof kernel_prefix - 1);
			t->ref_reloc_addr = pgoff;
		}
	} else {
		char name[256];
		module_name(filename, name, sizeof name);
		m.dso = dso_findnew(t, module_image_name(t, name), TK_DSO_MODULE, -1);
		if (m.dso && !m.dso->kmod) {
			size_t n = strlen(name);
			m.dso->kmod = tk_arena_strndup(&t->arena, name + 1, n >= 2 ? n - 2 : 0);
		}
	}
	if (!m.dso || !tk_maps_insert(&t->kernel, &m))
		t->oom = true;
}

static bool is_elf_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	unsigned char ident[5];
	bool ok = fread(ident, 1, sizeof ident, f) == sizeof ident &&
		  memcmp(ident, "\177ELF", 4) == 0 && (ident[4] == 1 || ident[4] == 2);
	fclose(f);
	return ok;
}

/* perf's dso__type(): the image's ELF class can be read from its data
 * file, the build-id cache's copy or the path itself (for a [vdso] without
 * build id, perf's copy of its own vdso). */
static bool dso_has_elf_class(tk_threads *t, tk_dso *d)
{
	if (d->elf_class >= 0)
		return d->elf_class == 1;
	bool known = false;
	if (d->kind == TK_DSO_FILE) {
		if (strcmp(d->name, "[vdso]") == 0 && !d->build_id_len) {
			known = tk_symcache_host_vdso(t->symbols) != NULL;
		} else {
			const char *dir = tk_symcache_debug_dir(t->symbols);
			if (d->build_id_len && dir) {
				char hex[2 * TK_BUILD_ID_MAX + 1], path[4096];
				tk_build_id_hex(d->build_id, d->build_id_len, hex);
				snprintf(path, sizeof path, "%s/.build-id/%.2s/%s", dir, hex,
					 hex + 2);
				known = is_elf_file(path);
				if (!known) {
					snprintf(path, sizeof path, "%s/.build-id/%.2s/%s/elf", dir,
						 hex, hex + 2);
					known = is_elf_file(path);
				}
			}
			if (!known && d->name[0] == '/')
				known = is_elf_file(d->name);
		}
	}
	d->elf_class = known ? 1 : 0;
	return known;
}

static void process_user_mmap(tk_threads *t, int32_t pid, int32_t tid, uint64_t start, uint64_t len,
			      uint64_t pgoff, bool exec, const char *filename,
			      const uint8_t *build_id, size_t build_id_len)
{
	tk_thread *th = tk_threads_findnew(t, pid, tid);
	if (!th)
		return;
	tk_map m = {.start = start, .end = start + len, .pgoff = pgoff};
	if (m.end < start)
		m.end = UINT64_MAX;
	bool anon = starts_with(filename, "//anon") || starts_with(filename, "/dev/zero") ||
		    starts_with(filename, "/anon_hugepage");
	bool no_dso = starts_with(filename, "[stack") || starts_with(filename, "/SYSV") ||
		      strcmp(filename, "[heap]") == 0;
	if (anon || no_dso) {
		m.identity = true;
		if (exec) {
			char name[64];
			snprintf(name, sizeof name, "/tmp/perf-%d.map", (int)pid);
			m.dso = dso_findnew(t, name, TK_DSO_PERFMAP, pid);
		} else {
			m.dso = dso_findnew(t, filename, TK_DSO_FILE, pid);
			if (m.dso)
				m.dso->tried = true; /* no symbols in data memory */
		}
	} else {
		/* map__new(): the vdso's pgoff is 0 whatever the record says
		 * (old kernels gave its address) */
		if (strcmp(filename, "[vdso]") == 0)
			m.pgoff = 0;
		m.dso = dso_findnew(t, filename, TK_DSO_FILE, pid);
		if (m.dso && build_id_len && !m.dso->build_id_len &&
		    build_id_len <= sizeof m.dso->build_id) {
			memcpy(m.dso->build_id, build_id, build_id_len);
			m.dso->build_id_len = build_id_len;
		}
	}
	if (!m.dso || !tk_maps_insert(th->maps, &m)) {
		t->oom = true;
		return;
	}
	if (!th->maps->unwind_ready) {
		const char *arch = t->features ? t->features->arch : NULL;
		th->maps->unwind_ready = !arch || !*arch || dso_has_elf_class(t, m.dso);
	}
}

tk_status tk_threads_process(tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
			     tk_error *err)
{
	switch (rec->type) {
	case TK_PERF_RECORD_COMM:
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_MMAP:
	case TK_PERF_RECORD_MMAP2: break;
	default: return TK_OK; /* EXIT only marks a thread dead in perf: nothing to do */
	}
	if (!t->features)
		t->features = tk_perf_get_features(f);
	tk_perf_event ev;
	tk_status st = tk_perf_parse_event(f, rec, &ev, err);
	if (st != TK_OK)
		return st;
	unsigned cpumode = rec->misc & MISC_CPUMODE_MASK;
	bool kernel = cpumode == TK_CPUMODE_KERNEL || cpumode == TK_CPUMODE_GUEST_KERNEL;
	switch (rec->type) {
	case TK_PERF_RECORD_COMM: {
		tk_thread *th =
		    tk_threads_findnew(t, (int32_t)ev.u.comm.pid, (int32_t)ev.u.comm.tid);
		if (th)
			set_comm(th, ev.u.comm.comm);
		break;
	}
	case TK_PERF_RECORD_FORK: process_fork(t, &ev); break;
	case TK_PERF_RECORD_MMAP:
		if (kernel)
			process_kernel_mmap(t, ev.u.mmap.start, ev.u.mmap.len, ev.u.mmap.pgoff,
					    ev.u.mmap.filename);
		else
			process_user_mmap(t, (int32_t)ev.u.mmap.pid, (int32_t)ev.u.mmap.tid,
					  ev.u.mmap.start, ev.u.mmap.len, ev.u.mmap.pgoff,
					  !(rec->misc & MISC_MMAP_DATA), ev.u.mmap.filename, NULL,
					  0);
		break;
	case TK_PERF_RECORD_MMAP2:
		if (kernel)
			process_kernel_mmap(t, ev.u.mmap2.start, ev.u.mmap2.len, ev.u.mmap2.pgoff,
					    ev.u.mmap2.filename);
		else
			process_user_mmap(
			    t, (int32_t)ev.u.mmap2.pid, (int32_t)ev.u.mmap2.tid, ev.u.mmap2.start,
			    ev.u.mmap2.len, ev.u.mmap2.pgoff,
			    (ev.u.mmap2.prot & PROT_EXEC_BIT) != 0, ev.u.mmap2.filename,
			    (rec->misc & MISC_MMAP_BUILD_ID) ? ev.u.mmap2.build_id : NULL,
			    (rec->misc & MISC_MMAP_BUILD_ID) ? ev.u.mmap2.build_id_size : 0);
		break;
	}
	return TK_OK;
}

/* perf's dso__load_kernel_sym ends with map__fixup_start/_end: once
 * kallsyms is loaded, the kernel map spans its first to its last symbol
 * (modules aside, after the relocation), not what the MMAP record said
 * (_text.._etext, or 0..modules in old files). Frames in .init.text such as
 * start_kernel, past _etext, then resolve as perf resolves them. The map
 * never reaches into its neighbours, so the array stays sorted. */
static void kernel_map_fixup(tk_threads *t, size_t i, const tk_symtab *st)
{
	size_t n = tk_symtab_count(st), first = 0, last = n;
	while (first < n && tk_symtab_at(st, first)->module)
		first++;
	while (last > 0 && tk_symtab_at(st, last - 1)->module)
		last--;
	if (first >= last)
		return;
	const tk_symbol *a = tk_symtab_at(st, first), *b = tk_symtab_at(st, last - 1);
	uint64_t start = a->start - t->kernel_delta;
	uint64_t end = b->start + b->size - t->kernel_delta;
	if (i > 0 && start < t->kernel.v[i - 1].end)
		start = t->kernel.v[i - 1].end;
	if (i + 1 < t->kernel.n && end > t->kernel.v[i + 1].start)
		end = t->kernel.v[i + 1].start;
	tk_map *m = &t->kernel.v[i];
	if (start < end && (start != m->start || end != m->end)) {
		m->start = start;
		m->end = end;
		t->kernel.gen++; /* addresses cached against the old bounds are not */
	}
}

void tk_threads_resolve(tk_threads *t, const tk_thread *th, unsigned cpumode, uint64_t ip,
			tk_addr_loc *loc)
{
	loc->map = NULL;
	loc->sym = NULL;
	loc->addr = ip;
	loc->sym_off = 0;
	loc->name = NULL;
	loc->name_len = 0;
	const tk_maps *maps;
	if (cpumode == TK_CPUMODE_KERNEL)
		maps = &t->kernel;
	else if (cpumode == TK_CPUMODE_USER && th)
		maps = th->maps;
	else
		return;
	if (!maps)
		return;
	const tk_map *m = tk_maps_find(maps, ip);
	if (m && maps == &t->kernel && m->dso == t->kernel_dso && !m->dso->tried) {
		/* thread__find_map() loads the kernel's symbols before it uses
		 * the map, and loading moves the map's bounds (map__fixup_start/
		 * _end): the first kernel address is looked up in the moved map */
		size_t i = (size_t)(m - t->kernel.v);
		const tk_symtab *st = dso_symtab(t, m->dso);
		if (st)
			kernel_map_fixup(t, i, st);
		m = tk_maps_find(maps, ip);
	}
	if (!m)
		return;
	loc->map = m;
	loc->addr = m->identity ? ip : ip - m->start + m->pgoff;
	tk_dso *d = m->dso;
	tk_dso_cache_slot *slot = NULL;
	if (d->cache) {
		uint64_t h = (loc->addr * 0x9e3779b97f4a7c15ull) >> (64 - d->cache_bits);
		slot = &d->cache[h];
		if (slot->addr_plus1 == loc->addr + 1) {
			loc->sym = slot->sym;
			loc->sym_off = slot->off;
			loc->name = slot->name;
			loc->name_len = slot->name_len;
			return;
		}
	}
	const tk_symtab *st = dso_symtab(t, d);
	if (!st)
		return;
	/* An image gets a small cache at its first lookup and a big one once
	 * it misses often: most images of a -a recording see a handful of
	 * addresses, and zeroing 4096 slots for each costs more than it saves. */
	unsigned bits = 0;
	if (!d->cache)
		bits = TK_DSO_CACHE_SMALL_BITS;
	else if (d->cache_bits < TK_DSO_CACHE_BITS && ++d->cache_misses > (4u << d->cache_bits))
		bits = TK_DSO_CACHE_BITS;
	if (bits) {
		tk_dso_cache_slot *nc = tk_arena_calloc(&t->arena, (size_t)1 << bits, sizeof *nc);
		if (nc) {
			d->cache = nc;
			d->cache_bits = (uint8_t)bits;
		}
		if (d->cache) {
			uint64_t h = (loc->addr * 0x9e3779b97f4a7c15ull) >> (64 - d->cache_bits);
			slot = &d->cache[h];
		}
	}
	uint64_t va = loc->addr;
	if (d->kind == TK_DSO_FILE && !tk_symtab_offset_to_symbol_vaddr(st, loc->addr, &va))
		va = loc->addr;
	else if (d->kind == TK_DSO_KERNEL)
		va = loc->addr + t->kernel_delta;
	uint64_t off = 0;
	const tk_symbol *s = tk_symtab_lookup(st, va, &off);
	/* perf splits kallsyms: the kernel's image holds the kernel's
	 * symbols, each module's image its own */
	if (s && d->kind == TK_DSO_KERNEL && s->module)
		s = NULL;
	else if (s && d->kind == TK_DSO_MODULE &&
		 (!s->module || !d->kmod || strcmp(s->module, d->kmod) != 0))
		s = NULL;
	loc->sym = s;
	loc->sym_off = s ? off : 0;
	loc->name = s ? tk_demangle(&t->demangler, s->name) : NULL;
	loc->name_len = s ? strlen(loc->name) : 0;
	if (slot) {
		slot->addr_plus1 = loc->addr + 1;
		slot->sym = s;
		slot->off = loc->sym_off;
		slot->name = loc->name;
		slot->name_len = loc->name_len;
	}
}
