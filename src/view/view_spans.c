/* The model context's spans on the view's span tracks: running slices on
 * their CPU's track (named by the thread) and on the thread's "state"
 * track with its runnable slices; syscalls and LTTng NAME_entry/_exit
 * calls on the thread's tracks; CPEL/elog states on their track's. The
 * context hands spans over in order of completion; view_track_span()
 * keeps each row free of overlaps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_internal.h"

static uint32_t thread_track(view_builder *b, uint32_t input, int32_t pid, int32_t tid,
			     const char *what, uint64_t key)
{
	char name[128];
	int64_t p = pid >= 0 ? pid : tid;
	snprintf(name, sizeof name, "process %lld", (long long)p);
	uint32_t g = view_group_get(b, VIEW_GROUP_PROCESS, input, p, name);
	if (g == UINT32_MAX)
		return g;
	snprintf(name, sizeof name, "thread %d %s", tid, what);
	uint32_t t = view_track_get(b, g, ((uint64_t)(uint32_t)tid << 8) | key, name,
				    VIEW_ROW_SPANS, tid, -1);
	if (t != UINT32_MAX)
		b->tracks[t].suffix = what;
	return t;
}

/* Details of a span: its thread and CPU, as a JSON object (interned). */
static uint32_t span_details(view_builder *b, tk_context *ctx, const tk_span *sp)
{
	/* spans of no thread and no CPU (CPEL states) carry no details: a
	 * column of zeros costs the page nothing */
	if (sp->tid < 0 && sp->cpu < 0)
		return 0;
	char text[256];
	int n = 0;
	tk_ctx_thread th;
	if (sp->tid >= 0) {
		n = snprintf(text, sizeof text, "{\"tid\":%d,\"pid\":%d", sp->tid, sp->pid);
		if (tk_context_thread(ctx, sp->tid, &th) && th.comm_len && th.comm_len < 64 &&
		    !strpbrk(th.comm, "\"\\<>&"))
			n += snprintf(text + n, sizeof text - (size_t)n, ",\"comm\":\"%s\"",
				      th.comm);
	} else {
		n = snprintf(text, sizeof text, "{");
	}
	if (sp->cpu >= 0)
		n += snprintf(text + n, sizeof text - (size_t)n, "%s\"cpu\":%d", n > 1 ? "," : "",
			      sp->cpu);
	if (sp->truncated)
		n += snprintf(text + n, sizeof text - (size_t)n, "%s\"truncated\":true",
			      n > 1 ? "," : "");
	n += snprintf(text + n, sizeof text - (size_t)n, "}");
	size_t idx;
	bool added;
	if (n <= 2 || !tk_intern_get(&b->details, text, (size_t)n, &idx, &added) ||
	    idx >= UINT32_MAX)
		return 0;
	if (added)
		b->details_bytes += (size_t)n;
	return (uint32_t)idx;
}

/* Span names are few and their strings stay put for the context's life:
 * their ids are cached by pointer. */
#define NAME_CACHE 256
typedef struct name_slot {
	const char *p;
	uint32_t id;
} name_slot;

static uint32_t span_name(view_builder *b, const char *p)
{
	if (!p)
		p = "?";
	if (!b->span_name_cache && !(b->span_name_cache = calloc(NAME_CACHE, sizeof(name_slot))))
		return UINT32_MAX;
	name_slot *slot = &((name_slot *)b->span_name_cache)[((uintptr_t)p >> 3) % NAME_CACHE];
	if (slot->p != p) {
		slot->id = view_string(b, p, strlen(p));
		slot->p = slot->id == UINT32_MAX ? NULL : p;
	}
	return slot->id;
}

