/* Compiles model classes into write plans: escaped TSDL names, alignments,
 * and where each sequence length and variant tag comes from.
 *
 * The model keeps a sequence's length field and a variant's tag field as
 * ordinary earlier members (that is how babeltrace2 shows them), but it does
 * not say which member they are. A sequence reuses an earlier integer sibling
 * named like its length (NAME_length, NAME_len, NAME_size, ...); a variant
 * reuses an earlier enum sibling whose labels name every option. Otherwise
 * the writer adds its own field just before (`_NAME_length`, `_NAME_tag`).
 * The encoder checks on every event that a reused field agrees with the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/writer/ctfw_internal.h"

#define CTFW_MAX_DEPTH 48

static const char *const tsdl_keywords[] = {
    "align",   "callsite", "const",          "char",   "clock",   "double",   "enum",
    "env",     "event",    "floating_point", "float",  "integer", "int",      "long",
    "short",   "signed",   "stream",         "string", "struct",  "trace",    "typealias",
    "typedef", "unsigned", "variant",        "void",   "_Bool",   "_Complex", "_Imaginary",
};

static bool is_keyword(const char *name)
{
	for (size_t i = 0; i < sizeof tsdl_keywords / sizeof tsdl_keywords[0]; i++)
		if (strcmp(name, tsdl_keywords[i]) == 0)
			return true;
	return false;
}

static char *ident_copy(ctfw_sink *s, const char *name, bool escape)
{
	if (!name || !*name)
		name = "unnamed";
	size_t n = strlen(name);
	bool prefix = escape && (name[0] == '_' || is_keyword(name));
	bool digit = name[0] >= '0' && name[0] <= '9';
	size_t extra = (prefix || digit) ? 1 : 0;
	char *out = tk_arena_alloc(&s->arena, n + extra + 1);
	if (!out)
		return NULL;
	if (extra)
		out[0] = '_';
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_';
		out[extra + i] = ok ? c : '_';
	}
	out[n + extra] = '\0';
	return out;
}

const char *ctfw_tsdl_name(ctfw_sink *s, const char *name)
{
	return ident_copy(s, name, true);
}
const char *ctfw_ident(ctfw_sink *s, const char *name)
{
	return ident_copy(s, name, false);
}

static const char *strip_underscores(const char *s)
{
	while (*s == '_')
		s++;
	return s;
}

/* Does `cand` (a model member name) look like the length of `seq`? Either
 * seq plus a suffix (perf_callchain_size) or, for a seq named X_data, X
 * plus a suffix (perf's bpf-output raw_len for raw_data). */
static bool names_length_of(const char *cand, const char *seq)
{
	static const char *const suffixes[] = {"_length", "_len", "_size", "_count", "_nr"};
	const char *c = strip_underscores(cand);
	const char *q = strip_underscores(seq);
	size_t ql = strlen(q);
	if (strncmp(c, q, ql) != 0) {
		if (ql <= 5 || strcmp(q + ql - 5, "_data") != 0 || strncmp(c, q, ql - 5) != 0)
			return false;
		ql -= 5;
	}
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
		if (strcmp(c + ql, suffixes[i]) == 0)
			return true;
	return false;
}

static tk_status plan_node(ctfw_sink *s, const tk_field_class *cls, const char *model_name,
			   unsigned depth, ctfw_node *node, tk_error *err);

static const char *synth_name(ctfw_sink *s, const char *tsdl_name, const char *suffix)
{
	size_t n = strlen(tsdl_name) + strlen(suffix) + 2;
	char *out = tk_arena_alloc(&s->arena, n);
	if (out)
		snprintf(out, n, "_%s%s", tsdl_name, suffix);
	return out;
}

static tk_status resolve_sequence(ctfw_sink *s, const tk_field_class *st, ctfw_node *kids, size_t i,
				  tk_error *err)
{
	ctfw_node *n = &kids[i];
	for (size_t j = i; j-- > 0;) {
		const tk_field_class *c = st->members[j].cls;
		if (c->kind == TK_TYPE_INT && !c->mappings &&
		    names_length_of(st->members[j].name, st->members[i].name)) {
			n->ref = CTFW_REF_SIBLING;
			n->ref_index = j;
			n->ref_name = kids[j].name;
			return TK_OK;
		}
	}
	n->ref = CTFW_REF_SYNTHETIC;
	n->ref_name = synth_name(s, n->name, "_length");
	if (!n->ref_name)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	return TK_OK;
}

