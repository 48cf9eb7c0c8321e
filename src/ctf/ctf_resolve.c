/* Passes run once the whole TSDL text is parsed (ctf_trace_class_finish):
 * native byte orders, clock maps, special-field meanings, path resolution
 * for sequence lengths and variant tags, babeltrace2's "in IR" flags (which
 * fields its pretty output shows), the model view of every class, and
 * last the decode plans (ctf_plan.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_meta.h"
#include "ctf/ctf_plan.h"

typedef struct resolver {
	ctf_trace_class *tc;
	tk_error *err;
	/* roots of the scopes visible from the field being resolved */
	const ctf_fc *roots[CTF_SCOPE_COUNT];
	ctf_scope cur_scope;
	/* enclosing structs of the field being resolved, with the member
	 * index followed at each level */
	const ctf_fc *stack[64];
	size_t stack_idx[64];
	size_t depth;
} resolver;

static tk_status nomem(tk_error *err)
{
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
}

/* ---- byte order and clocks ---- */

static tk_status fix_leaves(ctf_trace_class *tc, ctf_fc *fc, tk_error *err, unsigned depth)
{
	if (!fc)
		return TK_OK;
	if (depth > 256)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: types nested too deeply");
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM:
	case CTF_FC_FLOAT:
		fc->little_endian = fc->byte_order == 0 ? tc->little_endian : fc->byte_order == 1;
		if (fc->clock_name) {
			fc->clock = -1;
			for (size_t i = 0; i < tc->n_clocks; i++)
				if (!strcmp(tc->clocks[i].info.name, fc->clock_name))
					fc->clock = (int)i;
			if (fc->clock < 0)
				return tk_error_set(
				    err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: integer mapped to unknown clock '%s'",
				    fc->clock_name);
		}
		return TK_OK;
	case CTF_FC_STRUCT:
	case CTF_FC_VARIANT:
		for (size_t i = 0; i < fc->n_members; i++) {
			tk_status st = fix_leaves(tc, fc->members[i].fc, err, depth + 1);
			if (st != TK_OK)
				return st;
		}
		return TK_OK;
	case CTF_FC_ARRAY:
	case CTF_FC_SEQUENCE: return fix_leaves(tc, (ctf_fc *)fc->elem, err, depth + 1);
	default: return TK_OK;
	}
}

static ctf_fc *member(const ctf_fc *s, const char *name)
{
	if (!s || s->type != CTF_FC_STRUCT)
		return NULL;
	for (size_t i = 0; i < s->n_members; i++)
		if (!strcmp(s->members[i].name, name))
			return s->members[i].fc;
	return NULL;
}

static bool is_int(const ctf_fc *fc)
{
	return fc && (fc->type == CTF_FC_INT || fc->type == CTF_FC_ENUM);
}

/* Integers named like timestamps and not mapped get the trace's only clock
 * (a 1 GHz "default" clock is made when there is none), as babeltrace2 does. */
static tk_status auto_map(ctf_trace_class *tc, ctf_fc *fc, tk_error *err)
{
	if (!is_int(fc) || fc->clock >= 0)
		return TK_OK;
	if (tc->n_clocks == 0) {
		ctf_clock *c = tk_arena_calloc(&tc->arena, 1, sizeof *c);
		if (!c)
			return nomem(err);
		c->info.name = "default";
		c->info.freq = 1000000000;
		tc->clocks = c;
		tc->n_clocks = 1;
	} else if (tc->n_clocks > 1) {
		return tk_error_set(err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: timestamp field not mapped to a clock and the trace "
				    "has several clocks");
	}
	fc->clock = 0;
	return TK_OK;
}

static void set_meaning(ctf_fc *fc, ctf_meaning m)
{
	if (is_int(fc))
		fc->meaning = m;
}

/* "id" and "timestamp" anywhere in the event header (compact/large headers
 * nest them in a variant). */
