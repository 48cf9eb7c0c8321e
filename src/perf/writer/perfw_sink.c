/* Model events -> perf.data (tk_perf_sink_open, see perf_writer.h).
 *
 * Each event class becomes a PERF_TYPE_TRACEPOINT attr whose config is a
 * synthesized tracepoint id; the tracepoint's format (perfw_tpfmt.c) goes
 * into HEADER_TRACING_DATA under the system "tracekit", so perf script
 * prints "tracekit:<class>: field=value ...". Each event is one sample
 * (TID|TIME|ID|CPU|PERIOD|RAW, sample_id_all) whose RAW payload holds the
 * fields laid out per the format. When an event carries a command name (a
 * string field with TK_SEM_COMM, or LTTng's "procname" context) a COMM
 * record is written whenever a thread's name changes, so perf shows it.
 * Attrs and features are written at close, when every class is known.
 * Per event: no allocation, no printf (a reused scratch buffer and text
 * writer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/hashmap.h"
#include "model/source_impl.h"
#include "model/value_text.h"
#include "perf/writer/perfw_out.h"
#include "perf/writer/perfw_tpfmt.h"

#define SYSTEM "tracekit"
#define SAMPLE_TYPE                                                                                \
	(TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID | TK_PERF_SAMPLE_CPU |       \
	 TK_PERF_SAMPLE_PERIOD | TK_PERF_SAMPLE_RAW)
#define SAMPLE_HEAD 48 /* header + tid + time + id + cpu + period */
#define MAX_RECORD  65535u
/* RAW payload room: record minus head minus the u32 size, 8-aligned */
#define MAX_RAW         ((MAX_RECORD - SAMPLE_HEAD - 4) & ~7u)
#define ATTR_SIZE       128
#define FIRST_SAMPLE_ID 1000

typedef struct sink_class {
	perfw_tpclass tp;
	tk_perf_attr attr;
	uint64_t id;              /* the sample id of its attr */
	char *event_name;         /* "tracekit:<name>" */
	int comm_field;           /* index of the field holding the comm, or -1 */
	int pid_field, tid_field; /* pid/tid fields for events without them */
} sink_class;

typedef struct perf_sink {
	tk_sink base;
	perfw_out o;
	const tk_trace_info *info;
	tk_log_fn log;
	void *log_user;
	sink_class **classes;
	size_t n_classes, cap_classes;
	tk_hashmap by_class;  /* tk_event_class* -> index + 1 */
	uint8_t *rec;         /* one sample record */
	tk_writer *text;      /* values rendered as text */
	tk_hashmap comm_hash; /* tid -> hash of the last comm written */
	int32_t max_cpu;
	uint64_t first_time, last_time;
	bool have_time;
	bool warned_truncated;
} perf_sink;

static void warn(perf_sink *s, const char *msg)
{
	if (s->log)
		s->log(s->log_user, 0, msg);
}

/* ---- classes ---- */

static const tk_field_class *stream_ctx_of(const perf_sink *s, uint64_t stream_class_id)
{
	for (size_t i = 0; i < s->info->n_stream_classes; i++)
		if (s->info->stream_classes[i].id == stream_class_id)
			return s->info->stream_classes[i].event_context;
	return NULL;
}

static void free_class(sink_class *c)
{
	if (!c)
		return;
	perfw_tpclass_free(&c->tp);
	free(c->event_name);
	free(c);
}

static int find_comm_field(const perfw_tpclass *tp)
{
	for (size_t i = 0; i < tp->n_fields; i++) {
		const perfw_field *f = &tp->fields[i];
		if (f->kind != PERFW_F_STR)
			continue;
		if (f->cls->semantic == TK_SEM_COMM || strcmp(f->name, "procname") == 0)
			return (int)i;
	}
	return -1;
}

/* An integer field that gives the pid (or tid) when the event has none:
 * by semantic, else by the names LTTng and others use. */
static int find_int_field(const perfw_tpclass *tp, tk_semantic sem, const char *n1, const char *n2)
{
	int by_name = -1;
	for (size_t i = 0; i < tp->n_fields; i++) {
		const perfw_field *f = &tp->fields[i];
		if (f->kind != PERFW_F_INT)
			continue;
		if (f->cls->semantic == sem)
			return (int)i;
		if (by_name < 0 && (strcmp(f->name, n1) == 0 || strcmp(f->name, n2) == 0))
			by_name = (int)i;
	}
	return by_name;
}

