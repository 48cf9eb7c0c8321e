/* Feeds src/unwind from a sample and the thread model (see perf_unwind.h). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/perf_callchain.h"
#include "analysis/perf_unwind.h"
#include "unwind/unwind.h"

bool tk_perf_unwind_wanted(const tk_perf_file *f)
{
	uint64_t combined = 0, dwarf = TK_PERF_SAMPLE_REGS_USER | TK_PERF_SAMPLE_STACK_USER;
	size_t n = tk_perf_attr_count(f);
	for (size_t i = 0; i < n; i++)
		combined |= tk_perf_attr_at(f, i)->sample_type;
	const tk_perf_features *ft = tk_perf_get_features(f);
	const char *arch = ft ? ft->arch : NULL;
	return (combined & dwarf) == dwarf && (!arch || !*arch || strcmp(arch, "x86_64") == 0);
}

/* What the thread model keeps for unwinding (t->unwinder). */
typedef struct unwind_state {
	tk_unwinder *u;
	tk_hashmap vdso_paths; /* tk_dso pointer -> its cache path (char *) */
	tk_arena paths;
	const tk_maps *maps; /* the sample's address space, for find_map */
} unwind_state;

static void free_state(void *p)
{
	unwind_state *st = p;
	if (!st)
		return;
	tk_unwinder_free(st->u);
	tk_hashmap_free(&st->vdso_paths);
	tk_arena_free(&st->paths);
	free(st);
}

/* perf's copy of a recorded [vdso], ~/.debug/[vdso]/<build id>/vdso (what
 * dso__build_id_filename() gives perf's unwinder), kept per image. */
static const char *vdso_path(unwind_state *st, const tk_dso *d)
{
	const char *home = getenv("HOME");
	if (!d->build_id_len || !home)
		return NULL;
	uint64_t *v = tk_hashmap_get(&st->vdso_paths, (uint64_t)(uintptr_t)d);
	if (v)
		return (const char *)(uintptr_t)*v;
	char hex[2 * TK_BUILD_ID_MAX + 1], path[4096];
	tk_build_id_hex(d->build_id, d->build_id_len, hex);
	snprintf(path, sizeof path, "%s/.debug/[vdso]/%s/vdso", home, hex);
	char *copy = tk_arena_strdup(&st->paths, path);
	if (!copy || !tk_hashmap_put(&st->vdso_paths, (uint64_t)(uintptr_t)d, (uintptr_t)copy))
		return NULL;
	return copy;
}

/* The user map holding addr, as perf's thread__find_map(MISC_USER). */
static bool find_map(void *user, uint64_t addr, tk_unwind_map *out)
{
	unwind_state *st = user;
	const tk_map *m = tk_maps_find(st->maps, addr);
	if (!m)
		return false;
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	/* only ELF files can be unwound through; others (perf maps) end
	 * the walk */
	const tk_dso *d = m->dso;
	out->path = NULL;
	if (d->kind == TK_DSO_FILE && d->name[0] == '/')
		out->path = d->name;
	else if (d->kind == TK_DSO_FILE && strcmp(d->name, "[vdso]") == 0)
		out->path = vdso_path(st, d);
	return true;
}

/* perf's build-id table lists the images its samples hit (leaf ips):
 * their DWARF for the inline frames starts loading on the second core
 * now, while this one unwinds the first samples. Files only ([vdso] and
 * the kernel have no debug file to inflate). */
static void preload(tk_unwinder *u, const tk_perf_features *ft)
{
	for (size_t i = 0; ft && i < ft->n_build_ids; i++) {
		const tk_perf_build_id *b = &ft->build_ids[i];
		if (b->filename && b->filename[0] == '/' && b->size)
			tk_unwinder_preload(u, b->filename, b->id, b->size);
	}
	tk_unwinder_preload_start(u);
}