static tk_status event_header_meanings(ctf_trace_class *tc, ctf_fc *fc, tk_error *err,
				       unsigned depth)
{
	if (!fc || depth > 64)
		return TK_OK;
	if (fc->type == CTF_FC_STRUCT || fc->type == CTF_FC_VARIANT) {
		for (size_t i = 0; i < fc->n_members; i++) {
			ctf_fc *m = fc->members[i].fc;
			if (!strcmp(fc->members[i].name, "id"))
				set_meaning(m, CTF_MEANING_EVENT_ID);
			else if (!strcmp(fc->members[i].name, "timestamp")) {
				tk_status st = auto_map(tc, m, err);
				if (st != TK_OK)
					return st;
			}
			tk_status st = event_header_meanings(tc, m, err, depth + 1);
			if (st != TK_OK)
				return st;
		}
	}
	return TK_OK;
}

static int find_clock_used(const ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return -1;
	if (is_int(fc))
		return fc->clock;
	if (fc->type == CTF_FC_STRUCT || fc->type == CTF_FC_VARIANT) {
		for (size_t i = 0; i < fc->n_members; i++) {
			int c = find_clock_used(fc->members[i].fc, depth + 1);
			if (c >= 0)
				return c;
		}
	}
	if (fc->type == CTF_FC_ARRAY || fc->type == CTF_FC_SEQUENCE)
		return find_clock_used(fc->elem, depth + 1);
	return -1;
}

static bool has_meaning(const ctf_fc *fc, ctf_meaning m, unsigned depth)
{
	if (!fc || depth > 256)
		return false;
	if (is_int(fc) && fc->meaning == m)
		return true;
	for (size_t i = 0; i < fc->n_members; i++)
		if (has_meaning(fc->members[i].fc, m, depth + 1))
			return true;
	return fc->elem && has_meaning(fc->elem, m, depth + 1);
}

/* CTF 2: the metadata's roles already set meanings and clocks, and the
 * data stream classes name their default clock. */
static tk_status ctf2_meanings(ctf_trace_class *tc)
{
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		const ctf_fc *pc = sc->packet_context;
		sc->ts_begin_end = has_meaning(pc, CTF_MEANING_TS_BEGIN, 0) &&
				   has_meaning(pc, CTF_MEANING_TS_END, 0);
		sc->has_discarded = has_meaning(pc, CTF_MEANING_EVENTS_DISCARDED, 0);
		sc->has_seq_num = has_meaning(pc, CTF_MEANING_PACKET_SEQ_NUM, 0);
	}
	return TK_OK;
}

static tk_status meanings(ctf_trace_class *tc, tk_error *err)
{
	if (tc->ctf2)
		return ctf2_meanings(tc);
	ctf_fc *ph = tc->packet_header;
	set_meaning(member(ph, "magic"), CTF_MEANING_MAGIC);
	set_meaning(member(ph, "stream_id"), CTF_MEANING_STREAM_ID);
	set_meaning(member(ph, "stream_instance_id"), CTF_MEANING_STREAM_INSTANCE_ID);
	ctf_fc *uuid = member(ph, "uuid");
	if (uuid && uuid->type == CTF_FC_ARRAY && uuid->length == 16 && is_int(uuid->elem) &&
	    uuid->elem->size == 8)
		uuid->meaning = CTF_MEANING_UUID;
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		ctf_fc *pc = sc->packet_context;
		static const struct {
			const char *name;
			ctf_meaning m;
		} pcm[] = {
		    {"packet_size", CTF_MEANING_PACKET_SIZE},
		    {"content_size", CTF_MEANING_CONTENT_SIZE},
		    {"timestamp_begin", CTF_MEANING_TS_BEGIN},
		    {"timestamp_end", CTF_MEANING_TS_END},
		    {"events_discarded", CTF_MEANING_EVENTS_DISCARDED},
		    {"packet_seq_num", CTF_MEANING_PACKET_SEQ_NUM},
		};
		for (size_t k = 0; k < sizeof pcm / sizeof pcm[0]; k++) {
			ctf_fc *m = member(pc, pcm[k].name);
			if (!is_int(m))
				continue;
			m->meaning = pcm[k].m;
			if (pcm[k].m == CTF_MEANING_TS_BEGIN || pcm[k].m == CTF_MEANING_TS_END) {
				tk_status st = auto_map(tc, m, err);
				if (st != TK_OK)
					return st;
			}
		}
		sc->ts_begin_end =
		    is_int(member(pc, "timestamp_begin")) && is_int(member(pc, "timestamp_end"));
		sc->has_discarded = is_int(member(pc, "events_discarded"));
		sc->has_seq_num = is_int(member(pc, "packet_seq_num"));
		tk_status st = event_header_meanings(tc, sc->event_header, err, 0);
		if (st != TK_OK)
			return st;
	}
	/* the stream's default clock: the one its fields are mapped to */
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		int c = find_clock_used(sc->packet_context, 0);
		if (c < 0)
			c = find_clock_used(sc->event_header, 0);
		if (c < 0)
			c = find_clock_used(sc->event_context, 0);
		for (size_t j = 0; c < 0 && j < sc->n_events; j++) {
			c = find_clock_used(sc->events[j]->context, 0);
			if (c < 0)
				c = find_clock_used(sc->events[j]->payload, 0);
		}
		sc->clock = c;
	}
	return TK_OK;
}

