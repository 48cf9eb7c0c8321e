/* The frame walk: dwfl_attach_state() once per space, then one
 * dwfl_getthread_frames() per sample (perf's unwind__get_entries and
 * frame_callback in util/unwind-libdw.c). */
#include <stdint.h>
#include <stdlib.h>

#include "unwind/unwind.h"

#if TK_HAVE_LIBDW
#include <dwarf.h>
#include <elf.h>
#include <string.h>

#include "unwind/unwind_fast.h"
#include "unwind/unwind_image.h"
#include "unwind/unwind_memory.h"
#include "unwind/unwind_nocfi.h"
#include "unwind/unwind_space.h"

/* The attached "process" has one thread: the sample's. Its id only has
 * to be non-zero (0 ends libdwfl's thread iteration). */
#define UNWIND_TID 1

/* x86_64 DWARF register numbers */
#define REG_RBP 6
#define REG_RSP 7

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	tk_unwinder *u = arg;
	if (u->carry_restart) {
		/* the frame libdwfl could not unwind, with the registers
		 * it lost put back; its pc already the lookup pc */
		for (unsigned r = 0; r < 17; r++)
			if (((u->carry_set >> r) & 1) &&
			    !dwfl_thread_state_registers(thread, (int)r, 1, &u->carry[r]))
				return false;
		dwfl_thread_state_register_pc(thread, u->carry_pc);
		return true;
	}
	if (u->restart) {
		/* from perf's guess at a frame without CFI: every other
		 * register unknown, as libunwind marks them; its pc the
		 * return address - 1, where libunwind looks the CFI up */
		Dwarf_Word fp_sp[2] = {u->guess.rbp, u->guess.sp};
		if (!dwfl_thread_state_registers(thread, REG_RBP, 2, fp_sp))
			return false;
		dwfl_thread_state_register_pc(thread, u->guess.ra - 1);
		return true;
	}
	if (!dwfl_thread_state_registers(thread, 0, u->regs.n, u->regs.dwarf))
		return false;
	if (u->regs.pc_apart)
		dwfl_thread_state_register_pc(thread, u->regs.ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .memory_read = tk_unwind_memory_read,
    .set_initial_registers = set_initial_registers,
};

/* The frame's registers as libunwind has them (see unwind_fast.c): those
 * libdwfl left undefined keep the value they had in the frame below. The
 * return address (16) is not carried: undefined, it ends the stack. */
static void carry_registers(tk_unwinder *u, Dwfl_Frame *state, uint64_t pc)
{
	uint32_t set = 0, carried = 0;
	for (unsigned r = 0; r < 17; r++) {
		Dwarf_Word v;
		if (dwfl_frame_reg(state, r, &v) == 0) {
			u->carry[r] = v;
			set |= 1u << r;
		} else if (r != 16 && ((u->carry_set >> r) & 1)) {
			carried |= 1u << r; /* u->carry[r] stays */
		}
	}
	u->carry_set = set | carried;
	u->carried = carried;
	u->carry_pc = pc;
}

/* One frame: its pc (minus one for a return address, as dwfl_frame_pc's
 * isactivation says), the image holding it reported first so libdwfl
 * finds its CFI for the next step. Stops at u->max frames, and where no
 * CFI covers the pc (perf's step differs there: unwind_nocfi.c). */
static int on_frame(Dwfl_Frame *state, void *arg)
{
	tk_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	u->carried = 0; /* an abort below is no reason to redo the frame before */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	Dwfl_Module *mod;
	tk_unwind_map map;
	if (tk_unwind_report_module(u, pc, &mod, &map) == TK_UNWIND_CONFLICT)
		return DWARF_CB_ABORT;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	carry_registers(u, state, pc);
	u->pcs[u->n++] = pc;
	if (u->n >= u->max)
		return DWARF_CB_ABORT;
	switch (tk_unwind_cfi_at(u, pc)) {
	case TK_UNWIND_CFI_FOUND: return DWARF_CB_OK;
	case TK_UNWIND_CFI_NO_IMAGE: return DWARF_CB_ABORT;
	case TK_UNWIND_CFI_NONE: break;
	}
	Dwarf_Word rbp = 0, sp;
	bool rbp_known = dwfl_frame_reg(state, REG_RBP, &rbp) == 0;
	u->guessed = dwfl_frame_reg(state, REG_RSP, &sp) == 0 &&
		     tk_unwind_guess_caller(u, rbp_known, rbp, sp, &u->guess);
	return DWARF_CB_ABORT;
}

