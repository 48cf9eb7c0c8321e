/* Symbolization of an event's stack through perf's maps model (lazy
 * per-image symbol loading and the per-image address cache of
 * threads_model.c): call-chain context markers switch the cpumode as
 * perf's resolve_callchain_sample() does; a sample without a chain gives
 * its ip, in the cpumode of its record. Formats without address spaces
 * give the addresses alone. */
#include <string.h>

#include "context/context_internal.h"

static bool kernel_ip(uint64_t ip)
{
	return ip >> 63; /* x86_64 / arm64 kernel half */
}

static void fill(tk_context *c, const tk_thread *th, unsigned cpumode, uint64_t ip, tk_frame *fr)
{
	memset(fr, 0, sizeof *fr);
	fr->ip = ip;
	if (!cpumode)
		cpumode = kernel_ip(ip) ? TK_CPUMODE_KERNEL : TK_CPUMODE_USER;
	fr->kernel = cpumode == TK_CPUMODE_KERNEL || cpumode == TK_CPUMODE_GUEST_KERNEL;
	if (!c || !c->perf || !th || !(c->flags & TK_CTX_SYMBOLS))
		return;
	tk_addr_loc loc;
	tk_threads_resolve(c->perf, th, cpumode, ip, &loc);
	if (loc.map) {
		fr->dso = loc.map->dso->short_name;
		fr->dso_path = loc.map->dso->name;
		fr->dso_off = loc.addr;
	}
	if (loc.sym) {
		fr->sym = loc.name;
		fr->sym_len = loc.name_len;
		fr->sym_off = loc.sym_off;
	}
}

static const tk_thread *thread_of(tk_context *c, int32_t pid, int32_t tid)
{
	if (!c || !c->perf)
		return NULL;
	return tk_threads_findnew(c->perf, pid, tid);
}

bool tk_context_symbolize(tk_context *c, int32_t pid, int32_t tid, unsigned cpumode, uint64_t ip,
			  tk_frame *out)
{
	fill(c, thread_of(c, pid, tid), cpumode, ip, out);
	return out->sym != NULL;
}

/* An LTTng event's "ip" context in the images of its process. */
static size_t ust_stack(tk_context *c, const ctx_class *k, const tk_event *ev, tk_frame *frames,
			size_t max)
{
	/* no image holds the ip: no frame (the raw ip is in the context) */
	const tk_value *ipv = ctx_ref_value(ev, k->ip);
	int64_t pid = ev->pid, v;
	if (pid == TK_PID_NONE && ctx_value_int(ctx_ref_value(ev, k->vpid), &v))
		pid = v;
	if (!ipv || !ipv->cls || ipv->cls->kind != TK_TYPE_INT || !(c->flags & TK_CTX_SYMBOLS) ||
	    pid < 0 || pid > INT32_MAX)
		return 0;
	const ctx_umap *m = ctx_umap_find(c, (int32_t)pid, ipv->v.u);
	if (!m)
		return 0;
	if (max) {
		tk_frame *fr = &frames[0];
		memset(fr, 0, sizeof *fr);
		fr->ip = ipv->v.u;
		fr->dso = m->base;
		fr->dso_path = m->path;
		fr->dso_off = m->pic ? fr->ip - m->start : fr->ip;
	}
	return 1;
}

size_t tk_context_stack(tk_context *c, const tk_event *ev, tk_frame *frames, size_t max)
{
	if (!c || !ev)
		return 0;
	const ctx_class *k = ctx_class_of(c, ev);
	if (!k)
		return 0;
	if (k->ip.idx != CTX_NO_FIELD && !c->perf)
		return ust_stack(c, k, ev, frames, max);
	const tk_value *chain = ctx_field(ev, k->f_perf_chain);
	const tk_value *ipv = ctx_field(ev, k->f_perf_ip);
	if (!chain && !ipv && c->perf) {
		/* perf records under other names: members marked as call chain / ip */
		const tk_value *p = ev->payload;
		for (size_t i = 0; p && p->cls && p->cls->kind == TK_TYPE_STRUCT &&
				   i < p->cls->n_members && i < p->v.list.n;
		     i++) {
			tk_semantic s = p->cls->members[i].cls->semantic;
			if (s == TK_SEM_CALLCHAIN && !chain)
				chain = &p->v.list.items[i];
			else if (s == TK_SEM_IP && !ipv)
				ipv = &p->v.list.items[i];
		}
	}
	const tk_thread *th = thread_of(c, ev->pid, ev->tid);
	size_t n = 0;
	if (chain && chain->cls &&
	    (chain->cls->kind == TK_TYPE_SEQUENCE || chain->cls->kind == TK_TYPE_ARRAY) &&
	    chain->v.list.n) {
		unsigned cpumode = TK_CPUMODE_USER;
		for (size_t i = 0; i < chain->v.list.n; i++) {
			uint64_t ip = chain->v.list.items[i].v.u;
			if (ip >= TK_PERF_CONTEXT_MAX) {
				switch (ip) {
				case TK_PERF_CONTEXT_HV: cpumode = TK_CPUMODE_HV; break;
				case TK_PERF_CONTEXT_KERNEL: cpumode = TK_CPUMODE_KERNEL; break;
				case TK_PERF_CONTEXT_USER: cpumode = TK_CPUMODE_USER; break;
				case TK_PERF_CONTEXT_GUEST_KERNEL:
					cpumode = TK_CPUMODE_GUEST_KERNEL;
					break;
				case TK_PERF_CONTEXT_GUEST_USER:
					cpumode = TK_CPUMODE_GUEST_USER;
					break;
				default:
					return 0; /* perf discards the chain on an unknown marker */
				}
				continue;
			}
			if (n < max)
				fill(c, th, c->perf ? cpumode : 0, ip, &frames[n]);
			n++;
		}
		return n;
	}
	if (ipv && ipv->cls && ipv->cls->kind == TK_TYPE_INT) {
		unsigned cpumode =
		    c->have_sample && c->sample_offset == ev->offset ? c->sample_cpumode : 0;
		if (max)
			fill(c, th, cpumode, ipv->v.u, &frames[0]);
		return 1;
	}
	return 0;
}