size_t tk_perf_unwind_sample(tk_threads *t, const tk_thread *th, const tk_perf_attr *a,
			     const tk_perf_sample *s, uint64_t *pcs, size_t max)
{
	/* perf's user_stack.size is the dynamic size; no unwinder is
	 * registered for an address space without a readable image */
	if (!max || !a || !(s->sample_type & TK_PERF_SAMPLE_REGS_USER) ||
	    !(s->sample_type & TK_PERF_SAMPLE_STACK_USER) || !s->regs_user_abi ||
	    !s->stack_user_size || !s->stack_user_dyn_size || !th || !th->maps ||
	    !th->maps->unwind_ready)
		return 0;
	const char *arch = t->features ? t->features->arch : NULL;
	if (arch && *arch && strcmp(arch, "x86_64") != 0)
		return 0; /* only x86_64's registers are mapped so far */
	if (!t->unwinder) {
		unwind_state *st = calloc(1, sizeof *st);
		if (!st || !(st->u = tk_unwinder_new())) {
			free(st);
			return 0;
		}
		tk_hashmap_init(&st->vdso_paths);
		tk_arena_init(&st->paths, 4096);
		t->unwinder = st;
		t->unwinder_free = free_state;
		preload(st->u, t->features);
	}
	unwind_state *st = t->unwinder;
	st->maps = th->maps;
	uint64_t size = s->stack_user_dyn_size < s->stack_user_size ? s->stack_user_dyn_size
								    : s->stack_user_size;
	tk_unwind_input in = {
	    .space = th->maps,
	    .space_gen = th->maps->gen,
	    .pid = th->pid,
	    .machine = EM_X86_64,
	    .regs_abi = s->regs_user_abi,
	    .regs_mask = a->sample_regs_user,
	    .regs = s->regs_user,
	    .regs_n = s->regs_user_n,
	    .swap = s->swap,
	    .stack = s->stack_user,
	    .stack_size = size,
	    .find_map = find_map,
	    .find_user = st,
	};
	return tk_unwind(st->u, &in, pcs, max);
}

size_t tk_perf_unwind_inlines(tk_threads *t, const tk_thread *th, const tk_addr_loc *loc,
			      uint64_t ip, tk_perf_inline_frame *out, size_t max)
{
	if (!t->unwinder || !th || !th->maps || !loc->map || !loc->sym || !loc->name)
		return 0;
	const char *names[TK_UNWIND_INLINE_MAX];
	if (max > TK_UNWIND_INLINE_MAX)
		max = TK_UNWIND_INLINE_MAX;
	size_t n = tk_unwind_inlines(((unwind_state *)t->unwinder)->u, th->maps, ip, names, max);
	for (size_t i = 0; i < n; i++) {
		/* perf's new_inline_sym(): the real symbol when the names match */
		const char *name = tk_demangle(&t->demangler, names[i]);
		size_t len = strlen(name);
		bool own = len == loc->name_len && memcmp(name, loc->name, len) == 0;
		out[i] = (tk_perf_inline_frame){
		    .name = own ? loc->name : name, .name_len = len, .inlined = !own};
	}
	return n;
}

void tk_callchain_append_unwound(tk_threads *t, const tk_thread *th, const tk_perf_attr *a,
				 const tk_perf_sample *s, tk_callchain *out)
{
	uint64_t pcs[TK_CALLCHAIN_MAX];
	size_t n = tk_perf_unwind_sample(t, th, a, s, pcs, TK_CALLCHAIN_MAX);
	for (size_t i = 0; i < n && out->n < TK_CALLCHAIN_CAP; i++) {
		if (!pcs[i])
			continue; /* perf skips a zero entry */
		tk_addr_loc loc;
		tk_threads_resolve(t, th, TK_CPUMODE_USER, pcs[i], &loc);
		tk_perf_inline_frame inl[TK_PERF_INLINE_MAX];
		size_t k = tk_perf_unwind_inlines(t, th, &loc, pcs[i], inl, TK_PERF_INLINE_MAX);
		if (!k) {
			out->frames[out->n++] = (tk_callchain_frame){.ip = pcs[i], .loc = loc};
			continue;
		}
		for (size_t j = 0; j < k && out->n < TK_CALLCHAIN_CAP; j++) {
			tk_callchain_frame *fr = &out->frames[out->n++];
			*fr = (tk_callchain_frame){
			    .ip = pcs[i], .loc = loc, .inlined = inl[j].inlined};
			fr->loc.name = inl[j].name;
			fr->loc.name_len = inl[j].name_len;
		}
	}
}
