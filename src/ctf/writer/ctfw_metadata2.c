/* CTF 2 metadata (CTF2-SPEC-2.0) for the CTF writer: the same streams,
 * packets and event layouts as the TSDL of ctfw_metadata.c, described as a
 * JSON text sequence (each fragment 0x1E ... 0x0A). Special fields carry
 * roles instead of reserved names; byte strings are blobs, enumerations
 * integers with mappings. Member names are the model's own (CTF 2 does not
 * strip a leading underscore as TSDL readers do); the writer's synthetic
 * length and tag members get the names a CTF 1.8 reader shows for them,
 * so both versions of a trace print the same.
 *
 * The layouts must match ctfw_stream.c and ctfw_encode.c exactly, as the
 * TSDL's do. */
#include <string.h>

#include "ctf/writer/ctfw_internal.h"
#include "ctf/writer/ctfw_metadata2.h"

static void put_str(tk_writer *w, const char *s)
{
	s = s ? s : "";
	tk_put_json_str(w, s, strlen(s));
}

static const char *byte_order(const ctfw_sink *s)
{
	return s->big_endian ? "big-endian" : "little-endian";
}

/* fixed-length unsigned integer of the writer's own fields */
static void put_uint(const ctfw_sink *s, tk_writer *w, unsigned bits, const char *role,
		     unsigned base)
{
	tk_put_fmt(
	    w,
	    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":%u,\"byte-order\":\"%s\","
	    "\"alignment\":8",
	    bits, byte_order(s));
	if (base != 10)
		tk_put_fmt(w, ",\"preferred-display-base\":%u", base);
	if (role)
		tk_put_fmt(w, ",\"roles\":[\"%s\"]", role);
	tk_put_char(w, '}');
}

static void put_member_open(tk_writer *w, bool *first, const char *name)
{
	if (!*first)
		tk_put_char(w, ',');
	*first = false;
	tk_put_str(w, "{\"name\":");
	put_str(w, name);
	tk_put_str(w, ",\"field-class\":");
}

static void put_fc(const ctfw_sink *s, tk_writer *w, const ctfw_node *n);

static void put_int(const ctfw_sink *s, tk_writer *w, const ctfw_node *n)
{
	const tk_field_class *c = n->cls;
	if (c->is_bool && !c->mappings) {
		/* the model's booleans (CTF 2 booleans read back) */
		tk_put_fmt(w,
			   "{\"type\":\"fixed-length-boolean\",\"length\":%u,\"byte-order\":\"%s\"",
			   c->bits, byte_order(s));
		if (n->align > 1)
			tk_put_fmt(w, ",\"alignment\":%u", n->align);
		tk_put_char(w, '}');
		return;
	}
	tk_put_fmt(w, "{\"type\":\"fixed-length-%s-integer\",\"length\":%u,\"byte-order\":\"%s\"",
		   c->is_signed ? "signed" : "unsigned", c->bits, byte_order(s));
	if (n->align > 1)
		tk_put_fmt(w, ",\"alignment\":%u", n->align);
	if (c->base && c->base != 10)
		tk_put_fmt(w, ",\"preferred-display-base\":%u", c->base);
	if (c->mappings && c->n_mappings) {
		/* one key per label, its ranges in declaration order */
		tk_put_str(w, ",\"mappings\":{");
		bool first = true;
		for (size_t i = 0; i < c->n_mappings; i++) {
			const char *l = c->mappings[i].label ? c->mappings[i].label : "";
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(c->mappings[j].label ? c->mappings[j].label : "", l);
			if (seen)
				continue;
			if (!first)
				tk_put_char(w, ',');
			first = false;
			put_str(w, l);
			tk_put_str(w, ":[");
			bool rfirst = true;
			for (size_t j = i; j < c->n_mappings; j++) {
				const tk_enum_mapping *m = &c->mappings[j];
				if (strcmp(m->label ? m->label : "", l))
					continue;
				tk_put_str(w, rfirst ? "[" : ",[");
				rfirst = false;
				if (c->is_signed) {
					tk_put_i64(w, (int64_t)m->lo);
					tk_put_char(w, ',');
					tk_put_i64(w, (int64_t)m->hi);
				} else {
					tk_put_u64(w, m->lo);
					tk_put_char(w, ',');
					tk_put_u64(w, m->hi);
				}
				tk_put_char(w, ']');
			}
			tk_put_char(w, ']');
		}
		tk_put_char(w, '}');
	}
	tk_put_char(w, '}');
}

