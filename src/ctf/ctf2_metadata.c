/* CTF 2 metadata streams (CTF2-SPEC-2.0): an RFC 7464 JSON text sequence
 * of fragments (each 0x1E, one JSON object, usually 0x0A). Each fragment is
 * parsed into a tree in a scratch arena (reset after each one, so memory
 * follows the largest fragment, not the metadata size) and turned into the
 * trace class IR of ctf_meta.h: preamble, trace class, clock classes, data
 * stream classes, event record classes and field class aliases. The 2023
 * draft's names (clock `name`, `default-clock-class-name`, trace class
 * `uuid`, locations as arrays) are accepted too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf2_build.h"

static tk_status nomem(ctf2_builder *b)
{
	return tk_error_set(b->err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
}

static const char *str_of(const ctf2_json *j)
{
	return j && j->kind == CTF2_JSON_STRING ? j->s : NULL;
}

static bool grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t nc = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, nc * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = nc;
	return true;
}

/* Strings kept by the IR outlive the fragment's scratch tree. */
static const char *keep(ctf2_builder *b, const char *s)
{
	return s ? tk_arena_strdup(b->a, s) : NULL;
}

static tk_status uuid_of(ctf2_builder *b, const ctf2_json *j, uint8_t out[16])
{
	if (!j || j->kind != CTF2_JSON_ARRAY || j->n != 16)
		return ctf2_fail(b, j, TK_ERR_FORMAT, "a UUID must be an array of 16 bytes");
	for (size_t i = 0; i < 16; i++) {
		uint64_t v;
		if (!ctf2_get_u64(j->items[i], &v) || v > 255)
			return ctf2_fail(b, j->items[i], TK_ERR_FORMAT, "bad UUID byte");
		out[i] = (uint8_t)v;
	}
	return TK_OK;
}

static const char *uuid_text(ctf2_builder *b, const uint8_t u[16])
{
	char s[40];
	snprintf(s, sizeof s,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
		 u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
		 u[15]);
	return tk_arena_strdup(b->a, s);
}

/* Copies the rebuilt trees out of the scratch arena: the IR itself is
 * built straight into tc->arena, only names come from the JSON. The
 * field classes keep pointers to JSON strings (member names, labels,
 * location names), so those are copied here. */
static tk_status keep_fc_strings(ctf2_builder *b, ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return TK_OK;
	for (size_t i = 0; i < fc->n_members; i++) {
		ctf_member *m = &fc->members[i];
		if (!(m->name = keep(b, m->name)))
			return nomem(b);
		m->orig_name = m->name;
		tk_status st = keep_fc_strings(b, m->fc, depth + 1);
		if (st != TK_OK)
			return st;
	}
	for (size_t i = 0; i < fc->n_maps; i++)
		if (!(fc->maps[i].label = keep(b, fc->maps[i].label)))
			return nomem(b);
	if (fc->loc) {
		ctf2_loc *l = (ctf2_loc *)fc->loc;
		for (size_t i = 0; i < l->n; i++)
			if (l->names[i] && !(l->names[i] = keep(b, l->names[i])))
				return nomem(b);
	}
	return keep_fc_strings(b, (ctf_fc *)fc->elem, depth + 1);
}

static tk_status scope_fc(ctf2_builder *b, const ctf2_json *o, const char *key, ctf_scope scope,
			  ctf_fc **out)
{
	tk_status st = ctf2_scope_fc(b, ctf2_json_get(o, key), scope, out);
	if (st == TK_OK)
		st = keep_fc_strings(b, *out, 0);
	return st;
}

static tk_status preamble(ctf2_builder *b, const ctf2_json *o)
{
	uint64_t v;
	const ctf2_json *ver = ctf2_json_get(o, "version");
	if (!ctf2_get_u64(ver, &v) || v != 2)
		return ctf2_fail(b, ver ? ver : o, TK_ERR_UNSUPPORTED,
				 "preamble version must be 2");
	const ctf2_json *ext = ctf2_json_get(o, "extensions");
	if (ext && (ext->kind != CTF2_JSON_OBJECT || ext->n > 0))
		/* the spec: a consumer must refuse a trace whose preamble
		 * enables an extension it does not support */
		return ctf2_fail(b, ext, TK_ERR_UNSUPPORTED, "unsupported extension '%s'",
				 ext->kind == CTF2_JSON_OBJECT ? ext->keys[0] : "?");
	const ctf2_json *u = ctf2_json_get(o, "uuid");
	if (u) {
		tk_status st = uuid_of(b, u, b->tc->uuid);
		if (st != TK_OK)
			return st;
		b->tc->has_uuid = true;
	}
	return TK_OK;
}