/* ---- paths ---- */

static const char *strip1(const char *s)
{
	return s[0] == '_' ? s + 1 : s;
}

/* Splits a dotted path into tokens (arena copies). */
static size_t split_path(tk_arena *a, const char *path, const char **tok, size_t max)
{
	size_t n = 0;
	const char *s = path;
	while (*s && n < max) {
		const char *dot = strchr(s, '.');
		size_t l = dot ? (size_t)(dot - s) : strlen(s);
		tok[n++] = tk_arena_strndup(a, s, l);
		if (!tok[n - 1])
			return 0;
		if (!dot)
			break;
		s = dot + 1;
	}
	return n;
}

static int find_member(const ctf_fc *s, const char *name, size_t limit)
{
	const char *want = strip1(name);
	for (size_t i = 0; i < s->n_members && i < limit; i++)
		if (!strcmp(s->members[i].name, want) || !strcmp(s->members[i].orig_name, name))
			return (int)i;
	return -1;
}

/* Follows tokens from a struct down to the target field. */
static tk_status descend(resolver *r, const ctf_fc *from, const char **tok, size_t n,
			 ctf_field_ref *ref, const char *path)
{
	const ctf_fc *cur = from;
	for (size_t i = 0; i < n; i++) {
		if (!cur || cur->type != CTF_FC_STRUCT)
			return tk_error_set(
			    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: cannot resolve path '%s': '%s' is not in a struct", path,
			    tok[i]);
		int k = find_member(cur, tok[i], cur->n_members);
		if (k < 0)
			return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: cannot resolve path '%s': no field '%s'",
					    path, tok[i]);
		if (ref->n >= CTF_MAX_PATH)
			return tk_error_set(r->err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "metadata: path '%s' too deep", path);
		ref->idx[ref->n++] = (uint16_t)k;
		cur = cur->members[k].fc;
	}
	ref->target = cur;
	return TK_OK;
}

static tk_status resolve_path(resolver *r, const char *path, ctf_field_ref *ref)
{
	static const struct {
		const char *prefix;
		ctf_scope scope;
	} abs[] = {
	    {"trace.packet.header.", CTF_SCOPE_PACKET_HEADER},
	    {"stream.packet.context.", CTF_SCOPE_PACKET_CONTEXT},
	    {"stream.event.header.", CTF_SCOPE_EVENT_HEADER},
	    {"stream.event.context.", CTF_SCOPE_EVENT_COMMON_CONTEXT},
	    {"event.context.", CTF_SCOPE_EVENT_CONTEXT},
	    {"event.fields.", CTF_SCOPE_EVENT_PAYLOAD},
	};
	const char *tok[CTF_MAX_PATH + 1];
	memset(ref, 0, sizeof *ref);
	for (size_t i = 0; i < sizeof abs / sizeof abs[0]; i++) {
		size_t l = strlen(abs[i].prefix);
		if (strncmp(path, abs[i].prefix, l) != 0)
			continue;
		if (abs[i].scope > r->cur_scope || !r->roots[abs[i].scope])
			return tk_error_set(
			    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: path '%s' refers to a scope not available here", path);
		size_t n = split_path(&r->tc->arena, path + l, tok, CTF_MAX_PATH + 1);
		if (n == 0 || n > CTF_MAX_PATH)
			return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: bad path '%s'", path);
		ref->relative = false;
		ref->scope = abs[i].scope;
		return descend(r, r->roots[abs[i].scope], tok, n, ref, path);
	}
	size_t n = split_path(&r->tc->arena, path, tok, CTF_MAX_PATH + 1);
	if (n == 0 || n > CTF_MAX_PATH)
		return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET, "metadata: bad path '%s'",
				    path);
	/* relative: the innermost enclosing struct first, earlier members only */
	for (size_t up = 0; up < r->depth; up++) {
		size_t lvl = r->depth - 1 - up;
		int k = find_member(r->stack[lvl], tok[0], r->stack_idx[lvl]);
		if (k < 0)
			continue;
		ref->relative = true;
		ref->up = (unsigned)up;
		return descend(r, r->stack[lvl], tok, n, ref, path);
	}
	/* then the roots of the earlier scopes, innermost first (babeltrace 1) */
	for (int s = (int)r->cur_scope - 1; s >= 0; s--) {
		if (!r->roots[s] || find_member(r->roots[s], tok[0], r->roots[s]->n_members) < 0)
			continue;
		ref->relative = false;
		ref->scope = (ctf_scope)s;
		return descend(r, r->roots[s], tok, n, ref, path);
	}
	return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: cannot resolve path '%s'", path);
}

