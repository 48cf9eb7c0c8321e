/* perf's callchain walk (util/machine.c resolve_callchain_sample and
 * add_callchain_ip) over the thread model. */
#include "context/perf_callchain.h"

void tk_callchain_resolve(tk_threads *t, const tk_thread *th, const tk_perf_sample *s,
			  tk_callchain *out)
{
	out->n = 0;
	if (!(s->sample_type & TK_PERF_SAMPLE_CALLCHAIN))
		return;
	unsigned cpumode = TK_CPUMODE_USER;
	for (uint64_t i = 0; i < s->callchain_nr && out->n < TK_CALLCHAIN_MAX; i++) {
		uint64_t ip = tk_perf_u64_at(s->callchain, (size_t)i, s->swap);
		if (ip >= TK_PERF_CONTEXT_MAX) {
			switch (ip) {
			case TK_PERF_CONTEXT_HV: cpumode = TK_CPUMODE_HV; break;
			case TK_PERF_CONTEXT_KERNEL: cpumode = TK_CPUMODE_KERNEL; break;
			case TK_PERF_CONTEXT_USER: cpumode = TK_CPUMODE_USER; break;
			case TK_PERF_CONTEXT_GUEST_KERNEL: cpumode = TK_CPUMODE_GUEST_KERNEL; break;
			case TK_PERF_CONTEXT_GUEST_USER: cpumode = TK_CPUMODE_GUEST_USER; break;
			default:
				/* perf resets the cursor on an unknown marker */
				out->n = 0;
				return;
			}
			continue;
		}
		tk_callchain_frame *fr = &out->frames[out->n++];
		fr->ip = ip;
		fr->inlined = false;
		tk_threads_resolve(t, th, cpumode, ip, &fr->loc);
	}
}