static tk_status trace_class(ctf2_builder *b, const ctf2_json *o)
{
	ctf_trace_class *tc = b->tc;
	if (b->seen_trace)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "second trace class");
	if (b->n_streams)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "trace class after a data stream class");
	b->seen_trace = true;
	const ctf2_json *u = ctf2_json_get(o, "uuid"); /* the 2023 draft */
	if (u) {
		uint8_t id[16];
		tk_status st = uuid_of(b, u, id);
		if (st != TK_OK)
			return st;
		if (!tc->has_uuid) {
			memcpy(tc->uuid, id, 16);
			tc->has_uuid = true;
		}
	}
	const ctf2_json *env = ctf2_json_get(o, "environment");
	if (env) {
		if (env->kind != CTF2_JSON_OBJECT)
			return ctf2_fail(b, env, TK_ERR_FORMAT, "'environment' must be an object");
		tc->env = tk_arena_calloc(b->a, env->n + 1, sizeof *tc->env);
		if (!tc->env)
			return nomem(b);
		for (size_t i = 0; i < env->n; i++) {
			tk_env_entry *e = &tc->env[i];
			const ctf2_json *v = env->items[i];
			if (!(e->key = keep(b, env->keys[i])))
				return nomem(b);
			if (v->kind == CTF2_JSON_STRING) {
				if (!(e->str = keep(b, v->s)))
					return nomem(b);
			} else if (ctf2_get_i64(v, &e->i)) {
				e->is_int = true;
			} else {
				return ctf2_fail(b, v, TK_ERR_FORMAT,
						 "environment values are strings or integers");
			}
		}
		tc->n_env = env->n;
	}
	b->def_clock = -1;
	return scope_fc(b, o, "packet-header-field-class", CTF_SCOPE_PACKET_HEADER,
			&tc->packet_header);
}

static tk_status clock_class(ctf2_builder *b, const ctf2_json *o)
{
	const char *id = str_of(ctf2_json_get(o, "id"));
	const char *name = str_of(ctf2_json_get(o, "name"));
	if (!id)
		id = name; /* the 2023 draft names clocks, without ids */
	if (!id)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "clock class without an id");
	for (size_t i = 0; i < b->n_clocks; i++)
		if (!strcmp(b->clock_ids[i], id))
			return ctf2_fail(b, o, TK_ERR_FORMAT, "duplicate clock class id '%s'", id);
	if (b->n_clocks >= CTF2_MAX_CLOCKS)
		return ctf2_fail(b, o, TK_ERR_LIMIT, "more than %u clock classes", CTF2_MAX_CLOCKS);
	size_t cap = b->cap_clocks;
	if (!grow((void **)&b->clocks, &cap, b->n_clocks, sizeof *b->clocks) ||
	    !grow((void **)&b->clock_ids, &b->cap_clocks, b->n_clocks, sizeof *b->clock_ids))
		return nomem(b);
	ctf_clock *c = &b->clocks[b->n_clocks];
	memset(c, 0, sizeof *c);
	uint64_t freq;
	const ctf2_json *f = ctf2_json_get(o, "frequency");
	if (!ctf2_get_u64(f, &freq) || freq == 0)
		return ctf2_fail(b, f ? f : o, TK_ERR_FORMAT, "clock class needs a frequency > 0");
	c->info.freq = freq;
	if (!(c->info.name = keep(b, name ? name : id)) ||
	    !(b->clock_ids[b->n_clocks] = keep(b, id)))
		return nomem(b);
	const char *descr = str_of(ctf2_json_get(o, "description"));
	if (descr && !(c->info.description = keep(b, descr)))
		return nomem(b);
	uint64_t prec;
	if (ctf2_get_u64(ctf2_json_get(o, "precision"), &prec))
		c->info.precision = prec;
	const ctf2_json *off = ctf2_json_get(o, "offset-from-origin");
	if (!off) /* the 2023 draft */
		off = ctf2_json_get(o, "offset");
	if (off) {
		const ctf2_json *s = ctf2_json_get(off, "seconds");
		const ctf2_json *cy = ctf2_json_get(off, "cycles");
		uint64_t cycles = 0;
		if ((s && !ctf2_get_i64(s, &c->info.offset_s)) ||
		    (cy && (!ctf2_get_u64(cy, &cycles) || cycles > INT64_MAX)))
			return ctf2_fail(b, off, TK_ERR_FORMAT, "bad clock offset");
		c->info.offset_cycles = (int64_t)cycles;
	}
	const ctf2_json *origin = ctf2_json_get(o, "origin");
	c->info.absolute =
	    origin && origin->kind == CTF2_JSON_STRING && !strcmp(origin->s, "unix-epoch");
	if (origin && !c->info.absolute && origin->kind != CTF2_JSON_OBJECT)
		return ctf2_fail(b, origin, TK_ERR_FORMAT, "bad clock origin");
	const ctf2_json *u = ctf2_json_get(o, "uuid"); /* the 2023 draft */
	if (u) {
		tk_status st = uuid_of(b, u, c->uuid);
		if (st != TK_OK)
			return st;
		c->has_uuid = true;
		if (!(c->info.uuid = uuid_text(b, c->uuid)))
			return nomem(b);
	} else {
		const char *uid = str_of(ctf2_json_get(o, "uid"));
		if (uid && !(c->info.uuid = keep(b, uid)))
			return nomem(b);
	}
	b->n_clocks++;
	return TK_OK;
}