/* CTF 2 field location: member names exactly as written; a relative
 * location starts in the innermost enclosing structure (earlier members
 * only) and each leading null goes out one structure. */
static tk_status resolve_loc(resolver *r, const ctf2_loc *loc, ctf_field_ref *ref)
{
	memset(ref, 0, sizeof *ref);
	const ctf_fc *cur;
	size_t i = 0, limit;
	if (!loc->relative) {
		if (loc->origin > r->cur_scope || !r->roots[loc->origin])
			return tk_error_set(
			    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: field location '%s' refers to a scope not available here",
			    loc->text);
		ref->scope = loc->origin;
		cur = r->roots[loc->origin];
		limit = loc->origin == r->cur_scope && r->depth ? r->stack_idx[0] : cur->n_members;
	} else {
		unsigned up = 0;
		while (i < loc->n && !loc->names[i]) {
			up++;
			i++;
		}
		if (up >= r->depth || i == loc->n)
			return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: cannot resolve relative field location '%s'",
					    loc->text);
		ref->relative = true;
		ref->up = up;
		cur = r->stack[r->depth - 1 - up];
		limit = r->stack_idx[r->depth - 1 - up];
	}
	for (; i < loc->n; i++) {
		if (cur && loc->names[i] &&
		    (cur->type == CTF_FC_VARIANT || cur->type == CTF_FC_ARRAY ||
		     cur->type == CTF_FC_SEQUENCE)) {
			/* through a variant option or an array element: only the
			 * one holding the field being resolved is known when it
			 * decodes, so the location goes on from there, relative */
			size_t lvl = r->depth;
			while (lvl-- > 0) {
				const ctf_fc *st = r->stack[lvl];
				bool holds = cur->type != CTF_FC_VARIANT && cur->elem == st;
				for (size_t k = 0;
				     cur->type == CTF_FC_VARIANT && k < cur->n_members; k++)
					holds |= cur->members[k].fc == st;
				if (holds)
					break;
			}
			if (lvl == SIZE_MAX)
				return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
						    "metadata: field location '%s' goes into a "
						    "variant option or array element that does not "
						    "hold the field it is for",
						    loc->text);
			ref->relative = true;
			ref->up = (unsigned)(r->depth - 1 - lvl);
			ref->n = 0;
			cur = r->stack[lvl];
			limit = r->stack_idx[lvl];
		}
		if (!cur || cur->type != CTF_FC_STRUCT || !loc->names[i])
			return tk_error_set(
			    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: cannot resolve field location '%s': not a structure member",
			    loc->text);
		/* at the first level, an earlier member, or the one holding
		 * the field being resolved when the path goes on into it */
		size_t lim = limit == SIZE_MAX ? SIZE_MAX : limit + (i + 1 < loc->n);
		size_t k;
		for (k = 0; k < cur->n_members && k < lim; k++)
			if (!strcmp(cur->members[k].name, loc->names[i]))
				break;
		if (k >= cur->n_members || k >= lim)
			return tk_error_set(
			    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: cannot resolve field location '%s': no earlier member '%s'",
			    loc->text, loc->names[i]);
		if (ref->n >= CTF_MAX_PATH)
			return tk_error_set(r->err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "metadata: field location '%s' too deep", loc->text);
		ref->idx[ref->n++] = (uint16_t)k;
		cur = cur->members[k].fc;
		limit = SIZE_MAX;
	}
	ref->target = cur;
	return TK_OK;
}

