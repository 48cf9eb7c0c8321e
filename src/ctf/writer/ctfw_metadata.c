/* Generates the TSDL metadata from the write plans, at close time when every
 * event class is known, and writes it as text or as metadata packets.
 *
 * The layouts written here must match ctfw_stream.c (packet header and
 * context, event header) and ctfw_encode.c (field classes) exactly. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/bytes.h"
#include "ctf/writer/ctfw_internal.h"
#include "ctf/writer/ctfw_metadata2.h"

#define CTFW_META_MAGIC  0x75D11D57u
#define CTFW_META_HEADER 37
#define CTFW_META_PACKET 4096

static void put_indent(tk_writer *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		tk_put_char(w, '\t');
}

static void put_quoted(tk_writer *w, const char *s)
{
	tk_put_char(w, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			tk_put_char(w, '\\');
			tk_put_char(w, (char)c);
		} else if (c == '\n') {
			tk_put_str(w, "\\n");
		} else if (c < 0x20 || c == 0x7f) {
			tk_put_fmt(w, "\\x%02x", c);
		} else {
			tk_put_char(w, (char)c);
		}
	}
	tk_put_char(w, '"');
}

/* Is a clock of this TSDL name part of the metadata? */
static bool clock_emitted(const ctfw_sink *s, const char *name)
{
	if (!name)
		return false;
	if (s->need_ns_clock && strcmp(name, CTFW_NS_CLOCK_NAME) == 0)
		return true;
	for (size_t i = 0; i < s->info->n_clocks; i++) {
		const char *c = s->info->clocks[i].name;
		if (c && strcmp(c, name) == 0)
			return true;
	}
	return false;
}

static void put_int_type(const ctfw_sink *s, tk_writer *w, const tk_field_class *c, unsigned align)
{
	tk_put_fmt(w, "integer { size = %u; align = %u; signed = %s; base = %u;", c->bits, align,
		   c->is_signed ? "true" : "false", c->base ? c->base : 10);
	if (c->is_char)
		tk_put_str(w, " encoding = UTF8;");
	if (c->clock && clock_emitted(s, c->clock)) {
		/* spelled as the clock block spells it (ctfw_ident) */
		tk_put_str(w, " map = clock.");
		if (c->clock[0] >= '0' && c->clock[0] <= '9')
			tk_put_char(w, '_');
		for (const char *p = c->clock; *p; p++) {
			char ch = *p;
			bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				  (ch >= '0' && ch <= '9') || ch == '_';
			tk_put_char(w, ok ? ch : '_');
		}
		tk_put_str(w, ".value;");
	}
	tk_put_str(w, " }");
}

static void put_enum_value(tk_writer *w, uint64_t v, bool is_signed)
{
	if (is_signed)
		tk_put_i64(w, (int64_t)v);
	else
		tk_put_u64(w, v);
}

static void put_member(const ctfw_sink *s, tk_writer *w, const ctfw_node *n, unsigned ind);

