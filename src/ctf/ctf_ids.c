/* Thread and process ids from CTF contexts (see ctf_ids.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_ids.h"

void ctf_ids_init(ctf_ids *c)
{
	memset(c, 0, sizeof *c);
	tk_hashmap_init(&c->by_cls);
}

void ctf_ids_free(ctf_ids *c)
{
	free(c->slots);
	tk_hashmap_free(&c->by_cls);
	memset(c, 0, sizeof *c);
}

static bool is_name(const char *name, const char *want)
{
	if (name && name[0] == '_')
		name++;
	return name && strcmp(name, want) == 0;
}

/* The member of an integer id: by semantic, else host ids before
 * namespace ones (tid over vtid), as perf and ps show them. */
static int id_member(const tk_field_class *st, tk_semantic sem, const char *host, const char *ns)
{
	int by_host = -1, by_ns = -1;
	for (size_t i = 0; i < st->n_members && i < INT32_MAX; i++) {
		const tk_field_class *c = st->members[i].cls;
		if (!c || c->kind != TK_TYPE_INT || c->mappings)
			continue;
		if (c->semantic == sem)
			return (int)i;
		if (by_host < 0 && is_name(st->members[i].name, host))
			by_host = (int)i;
		if (by_ns < 0 && is_name(st->members[i].name, ns))
			by_ns = (int)i;
	}
	return by_host >= 0 ? by_host : by_ns;
}

static const ctf_id_slots *slots_for(ctf_ids *c, const tk_field_class *st)
{
	uint64_t *idx = tk_hashmap_get(&c->by_cls, (uint64_t)(uintptr_t)st);
	if (idx)
		return &c->slots[*idx - 1];
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		ctf_id_slots *ns = realloc(c->slots, cap * sizeof *ns);
		if (!ns)
			return NULL;
		c->slots = ns;
		c->cap = cap;
		c->last[0] = c->last[1] = NULL; /* they pointed into the old array */
	}
	ctf_id_slots *sl = &c->slots[c->n];
	sl->cls = st;
	sl->tid = id_member(st, TK_SEM_TID, "tid", "vtid");
	sl->pid = id_member(st, TK_SEM_PID, "pid", "vpid");
	if (!tk_hashmap_put(&c->by_cls, (uint64_t)(uintptr_t)st, c->n + 1))
		return NULL;
	c->n++;
	return sl;
}

static void read_id(const tk_value *ctx, int member, int32_t *out)
{
	if (member < 0 || (size_t)member >= ctx->v.list.n)
		return;
	const tk_value *v = &ctx->v.list.items[member];
	if (!v->cls || v->cls->kind != TK_TYPE_INT)
		return;
	int64_t id = v->cls->is_signed ? v->v.i : (int64_t)v->v.u;
	if (id >= INT32_MIN && id <= INT32_MAX)
		*out = (int32_t)id;
}

void ctf_ids_fill(ctf_ids *c, const tk_value *stream_context, const tk_value *context, int32_t *pid,
		  int32_t *tid)
{
	const tk_value *scopes[2] = {stream_context, context};
	for (int k = 0; k < 2; k++) {
		const tk_value *ctx = scopes[k];
		if (!ctx || !ctx->cls || ctx->cls->kind != TK_TYPE_STRUCT)
			continue;
		const ctf_id_slots *sl = c->last[k];
		if (!sl || sl->cls != ctx->cls) {
			sl = slots_for(c, ctx->cls);
			if (!sl)
				return;
			c->last[k] = sl;
		}
		read_id(ctx, sl->tid, tid);
		read_id(ctx, sl->pid, pid);
	}
}