static tk_status variant_ranges(resolver *r, ctf_fc *v)
{
	const ctf_fc *tag = v->ref.target;
	if (!tag || tag->type != CTF_FC_ENUM)
		return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: variant tag '%s' is not an enumeration", v->path);
	size_t n = 0;
	for (size_t i = 0; i < tag->n_maps; i++)
		for (size_t j = 0; j < v->n_members; j++)
			if (!strcmp(tag->maps[i].label, v->members[j].orig_name))
				n++;
	v->ranges = tk_arena_alloc(&r->tc->arena, (n + 1) * sizeof *v->ranges);
	if (!v->ranges)
		return nomem(r->err);
	v->n_ranges = 0;
	for (size_t i = 0; i < tag->n_maps; i++)
		for (size_t j = 0; j < v->n_members; j++)
			if (!strcmp(tag->maps[i].label, v->members[j].orig_name)) {
				ctf_var_range *rg = &v->ranges[v->n_ranges++];
				rg->lo = tag->maps[i].lo;
				rg->hi = tag->maps[i].hi;
				rg->option = j;
			}
	return TK_OK;
}

static tk_status resolve_tree(resolver *r, ctf_fc *fc, unsigned depth)
{
	tk_status st;
	if (depth > 256)
		return tk_error_set(r->err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: types nested too deeply");
	switch (fc->type) {
	case CTF_FC_STRUCT:
		if (r->depth >= 64)
			return tk_error_set(r->err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "metadata: structs nested too deeply");
		r->stack[r->depth] = fc;
		r->depth++;
		for (size_t i = 0; i < fc->n_members; i++) {
			r->stack_idx[r->depth - 1] = i;
			if ((st = resolve_tree(r, fc->members[i].fc, depth + 1)) != TK_OK)
				return st;
		}
		r->depth--;
		return TK_OK;
	case CTF_FC_VARIANT:
		if (!fc->path && !fc->loc)
			return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: variant without a tag");
		if (fc->loc) {
			if ((st = resolve_loc(r, fc->loc, &fc->ref)) != TK_OK)
				return st;
			if (!is_int(fc->ref.target))
				return tk_error_set(
				    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: variant selector '%s' is not an integer",
				    fc->loc->text);
			/* an optional's selector: a boolean, or an integer with
			 * ranges (CTF2-SPEC-2.0 optional field class) */
			if (fc->is_optional && fc->bool_selector != fc->ref.target->is_bool)
				return tk_error_set(
				    r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: optional selector '%s' %s", fc->loc->text,
				    fc->bool_selector ? "is not a boolean and the optional has no "
							"selector ranges"
						      : "is a boolean but the optional has "
							"selector ranges");
		} else if ((st = resolve_path(r, fc->path, &fc->ref)) != TK_OK) {
			return st;
		}
		if (!fc->ranges_given && (st = variant_ranges(r, fc)) != TK_OK)
			return st;
		for (size_t i = 0; i < fc->n_members; i++)
			if ((st = resolve_tree(r, fc->members[i].fc, depth + 1)) != TK_OK)
				return st;
		return TK_OK;
	case CTF_FC_SEQUENCE:
		if ((st = fc->loc ? resolve_loc(r, fc->loc, &fc->ref)
				  : resolve_path(r, fc->path, &fc->ref)) != TK_OK)
			return st;
		if (!is_int(fc->ref.target) || (fc->loc && fc->ref.target->is_signed))
			return tk_error_set(r->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: sequence length '%s' is not an %sinteger",
					    fc->loc ? fc->loc->text : fc->path,
					    fc->loc ? "unsigned " : "");
		/* signed lengths are accepted; a negative value fails at decode time */
		/* fall through */
	case CTF_FC_ARRAY: return resolve_tree(r, (ctf_fc *)fc->elem, depth + 1);
	default: return TK_OK;
	}
}

static tk_status resolve_scope(resolver *r, ctf_fc *root, ctf_scope scope)
{
	if (!root)
		return TK_OK;
	r->roots[scope] = root;
	r->cur_scope = scope;
	r->depth = 0;
	return resolve_tree(r, root, 0);
}

/* ---- babeltrace2's IR view ---- */

static void force_in_ir(ctf_fc *fc, bool v, unsigned depth)
{
	if (!fc || depth > 256)
		return;
	fc->in_ir = v;
	for (size_t i = 0; i < fc->n_members; i++)
		force_in_ir(fc->members[i].fc, v, depth + 1);
	if (fc->elem)
		force_in_ir((ctf_fc *)fc->elem, v, depth + 1);
}

static void update_in_ir(ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM:
		if ((fc->clock < 0 && fc->meaning == CTF_MEANING_NONE) || fc->depended_on)
			fc->in_ir = true;
		break;
	case CTF_FC_STRUCT:
		if (fc->n_members == 0)
			fc->in_ir = true;
		for (size_t i = fc->n_members; i-- > 0;) {
			update_in_ir(fc->members[i].fc, depth + 1);
			if (fc->members[i].fc->in_ir)
				fc->in_ir = true;
		}
		break;
	case CTF_FC_VARIANT:
		for (size_t i = fc->n_members; i-- > 0;) {
			update_in_ir(fc->members[i].fc, depth + 1);
			if (fc->members[i].fc->in_ir)
				fc->in_ir = true;
		}
		if (fc->in_ir) {
			for (size_t i = 0; i < fc->n_members; i++)
				fc->members[i].fc->in_ir = true;
			if (fc->ref.target)
				((ctf_fc *)fc->ref.target)->depended_on = true;
		}
		break;
	case CTF_FC_ARRAY:
	case CTF_FC_SEQUENCE:
		update_in_ir((ctf_fc *)fc->elem, depth + 1);
		fc->in_ir = fc->elem->in_ir;
		if (fc->meaning == CTF_MEANING_UUID) {
			fc->in_ir = false;
			((ctf_fc *)fc->elem)->in_ir = false;
		}
		if (fc->type == CTF_FC_SEQUENCE && fc->in_ir && fc->ref.target)
			((ctf_fc *)fc->ref.target)->depended_on = true;
		break;
	default: fc->in_ir = true; break;
	}
}