static void put_type(const ctfw_sink *s, tk_writer *w, const ctfw_node *n, unsigned ind)
{
	const tk_field_class *c = n->cls;
	switch (c->kind) {
	case TK_TYPE_INT:
		if (c->mappings && c->n_mappings) {
			tk_put_str(w, "enum : ");
			put_int_type(s, w, c, n->align);
			tk_put_str(w, " { ");
			for (size_t i = 0; i < c->n_mappings; i++) {
				const tk_enum_mapping *m = &c->mappings[i];
				if (i)
					tk_put_str(w, ", ");
				put_quoted(w, m->label ? m->label : "");
				tk_put_str(w, " = ");
				put_enum_value(w, m->lo, c->is_signed);
				if (m->hi != m->lo) {
					tk_put_str(w, " ... ");
					put_enum_value(w, m->hi, c->is_signed);
				}
			}
			tk_put_str(w, " }");
		} else {
			put_int_type(s, w, c, n->align);
		}
		return;
	case TK_TYPE_FLOAT:
		if (c->bits == 32)
			tk_put_str(w, "floating_point { exp_dig = 8; mant_dig = 24; align = 8; }");
		else
			tk_put_str(w, "floating_point { exp_dig = 11; mant_dig = 53; align = 8; }");
		return;
	case TK_TYPE_STRING: tk_put_str(w, "string { encoding = UTF8; }"); return;
	case TK_TYPE_BYTES:
		tk_put_str(w, "integer { size = 8; align = 8; signed = false; base = 16; }");
		return;
	case TK_TYPE_STRUCT:
		tk_put_str(w, "struct {\n");
		for (size_t i = 0; i < n->n_kids; i++)
			if (!n->kids[i].skip)
				put_member(s, w, &n->kids[i], ind + 1);
		put_indent(w, ind);
		tk_put_str(w, "}");
		return;
	case TK_TYPE_VARIANT:
		tk_put_fmt(w, "variant <%s> {\n", n->ref_name ? n->ref_name : "?");
		for (size_t i = 0; i < n->n_kids; i++)
			put_member(s, w, &n->kids[i], ind + 1);
		put_indent(w, ind);
		tk_put_str(w, "}");
		return;
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE: break; /* handled by put_member */
	}
}

static void put_member(const ctfw_sink *s, tk_writer *w, const ctfw_node *n, unsigned ind)
{
	tk_type_kind kind = n->cls->kind;
	if (n->ref == CTFW_REF_SYNTHETIC && (kind == TK_TYPE_SEQUENCE || kind == TK_TYPE_BYTES)) {
		put_indent(w, ind);
		tk_put_fmt(w, "integer { size = 32; align = 8; signed = false; base = 10; } %s;\n",
			   n->ref_name);
	} else if (n->ref == CTFW_REF_SYNTHETIC && kind == TK_TYPE_VARIANT) {
		put_indent(w, ind);
		tk_put_fmt(w,
			   "enum : integer { size = %u; align = 8; signed = false; base = 10; } { ",
			   n->tag_bits);
		for (size_t i = 0; i < n->n_kids; i++) {
			if (i)
				tk_put_str(w, ", ");
			put_quoted(w, n->kids[i].name);
			tk_put_str(w, " = ");
			tk_put_u64(w, i);
		}
		tk_put_fmt(w, " } %s;\n", n->ref_name);
	}
	/* Arrays of arrays read outside in: T name[outer][inner]. */
	const ctfw_node *e = n;
	while (e->cls->kind == TK_TYPE_ARRAY || e->cls->kind == TK_TYPE_SEQUENCE)
		e = e->kids;
	put_indent(w, ind);
	put_type(s, w, e, ind);
	tk_put_char(w, ' ');
	tk_put_str(w, n->name ? n->name : "_unnamed");
	if (kind == TK_TYPE_BYTES)
		tk_put_fmt(w, "[%s]", n->ref_name);
	for (e = n; e->cls->kind == TK_TYPE_ARRAY || e->cls->kind == TK_TYPE_SEQUENCE;
	     e = e->kids) {
		if (e->cls->kind == TK_TYPE_ARRAY)
			tk_put_fmt(w, "[%llu]", (unsigned long long)e->cls->length);
		else
			tk_put_fmt(w, "[%s]", e->ref_name ? e->ref_name : "?");
	}
	tk_put_str(w, ";\n");
}

static void put_scope(const ctfw_sink *s, tk_writer *w, const char *what, const ctfw_node *n)
{
	if (!n)
		return;
	tk_put_fmt(w, "\t%s := ", what);
	put_type(s, w, n, 1);
	tk_put_str(w, ";\n");
}