/* babeltrace2 shows a TSDL name without one leading '_', and selects a
 * variant option whose TSDL name equals the tag's label. So the label for an
 * option shown as `name` is one that reads `name` once stripped, and it must
 * be usable as the option's TSDL name. */
static const tk_enum_mapping *find_label(const tk_field_class *e, const char *name)
{
	if (!name)
		return NULL;
	for (size_t k = 0; k < e->n_mappings; k++) {
		const char *l = e->mappings[k].label;
		if (!l || strcmp(l[0] == '_' ? l + 1 : l, name) != 0 || is_keyword(l))
			continue;
		bool ident = !(l[0] >= '0' && l[0] <= '9');
		for (const char *c = l; *c && ident; c++)
			ident = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				(*c >= '0' && *c <= '9') || *c == '_';
		if (ident && *l)
			return &e->mappings[k];
	}
	return NULL;
}

static tk_status resolve_variant(ctfw_sink *s, const tk_field_class *st, ctfw_node *kids, size_t i,
				 tk_error *err)
{
	ctfw_node *n = &kids[i];
	for (size_t j = i; j-- > 0;) {
		const tk_field_class *e = st->members[j].cls;
		if (e->kind != TK_TYPE_INT || !e->mappings)
			continue;
		/* An enum that already tags an earlier variant is taken to be
		 * that one's: guessing it shared would fail on the first event
		 * where the two variants choose differently. */
		bool claimed = false;
		for (size_t k = j + 1; k < i; k++)
			claimed |= kids[k].cls->kind == TK_TYPE_VARIANT &&
				   kids[k].ref == CTFW_REF_SIBLING && kids[k].ref_index == j;
		if (claimed)
			continue;
		const tk_field_class *vc = st->members[i].cls;
		size_t k;
		for (k = 0; k < n->n_kids; k++)
			if (!find_label(e, vc->members[k].name))
				break;
		if (k < n->n_kids)
			continue;
		uint64_t *lo = tk_arena_calloc(&s->arena, n->n_kids, sizeof *lo);
		uint64_t *hi = tk_arena_calloc(&s->arena, n->n_kids, sizeof *hi);
		if (!lo || !hi)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
		for (k = 0; k < n->n_kids; k++) {
			const tk_enum_mapping *m = find_label(e, vc->members[k].name);
			lo[k] = m->lo;
			hi[k] = m->hi;
			n->kids[k].name = m->label; /* lives as long as the model */
		}
		n->ref = CTFW_REF_SIBLING;
		n->ref_index = j;
		n->ref_name = kids[j].name;
		n->opt_lo = lo;
		n->opt_hi = hi;
		return TK_OK;
	}
	n->ref = CTFW_REF_SYNTHETIC;
	n->tag_bits = n->n_kids <= 256 ? 8 : n->n_kids <= 65536 ? 16 : 32;
	n->ref_name = synth_name(s, n->name, "_tag");
	if (!n->ref_name)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	return TK_OK;
}

static tk_status plan_kids(ctfw_sink *s, const tk_field_class *cls, unsigned depth, ctfw_node *node,
			   tk_error *err)
{
	if (cls->n_members == 0)
		return TK_OK;
	if (!cls->members)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: struct class without members");
	node->kids = tk_arena_calloc(&s->arena, cls->n_members, sizeof *node->kids);
	if (!node->kids)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	node->n_kids = cls->n_members;
	for (size_t i = 0; i < cls->n_members; i++) {
		tk_status st = plan_node(s, cls->members[i].cls, cls->members[i].name, depth + 1,
					 &node->kids[i], err);
		if (st != TK_OK)
			return st;
	}
	/* CTF 2 variants may have unnamed (or same-named) options; TSDL needs
	 * distinct names: such an option becomes option_<index>. */
	for (size_t i = 0; cls->kind == TK_TYPE_VARIANT && i < node->n_kids; i++) {
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = node->kids[j].name && node->kids[i].name &&
			      !strcmp(node->kids[j].name, node->kids[i].name);
		if (!dup)
			continue;
		char buf[40];
		snprintf(buf, sizeof buf, "option_%zu", i);
		if (!(node->kids[i].name = ctfw_tsdl_name(s, buf)))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
	}
	return TK_OK;
}