/* ---- model view ---- */

static tk_field_class *model_of(ctf_trace_class *tc, ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return NULL;
	tk_field_class *m = tk_arena_calloc(&tc->arena, 1, sizeof *m);
	if (!m)
		return NULL;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM:
		m->kind = TK_TYPE_INT;
		m->bits = (uint8_t)fc->size;
		m->is_signed = fc->is_signed;
		m->base = fc->base;
		m->is_char = fc->encoded;
		m->is_bool = fc->is_bool;
		m->clock = fc->clock >= 0 ? tc->clocks[fc->clock].info.name : NULL;
		if (fc->meaning == CTF_MEANING_STREAM_ID || fc->meaning == CTF_MEANING_EVENT_ID)
			m->semantic = TK_SEM_ID;
		else if (fc->clock >= 0)
			m->semantic = TK_SEM_TIMESTAMP;
		if (fc->varint) {
			/* values beyond 64 bits come as their LEB128 bytes */
			if (!(fc->big_model = tk_arena_calloc(&tc->arena, 1, sizeof *m)))
				return NULL;
			fc->big_model->kind = TK_TYPE_BYTES;
		}
		if (fc->n_maps && !fc->is_bitmap) {
			tk_enum_mapping *maps =
			    tk_arena_alloc(&tc->arena, fc->n_maps * sizeof *maps);
			if (!maps)
				return NULL;
			for (size_t i = 0; i < fc->n_maps; i++) {
				maps[i].label = fc->maps[i].label;
				maps[i].lo = (uint64_t)fc->maps[i].lo;
				maps[i].hi = (uint64_t)fc->maps[i].hi;
			}
			m->mappings = maps;
			m->n_mappings = fc->n_maps;
		}
		break;
	case CTF_FC_FLOAT:
		m->kind = TK_TYPE_FLOAT;
		/* 16- and 128-bit CTF 2 floats are decoded to doubles */
		m->bits = (uint8_t)(fc->size == 32 ? 32 : 64);
		break;
	case CTF_FC_STRING: m->kind = TK_TYPE_STRING; break;
	case CTF_FC_STRUCT:
	case CTF_FC_VARIANT: {
		m->kind = fc->type == CTF_FC_STRUCT ? TK_TYPE_STRUCT : TK_TYPE_VARIANT;
		tk_member *mem = tk_arena_alloc(&tc->arena, (fc->n_members + 1) * sizeof *mem);
		if (!mem)
			return NULL;
		for (size_t i = 0; i < fc->n_members; i++) {
			mem[i].name = fc->members[i].name;
			if (!(mem[i].cls = model_of(tc, fc->members[i].fc, depth + 1)))
				return NULL;
		}
		m->members = mem;
		m->n_members = fc->n_members;
		break;
	}
	case CTF_FC_ARRAY:
	case CTF_FC_SEQUENCE:
		if (fc->elem_is_text) {
			m->kind = TK_TYPE_STRING;
			break;
		}
		if (fc->is_blob) {
			m->kind = TK_TYPE_BYTES;
			break;
		}
		m->kind = fc->type == CTF_FC_ARRAY ? TK_TYPE_ARRAY : TK_TYPE_SEQUENCE;
		m->length = fc->length;
		if (!(m->element = model_of(tc, (ctf_fc *)fc->elem, depth + 1)))
			return NULL;
		break;
	}
	fc->model = m;
	return m;
}

