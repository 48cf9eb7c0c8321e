/* A sample's call chain resolved the way perf's resolve_callchain_sample()
 * does it (callee first): context markers switch the cpumode (starting in
 * user mode), every other entry is looked up in the thread's or the
 * kernel's maps; at most TK_CALLCHAIN_MAX frames (perf's default
 * max_stack, 127). No allocation: frames live in the caller's struct. */
#ifndef TK_CONTEXT_PERF_CALLCHAIN_H
#define TK_CONTEXT_PERF_CALLCHAIN_H

#include "context/threads_model.h"

#define TK_CALLCHAIN_MAX 127
/* Room for the sampled chain and DWARF-unwound user frames after it
 * (perf allows TK_CALLCHAIN_MAX of each; inline frames count too). */
#define TK_CALLCHAIN_CAP (2 * TK_CALLCHAIN_MAX)

typedef struct tk_callchain_frame {
	uint64_t ip;
	tk_addr_loc loc; /* an inline frame: loc.name is the inlined function's */
	bool inlined;    /* perf prints "(inlined)" instead of the image */
} tk_callchain_frame;

typedef struct tk_callchain {
	size_t n;
	tk_callchain_frame frames[TK_CALLCHAIN_CAP];
} tk_callchain;

/* Resolves s's callchain for thread th into out (out->n = 0 when the
 * sample has none). */
void tk_callchain_resolve(tk_threads *t, const tk_thread *th, const tk_perf_sample *s,
			  tk_callchain *out);

/* dso name as perf prints it: the image's name or "[unknown]". */
static inline const char *tk_addr_loc_dso_name(const tk_addr_loc *loc)
{
	return loc->map ? loc->map->dso->name : "[unknown]";
}

#endif