static tk_status stream_class(ctf2_builder *b, const ctf2_json *o)
{
	uint64_t id = 0;
	const ctf2_json *idj = ctf2_json_get(o, "id");
	if (idj && !ctf2_get_u64(idj, &id))
		return ctf2_fail(b, idj, TK_ERR_FORMAT, "bad data stream class id");
	for (size_t i = 0; i < b->n_streams; i++)
		if (b->streams[i]->id == id)
			return ctf2_fail(b, o, TK_ERR_FORMAT, "duplicate data stream class id %llu",
					 (unsigned long long)id);
	if (b->n_streams >= CTF2_MAX_STREAMS)
		return ctf2_fail(b, o, TK_ERR_LIMIT, "more than %u data stream classes",
				 CTF2_MAX_STREAMS);
	size_t cap = b->cap_streams;
	if (!grow((void **)&b->streams, &cap, b->n_streams, sizeof *b->streams) ||
	    !grow((void **)&b->event_ids, &b->cap_streams, b->n_streams, sizeof *b->event_ids))
		return nomem(b);
	ctf_stream_class *sc = tk_arena_calloc(b->a, 1, sizeof *sc);
	if (!sc)
		return nomem(b);
	sc->id = id;
	sc->has_id = idj != NULL;
	sc->clock = -1;
	const ctf2_json *dc = ctf2_json_get(o, "default-clock-class-id");
	if (!dc)
		dc = ctf2_json_get(o, "default-clock-class-name"); /* the 2023 draft */
	if (dc) {
		const char *want = str_of(dc);
		for (size_t i = 0; want && i < b->n_clocks && sc->clock < 0; i++)
			if (!strcmp(b->clock_ids[i], want))
				sc->clock = (int)i;
		if (sc->clock < 0)
			return ctf2_fail(b, dc, TK_ERR_FORMAT,
					 "default clock class '%s' is not defined before",
					 want ? want : "?");
	}
	b->def_clock = sc->clock;
	tk_status st;
	if ((st = scope_fc(b, o, "packet-context-field-class", CTF_SCOPE_PACKET_CONTEXT,
			   &sc->packet_context)) != TK_OK ||
	    (st = scope_fc(b, o, "event-record-header-field-class", CTF_SCOPE_EVENT_HEADER,
			   &sc->event_header)) != TK_OK ||
	    (st = scope_fc(b, o, "event-record-common-context-field-class",
			   CTF_SCOPE_EVENT_COMMON_CONTEXT, &sc->event_context)) != TK_OK)
		return st;
	tk_hashmap_init(&b->event_ids[b->n_streams]);
	b->streams[b->n_streams++] = sc;
	return TK_OK;
}

/* LTTng's log levels (attribute "lttng.org,2009" / "log-level"). */
static int64_t lttng_loglevel(const char *s)
{
	static const char *const names[] = {
	    "emergency",    "alert",      "critical",       "error",         "warning",
	    "notice",       "info",       "debug:system",   "debug:program", "debug:process",
	    "debug:module", "debug:unit", "debug:function", "debug:line",    "debug",
	};
	for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(s, names[i]))
			return (int64_t)i;
	return -1;
}

