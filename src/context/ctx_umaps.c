/* LTTng-UST address spaces: the images a process maps, from the
 * statedump's lttng_ust_statedump:bin_info and lttng_ust_dl:dlopen events
 * (baddr, memsz, path, is_pic), per vpid, as babeltrace2's debug-info
 * filter reads them. An address in [baddr, baddr + memsz) is in that image;
 * its offset is ip - baddr for a position-independent image (babeltrace2's
 * "bin+0x..."), else ip. Kept sorted by (pid, start); a newer image at the
 * same base replaces the older one. Capped with the thread table. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

static int cmp(int32_t pid, uint64_t start, const ctx_umap *m)
{
	if (pid != m->pid)
		return pid < m->pid ? -1 : 1;
	return start < m->start ? -1 : start > m->start;
}

/* First index whose (pid, start) >= the key. */
static size_t lower(const tk_context *c, int32_t pid, uint64_t start)
{
	size_t lo = 0, hi = c->n_umaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp(pid, start, &c->umaps[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void ctx_umaps_event(tk_context *c, const ctx_class *k, const tk_event *ev)
{
	int64_t v, pid = ev->pid;
	if (pid == TK_PID_NONE && ctx_value_int(ctx_ref_value(ev, k->vpid), &v))
		pid = v;
	const tk_value *b = ctx_field(ev, k->f_baddr), *m = ctx_field(ev, k->f_memsz);
	const char *path;
	size_t plen;
	if (pid < 0 || pid > INT32_MAX || !b || !m || b->cls->kind != TK_TYPE_INT ||
	    m->cls->kind != TK_TYPE_INT || !ctx_value_str(ctx_field(ev, k->f_path), &path, &plen))
		return;
	uint64_t start = b->v.u, size = m->v.u;
	if (!size || start + size < start)
		return; /* the vdso (memsz 0) and wrapping ranges hold nothing */
	int64_t pic = 1;
	ctx_value_int(ctx_field(ev, k->f_is_pic), &pic);
	size_t i = lower(c, (int32_t)pid, start);
	if (i < c->n_umaps && cmp((int32_t)pid, start, &c->umaps[i]) == 0) {
		c->umaps[i].end = start + size; /* the same base again: the newer image */
	} else {
		if (c->n_umaps >= c->opt.max_threads) {
			c->stats.dropped_threads++;
			return;
		}
		if (c->n_umaps == c->cap_umaps) {
			size_t nc = c->cap_umaps ? c->cap_umaps * 2 : 64;
			ctx_umap *nm = realloc(c->umaps, nc * sizeof *nm);
			if (!nm) {
				c->stats.oom = true;
				return;
			}
			c->umaps = nm;
			c->cap_umaps = nc;
		}
		memmove(&c->umaps[i + 1], &c->umaps[i], (c->n_umaps - i) * sizeof *c->umaps);
		c->n_umaps++;
		c->umaps[i] = (ctx_umap){.pid = (int32_t)pid, .start = start, .end = start + size};
	}
	const char *p = ctx_intern(c, path, plen);
	if (!p)
		return;
	const char *slash = strrchr(p, '/');
	c->umaps[i].path = p;
	c->umaps[i].base = slash ? slash + 1 : p;
	c->umaps[i].pic = pic != 0;
}

const ctx_umap *ctx_umap_find(const tk_context *c, int32_t pid, uint64_t ip)
{
	/* the last image of pid starting at or below ip */
	size_t i = lower(c, pid, ip == UINT64_MAX ? ip : ip + 1);
	if (i == 0)
		return NULL;
	const ctx_umap *m = &c->umaps[i - 1];
	return m->pid == pid && ip >= m->start && ip < m->end ? m : NULL;
}

void ctx_umaps_free(tk_context *c)
{
	free(c->umaps);
}