/* libdwfl's walk of the sample, restarted from perf's guess wherever a
 * frame without CFI stopped it; true when it ended (no abort). */
static bool walk_dwfl(tk_unwinder *u, tk_unwind_space *s)
{
	bool ended;
	u->carry_set = 0;
	for (;;) {
		u->guessed = false;
		u->carried = 0;
		size_t before = u->n;
		ended = dwfl_getthread_frames(s->dwfl, UNWIND_TID, on_frame, u) == 0;
		u->carry_restart = false;
		if (!u->guessed && u->carried && u->n > before && u->n < u->max &&
		    tk_unwind_fast_cfa_uses(u, u->carry_pc, u->carried)) {
			/* libdwfl ended at a frame whose CFA needs a register
			 * it lost below (an undefined CFA leaves the return
			 * address undefined, which ends the walk): that frame
			 * again, whole. The restart's first frame has every
			 * register, so this ends. */
			u->n--;
			u->carry_restart = true;
			continue;
		}
		if (!u->guessed)
			break;
		if (u->guess.ra == 0) {
			/* libunwind's frame at pc 0 - 1, then no unwind table */
			u->pcs[u->n++] = UINT64_MAX;
			ended = false;
			break;
		}
		/* each restart adds a frame: the walk stays within u->max */
		u->restart = true;
		u->carry_set = 0; /* perf's guess knows rbp and sp only */
	}
	u->restart = false;
	return ended;
}

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

tk_unwinder *tk_unwinder_new(void)
{
	tk_unwinder *u = calloc(1, sizeof(tk_unwinder));
	/* for the bench's before/after and for checking the cache: the
	 * same output either way */
	if (!u)
		return NULL;
	u->no_fast = env_set("TRACEKIT_UNWIND_NO_CACHE");
	u->prefetch = env_set("TRACEKIT_UNWIND_PREFETCH");
	if (!u->no_fast && !(u->images = tk_unwind_images_new())) {
		free(u);
		return NULL;
	}
	return u;
}

void tk_unwinder_free(tk_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < TK_UNWIND_SPACES; i++)
		tk_unwind_space_drop(&u->spaces[i]);
	tk_unwind_images_free(u->images);
	free(u->inlines);
	free(u->rules);
	free(u);
}

void tk_unwinder_forget(tk_unwinder *u, const void *space)
{
	for (size_t i = 0; u && i < TK_UNWIND_SPACES; i++)
		if (u->spaces[i].key == space)
			tk_unwind_space_drop(&u->spaces[i]);
}

bool tk_unwind_available(uint16_t machine)
{
	return machine == EM_X86_64;
}

void tk_unwinder_preload(tk_unwinder *u, const char *path, const uint8_t *build_id,
			 size_t build_id_len)
{
	if (u && u->prefetch)
		tk_unwind_images_add(u->images, path, build_id, build_id_len);
}

void tk_unwinder_preload_start(tk_unwinder *u)
{
	if (u)
		tk_unwind_images_start(u->images);
}