static tk_status event_class(ctf2_builder *b, const ctf2_json *o)
{
	uint64_t id = 0, sid = 0;
	const ctf2_json *idj = ctf2_json_get(o, "id");
	const ctf2_json *sidj = ctf2_json_get(o, "data-stream-class-id");
	if ((idj && !ctf2_get_u64(idj, &id)) || (sidj && !ctf2_get_u64(sidj, &sid)))
		return ctf2_fail(b, idj && !ctf2_get_u64(idj, &id) ? idj : sidj, TK_ERR_FORMAT,
				 "bad id");
	size_t si;
	for (si = 0; si < b->n_streams; si++)
		if (b->streams[si]->id == sid)
			break;
	if (si == b->n_streams)
		return ctf2_fail(b, o, TK_ERR_FORMAT,
				 "event record class refers to data stream class %llu, not "
				 "defined before",
				 (unsigned long long)sid);
	ctf_stream_class *sc = b->streams[si];
	if (tk_hashmap_get(&b->event_ids[si], id))
		return ctf2_fail(b, o, TK_ERR_FORMAT,
				 "duplicate event record class id %llu in data stream class %llu",
				 (unsigned long long)id, (unsigned long long)sid);
	if (b->n_events >= CTF2_MAX_EVENTS)
		return ctf2_fail(b, o, TK_ERR_LIMIT, "more than %u event record classes",
				 CTF2_MAX_EVENTS);
	ctf_event_class *ec = tk_arena_calloc(b->a, 1, sizeof *ec);
	if (!ec || !tk_hashmap_put(&b->event_ids[si], id, 1))
		return nomem(b);
	ec->info.id = id;
	ec->info.stream_class_id = sid;
	ec->has_id = true;
	ec->has_stream_id = true;
	ec->info.loglevel = -1;
	const char *name = str_of(ctf2_json_get(o, "name"));
	if (!(ec->info.name = keep(b, name ? name : "")))
		return nomem(b);
	const ctf2_json *attrs = ctf2_json_get(o, "attributes");
	if (!attrs)
		attrs = ctf2_json_get(o, "user-attributes");
	const ctf2_json *lt = ctf2_json_get(attrs, "lttng.org,2009");
	ec->info.loglevel = lttng_loglevel(str_of(ctf2_json_get(lt, "log-level")));
	const char *emf = str_of(ctf2_json_get(lt, "model-emf-uri"));
	if (emf && !(ec->info.emf_uri = keep(b, emf)))
		return nomem(b);
	b->def_clock = sc->clock;
	tk_status st;
	if ((st = scope_fc(b, o, "specific-context-field-class", CTF_SCOPE_EVENT_CONTEXT,
			   &ec->context)) != TK_OK ||
	    (st = scope_fc(b, o, "payload-field-class", CTF_SCOPE_EVENT_PAYLOAD, &ec->payload)) !=
		TK_OK)
		return st;
	/* event arrays grow by doubling in the arena, as the TSDL parser's */
	if ((sc->n_events & (sc->n_events + 1)) == 0 || sc->n_events == 0) {
		size_t cap = (sc->n_events + 1) * 2;
		ctf_event_class **ne = tk_arena_alloc(b->a, cap * sizeof *ne);
		if (!ne)
			return nomem(b);
		if (sc->n_events)
			memcpy(ne, sc->events, sc->n_events * sizeof *ne);
		sc->events = ne;
	}
	sc->events[sc->n_events++] = ec;
	b->n_events++;
	return TK_OK;
}

static tk_status alias(ctf2_builder *b, const ctf2_json *o)
{
	const char *name = str_of(ctf2_json_get(o, "name"));
	if (!name)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "field class alias without a name");
	for (size_t i = 0; i < b->n_aliases; i++)
		if (!strcmp(b->aliases[i].name, name))
			return ctf2_fail(b, o, TK_ERR_FORMAT, "duplicate field class alias '%s'",
					 name);
	if (b->n_aliases >= CTF2_MAX_ALIASES)
		return ctf2_fail(b, o, TK_ERR_LIMIT, "more than %u field class aliases",
				 CTF2_MAX_ALIASES);
	if (!grow((void **)&b->aliases, &b->cap_aliases, b->n_aliases, sizeof *b->aliases))
		return nomem(b);
	ctf_fc *fc;
	/* roles of an alias are applied where it is used */
	b->in_alias = true;
	tk_status st = ctf2_field_class(b, ctf2_json_get(o, "field-class"), 0, &fc);
	b->in_alias = false;
	if (st == TK_OK)
		st = keep_fc_strings(b, fc, 0);
	if (st != TK_OK)
		return st;
	ctf2_alias *al = &b->aliases[b->n_aliases];
	if (!(al->name = keep(b, name)))
		return nomem(b);
	al->fc = fc;
	b->n_aliases++;
	return TK_OK;
}