/* A relative field location: an earlier member of the same structure. */
static void put_sibling_loc(tk_writer *w, const char *key, const char *name)
{
	tk_put_str(w, ",\"");
	tk_put_str(w, key);
	tk_put_str(w, "\":{\"path\":[");
	put_str(w, name);
	tk_put_str(w, "]}");
}

/* The CTF 2 name of member i of a struct node: the model's name, or for
 * the writer's synthetic members, the TSDL name without its '_'. */
static const char *member_name(const ctfw_node *parent, size_t i)
{
	const tk_field_class *c = parent->cls;
	if (i < c->n_members && c->members[i].name)
		return c->members[i].name;
	return parent->kids[i].name ? parent->kids[i].name : "";
}

static const char *synth_name(const ctfw_node *k)
{
	return k->ref_name[0] == '_' ? k->ref_name + 1 : k->ref_name;
}

static void put_struct_members(const ctfw_sink *s, tk_writer *w, const ctfw_node *n, bool *first)
{
	for (size_t i = 0; i < n->n_kids; i++) {
		const ctfw_node *k = &n->kids[i];
		if (k->skip)
			continue;
		tk_type_kind kind = k->cls->kind;
		const char *len_name = NULL;
		if (k->ref == CTFW_REF_SYNTHETIC &&
		    (kind == TK_TYPE_SEQUENCE || kind == TK_TYPE_BYTES)) {
			len_name = synth_name(k);
			put_member_open(w, first, len_name);
			put_uint(s, w, 32, NULL, 10);
			tk_put_char(w, '}');
		} else if (k->ref == CTFW_REF_SYNTHETIC && kind == TK_TYPE_VARIANT) {
			len_name = synth_name(k);
			put_member_open(w, first, len_name);
			tk_put_fmt(w,
				   "{\"type\":\"fixed-length-unsigned-integer\",\"length\":%u,"
				   "\"byte-order\":\"%s\",\"alignment\":8,\"mappings\":{",
				   k->tag_bits, byte_order(s));
			/* one key per option name (JSON keys are unique), with
			 * the tag value of every option of that name */
			bool kfirst = true;
			for (size_t o = 0; o < k->n_kids; o++) {
				const char *on = member_name(k, o);
				bool seen = false;
				for (size_t p = 0; p < o && !seen; p++)
					seen = !strcmp(member_name(k, p), on);
				if (seen)
					continue;
				if (!kfirst)
					tk_put_char(w, ',');
				kfirst = false;
				put_str(w, on);
				tk_put_str(w, ":[");
				for (size_t p = o; p < k->n_kids; p++)
					if (!strcmp(member_name(k, p), on))
						tk_put_fmt(w, "%s[%zu,%zu]", p > o ? "," : "", p,
							   p);
				tk_put_char(w, ']');
			}
			tk_put_str(w, "}}}");
		} else if (k->ref == CTFW_REF_SIBLING) {
			len_name = member_name(n, k->ref_index);
		}
		put_member_open(w, first, member_name(n, i));
		if (kind == TK_TYPE_SEQUENCE) {
			tk_put_str(w, "{\"type\":\"dynamic-length-array\"");
			put_sibling_loc(w, "length-field-location", len_name);
			tk_put_str(w, ",\"element-field-class\":");
			put_fc(s, w, k->kids);
			tk_put_char(w, '}');
		} else if (kind == TK_TYPE_BYTES) {
			tk_put_str(w, "{\"type\":\"dynamic-length-blob\"");
			put_sibling_loc(w, "length-field-location", len_name);
			tk_put_char(w, '}');
		} else if (kind == TK_TYPE_VARIANT) {
			tk_put_str(w, "{\"type\":\"variant\"");
			put_sibling_loc(w, "selector-field-location", len_name);
			tk_put_str(w, ",\"options\":[");
			for (size_t o = 0; o < k->n_kids; o++) {
				if (o)
					tk_put_char(w, ',');
				tk_put_str(w, "{\"name\":");
				put_str(w, member_name(k, o));
				tk_put_str(w, ",\"selector-field-ranges\":[[");
				if (k->ref == CTFW_REF_SIBLING && k->opt_lo) {
					bool sgn = n->kids[k->ref_index].cls->is_signed;
					if (sgn)
						tk_put_fmt(w, "%lld,%lld", (long long)k->opt_lo[o],
							   (long long)k->opt_hi[o]);
					else
						tk_put_fmt(w, "%llu,%llu",
							   (unsigned long long)k->opt_lo[o],
							   (unsigned long long)k->opt_hi[o]);
				} else {
					tk_put_fmt(w, "%zu,%zu", o, o);
				}
				tk_put_str(w, "]],\"field-class\":");
				put_fc(s, w, &k->kids[o]);
				tk_put_char(w, '}');
			}
			tk_put_str(w, "]}");
		} else {
			put_fc(s, w, k);
		}
		tk_put_char(w, '}');
	}
}