static tk_status add_class(perf_sink *s, const tk_event_class *ec, sink_class **out, tk_error *err)
{
	if (s->n_classes >= UINT16_MAX - 1)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "more than %u event classes do not fit in perf tracepoint ids",
				    UINT16_MAX - 1);
	if (s->n_classes == s->cap_classes) {
		size_t cap = s->cap_classes ? 2 * s->cap_classes : 16;
		sink_class **nc = realloc(s->classes, cap * sizeof *nc);
		if (!nc)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		s->classes = nc;
		s->cap_classes = cap;
	}
	sink_class *c = calloc(1, sizeof *c);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	uint16_t tp_id = (uint16_t)(s->n_classes + 1);
	tk_status st = perfw_tpclass_build(&c->tp, ec, stream_ctx_of(s, ec->stream_class_id), tp_id,
					   s->o.swap, err);
	if (st != TK_OK) {
		free_class(c);
		return st;
	}
	if (c->tp.truncated) {
		char msg[200];
		snprintf(msg, sizeof msg, "event class %s: only the first %d fields are kept",
			 c->tp.name, PERFW_TP_MAX_FIELDS);
		warn(s, msg);
	}
	size_t nlen = strlen(SYSTEM) + 1 + strlen(c->tp.name) + 1;
	c->event_name = malloc(nlen);
	if (!c->event_name) {
		free_class(c);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	snprintf(c->event_name, nlen, "%s:%s", SYSTEM, c->tp.name);
	c->id = FIRST_SAMPLE_ID + s->n_classes;
	c->comm_field = find_comm_field(&c->tp);
	c->pid_field = find_int_field(&c->tp, TK_SEM_PID, "vpid", "pid");
	c->tid_field = find_int_field(&c->tp, TK_SEM_TID, "vtid", "tid");
	tk_perf_attr *a = &c->attr;
	a->type = TK_PERF_TYPE_TRACEPOINT;
	a->size = ATTR_SIZE;
	a->config = tp_id;
	a->sample_period = 1;
	a->sample_type = SAMPLE_TYPE;
	a->flags = (uint64_t)1 << TK_PERF_ATTR_SAMPLE_ID_ALL;
	a->ids = &c->id;
	a->n_ids = 1;
	a->name = c->event_name;
	if (!tk_hashmap_put(&s->by_class, (uint64_t)(uintptr_t)ec, s->n_classes + 1)) {
		free_class(c);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	s->classes[s->n_classes++] = c;
	*out = c;
	return TK_OK;
}

/* ---- values ---- */

static const tk_value *field_value(const tk_event *ev, const perfw_field *f)
{
	const tk_value *v = f->root == 0   ? ev->stream_context
			    : f->root == 1 ? ev->context
					   : ev->payload;
	for (uint8_t d = 0; v && d < f->depth; d++) {
		if (!v->cls || v->cls->kind != TK_TYPE_STRUCT || f->path[d] >= v->v.list.n)
			return NULL;
		v = &v->v.list.items[f->path[d]];
	}
	return v;
}

typedef struct raw_buf {
	uint8_t *p;
	uint32_t len; /* fixed part + dynamic data so far */
	bool swap;
	bool cut; /* dynamic data did not all fit */
} raw_buf;

/* Appends dynamic data and stores its __data_loc; cut to what fits. */
static void put_dynamic(raw_buf *r, const perfw_field *f, const void *data, size_t n, bool nul)
{
	size_t room = MAX_RAW - r->len;
	size_t want = n + (nul ? 1 : 0);
	if (want > 0xffff)
		want = 0xffff;
	if (want > room) {
		want = room;
		r->cut = true;
	}
	size_t copy = n < want ? n : want;
	if (nul && copy == want && want > 0)
		copy = want - 1; /* keep the terminator */
	if (copy)
		memcpy(r->p + r->len, data, copy);
	if (want > copy)
		memset(r->p + r->len + copy, 0, want - copy);
	tk_store_u32(r->p + f->offset, (uint32_t)want << 16 | r->len, r->swap);
	r->len += (uint32_t)want;
}

static void store_int(uint8_t *p, uint64_t v, uint32_t size, bool swap)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: tk_store_u16(p, (uint16_t)v, swap); break;
	case 4: tk_store_u32(p, (uint32_t)v, swap); break;
	default: tk_store_u64(p, v, swap); break;
	}
}