static void put_trace(const ctfw_sink *s, tk_writer *w)
{
	const uint8_t *u = s->uuid;
	tk_put_str(w, "/* CTF 1.8 */\n\n");
	tk_put_str(w,
		   "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		   "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		   "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		   "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n");
	tk_put_str(w, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			tk_put_char(w, '-');
		tk_put_hex_pad(w, u[i], 2);
	}
	tk_put_fmt(w, "\";\n\tbyte_order = %s;\n", s->big_endian ? "be" : "le");
	tk_put_str(w, "\tpacket.header := struct {\n"
		      "\t\tinteger { size = 32; align = 8; signed = false; base = 16; } magic;\n"
		      "\t\tuint8_t uuid[16];\n"
		      "\t\tuint32_t stream_id;\n"
		      "\t\tuint64_t stream_instance_id;\n"
		      "\t};\n};\n\n");
}

static void put_env(ctfw_sink *s, tk_writer *w)
{
	const tk_trace_info *info = s->info;
	if (info->n_env == 0)
		return;
	tk_put_str(w, "env {\n");
	for (size_t i = 0; i < info->n_env; i++) {
		const tk_env_entry *e = &info->env[i];
		const char *key = ctfw_ident(s, e->key);
		if (!key)
			continue;
		tk_put_fmt(w, "\t%s = ", key);
		if (e->is_int)
			tk_put_i64(w, e->i);
		else
			put_quoted(w, e->str ? e->str : "");
		tk_put_str(w, ";\n");
	}
	tk_put_str(w, "};\n\n");
}

static void put_clock(ctfw_sink *s, tk_writer *w, const tk_clock_info *c)
{
	const char *name =
	    c ? ctfw_ident(s, c->name ? c->name : CTFW_NS_CLOCK_NAME) : CTFW_NS_CLOCK_NAME;
	tk_put_fmt(w, "clock {\n\tname = %s;\n", name ? name : CTFW_NS_CLOCK_NAME);
	if (!c) {
		/* The writer's ns clock counts from the origin of the source's
		 * clock (time_ns includes its offset): same uuid and absoluteness,
		 * so that babeltrace2 orders its events with the others. */
		const tk_clock_info *ref = NULL;
		for (size_t i = 0; i < s->info->n_clocks && !ref; i++)
			if (s->info->clocks[i].name)
				ref = &s->info->clocks[i];
		if (ref && ref->uuid) {
			tk_put_str(w, "\tuuid = ");
			put_quoted(w, ref->uuid);
			tk_put_str(w, ";\n");
		}
		/* babeltrace2 takes LTTng's "monotonic" clock as counting from
		 * the Unix epoch, and then wants every other clock absolute. */
		bool lttng = false;
		for (size_t i = 0; i < s->info->n_env; i++) {
			const tk_env_entry *e = &s->info->env[i];
			if (e->key && strcmp(e->key, "tracer_name") == 0 && !e->is_int && e->str &&
			    strncmp(e->str, "lttng", 5) == 0)
				lttng = true;
		}
		bool absolute =
		    ref &&
		    (ref->absolute || (lttng && ref->name && strcmp(ref->name, "monotonic") == 0));
		tk_put_fmt(
		    w,
		    "\tfreq = 1000000000;\n\tprecision = 0;\n\toffset_s = 0;\n\toffset = 0;\n"
		    "\tabsolute = %s;\n};\n\n",
		    absolute ? "true" : "false");
		return;
	}
	if (c->uuid) {
		tk_put_str(w, "\tuuid = ");
		put_quoted(w, c->uuid);
		tk_put_str(w, ";\n");
	}
	if (c && c->description) {
		tk_put_str(w, "\tdescription = ");
		put_quoted(w, c->description);
		tk_put_str(w, ";\n");
	}
	tk_put_str(w, "\tfreq = ");
	tk_put_u64(w, c && c->freq ? c->freq : UINT64_C(1000000000));
	tk_put_str(w, ";\n\tprecision = ");
	tk_put_u64(w, c ? c->precision : 0);
	tk_put_str(w, ";\n\toffset_s = ");
	tk_put_i64(w, c ? c->offset_s : 0);
	tk_put_str(w, ";\n\toffset = ");
	tk_put_i64(w, c ? c->offset_cycles : 0);
	tk_put_fmt(w, ";\n\tabsolute = %s;\n};\n\n", c && c->absolute ? "true" : "false");
}

static void put_stream_class(const ctfw_sink *s, tk_writer *w, const ctfw_stream_class *sc)
{
	tk_put_str(w, "stream {\n\tid = ");
	tk_put_u64(w, sc->id);
	tk_put_str(w, ";\n");
	if (sc->has_clock) {
		const char *ck = sc->clock_name;
		tk_put_fmt(w,
			   "\tevent.header := struct {\n"
			   "\t\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
			   "\t\tvariant <id> {\n"
			   "\t\t\tstruct {\n"
			   "\t\t\t\tinteger { size = 32; align = 8; signed = false; map = "
			   "clock.%s.value; } timestamp;\n"
			   "\t\t\t} compact;\n"
			   "\t\t\tstruct {\n"
			   "\t\t\t\tuint32_t id;\n"
			   "\t\t\t\tinteger { size = 64; align = 8; signed = false; map = "
			   "clock.%s.value; } timestamp;\n"
			   "\t\t\t} extended;\n"
			   "\t\t} v;\n"
			   "\t};\n",
			   ck, ck);
	} else {
		tk_put_str(w, "\tevent.header := struct {\n\t\tuint32_t id;\n\t};\n");
	}
	tk_put_str(w, "\tpacket.context := struct {\n");
	if (sc->has_clock)
		tk_put_fmt(w,
			   "\t\tinteger { size = 64; align = 8; signed = false; map = "
			   "clock.%s.value; } timestamp_begin;\n"
			   "\t\tinteger { size = 64; align = 8; signed = false; map = "
			   "clock.%s.value; } timestamp_end;\n",
			   sc->clock_name, sc->clock_name);
	tk_put_str(w, "\t\tuint64_t content_size;\n"
		      "\t\tuint64_t packet_size;\n"
		      "\t\tuint64_t packet_seq_num;\n"
		      "\t\tuint64_t events_discarded;\n");
	if (sc->has_cpu_field)
		tk_put_str(w, "\t\tuint32_t cpu_id;\n");
	if (sc->pc_extra)
		for (size_t i = 0; i < sc->pc_extra->n_kids; i++)
			if (!sc->pc_extra->kids[i].skip)
				put_member(s, w, &sc->pc_extra->kids[i], 2);
	tk_put_str(w, "\t};\n");
	put_scope(s, w, "event.context", sc->event_context);
	tk_put_str(w, "};\n\n");
}

static void put_event_class(const ctfw_sink *s, tk_writer *w, const ctfw_event_class *ec)
{
	const tk_event_class *c = ec->src;
	tk_put_str(w, "event {\n\tname = ");
	put_quoted(w, c->name ? c->name : "");
	tk_put_str(w, ";\n\tid = ");
	tk_put_u64(w, ec->id);
	tk_put_str(w, ";\n\tstream_id = ");
	tk_put_u64(w, ec->sc->id);
	tk_put_str(w, ";\n");
	if (c->loglevel >= 0) {
		tk_put_str(w, "\tloglevel = ");
		tk_put_i64(w, c->loglevel);
		tk_put_str(w, ";\n");
	}
	if (c->emf_uri) {
		tk_put_str(w, "\tmodel.emf.uri = ");
		put_quoted(w, c->emf_uri);
		tk_put_str(w, ";\n");
	}
	put_scope(s, w, "context", ec->context);
	put_scope(s, w, "fields", ec->payload);
	tk_put_str(w, "};\n\n");
}

static tk_status write_all(int fd, const void *p, size_t n, const char *name, tk_error *err)
{
	const uint8_t *b = p;
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write %s: %s",
					    name, k < 0 ? strerror(errno) : "no progress");
		b += k;
		n -= (size_t)k;
	}
	return TK_OK;
}

