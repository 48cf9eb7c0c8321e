/* Feeds src/unwind from a sample and the thread model (see perf_unwind.h). */
#include <elf.h>
#include <string.h>

#include "analysis/perf_callchain.h"
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

/* The user map holding addr, as perf's thread__find_map(MISC_USER). */
static bool find_map(void *user, uint64_t addr, tk_unwind_map *out)
{
	const tk_maps *maps = user;
	const tk_map *m = tk_maps_find(maps, addr);
	if (!m)
		return false;
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	/* only ELF files can be unwound through; others (perf maps, [vdso]
	 * without a cached copy) end the walk */
	out->path = m->dso->kind == TK_DSO_FILE && m->dso->name[0] == '/' ? m->dso->name : NULL;
	return true;
}

static void free_unwinder(void *u)
{
	tk_unwinder_free(u);
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
		if (!(t->unwinder = tk_unwinder_new()))
			return 0;
		t->unwinder_free = free_unwinder;
	}
	uint64_t size = s->stack_user_dyn_size < s->stack_user_size ? s->stack_user_dyn_size
								    : s->stack_user_size;
	tk_unwind_input in = {
	    .space = th->maps,
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
	    .find_user = th->maps,
	};
	return tk_unwind(t->unwinder, &in, pcs, max);
}

size_t tk_perf_unwind_inlines(tk_threads *t, const tk_thread *th, const tk_addr_loc *loc,
			      uint64_t ip, tk_perf_inline_frame *out, size_t max)
{
	if (!t->unwinder || !th || !th->maps || !loc->map || !loc->sym || !loc->name)
		return 0;
	const char *names[TK_UNWIND_INLINE_MAX];
	if (max > TK_UNWIND_INLINE_MAX)
		max = TK_UNWIND_INLINE_MAX;
	size_t n = tk_unwind_inlines(t->unwinder, th->maps, ip, names, max);
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