static void put_fc(const ctfw_sink *s, tk_writer *w, const ctfw_node *n)
{
	const tk_field_class *c = n->cls;
	switch (c->kind) {
	case TK_TYPE_INT: put_int(s, w, n); return;
	case TK_TYPE_FLOAT:
		tk_put_fmt(w,
			   "{\"type\":\"fixed-length-floating-point-number\",\"length\":%u,"
			   "\"byte-order\":\"%s\",\"alignment\":8}",
			   c->bits, byte_order(s));
		return;
	case TK_TYPE_STRING: tk_put_str(w, "{\"type\":\"null-terminated-string\"}"); return;
	case TK_TYPE_ARRAY:
		tk_put_fmt(w, "{\"type\":\"static-length-array\",\"length\":%llu",
			   (unsigned long long)c->length);
		tk_put_str(w, ",\"element-field-class\":");
		put_fc(s, w, n->kids);
		tk_put_char(w, '}');
		return;
	case TK_TYPE_STRUCT: {
		tk_put_str(w, "{\"type\":\"structure\"");
		if (n->align > 1)
			tk_put_fmt(w, ",\"minimum-alignment\":%u", n->align);
		tk_put_str(w, ",\"member-classes\":[");
		bool first = true;
		put_struct_members(s, w, n, &first);
		tk_put_str(w, "]}");
		return;
	}
	case TK_TYPE_SEQUENCE:
	case TK_TYPE_BYTES:
	case TK_TYPE_VARIANT:
		/* only as struct members (their length or tag is a sibling) */
		tk_put_str(w, "{\"type\":\"structure\"}");
		return;
	}
}

static void put_uuid(const ctfw_sink *s, tk_writer *w)
{
	tk_put_char(w, '[');
	for (int i = 0; i < 16; i++) {
		if (i)
			tk_put_char(w, ',');
		tk_put_u64(w, s->uuid[i]);
	}
	tk_put_char(w, ']');
}

static void put_clock(ctfw_sink *s, tk_writer *w, const tk_clock_info *c)
{
	const char *id =
	    c ? ctfw_ident(s, c->name ? c->name : CTFW_NS_CLOCK_NAME) : CTFW_NS_CLOCK_NAME;
	tk_put_str(w, "\x1e{\"type\":\"clock-class\",\"id\":");
	put_str(w, id ? id : CTFW_NS_CLOCK_NAME);
	tk_put_str(w, ",\"name\":");
	put_str(w, c && c->name ? c->name : CTFW_NS_CLOCK_NAME);
	bool absolute;
	if (!c) {
		/* as ctfw_metadata.c: the ns clock follows the source clock's origin */
		const tk_clock_info *ref = NULL;
		for (size_t i = 0; i < s->info->n_clocks && !ref; i++)
			if (s->info->clocks[i].name)
				ref = &s->info->clocks[i];
		bool lttng = false;
		for (size_t i = 0; i < s->info->n_env; i++) {
			const tk_env_entry *e = &s->info->env[i];
			if (e->key && strcmp(e->key, "tracer_name") == 0 && !e->is_int && e->str &&
			    strncmp(e->str, "lttng", 5) == 0)
				lttng = true;
		}
		absolute = ref && (ref->absolute ||
				   (lttng && ref->name && strcmp(ref->name, "monotonic") == 0));
		if (ref && ref->uuid) {
			tk_put_str(w, ",\"uid\":");
			put_str(w, ref->uuid);
		}
		tk_put_str(w, ",\"frequency\":1000000000");
	} else {
		absolute = c->absolute;
		if (c->uuid) {
			tk_put_str(w, ",\"uid\":");
			put_str(w, c->uuid);
		}
		if (c->description) {
			tk_put_str(w, ",\"description\":");
			put_str(w, c->description);
		}
		tk_put_fmt(w, ",\"frequency\":%llu,\"precision\":%llu",
			   (unsigned long long)(c->freq ? c->freq : UINT64_C(1000000000)),
			   (unsigned long long)c->precision);
		tk_put_fmt(w, ",\"offset-from-origin\":{\"seconds\":%lld,\"cycles\":%lld}",
			   (long long)c->offset_s, (long long)c->offset_cycles);
	}
	if (absolute)
		tk_put_str(w, ",\"origin\":\"unix-epoch\"");
	tk_put_str(w, "}\n");
}