size_t tk_unwind(tk_unwinder *u, const tk_unwind_input *in, uint64_t *pcs, size_t max)
{
	/* the mapping of other machines exists (aarch64), the walk is
	 * checked on x86_64 only */
	if (!u || !max || !tk_unwind_available(in->machine) || !tk_unwind_regs_load(in, &u->regs))
		return 0;
	u->in = in;
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	u->cur = tk_unwind_space_get(u, in->space);
	tk_unwind_space *s = u->cur;
	if (s->dwfl) {
		Dwfl_Module *mod;
		tk_unwind_map map;
		tk_unwind_report r = tk_unwind_report_module(u, u->regs.ip, &mod, &map);
		if (r == TK_UNWIND_CONFLICT) {
			/* before the walk: a fresh Dwfl for the new layout */
			tk_unwind_space_drop(s);
			u->cur = s = tk_unwind_space_get(u, in->space);
			r = s->dwfl ? tk_unwind_report_module(u, u->regs.ip, &mod, &map)
				    : TK_UNWIND_NO_IMAGE;
		}
		/* libdwfl takes the machine from the first image reported */
		if (r == TK_UNWIND_REPORTED && !s->attached)
			s->attached =
			    dwfl_attach_state(s->dwfl, NULL, UNWIND_TID, &thread_callbacks, u);
		u->last_read_frame = SIZE_MAX;
		/* as perf's unwind__get_entries(): no walk when the sampled ip
		 * is in no readable image (whatever an earlier sample attached) */
		bool ended = false;
		if (r == TK_UNWIND_REPORTED && s->attached) {
			tk_unwind_fast_result f =
			    u->no_fast ? TK_UNWIND_FAST_FALLBACK : tk_unwind_fast(u);
			if (f == TK_UNWIND_FAST_FALLBACK) {
				u->n = 0;
				u->last_read_frame = SIZE_MAX;
				ended = walk_dwfl(u, s);
			} else {
				ended = f == TK_UNWIND_FAST_ENDED;
			}
		}
		if (ended && u->n && u->n < u->max && u->last_read_frame != SIZE_MAX &&
		    u->last_read_frame + 1 >= u->n && u->last_read_zero) {
			/* the walk ended on a return address read as 0: libdwfl
			 * stops there, perf's libunwind unwinder gives one more
			 * frame, pc 0 minus one. The last frame's reads count
			 * as frame n - 1 (a caller: libdwfl unwinds it inside
			 * on_frame) or n (a walk's first frame, a restart's
			 * included: unwound after its callback). */
			u->pcs[u->n++] = UINT64_MAX;
		}
		if (s->stale)
			tk_unwind_space_drop(s);
	}
	/* the sampled ip is the first frame even when nothing unwinds (as
	 * perf's libunwind unwinder gives it) */
	if (u->n == 0)
		pcs[u->n++] = u->regs.ip;
	u->in = NULL;
	u->cur = NULL;
	return u->n;
}

#else /* no libdw: the sampled ip alone */
#include "unwind/unwind_regs.h"

struct tk_unwinder {
	int unused;
};

tk_unwinder *tk_unwinder_new(void)
{
	return calloc(1, sizeof(tk_unwinder));
}

void tk_unwinder_free(tk_unwinder *u)
{
	free(u);
}

void tk_unwinder_forget(tk_unwinder *u, const void *space)
{
	(void)u;
	(void)space;
}

void tk_unwinder_preload(tk_unwinder *u, const char *path, const uint8_t *build_id,
			 size_t build_id_len)
{
	(void)u;
	(void)path;
	(void)build_id;
	(void)build_id_len;
}

void tk_unwinder_preload_start(tk_unwinder *u)
{
	(void)u;
}

bool tk_unwind_available(uint16_t machine)
{
	(void)machine;
	return false;
}

size_t tk_unwind_inlines(tk_unwinder *u, const void *space, uint64_t pc, const char **names,
			 size_t max)
{
	(void)u;
	(void)space;
	(void)pc;
	(void)names;
	(void)max;
	return 0;
}

size_t tk_unwind(tk_unwinder *u, const tk_unwind_input *in, uint64_t *pcs, size_t max)
{
	tk_unwind_regs regs;
	if (!u || !max || !tk_unwind_regs_load(in, &regs))
		return 0;
	pcs[0] = regs.ip;
	return 1;
}
#endif