static bool model_tree(ctf_trace_class *tc, ctf_fc *fc)
{
	return !fc || model_of(tc, fc, 0) != NULL;
}

static tk_status build_model(ctf_trace_class *tc, tk_error *err)
{
	tk_trace_info *ti = &tc->info;
	ti->format = TK_FORMAT_CTF;
	ti->env = tc->env;
	ti->n_env = tc->n_env;
	tk_clock_info *clocks = tk_arena_calloc(&tc->arena, tc->n_clocks + 1, sizeof *clocks);
	tk_stream_class *scs = tk_arena_calloc(&tc->arena, tc->n_streams + 1, sizeof *scs);
	size_t n_ev = 0;
	for (size_t i = 0; i < tc->n_streams; i++)
		n_ev += tc->streams[i]->n_events;
	const tk_event_class **evs = tk_arena_calloc(&tc->arena, n_ev + 1, sizeof *evs);
	if (!clocks || !scs || !evs)
		return nomem(err);
	for (size_t i = 0; i < tc->n_clocks; i++)
		clocks[i] = tc->clocks[i].info;
	ti->clocks = clocks;
	ti->n_clocks = tc->n_clocks;
	if (!model_tree(tc, tc->packet_header))
		return nomem(err);
	size_t k = 0;
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		if (!model_tree(tc, sc->packet_context) || !model_tree(tc, sc->event_header) ||
		    !model_tree(tc, sc->event_context))
			return nomem(err);
		scs[i].id = sc->id;
		scs[i].packet_context = sc->packet_context ? sc->packet_context->model : NULL;
		scs[i].event_header = sc->event_header ? sc->event_header->model : NULL;
		scs[i].event_context = sc->event_context ? sc->event_context->model : NULL;
		scs[i].clock = sc->clock >= 0 ? &clocks[sc->clock] : NULL;
		sc->info = scs[i];
		for (size_t j = 0; j < sc->n_events; j++) {
			ctf_event_class *ec = sc->events[j];
			if (!model_tree(tc, ec->context) || !model_tree(tc, ec->payload))
				return nomem(err);
			ec->info.context = ec->context ? ec->context->model : NULL;
			ec->info.payload = ec->payload ? ec->payload->model : NULL;
			evs[k++] = &ec->info;
		}
	}
	ti->stream_classes = scs;
	ti->n_stream_classes = tc->n_streams;
	ti->event_classes = evs;
	ti->n_event_classes = n_ev;
	return TK_OK;
}