static tk_status write_packetized(ctfw_sink *s, int fd, const char *text, size_t len, tk_error *err)
{
	bool swap = s->big_endian == tk_host_is_le();
	uint8_t pkt[CTFW_META_PACKET];
	size_t room = CTFW_META_PACKET - CTFW_META_HEADER;
	size_t off = 0;
	do {
		size_t n = len - off < room ? len - off : room;
		memset(pkt, 0, sizeof pkt);
		tk_store_u32(pkt, CTFW_META_MAGIC, swap);
		memcpy(pkt + 4, s->uuid, 16);
		tk_store_u32(pkt + 20, 0, swap); /* checksum */
		tk_store_u32(pkt + 24, (uint32_t)((CTFW_META_HEADER + n) * 8),
			     swap); /* content_size */
		tk_store_u32(pkt + 28, (uint32_t)((CTFW_META_HEADER + n) * 8),
			     swap);                        /* packet_size */
		pkt[32] = 0;                               /* compression */
		pkt[33] = 0;                               /* encryption */
		pkt[34] = 0;                               /* checksum scheme */
		pkt[35] = s->opt.ctf_version == 2 ? 2 : 1; /* major */
		pkt[36] = s->opt.ctf_version == 2 ? 0 : 8; /* minor */
		memcpy(pkt + CTFW_META_HEADER, text + off, n);
		tk_status st = write_all(fd, pkt, CTFW_META_HEADER + n, "metadata", err);
		if (st != TK_OK)
			return st;
		off += n;
	} while (off < len);
	return TK_OK;
}