static void put_field(perf_sink *s, raw_buf *r, const perfw_field *f, const tk_value *v)
{
	switch (f->kind) {
	case PERFW_F_INT:
		if (v && v->cls && v->cls->kind == TK_TYPE_INT) {
			uint64_t u = v->v.u;
			unsigned bits = v->cls->bits;
			/* signed fields are widened (perfw_tpfmt.c): extend the
			 * sign from the class's width, whatever the source left in
			 * the upper bits */
			if (f->is_signed && bits > 0 && bits < 64 && (u >> (bits - 1) & 1))
				u |= ~UINT64_C(0) << bits;
			else if (f->is_signed && bits > 0 && bits < 64)
				u &= (UINT64_C(1) << bits) - 1;
			store_int(r->p + f->offset, u, f->size, r->swap);
		}
		break;
	case PERFW_F_STR:
		if (v && v->cls && v->cls->kind == TK_TYPE_STRING) {
			/* stop at an embedded NUL, as C readers would */
			const char *z = v->v.str.len ? memchr(v->v.str.ptr, 0, v->v.str.len) : NULL;
			size_t n = z ? (size_t)(z - v->v.str.ptr) : v->v.str.len;
			put_dynamic(r, f, v->v.str.ptr, n, true);
		} else {
			put_dynamic(r, f, "", 0, true);
		}
		break;
	case PERFW_F_BYTES:
		if (v && v->cls && v->cls->kind == TK_TYPE_BYTES && v->v.str.len)
			put_dynamic(r, f, v->v.str.ptr, v->v.str.len, false);
		else
			put_dynamic(r, f, "", 0, false);
		break;
	case PERFW_F_INTARR: {
		size_t n =
		    v && v->cls &&
			    (v->cls->kind == TK_TYPE_ARRAY || v->cls->kind == TK_TYPE_SEQUENCE)
			? v->v.list.n
			: 0;
		size_t room = (MAX_RAW - r->len) / f->elem_size;
		if (n > room || n * f->elem_size > 0xffff) {
			n = room < 0xffff / f->elem_size ? room : 0xffff / f->elem_size;
			r->cut = true;
		}
		tk_store_u32(r->p + f->offset, (uint32_t)(n * f->elem_size) << 16 | r->len,
			     r->swap);
		for (size_t i = 0; i < n; i++, r->len += f->elem_size)
			store_int(r->p + r->len, v->v.list.items[i].v.u, f->elem_size, r->swap);
		break;
	}
	case PERFW_F_TEXT: {
		s->text->pos = 0;
		tk_value_write_text_form(s->text, v, TK_VALUE_PLAIN);
		size_t n;
		const char *t = tk_writer_data(s->text, &n);
		put_dynamic(r, f, t, n, true);
		break;
	}
	}
}

/* ---- records ---- */

static void put_trailer(const perf_sink *s, uint8_t *p, const tk_event *ev, uint32_t pid,
			uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu)
{
	(void)ev;
	bool sw = s->o.swap;
	tk_store_u32(p, pid, sw);
	tk_store_u32(p + 4, tid, sw);
	tk_store_u64(p + 8, time, sw);
	tk_store_u64(p + 16, id, sw);
	tk_store_u32(p + 24, cpu, sw);
	tk_store_u32(p + 28, 0, sw);
}

/* COMM {pid, tid, comm[] padded to 8} + sample_id trailer, when the
 * thread's name changed. */