static tk_status plan_node(ctfw_sink *s, const tk_field_class *cls, const char *model_name,
			   unsigned depth, ctfw_node *node, tk_error *err)
{
	tk_status st;
	if (!cls)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "ctf writer: field '%s' has no class",
				    model_name ? model_name : "?");
	if (depth > CTFW_MAX_DEPTH)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "ctf writer: field classes nested deeper than %d",
				    CTFW_MAX_DEPTH);
	node->cls = cls;
	node->kind = cls->kind;
	if (model_name) {
		node->name = ctfw_tsdl_name(s, model_name);
		if (!node->name)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
	}
	switch (cls->kind) {
	case TK_TYPE_INT:
		if (cls->bits < 1 || cls->bits > 64)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "ctf writer: integer field '%s' has %u bits",
					    model_name ? model_name : "?", cls->bits);
		node->align = cls->bits % 8 == 0 ? 8 : 1;
		node->int_bytes = cls->bits % 8 == 0 ? (uint8_t)(cls->bits / 8) : 0;
		return TK_OK;
	case TK_TYPE_FLOAT:
		if (cls->bits != 32 && cls->bits != 64)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "ctf writer: float field '%s' has %u bits",
					    model_name ? model_name : "?", cls->bits);
		node->align = 8;
		return TK_OK;
	case TK_TYPE_STRING:
	case TK_TYPE_BYTES: node->align = 8; return TK_OK;
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE:
		if (!cls->element)
			return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
					    "ctf writer: array '%s' has no element class",
					    model_name ? model_name : "?");
		if (cls->element->kind == TK_TYPE_SEQUENCE ||
		    cls->element->kind == TK_TYPE_VARIANT || cls->element->kind == TK_TYPE_BYTES)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "ctf writer: '%s': an array of sequences or variants "
					    "has no CTF 1.8 form",
					    model_name ? model_name : "?");
		node->kids = tk_arena_calloc(&s->arena, 1, sizeof *node->kids);
		if (!node->kids)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
		node->n_kids = 1;
		st = plan_node(s, cls->element, NULL, depth + 1, node->kids, err);
		if (st != TK_OK)
			return st;
		node->align = node->kids->align;
		return TK_OK;
	case TK_TYPE_STRUCT:
		st = plan_kids(s, cls, depth, node, err);
		if (st != TK_OK)
			return st;
		node->align = 1;
		for (size_t i = 0; i < node->n_kids; i++) {
			if (node->kids[i].align > node->align)
				node->align = node->kids[i].align;
			tk_type_kind k = node->kids[i].cls->kind;
			if (k == TK_TYPE_SEQUENCE || k == TK_TYPE_BYTES)
				st = resolve_sequence(s, cls, node->kids, i, err);
			else if (k == TK_TYPE_VARIANT)
				st = resolve_variant(s, cls, node->kids, i, err);
			if (st != TK_OK)
				return st;
			/* A synthetic length/tag is byte aligned and comes first. */
			if (node->kids[i].ref == CTFW_REF_SYNTHETIC && node->align < 8)
				node->align = 8;
		}
		return TK_OK;
	case TK_TYPE_VARIANT:
		if (cls->n_members == 0)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "ctf writer: variant '%s' has no options",
					    model_name ? model_name : "?");
		st = plan_kids(s, cls, depth, node, err);
		if (st != TK_OK)
			return st;
		for (size_t i = 0; i < node->n_kids; i++) {
			tk_type_kind k = node->kids[i].cls->kind;
			/* Their length or tag would need a sibling, and options have none. */
			if (k == TK_TYPE_SEQUENCE || k == TK_TYPE_BYTES || k == TK_TYPE_VARIANT)
				return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
						    "ctf writer: variant '%s': a sequence or "
						    "variant option has no CTF 1.8 form",
						    model_name ? model_name : "?");
		}
		node->align = 1; /* each option aligns itself, as babeltrace2 decodes */
		return TK_OK;
	}
	return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			    "ctf writer: field '%s' has unknown kind %d",
			    model_name ? model_name : "?", (int)cls->kind);
}