static tk_status fragment(ctf2_builder *b, const ctf2_json *o)
{
	const char *type = str_of(ctf2_json_get(o, "type"));
	if (o->kind != CTF2_JSON_OBJECT || !type) {
		b->frag_type = NULL;
		return ctf2_fail(b, o, TK_ERR_FORMAT, "a fragment must be an object with a type");
	}
	b->frag_type = type;
	if (b->frag == 1 && strcmp(type, "preamble"))
		return ctf2_fail(b, o, TK_ERR_FORMAT, "the first fragment must be the preamble");
	if (!strcmp(type, "preamble")) {
		if (b->frag != 1)
			return ctf2_fail(b, o, TK_ERR_FORMAT, "second preamble");
		return preamble(b, o);
	}
	if (!strcmp(type, "trace-class"))
		return trace_class(b, o);
	if (!strcmp(type, "clock-class"))
		return clock_class(b, o);
	if (!strcmp(type, "data-stream-class"))
		return stream_class(b, o);
	if (!strcmp(type, "event-record-class"))
		return event_class(b, o);
	if (!strcmp(type, "field-class-alias"))
		return alias(b, o);
	return ctf2_fail(b, ctf2_json_get(o, "type"), TK_ERR_FORMAT, "unknown fragment type '%s'",
			 type);
}

/* Streams, clocks and events into the trace class. */
static tk_status finish(ctf2_builder *b)
{
	ctf_trace_class *tc = b->tc;
	if (b->n_streams == 0)
		return tk_error_set(b->err, TK_ERR_FORMAT, tc->text_len,
				    "metadata: none of the %zu fragments is a data stream class",
				    b->frag);
	tc->streams = tk_arena_alloc(b->a, b->n_streams * sizeof *tc->streams);
	if (!tc->streams)
		return nomem(b);
	memcpy(tc->streams, b->streams, b->n_streams * sizeof *tc->streams);
	tc->n_streams = b->n_streams;
	if (b->n_clocks) {
		tc->clocks = tk_arena_alloc(b->a, b->n_clocks * sizeof *tc->clocks);
		if (!tc->clocks)
			return nomem(b);
		memcpy(tc->clocks, b->clocks, b->n_clocks * sizeof *tc->clocks);
		tc->n_clocks = b->n_clocks;
	}
	return TK_OK;
}

tk_status ctf2_metadata_parse(ctf_trace_class *tc, const char *name, tk_error *err)
{
	(void)name;
	ctf2_builder b;
	memset(&b, 0, sizeof b);
	b.tc = tc;
	b.a = &tc->arena;
	b.err = err;
	b.def_clock = -1;
	b.copies_left = ((size_t)1 << 16) + tc->text_len;
	tc->ctf2 = true;
	tc->major = 2;
	tc->minor = 0;
	tk_arena scratch;
	tk_arena_init(&scratch, 64 * 1024);
	scratch.limit = CTF2_MAX_FRAGMENT_MEM;
	const char *t = tc->text;
	size_t len = tc->text_len, pos = 0;
	tk_status st = TK_OK;
	while (pos < len && st == TK_OK) {
		if ((unsigned char)t[pos] != 0x1E) {
			st = tk_error_set(err, TK_ERR_FORMAT, pos,
					  "metadata: expected a record separator (0x1e) before "
					  "fragment %zu",
					  b.frag + 1);
			break;
		}
		size_t start = ++pos;
		const char *rs = memchr(t + start, 0x1E, len - start);
		size_t end = rs ? (size_t)(rs - t) : len;
		pos = end;
		if (++b.frag > CTF2_MAX_FRAGMENTS) {
			st = tk_error_set(err, TK_ERR_LIMIT, start,
					  "metadata: more than %u fragments", CTF2_MAX_FRAGMENTS);
			break;
		}
		ctf2_json *o;
		b.frag_type = NULL;
		st = ctf2_json_parse(&scratch, t + start, end - start, start, &o, err);
		if (st != TK_OK && err) {
			/* name the fragment in the JSON reader's message */
			char msg[sizeof err->message];
			snprintf(msg, sizeof msg, "%s", err->message);
			const char *m = strncmp(msg, "metadata: ", 10) ? msg : msg + 10;
			st = tk_error_set(err, st, err->offset, "metadata: fragment %zu: %s",
					  b.frag, m);
		} else {
			st = fragment(&b, o);
		}
		tk_arena_reset(&scratch);
	}
	if (st == TK_OK && b.frag == 0)
		st = tk_error_set(err, TK_ERR_FORMAT, 0, "metadata: no fragment");
	if (st == TK_OK)
		st = finish(&b);
	tk_arena_free(&scratch);
	for (size_t i = 0; i < b.n_streams; i++)
		tk_hashmap_free(&b.event_ids[i]);
	free(b.event_ids);
	free(b.streams);
	free(b.clocks);
	free(b.clock_ids);
	free(b.aliases);
	return st;
}
