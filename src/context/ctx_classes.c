/* Per-event-class lookup, done once per class: which rule an event feeds
 * (sched_switch, wakeup, fork, statedump, syscall and *_entry/_exit pairs)
 * and where the members it reads sit, so the per-event path indexes
 * arrays and never compares names. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

const char *ctx_intern(tk_context *c, const char *s, size_t n)
{
	return tk_arena_strndup(&c->strings, s, n);
}

static uint16_t member(const tk_field_class *st, const char *name)
{
	if (!st || st->kind != TK_TYPE_STRUCT)
		return CTX_NO_FIELD;
	for (size_t i = 0; i < st->n_members && i < CTX_NO_FIELD; i++)
		if (st->members[i].name && strcmp(st->members[i].name, name) == 0)
			return (uint16_t)i;
	return CTX_NO_FIELD;
}

/* The first of two names present (perf names ids *_pid, LTTng *_tid). */
static uint16_t member2(const tk_field_class *st, const char *a, const char *b)
{
	uint16_t i = member(st, a);
	return i != CTX_NO_FIELD ? i : member(st, b);
}

static ctx_ref ref_in(const tk_field_class *ctx, const tk_field_class *sctx, const char *name)
{
	ctx_ref r = {1, member(ctx, name)};
	if (r.idx == CTX_NO_FIELD) {
		r.scope = 2;
		r.idx = member(sctx, name);
	}
	return r;
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *stem)
{
	size_t k = strlen(suffix);
	if (n <= k || memcmp(s + n - k, suffix, k) != 0)
		return false;
	*stem = n - k;
	return true;
}

/* The part after the last ':' (LTTng provider, perf subsystem). */
static const char *base_name(const char *s)
{
	const char *p = strrchr(s, ':');
	return p ? p + 1 : s;
}

static bool is_id_member(const tk_member *m)
{
	switch (m->cls->semantic) {
	case TK_SEM_NONE:
	case TK_SEM_PERIOD: break;
	default: return true;
	}
	const char *n = m->name;
	return strncmp(n, "perf_", 5) == 0 || strncmp(n, "common_", 7) == 0 || n[0] == '_';
}

/* One integer or float member besides ids: the class is a counter. */
static void find_counter(tk_context *c, ctx_class *k)
{
	const tk_field_class *p = k->payload_cls;
	if (!(c->flags & TK_CTX_COUNTERS) || !p || p->kind != TK_TYPE_STRUCT)
		return;
	uint16_t found = CTX_NO_FIELD;
	for (size_t i = 0; i < p->n_members && i < CTX_NO_FIELD; i++) {
		const tk_member *m = &p->members[i];
		if (is_id_member(m))
			continue;
		bool num = (m->cls->kind == TK_TYPE_INT && !m->cls->mappings && !m->cls->is_char &&
			    !m->cls->is_bool) ||
			   m->cls->kind == TK_TYPE_FLOAT;
		if (!num)
			continue;
		if (found != CTX_NO_FIELD)
			return; /* two numbers: an event, not a counter */
		found = (uint16_t)i;
	}
	if (found == CTX_NO_FIELD)
		return;
	const char *cn = k->cls && k->cls->name ? k->cls->name : "event";
	const char *fn = p->members[found].name;
	size_t a = strlen(cn), b = strlen(fn);
	char *s = tk_arena_alloc(&c->strings, a + b + 2);
	if (!s)
		return;
	memcpy(s, cn, a);
	s[a] = '.';
	memcpy(s + a + 1, fn, b + 1);
	k->counter_name = s;
	k->f_counter = found;
}