tk_status ctfw_plan_scope(ctfw_sink *s, const tk_field_class *cls, const char *what,
			  ctfw_node **out, tk_error *err)
{
	*out = NULL;
	if (!cls)
		return TK_OK;
	if (cls->kind != TK_TYPE_STRUCT)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "ctf writer: %s is not a struct", what);
	ctfw_node *n = tk_arena_calloc(&s->arena, 1, sizeof *n);
	if (!n)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	tk_status st = plan_node(s, cls, NULL, 0, n, err);
	if (st != TK_OK)
		return st;
	*out = n;
	return TK_OK;
}

static bool grow_array(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, ncap * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static const char *const packet_context_special[] = {
    "timestamp_begin", "timestamp_end",  "content_size",
    "packet_size",     "packet_seq_num", "events_discarded",
};

static const tk_clock_info *find_clock(const tk_trace_info *info, const tk_clock_info *c)
{
	/* The stream class may point at its own copy: match by name. */
	for (size_t i = 0; i < info->n_clocks; i++)
		if (&info->clocks[i] == c ||
		    (c->name && info->clocks[i].name && strcmp(c->name, info->clocks[i].name) == 0))
			return &info->clocks[i];
	return c;
}

/* The class of a scope value, or `declared` when the value does not say. */
static const tk_field_class *value_class(const tk_value *v, const tk_field_class *declared)
{
	return v ? (v->cls ? v->cls : declared) : NULL;
}

/* Do the event's packet and stream event context values have the classes
 * this stream class was planned for? */
bool ctfw_stream_class_fits(const ctfw_stream_class *sc, const tk_event *ev)
{
	return value_class(ev->packet_context, sc->pc_cls) == sc->pc_cls &&
	       value_class(ev->stream_context, sc->sec_cls) == sc->sec_cls;
}

static tk_status use_clock(ctfw_sink *s, ctfw_stream_class *sc, const tk_clock_info *clock,
			   const tk_event *first, tk_error *err)
{
	if (clock && clock->name) {
		sc->has_clock = true;
		sc->raw_time = true;
		sc->clock_name = ctfw_ident(s, clock->name);
		if (!sc->clock_name)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
	} else if (clock || (first && first->has_time)) {
		/* No usable source clock: nanoseconds on the writer's own clock. */
		sc->has_clock = true;
		sc->clock_name = CTFW_NS_CLOCK_NAME;
		s->need_ns_clock = true;
	}
	return TK_OK;
}

static void unlink_skipped_refs(ctfw_sink *s, ctfw_node *pc)
{
	/* A kept sequence or variant whose length or tag is one of the replaced
	 * members gets its own field instead. */
	for (size_t i = 0; i < pc->n_kids; i++) {
		ctfw_node *k = &pc->kids[i];
		if (k->skip || k->ref != CTFW_REF_SIBLING || !pc->kids[k->ref_index].skip)
			continue;
		k->ref = CTFW_REF_SYNTHETIC;
		k->opt_lo = k->opt_hi = NULL;
		if (k->cls->kind == TK_TYPE_VARIANT) {
			k->tag_bits = k->n_kids <= 256 ? 8 : k->n_kids <= 65536 ? 16 : 32;
			k->ref_name = synth_name(s, k->name, "_tag");
			/* Option names were the tag's labels; they stay valid names. */
		} else {
			k->ref_name = synth_name(s, k->name, "_length");
		}
	}
}

tk_status ctfw_stream_class_get(ctfw_sink *s, uint64_t id, const tk_event *first,
				ctfw_stream_class **out, tk_error *err)
{
	for (size_t i = 0; i < s->n_scs; i++)
		if (s->scs[i]->model_id == id &&
		    (!first || ctfw_stream_class_fits(s->scs[i], first))) {
			*out = s->scs[i];
			return TK_OK;
		}
	const tk_trace_info *info = s->info;
	const tk_stream_class *declared = NULL;
	for (size_t i = 0; i < info->n_stream_classes; i++)
		if (info->stream_classes[i].id == id)
			declared = &info->stream_classes[i];
	bool taken = false;
	uint64_t next_id = 0;
	for (size_t i = 0; i < s->n_scs; i++) {
		taken |= s->scs[i]->id == id;
		if (s->scs[i]->id >= next_id)
			next_id = s->scs[i]->id + 1;
	}
	for (size_t i = 0; i < info->n_stream_classes; i++)
		if (info->stream_classes[i].id >= next_id)
			next_id = info->stream_classes[i].id + 1;

	if (!grow_array((void **)&s->scs, &s->cap_scs, s->n_scs, sizeof *s->scs))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	ctfw_stream_class *sc = tk_arena_calloc(&s->arena, 1, sizeof *sc);
	if (!sc)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	sc->model_id = id;
	sc->pc_discarded_index = sc->pc_ts_begin_index = sc->pc_ts_end_index = sc->pc_seq_index =
	    -1;
	tk_hashmap_init(&sc->used_ids);
	s->scs[s->n_scs++] = sc;
	tk_status st;
	bool id_free = !taken;
	if (!taken) {
		sc->id = id;
		sc->src = declared;
		sc->pc_cls = declared ? declared->packet_context : NULL;
		sc->sec_cls = declared ? declared->event_context : NULL;
		const tk_clock_info *clock = NULL;
		if (declared && declared->clock)
			clock = find_clock(info, declared->clock);
		else if (info->n_stream_classes == 0 && info->n_clocks > 0)
			clock =
			    &info->clocks[0]; /* formats without stream classes: the trace clock */
		st = use_clock(s, sc, clock, first, err);
		if (st != TK_OK)
			return st;
		if (first && !ctfw_stream_class_fits(sc, first))
			taken = true; /* the declared classes do not fit: plan from the values */
	}
	if (taken) {
		/* Events whose context values have other classes than their stream
		 * class declares (several traces read as one source): a stream class
		 * of their own, planned from the values, timed in ns since their
		 * raw clock is not described by the model. */
		tk_stream_class *own = tk_arena_calloc(&s->arena, 1, sizeof *own);
		if (!own)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
		own->id = id_free ? id : next_id;
		own->packet_context = value_class(first->packet_context, NULL);
		own->event_context = value_class(first->stream_context, NULL);
		sc->id = own->id;
		sc->src = own;
		sc->pc_cls = own->packet_context;
		sc->sec_cls = own->event_context;
		sc->has_clock = sc->raw_time = false;
		st = use_clock(s, sc, NULL, first, err);
		if (st != TK_OK)
			return st;
		if (s->opt.log) {
			char msg[200];
			snprintf(msg, sizeof msg,
				 "ctf writer: events of stream class %llu carry other context "
				 "classes than it declares; "
				 "written as stream class %llu with nanosecond timestamps",
				 (unsigned long long)id, (unsigned long long)sc->id);
			s->opt.log(s->opt.log_user, 0, msg);
		}
		s->n_alias_classes++;
	}
	if (sc->id > UINT32_MAX)
		return tk_error_set(
		    err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
		    "ctf writer: stream class id %llu does not fit the 32-bit stream_id",
		    (unsigned long long)sc->id);

	st = ctfw_plan_scope(s, sc->pc_cls, "the stream packet context", &sc->pc_extra, err);
	if (st == TK_OK)
		st = ctfw_plan_scope(s, sc->sec_cls, "the stream event context", &sc->event_context,
				     err);
	if (st != TK_OK)
		return st;
	bool has_cpu_member = false;
	if (sc->pc_extra) {
		const tk_field_class *pc = sc->pc_cls;
		for (size_t i = 0; i < sc->pc_extra->n_kids; i++) {
			const char *name = pc->members[i].name ? pc->members[i].name : "";
			for (size_t k = 0;
			     k < sizeof packet_context_special / sizeof packet_context_special[0];
			     k++)
				if (strcmp(name, packet_context_special[k]) == 0)
					sc->pc_extra->kids[i].skip = true;
			bool is_int = pc->members[i].cls->kind == TK_TYPE_INT;
			if (strcmp(name, "events_discarded") == 0 && is_int)
				sc->pc_discarded_index = (int64_t)i;
			if (strcmp(name, "packet_seq_num") == 0 && is_int)
				sc->pc_seq_index = (int64_t)i;
			/* 64-bit bounds only: narrower ones wrap and are not absolute. */
			if (strcmp(name, "timestamp_begin") == 0 && is_int &&
			    pc->members[i].cls->bits == 64)
				sc->pc_ts_begin_index = (int64_t)i;
			if (strcmp(name, "timestamp_end") == 0 && is_int &&
			    pc->members[i].cls->bits == 64)
				sc->pc_ts_end_index = (int64_t)i;
			if (strcmp(name, "cpu_id") == 0)
				has_cpu_member = true;
		}
		unlink_skipped_refs(s, sc->pc_extra);
	}
	/* perf's own CTF converter always has cpu_id (0 without PERF_SAMPLE_CPU). */
	sc->has_cpu_field = !has_cpu_member && ((first && first->cpu != TK_CPU_NONE) ||
						s->info->format == TK_FORMAT_PERF);
	*out = sc;
	return TK_OK;
}

tk_status ctfw_event_class_get(ctfw_sink *s, const tk_event_class *cls, ctfw_stream_class *sc_hint,
			       ctfw_event_class **out, tk_error *err)
{
	uint64_t *slot = tk_hashmap_get(&s->ec_map, (uint64_t)(uintptr_t)cls);
	if (slot) {
		*out = s->ecs[*slot];
		return TK_OK;
	}
	ctfw_stream_class *sc = sc_hint;
	tk_status st = sc ? TK_OK : ctfw_stream_class_get(s, cls->stream_class_id, NULL, &sc, err);
	if (st != TK_OK)
		return st;
	ctfw_event_class *ec = tk_arena_calloc(&s->arena, 1, sizeof *ec);
	if (!ec || !grow_array((void **)&s->ecs, &s->cap_ecs, s->n_ecs, sizeof *s->ecs))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	ec->src = cls;
	ec->sc = sc;
	const char *name = cls->name ? cls->name : "?";
	st = ctfw_plan_scope(s, cls->context, "an event context", &ec->context, err);
	if (st == TK_OK)
		st = ctfw_plan_scope(s, cls->payload, "an event payload", &ec->payload, err);
	if (st != TK_OK) {
		char msg[sizeof err->message];
		snprintf(msg, sizeof msg, "%s", err ? err->message : "");
		return tk_error_set(err, st, TK_NO_OFFSET, "event class '%s': %s", name, msg);
	}
	/* perf's converter puts the sample's CPU in the packet context only,
	 * and leaves PERF_SAMPLE_ADDR out: the perf source's perf_cpu and
	 * perf_addr (kept in the model for other sinks) are not written. */
	if (s->info->format == TK_FORMAT_PERF && ec->payload)
		for (size_t i = 0; i < ec->payload->n_kids; i++) {
			const char *mn = cls->payload->members[i].name;
			tk_semantic sem = ec->payload->kids[i].cls->semantic;
			if (!mn)
				continue;
			if ((sc->has_cpu_field && sem == TK_SEM_CPU &&
			     strcmp(mn, "perf_cpu") == 0) ||
			    (sem == TK_SEM_ADDR && strcmp(mn, "perf_addr") == 0))
				ec->payload->kids[i].skip = true;
		}
	/* Keep the model's id when it is free in this stream class and fits the
	 * extended event header; otherwise take the next free one. */
	uint64_t id = cls->id;
	if (id > UINT32_MAX || tk_hashmap_get(&sc->used_ids, id)) {
		while (tk_hashmap_get(&sc->used_ids, sc->next_event_id))
			sc->next_event_id++;
		id = sc->next_event_id;
	}
	ec->id = id;
	if (!tk_hashmap_put(&sc->used_ids, id, 1) ||
	    !tk_hashmap_put(&s->ec_map, (uint64_t)(uintptr_t)cls, s->n_ecs))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	s->ecs[s->n_ecs++] = ec;
	*out = ec;
	return TK_OK;
}