static tk_status maybe_comm(perf_sink *s, const sink_class *c, const tk_event *ev, uint32_t pid,
			    uint32_t tid, uint64_t time, uint32_t cpu, tk_error *err)
{
	if (c->comm_field < 0 || tid == (uint32_t)TK_PID_NONE)
		return TK_OK;
	const tk_value *v = field_value(ev, &c->tp.fields[c->comm_field]);
	if (!v || !v->cls || v->cls->kind != TK_TYPE_STRING)
		return TK_OK;
	size_t n = v->v.str.len < 15 ? v->v.str.len : 15; /* TASK_COMM_LEN - 1 */
	const char *z = n ? memchr(v->v.str.ptr, 0, n) : NULL;
	if (z)
		n = (size_t)(z - v->v.str.ptr);
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)v->v.str.ptr[i]) * 1099511628211ULL;
	uint64_t *old = tk_hashmap_get(&s->comm_hash, tid);
	if (old && *old == h)
		return TK_OK;
	if (!tk_hashmap_put(&s->comm_hash, tid, h))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	uint8_t rec[8 + 8 + 16 + 32];
	uint16_t size = (uint16_t)(8 + 8 + ((n + 1 + 7) & ~(size_t)7) + 32);
	memset(rec, 0, sizeof rec);
	tk_store_u32(rec, TK_PERF_RECORD_COMM, s->o.swap);
	tk_store_u16(rec + 4, 0, s->o.swap);
	tk_store_u16(rec + 6, size, s->o.swap);
	tk_store_u32(rec + 8, pid, s->o.swap);
	tk_store_u32(rec + 12, tid, s->o.swap);
	if (n)
		memcpy(rec + 16, v->v.str.ptr, n);
	put_trailer(s, rec + size - 32, ev, pid, tid, time, c->id, cpu);
	return perfw_out_record(&s->o, rec, size, NULL, 0, err);
}

static tk_status sink_write(tk_sink *base, const tk_event *ev, tk_error *err)
{
	perf_sink *s = (perf_sink *)base;
	if (!ev->cls)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "event without a class");
	sink_class *c = NULL;
	uint64_t *idx = tk_hashmap_get(&s->by_class, (uint64_t)(uintptr_t)ev->cls);
	tk_status st;
	if (idx) {
		c = s->classes[*idx - 1];
	} else if ((st = add_class(s, ev->cls, &c, err)) != TK_OK) {
		return st;
	}
	bool sw = s->o.swap;
	uint64_t time = ev->has_time ? ev->time_ns : s->last_time;
	if (ev->has_time) {
		if (!s->have_time)
			s->first_time = time;
		s->have_time = true;
		s->last_time = time;
	}
	uint32_t cpu = ev->cpu >= 0 ? (uint32_t)ev->cpu : 0;
	if (ev->cpu > s->max_cpu)
		s->max_cpu = ev->cpu;
	int64_t tid = ev->tid, pid = ev->pid;
	const tk_value *v;
	if (tid == TK_PID_NONE && c->tid_field >= 0 &&
	    (v = field_value(ev, &c->tp.fields[c->tid_field])))
		tid = v->v.i;
	if (pid == TK_PID_NONE && c->pid_field >= 0 &&
	    (v = field_value(ev, &c->tp.fields[c->pid_field])))
		pid = v->v.i;
	if (tid == TK_PID_NONE)
		tid = pid;
	if (pid == TK_PID_NONE)
		pid = tid;
	if ((st = maybe_comm(s, c, ev, (uint32_t)pid, (uint32_t)tid, time, cpu, err)) != TK_OK)
		return st;

	uint8_t *p = s->rec;
	raw_buf r = {p + SAMPLE_HEAD + 4, c->tp.fixed_size, sw, false};
	memset(r.p, 0, c->tp.fixed_size);
	tk_store_u16(r.p, c->tp.id, sw);          /* common_type; flags, preempt count 0 */
	tk_store_u32(r.p + 4, (uint32_t)tid, sw); /* common_pid */
	for (size_t i = 0; i < c->tp.n_fields; i++)
		put_field(s, &r, &c->tp.fields[i], field_value(ev, &c->tp.fields[i]));
	if (r.cut && !s->warned_truncated) {
		s->warned_truncated = true;
		warn(s, "event data longer than a perf record holds was cut");
	}
	/* u32 size + payload padded to 8, as the kernel does */
	uint32_t raw_size = ((r.len + 4 + 7) & ~7u) - 4;
	memset(r.p + r.len, 0, raw_size - r.len);
	uint32_t size = SAMPLE_HEAD + 4 + raw_size;
	tk_store_u32(p, TK_PERF_RECORD_SAMPLE, sw);
	/* user mode: no kernel map is needed to report these samples */
	tk_store_u16(p + 4, 2 /* PERF_RECORD_MISC_USER */, sw);
	tk_store_u16(p + 6, (uint16_t)size, sw);
	put_trailer(s, p + 8, ev, (uint32_t)pid, (uint32_t)tid, time, c->id, cpu);
	tk_store_u64(p + 40, 1, sw); /* period */
	tk_store_u32(p + 48, raw_size, sw);
	return perfw_out_record(&s->o, p, size, NULL, 0, err);
}