tk_status ctf_trace_class_finish(ctf_trace_class *tc, tk_error *err)
{
	tk_status st;
	/* clocks: fold whole seconds of the cycle offset into offset_s */
	for (size_t i = 0; i < tc->n_clocks; i++) {
		ctf_clock *c = &tc->clocks[i];
		int64_t cyc = c->info.offset_cycles;
		int64_t s = c->info.offset_s;
		int64_t f = (int64_t)(c->info.freq > INT64_MAX ? INT64_MAX : c->info.freq);
		int64_t q = cyc / f, rem = cyc % f;
		if (rem < 0) {
			rem += f;
			q--;
		}
		if ((q > 0 && s > INT64_MAX - q) || (q < 0 && s < INT64_MIN - q))
			return tk_error_set(err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: clock '%s' offset overflows", c->info.name);
		c->offset_s = s + q;
		c->offset_cycles = (uint64_t)rem;
	}
	if ((st = fix_leaves(tc, tc->packet_header, err, 0)) != TK_OK)
		return st;
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		if ((st = fix_leaves(tc, sc->packet_context, err, 0)) != TK_OK ||
		    (st = fix_leaves(tc, sc->event_header, err, 0)) != TK_OK ||
		    (st = fix_leaves(tc, sc->event_context, err, 0)) != TK_OK)
			return st;
		for (size_t j = 0; j < sc->n_events; j++)
			if ((st = fix_leaves(tc, sc->events[j]->context, err, 0)) != TK_OK ||
			    (st = fix_leaves(tc, sc->events[j]->payload, err, 0)) != TK_OK)
				return st;
	}
	if ((st = meanings(tc, err)) != TK_OK)
		return st;
	resolver r;
	memset(&r, 0, sizeof r);
	r.tc = tc;
	r.err = err;
	if ((st = resolve_scope(&r, tc->packet_header, CTF_SCOPE_PACKET_HEADER)) != TK_OK)
		return st;
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		for (int s = CTF_SCOPE_PACKET_CONTEXT; s < CTF_SCOPE_COUNT; s++)
			r.roots[s] = NULL;
		if ((st = resolve_scope(&r, sc->packet_context, CTF_SCOPE_PACKET_CONTEXT)) !=
			TK_OK ||
		    (st = resolve_scope(&r, sc->event_header, CTF_SCOPE_EVENT_HEADER)) != TK_OK ||
		    (st = resolve_scope(&r, sc->event_context, CTF_SCOPE_EVENT_COMMON_CONTEXT)) !=
			TK_OK)
			return st;
		for (size_t j = 0; j < sc->n_events; j++) {
			r.roots[CTF_SCOPE_EVENT_CONTEXT] = NULL;
			r.roots[CTF_SCOPE_EVENT_PAYLOAD] = NULL;
			if ((st = resolve_scope(&r, sc->events[j]->context,
						CTF_SCOPE_EVENT_CONTEXT)) != TK_OK ||
			    (st = resolve_scope(&r, sc->events[j]->payload,
						CTF_SCOPE_EVENT_PAYLOAD)) != TK_OK)
				return st;
		}
		/* id -> event lookup table */
		uint64_t max_id = 0;
		for (size_t j = 0; j < sc->n_events; j++)
			if (sc->events[j]->info.id > max_id)
				max_id = sc->events[j]->info.id;
		if (sc->n_events && max_id < 65536) {
			sc->by_id = malloc((size_t)(max_id + 1) * sizeof *sc->by_id);
			if (!sc->by_id)
				return nomem(err);
			sc->by_id_len = (size_t)max_id + 1;
			for (size_t j = 0; j < sc->by_id_len; j++)
				sc->by_id[j] = -1;
			for (size_t j = 0; j < sc->n_events; j++)
				sc->by_id[sc->events[j]->info.id] = (int32_t)j;
		}
	}
	/* in-IR flags, in reverse order so dependents come before targets */
	for (size_t i = tc->n_streams; i-- > 0;) {
		ctf_stream_class *sc = tc->streams[i];
		for (size_t j = sc->n_events; j-- > 0;) {
			update_in_ir(sc->events[j]->payload, 0);
			update_in_ir(sc->events[j]->context, 0);
		}
		update_in_ir(sc->event_context, 0);
		force_in_ir(sc->event_header, false, 0);
		update_in_ir(sc->packet_context, 0);
	}
	force_in_ir(tc->packet_header, false, 0);
	if ((st = build_model(tc, err)) != TK_OK)
		return st;
	/* the plans take the model classes the values point at */
	return ctf_plan_compile_all(tc, err);
}