static void classify(tk_context *c, ctx_class *k)
{
	const tk_field_class *p = k->payload_cls;
	const char *full = k->cls && k->cls->name ? k->cls->name : "";
	k->name = ctx_intern(c, full[0] ? full : "event", full[0] ? strlen(full) : 5);
	if (!k->name)
		k->name = "event";
	const char *n = base_name(full);
	size_t len = strlen(n), stem;
	k->f_prev_tid = member2(p, "prev_tid", "prev_pid");
	k->f_next_tid = member2(p, "next_tid", "next_pid");
	k->f_prev_state = member(p, "prev_state");
	k->f_prev_comm = member(p, "prev_comm");
	k->f_next_comm = member(p, "next_comm");
	k->f_tid = member2(p, "tid", "pid");
	k->f_pid = member(p, "pid");
	k->f_comm = member2(p, "comm", "name");
	k->f_id = member(p, "id");
	k->f_child_tid = member2(p, "child_tid", "child_pid");
	k->f_child_pid = member(p, "child_pid");
	k->f_child_comm = member(p, "child_comm");
	k->f_track = member(p, "track");
	k->f_perf_ip = member(p, "perf_ip");
	k->f_perf_chain = member(p, "perf_callchain");
	k->f_counter = CTX_NO_FIELD;
	if (k->f_track != CTX_NO_FIELD && p->members[k->f_track].cls->kind != TK_TYPE_STRING)
		k->f_track = CTX_NO_FIELD;
	k->procname = ref_in(k->context_cls, k->stream_cls, "procname");
	k->vtid = ref_in(k->context_cls, k->stream_cls, "vtid");
	if (k->vtid.idx == CTX_NO_FIELD)
		k->vtid = ref_in(k->context_cls, k->stream_cls, "tid");
	k->ip = ref_in(k->context_cls, k->stream_cls, "ip");
	k->f_baddr = member(p, "baddr");
	k->f_memsz = member(p, "memsz");
	k->f_path = member(p, "path");
	k->f_is_pic = member(p, "is_pic");
	k->vpid = ref_in(k->context_cls, k->stream_cls, "vpid");
	if (k->vpid.idx == CTX_NO_FIELD)
		k->vpid = ref_in(k->context_cls, k->stream_cls, "pid");

	if (strcmp(n, "sched_switch") == 0 && k->f_prev_tid != CTX_NO_FIELD &&
	    k->f_next_tid != CTX_NO_FIELD)
		k->role = CTX_ROLE_SWITCH;
	else if ((strcmp(n, "sched_wakeup") == 0 || strcmp(n, "sched_wakeup_new") == 0) &&
		 k->f_tid != CTX_NO_FIELD)
		k->role = CTX_ROLE_WAKEUP;
	else if (strcmp(n, "sched_process_fork") == 0 && k->f_child_tid != CTX_NO_FIELD)
		k->role = CTX_ROLE_FORK;
	else if (strcmp(n, "sched_process_exit") == 0 && k->f_tid != CTX_NO_FIELD)
		k->role = CTX_ROLE_EXIT;
	else if (strcmp(n, "lttng_statedump_process_state") == 0 && k->f_tid != CTX_NO_FIELD)
		k->role = CTX_ROLE_STATEDUMP;
	else if ((strcmp(full, "lttng_ust_statedump:bin_info") == 0 ||
		  strcmp(full, "lttng_ust_dl:dlopen") == 0) &&
		 k->f_baddr != CTX_NO_FIELD && k->f_memsz != CTX_NO_FIELD &&
		 k->f_path != CTX_NO_FIELD)
		k->role = CTX_ROLE_BIN_INFO;
	else if (strcmp(n, "sys_enter") == 0 || strcmp(n, "sys_exit") == 0) {
		/* raw_syscalls: named by the id member */
		k->role = n[4] == 'e' && n[5] == 'n' ? CTX_ROLE_SYS_ENTER : CTX_ROLE_SYS_EXIT;
	} else if (strncmp(n, "sys_enter_", 10) == 0 || strncmp(n, "syscall_entry_", 14) == 0 ||
		   strncmp(n, "compat_syscall_entry_", 21) == 0) {
		k->role = CTX_ROLE_SYS_ENTER;
	} else if (strncmp(n, "sys_exit_", 9) == 0 || strncmp(n, "syscall_exit_", 13) == 0 ||
		   strncmp(n, "compat_syscall_exit_", 20) == 0) {
		k->role = CTX_ROLE_SYS_EXIT;
	} else if (ends_with(full, strlen(full), "_entry", &stem)) {
		k->role = CTX_ROLE_CALL_ENTRY;
		k->stem = ctx_intern(c, full, stem);
	} else if (ends_with(full, strlen(full), "_exit", &stem)) {
		k->role = CTX_ROLE_CALL_EXIT;
		k->stem = ctx_intern(c, full, stem);
	}
	if (k->role == CTX_ROLE_SYS_ENTER || k->role == CTX_ROLE_SYS_EXIT) {
		/* the syscall's name: what follows "sys_enter_", "syscall_entry_",
		 * "sys_exit_", "syscall_exit_"; NULL for raw_syscalls (by id) */
		static const char *const prefixes[] = {
		    "compat_syscall_entry_", "compat_syscall_exit_", "syscall_entry_",
		    "syscall_exit_",         "sys_enter_",           "sys_exit_"};
		k->stem = NULL;
		for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
			size_t pl = strlen(prefixes[i]);
			if (strncmp(n, prefixes[i], pl) == 0) {
				k->stem = ctx_intern(c, n + pl, len - pl);
				break;
			}
		}
	}
	find_counter(c, k);
}