tk_status ctfw_metadata_write(ctfw_sink *s, tk_error *err)
{
	/* Classes that were declared but had no event still go in the metadata. */
	for (size_t i = 0; i < s->info->n_event_classes; i++) {
		const tk_event_class *c = s->info->event_classes[i];
		ctfw_event_class *ec;
		tk_error local;
		if (c && ctfw_event_class_get(s, c, NULL, &ec, &local) != TK_OK && s->opt.log)
			s->opt.log(s->opt.log_user, 0, local.message);
	}
	tk_writer *w;
	tk_status st = tk_writer_open_memory(&w, err);
	if (st != TK_OK)
		return st;
	if (s->opt.ctf_version == 2) {
		ctfw_metadata2_put(s, w); /* CTF 2: JSON fragments */
	} else {
		put_trace(s, w);
		put_env(s, w);
		for (size_t i = 0; i < s->info->n_clocks; i++)
			if (s->info->clocks[i].name) /* nameless clocks: streams use the ns clock */
				put_clock(s, w, &s->info->clocks[i]);
		bool have_ns = false;
		for (size_t i = 0; i < s->info->n_clocks; i++)
			if (s->info->clocks[i].name &&
			    strcmp(s->info->clocks[i].name, CTFW_NS_CLOCK_NAME) == 0)
				have_ns = true;
		if (s->need_ns_clock && !have_ns)
			put_clock(s, w, NULL);
		for (size_t i = 0; i < s->n_scs; i++)
			put_stream_class(s, w, s->scs[i]);
		for (size_t i = 0; i < s->n_ecs; i++)
			put_event_class(s, w, s->ecs[i]);
	}
	st = tk_writer_flush(w, err);
	size_t len = 0;
	const char *text = tk_writer_data(w, &len);
	if (st == TK_OK) {
		int fd =
		    openat(s->dir_fd, "metadata", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					  "cannot create %s/metadata: %s", s->tmp_dir,
					  strerror(errno));
		} else {
			if (s->opt.packetized_metadata)
				st = write_packetized(s, fd, text, len, err);
			else
				st = write_all(fd, text, len, "metadata", err);
			if (close(fd) != 0 && st == TK_OK)
				st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
						  "cannot write metadata: %s", strerror(errno));
		}
	}
	tk_writer_abort(w);
	return st;
}