static tk_status add_span(view_builder *b, uint32_t input, tk_context *ctx, const tk_span *sp)
{
	uint32_t name = span_name(b, sp->name);
	uint32_t arg = span_details(b, ctx, sp);
	char buf[320];
	uint32_t t = UINT32_MAX;
	bool ok = name != UINT32_MAX;
	switch (sp->kind) {
	case TK_SPAN_RUNNING:
		if (sp->cpu >= 0 && ok) {
			/* CPU tracks: the running thread's name on its slice */
			uint32_t g = view_group_get(b, VIEW_GROUP_CPU, input, 0, "CPUs");
			snprintf(buf, sizeof buf, "CPU %d", sp->cpu);
			uint32_t ct = g == UINT32_MAX ? g
						      : view_track_get(b, g, (uint64_t)sp->cpu, buf,
								       VIEW_ROW_SPANS, -1, sp->cpu);
			tk_ctx_thread th;
			const char *who = "";
			if (sp->tid >= 0 && tk_context_thread(ctx, sp->tid, &th) && th.comm_len)
				who = th.comm;
			snprintf(buf, sizeof buf, "%s %d", *who ? who : "tid", sp->tid);
			uint32_t tn = view_string(b, buf, strlen(buf));
			ok = ct != UINT32_MAX && tn != UINT32_MAX &&
			     view_track_span(b, ct, sp->begin_ns, sp->end_ns, tn, arg);
		}
		/* also on the thread's state track */
		__attribute__((fallthrough));
	case TK_SPAN_RUNNABLE:
		if (sp->tid >= 0 && ok)
			t = thread_track(b, input, sp->pid, sp->tid, "state", 1);
		break;
	case TK_SPAN_SYSCALL:
		if (sp->tid >= 0)
			t = thread_track(b, input, sp->pid, sp->tid, "syscalls", 2);
		break;
	case TK_SPAN_CALL:
		if (sp->tid >= 0)
			t = thread_track(b, input, sp->pid, sp->tid, "calls", 3);
		break;
	case TK_SPAN_STATE: {
		/* the track's state track, cached by track index */
		uint32_t *slot = sp->track >= 0 && sp->track < 256 && input < 16
				     ? &b->state_tracks[input][sp->track]
				     : NULL;
		if (slot && *slot) {
			t = *slot - 1;
			break;
		}
		const char *tn =
		    sp->track >= 0 ? tk_context_track_name(ctx, (size_t)sp->track) : NULL;
		uint32_t g = view_group_get(b, VIEW_GROUP_CPEL, input, 0, "tracks");
		snprintf(buf, sizeof buf, "%s states", tn ? tn : "?");
		uint64_t key = 1469598103934665603ULL;
		for (const char *c = buf; *c; c++)
			key = (key ^ (unsigned char)*c) * 1099511628211ULL;
		t = g == UINT32_MAX ? g : view_track_get(b, g, key, buf, VIEW_ROW_SPANS, -1, -1);
		if (slot && t != UINT32_MAX)
			*slot = t + 1;
		break;
	}
	}
	if (!ok)
		return TK_ERR_NOMEM;
	if (t == UINT32_MAX) {
		if (sp->tid >= 0 || sp->kind == TK_SPAN_STATE)
			return TK_ERR_NOMEM;
		/* a span of no thread: on its input's stream group */
		uint32_t g = view_group_get(b, VIEW_GROUP_STREAM, input, 0, "streams");
		t = g == UINT32_MAX ? g
				    : view_track_get(b, g, UINT64_MAX - sp->kind, "spans",
						     VIEW_ROW_SPANS, -1, -1);
		if (t == UINT32_MAX)
			return TK_ERR_NOMEM;
	}
	return view_track_span(b, t, sp->begin_ns, sp->end_ns, name, arg) ? TK_OK : TK_ERR_NOMEM;
}

tk_status view_add_spans(view_builder *b, uint32_t input, tk_context *ctx, tk_error *err)
{
	const tk_span *sp;
	while (ctx && (sp = tk_context_next_span(ctx)) != NULL) {
		if (add_span(b, input, ctx, sp) != TK_OK)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "out of memory building the view");
		b->n_spans++;
	}
	return TK_OK;
}