static const tk_field_class *cls_of(const tk_value *v)
{
	return v ? v->cls : NULL;
}

const ctx_class *ctx_class_of(tk_context *c, const tk_event *ev)
{
	const tk_field_class *p = cls_of(ev->payload), *x = cls_of(ev->context),
			     *s = cls_of(ev->stream_context);
	const ctx_class *l = c->last_class;
	if (l && l->cls == ev->cls && l->payload_cls == p && l->context_cls == x &&
	    l->stream_cls == s)
		return l;
	/* key: the class and its payload's layout (a source may give one
	 * class several layouts; rare, so probing on is enough) */
	uint64_t key = (uint64_t)(uintptr_t)ev->cls * 31 + (uint64_t)(uintptr_t)p;
	for (;; key++) {
		uint64_t *ix = tk_hashmap_get(&c->class_by_ptr, key);
		if (!ix)
			break;
		ctx_class *k = &c->classes[*ix];
		if (k->cls == ev->cls && k->payload_cls == p && k->context_cls == x &&
		    k->stream_cls == s)
			return c->last_class = k;
	}
	if (c->n_classes == c->cap_classes) {
		size_t nc = c->cap_classes ? c->cap_classes * 2 : 32;
		ctx_class *nk = realloc(c->classes, nc * sizeof *nk);
		if (!nk)
			return NULL;
		c->classes = nk;
		c->cap_classes = nc;
	}
	ctx_class *k = &c->classes[c->n_classes];
	memset(k, 0, sizeof *k);
	k->cls = ev->cls;
	k->payload_cls = p;
	k->context_cls = x;
	k->stream_cls = s;
	classify(c, k);
	if (!tk_hashmap_put(&c->class_by_ptr, key, c->n_classes))
		return NULL;
	c->n_classes++;
	c->last_class = NULL; /* the array may have moved */
	return c->last_class = k;
}

void ctx_classes_free(tk_context *c)
{
	free(c->classes);
	tk_hashmap_free(&c->class_by_ptr);
}

static const tk_value *item(const tk_value *s, uint16_t idx)
{
	if (idx == CTX_NO_FIELD || !s || !s->cls || s->cls->kind != TK_TYPE_STRUCT ||
	    idx >= s->v.list.n)
		return NULL;
	return &s->v.list.items[idx];
}

const tk_value *ctx_field(const tk_event *ev, uint16_t idx)
{
	return item(ev->payload, idx);
}

const tk_value *ctx_ref_value(const tk_event *ev, ctx_ref r)
{
	return item(r.scope == 1   ? ev->context
		    : r.scope == 2 ? ev->stream_context
				   : ev->payload,
		    r.idx);
}

bool ctx_value_int(const tk_value *v, int64_t *out)
{
	if (!v || !v->cls || v->cls->kind != TK_TYPE_INT)
		return false;
	*out = v->v.i;
	return true;
}

bool ctx_value_str(const tk_value *v, const char **s, size_t *n)
{
	if (!v || !v->cls)
		return false;
	if (v->cls->kind == TK_TYPE_STRING) {
		*s = v->v.str.ptr;
		*n = v->v.str.len;
		/* C strings from payloads may carry their NUL */
		const char *z = memchr(*s, '\0', *n);
		if (z)
			*n = (size_t)(z - *s);
		return true;
	}
	return false;
}