static void put_stream_class(const ctfw_sink *s, tk_writer *w, const ctfw_stream_class *sc)
{
	tk_put_fmt(w, "\x1e{\"type\":\"data-stream-class\",\"id\":%llu",
		   (unsigned long long)sc->id);
	if (sc->has_clock) {
		tk_put_str(w, ",\"default-clock-class-id\":");
		put_str(w, sc->clock_name);
	}
	/* the packet context of ctfw_stream.c */
	tk_put_str(w,
		   ",\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":[");
	bool first = true;
	if (sc->has_clock) {
		put_member_open(w, &first, "timestamp_begin");
		put_uint(s, w, 64, "default-clock-timestamp", 10);
		tk_put_char(w, '}');
		put_member_open(w, &first, "timestamp_end");
		put_uint(s, w, 64, "packet-end-default-clock-timestamp", 10);
		tk_put_char(w, '}');
	}
	static const struct {
		const char *name, *role;
	} fixed[] = {
	    {"content_size", "packet-content-length"},
	    {"packet_size", "packet-total-length"},
	    {"packet_seq_num", "packet-sequence-number"},
	    {"events_discarded", "discarded-event-record-counter-snapshot"},
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		put_member_open(w, &first, fixed[i].name);
		put_uint(s, w, 64, fixed[i].role, 10);
		tk_put_char(w, '}');
	}
	if (sc->has_cpu_field) {
		put_member_open(w, &first, "cpu_id");
		put_uint(s, w, 32, NULL, 10);
		tk_put_char(w, '}');
	}
	if (sc->pc_extra)
		put_struct_members(s, w, sc->pc_extra, &first);
	tk_put_str(w, "]}");
	/* the event header */
	tk_put_str(w, ",\"event-record-header-field-class\":{\"type\":\"structure\","
		      "\"member-classes\":[");
	first = true;
	if (sc->has_clock) {
		put_member_open(w, &first, "id");
		tk_put_fmt(w,
			   "{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,"
			   "\"byte-order\":\"%s\",\"alignment\":8,\"roles\":[\"event-record-class-"
			   "id\"],\"mappings\":{\"compact\":[[0,65534]],\"extended\":[[65535,"
			   "65535]]}}}",
			   byte_order(s));
		put_member_open(w, &first, "v");
		tk_put_str(w, "{\"type\":\"variant\",\"selector-field-location\":{\"origin\":"
			      "\"event-record-header\",\"path\":[\"id\"]},\"options\":["
			      "{\"name\":\"compact\",\"selector-field-ranges\":[[0,65534]],"
			      "\"field-class\":{\"type\":\"structure\",\"member-classes\":[");
		bool f2 = true;
		put_member_open(w, &f2, "timestamp");
		put_uint(s, w, 32, "default-clock-timestamp", 10);
		tk_put_str(w,
			   "}]}},{\"name\":\"extended\",\"selector-field-ranges\":[[65535,65535]],"
			   "\"field-class\":{\"type\":\"structure\",\"member-classes\":[");
		f2 = true;
		put_member_open(w, &f2, "id");
		put_uint(s, w, 32, "event-record-class-id", 10);
		tk_put_char(w, '}');
		put_member_open(w, &f2, "timestamp");
		put_uint(s, w, 64, "default-clock-timestamp", 10);
		tk_put_str(w, "}]}}]}}");
	} else {
		put_member_open(w, &first, "id");
		put_uint(s, w, 32, "event-record-class-id", 10);
		tk_put_char(w, '}');
	}
	tk_put_str(w, "]}");
	if (sc->event_context) {
		tk_put_str(w, ",\"event-record-common-context-field-class\":");
		put_fc(s, w, sc->event_context);
	}
	tk_put_str(w, "}\n");
}

/* LTTng's log level names (its namespace's "log-level" attribute). */
static const char *loglevel_name(int64_t l)
{
	static const char *const names[] = {
	    "emergency",    "alert",      "critical",       "error",         "warning",
	    "notice",       "info",       "debug:system",   "debug:program", "debug:process",
	    "debug:module", "debug:unit", "debug:function", "debug:line",    "debug",
	};
	return l >= 0 && l < (int64_t)(sizeof names / sizeof names[0]) ? names[l] : NULL;
}

static void put_event_class(const ctfw_sink *s, tk_writer *w, const ctfw_event_class *ec)
{
	const tk_event_class *c = ec->src;
	tk_put_fmt(w,
		   "\x1e{\"type\":\"event-record-class\",\"id\":%llu,\"data-stream-class-id\":%llu",
		   (unsigned long long)ec->id, (unsigned long long)ec->sc->id);
	tk_put_str(w, ",\"name\":");
	put_str(w, c->name);
	const char *ll = loglevel_name(c->loglevel);
	if (ll || c->emf_uri) {
		tk_put_str(w, ",\"attributes\":{\"lttng.org,2009\":{");
		if (ll)
			tk_put_fmt(w, "\"log-level\":\"%s\"", ll);
		if (c->emf_uri) {
			tk_put_str(w, ll ? ",\"model-emf-uri\":" : "\"model-emf-uri\":");
			put_str(w, c->emf_uri);
		}
		tk_put_str(w, "}}");
	}
	if (ec->context) {
		tk_put_str(w, ",\"specific-context-field-class\":");
		put_fc(s, w, ec->context);
	}
	if (ec->payload) {
		tk_put_str(w, ",\"payload-field-class\":");
		put_fc(s, w, ec->payload);
	}
	tk_put_str(w, "}\n");
}

void ctfw_metadata2_put(ctfw_sink *s, tk_writer *w)
{
	const tk_trace_info *info = s->info;
	tk_put_str(w, "\x1e{\"type\":\"preamble\",\"version\":2,\"uuid\":");
	put_uuid(s, w);
	tk_put_str(w, "}\n");
	/* the packet header of ctfw_stream.c */
	tk_put_str(w, "\x1e{\"type\":\"trace-class\"");
	if (info->n_env) {
		tk_put_str(w, ",\"environment\":{");
		bool first = true;
		for (size_t i = 0; i < info->n_env; i++) {
			const tk_env_entry *e = &info->env[i];
			bool dup = false;
			for (size_t j = 0; j < i && !dup; j++)
				dup =
				    e->key && info->env[j].key && !strcmp(e->key, info->env[j].key);
			if (!e->key || dup)
				continue;
			if (!first)
				tk_put_char(w, ',');
			first = false;
			put_str(w, e->key);
			tk_put_char(w, ':');
			if (e->is_int)
				tk_put_i64(w, e->i);
			else
				put_str(w, e->str);
		}
		tk_put_char(w, '}');
	}
	tk_put_str(w,
		   ",\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":[");
	bool first = true;
	put_member_open(w, &first, "magic");
	put_uint(s, w, 32, "packet-magic-number", 16);
	tk_put_char(w, '}');
	put_member_open(w, &first, "uuid");
	tk_put_str(w, "{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-"
		      "uuid\"]}}");
	put_member_open(w, &first, "stream_id");
	put_uint(s, w, 32, "data-stream-class-id", 10);
	tk_put_char(w, '}');
	put_member_open(w, &first, "stream_instance_id");
	put_uint(s, w, 64, "data-stream-id", 10);
	tk_put_str(w, "}]}}\n");
	bool have_ns = false;
	for (size_t i = 0; i < info->n_clocks; i++) {
		if (!info->clocks[i].name)
			continue; /* nameless clocks: streams use the ns clock */
		put_clock(s, w, &info->clocks[i]);
		if (strcmp(info->clocks[i].name, CTFW_NS_CLOCK_NAME) == 0)
			have_ns = true;
	}
	if (s->need_ns_clock && !have_ns)
		put_clock(s, w, NULL);
	for (size_t i = 0; i < s->n_scs; i++)
		put_stream_class(s, w, s->scs[i]);
	/* CTF 2 needs a data stream class even in a trace without events */
	if (s->n_scs == 0)
		tk_put_str(w, "\x1e{\"type\":\"data-stream-class\"}\n");
	for (size_t i = 0; i < s->n_ecs; i++)
		put_event_class(s, w, s->ecs[i]);
}