/* ---- close ---- */

/* perf's header string: u32 length (padded to 64), the text, zeros. */
static uint8_t *feature_string(const perfw_out *o, const char *s, size_t *size)
{
	size_t len = strlen(s) + 1, padded = (len + 63) & ~(size_t)63;
	uint8_t *p = calloc(1, 4 + padded);
	if (!p)
		return NULL;
	perfw_put32(o, p, (uint32_t)padded);
	memcpy(p + 4, s, len);
	*size = 4 + padded;
	return p;
}

static const char *env_str(const tk_trace_info *info, const char *const *keys)
{
	for (; *keys; keys++)
		for (size_t i = 0; i < info->n_env; i++)
			if (!info->env[i].is_int && info->env[i].str &&
			    strcmp(info->env[i].key, *keys) == 0)
				return info->env[i].str;
	return NULL;
}

static tk_status add_string_feature(perf_sink *s, unsigned id, const char *text, tk_error *err)
{
	size_t size;
	uint8_t *p = feature_string(&s->o, text, &size);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return perfw_out_add_feature(&s->o, id, p, size, err);
}

static tk_status add_event_desc(perf_sink *s, tk_error *err)
{
	size_t size = 8;
	for (size_t i = 0; i < s->n_classes; i++)
		size += ATTR_SIZE + 4 + 4 +
			((strlen(s->classes[i]->event_name) + 1 + 63) & ~(size_t)63) + 8;
	uint8_t *p = calloc(1, size), *q = p;
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	perfw_put32(&s->o, q, (uint32_t)s->n_classes);
	perfw_put32(&s->o, q + 4, ATTR_SIZE);
	q += 8;
	for (size_t i = 0; i < s->n_classes; i++) {
		const sink_class *c = s->classes[i];
		perfw_encode_attr(&c->attr, ATTR_SIZE, s->o.big, q);
		q += ATTR_SIZE;
		perfw_put32(&s->o, q, 1);
		size_t sl;
		uint8_t *str = feature_string(&s->o, c->event_name, &sl);
		if (!str) {
			free(p);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		memcpy(q + 4, str, sl);
		free(str);
		q += 4 + sl;
		perfw_put64(&s->o, q, c->id);
		q += 8;
	}
	return perfw_out_add_feature(&s->o, TK_PERF_FEAT_EVENT_DESC, p, size, err);
}

static tk_status add_features(perf_sink *s, tk_error *err)
{
	const perfw_tpclass **tps = malloc((s->n_classes ? s->n_classes : 1) * sizeof *tps);
	if (!tps)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < s->n_classes; i++)
		tps[i] = &s->classes[i]->tp;
	tk_writer *td;
	tk_status st = perfw_tracing_data(tps, s->n_classes, SYSTEM, s->o.big, &td, err);
	free(tps);
	if (st != TK_OK)
		return st;
	size_t n;
	const char *data = tk_writer_data(td, &n);
	uint8_t *copy = malloc(n);
	if (copy)
		memcpy(copy, data, n);
	tk_writer_abort(td);
	if (!copy)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if ((st = perfw_out_add_feature(&s->o, TK_PERF_FEAT_TRACING_DATA, copy, n, err)) != TK_OK)
		return st;
	if ((st = add_event_desc(s, err)) != TK_OK)
		return st;

	static const char *const host_keys[] = {"hostname", "host", NULL};
	static const char *const rel_keys[] = {"kernel_release", "osrelease", NULL};
	static const char *const arch_keys[] = {"arch", "architecture", NULL};
	const char *v = env_str(s->info, host_keys);
	/* HOSTNAME is what perf checks to trust a cross-endian feature bitmap */
	if ((st = add_string_feature(s, TK_PERF_FEAT_HOSTNAME, v ? v : "unknown", err)) != TK_OK)
		return st;
	if ((v = env_str(s->info, rel_keys)) &&
	    (st = add_string_feature(s, TK_PERF_FEAT_OSRELEASE, v, err)) != TK_OK)
		return st;
	if ((v = env_str(s->info, arch_keys)) &&
	    (st = add_string_feature(s, TK_PERF_FEAT_ARCH, v, err)) != TK_OK)
		return st;
	if ((st = add_string_feature(s, TK_PERF_FEAT_VERSION, "tracekit " TRACEKIT_VERSION, err)) !=
	    TK_OK)
		return st;
	uint8_t *nr = malloc(8);
	if (!nr)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	perfw_put32(&s->o, nr, (uint32_t)s->max_cpu + 1);     /* available */
	perfw_put32(&s->o, nr + 4, (uint32_t)s->max_cpu + 1); /* online */
	if ((st = perfw_out_add_feature(&s->o, TK_PERF_FEAT_NRCPUS, nr, 8, err)) != TK_OK)
		return st;
	uint8_t *t = malloc(16);
	if (!t)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	perfw_put64(&s->o, t, s->first_time);
	perfw_put64(&s->o, t + 8, s->last_time);
	if ((st = perfw_out_add_feature(&s->o, TK_PERF_FEAT_SAMPLE_TIME, t, 16, err)) != TK_OK)
		return st;
	if (s->o.compress) {
		uint8_t *cf = malloc(20);
		if (!cf)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		perfw_out_compressed_feature(&s->o, cf);
		st = perfw_out_add_feature(&s->o, TK_PERF_FEAT_COMPRESSED, cf, 20, err);
	}
	return st;
}

static void free_sink(perf_sink *s)
{
	for (size_t i = 0; i < s->n_classes; i++)
		free_class(s->classes[i]);
	free(s->classes);
	tk_hashmap_free(&s->by_class);
	tk_hashmap_free(&s->comm_hash);
	free(s->rec);
	tk_writer_abort(s->text);
	free(s);
}

static tk_status sink_close(tk_sink *base, tk_error *err)
{
	perf_sink *s = (perf_sink *)base;
	tk_status st = perfw_out_flush_batch(&s->o, err);
	if (st == TK_OK)
		st = add_features(s, err);
	if (st != TK_OK) {
		perfw_out_abort(&s->o);
		free_sink(s);
		return st;
	}
	const tk_perf_attr **attrs = malloc((s->n_classes ? s->n_classes : 1) * sizeof *attrs);
	if (!attrs) {
		perfw_out_abort(&s->o);
		free_sink(s);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < s->n_classes; i++)
		attrs[i] = &s->classes[i]->attr;
	st = perfw_out_finish(&s->o, attrs, s->n_classes, ATTR_SIZE, err);
	free(attrs);
	free_sink(s);
	return st;
}

static void sink_abort(tk_sink *base)
{
	perf_sink *s = (perf_sink *)base;
	perfw_out_abort(&s->o);
	free_sink(s);
}

static const tk_sink_ops perf_sink_ops = {sink_write, sink_close, sink_abort};

tk_status tk_perf_sink_open(const char *path, const tk_trace_info *info, const tk_sink_options *opt,
			    tk_sink **out, tk_error *err)
{
	*out = NULL;
	if (strcmp(path, "-") == 0)
		return tk_error_set(
		    err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
		    "perf.data from other formats is written in file mode only: its "
		    "attrs and tracepoint formats are known at the end");
	bool big = !tk_host_is_le();
	const char *bo = opt ? opt->byte_order : NULL;
	if (bo && strcmp(bo, "big") == 0)
		big = true;
	else if (bo && strcmp(bo, "little") == 0)
		big = false;
	else if (bo && strcmp(bo, "native") != 0)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "byte order '%s': expected big, little or native", bo);
	perf_sink *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	s->base.ops = &perf_sink_ops;
	s->info = info;
	s->max_cpu = 0;
	if (opt) {
		s->log = opt->log;
		s->log_user = opt->log_user;
	}
	tk_hashmap_init(&s->by_class);
	tk_hashmap_init(&s->comm_hash);
	s->rec = malloc(MAX_RECORD + 64);
	tk_status st = s->rec ? tk_writer_open_memory(&s->text, err)
			      : tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (st != TK_OK) {
		free_sink(s);
		return st;
	}
	if ((st = perfw_out_open(&s->o, path, big, opt && opt->compress, err)) != TK_OK) {
		free_sink(s);
		return st;
	}
	if (s->o.pipe) { /* a FIFO or socket: file mode needs to seek back */
		sink_abort(&s->base);
		tk_error_set_file(err, path);
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "perf.data from other formats is written in file mode only, "
				    "which needs an output that can seek (not a FIFO or socket)");
	}
	*out = &s->base;
	return TK_OK;
}
