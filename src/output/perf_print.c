/* tracekit print for perf.data: one line per sample (per record with
 * --all), as readable text or JSON lines. Hand-written formatting into the
 * output buffer; the only per-event allocation is the tracepoint scratch
 * arena, which is reset (not freed) for each sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_events.h"
#include "analysis/perf_unwind.h"
#include "base/arena.h"
#include "base/hashmap.h"
#include "model/filter.h"
#include "output/model_print.h"
#include "output/print_lanes.h"
#include "output/perf_render.h"
#include "output/perf_script.h"
#include "output/perf_script_lines.h"

/* tid -> comm, from COMM records, so text lines can show the command. */
typedef struct comm_table {
	tk_hashmap by_tid; /* tid -> index in names */
	char (*names)[16];
	size_t n, cap;
} comm_table;

static void comm_set(comm_table *t, uint32_t tid, const char *comm)
{
	uint64_t *idx = tk_hashmap_get(&t->by_tid, tid);
	size_t i;
	if (idx) {
		i = (size_t)*idx;
	} else {
		if (t->n == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 64;
			char(*nn)[16] = realloc(t->names, cap * sizeof *nn);
			if (!nn)
				return;
			t->names = nn;
			t->cap = cap;
		}
		i = t->n++;
		if (!tk_hashmap_put(&t->by_tid, tid, i))
			return;
	}
	strncpy(t->names[i], comm, 15);
	t->names[i][15] = '\0';
}

static const char *comm_get(const comm_table *t, uint32_t tid)
{
	const uint64_t *idx = tk_hashmap_get(&t->by_tid, tid);
	return idx ? t->names[*idx] : ":-1";
}

/* A piece of a JSON sample line kept while what it shows stays the same
 * (samples come in runs of one event, thread, cpu and period). */
typedef struct jpiece {
	bool valid;
	uint64_t k1, k2; /* what it shows */
	const void *kp;
	char text[96];
	size_t len;
} jpiece;
_Static_assert(sizeof((jpiece *)0)->text == 96, "put_piece copies it in three 32-byte moves");

typedef struct printer {
	tk_writer *w; /* where lines go: out, or pending */
	/* JSON: the caller's writer, and the memory the output waits in while
	 * the kernel's symbols load (kernel frames deferred, as perf_script.c) */
	tk_writer *out, *pending;
	bool json;
	bool all;
	tk_perf_file *f;
	comm_table comms;
	tk_arena scratch;
	tk_value *tp_values;
	size_t tp_cap;
	tk_filter filter;
	tk_hashmap attr_of_id; /* id -> attr index + 1, for PERF_SAMPLE_READ */
	size_t attrs_mapped;   /* attrs whose ids are in attr_of_id */
	tk_hashmap last_value; /* id -> last read value */
	tk_log_fn log;
	void *log_user;
	bool warned_tp;
	uint64_t n, limit; /* samples printed, --limit (0 = none) */
	/* JSON: threads, maps and symbols as perf script has them, and each
	 * distinct frame's JSON rendered once (perf_script_lines.h) */
	tk_threads threads;
	tk_line_cache frames;
	bool dwarf_unwind;  /* perf's CALLCHAIN_DWARF record mode */
	tk_thread *last_th; /* the previous sample's thread (forgotten by side-band records) */
	int32_t last_pid, last_tid;
	uint64_t unwound[TK_CALLCHAIN_MAX];
	/* the JSON sample line's pieces (json_sample_head) */
	tk_writer *js; /* renders a piece */
	jpiece j_event, j_sec, j_id, j_period;
	/* samples of a -a recording alternate between cpus and threads:
	 * their pieces are kept per cpu and per thread (direct mapped; a
	 * thread's are dropped by any side-band record: j_epoch) */
	jpiece j_cpu[64];
	jpiece j_thread[256];
	uint64_t j_epoch;
	tk_lane_cursor lane; /* two lanes: which chunks this one prints (print_lanes.h) */
} printer;

static inline __attribute__((always_inline)) void key_n(printer *p, const char *k, size_t n)
{
	/* One reservation for the punctuation and the name. */
	if (!tk_writer_reserve(p->w, n + 4))
		return;
	char *d = p->w->buf + p->w->pos;
	if (p->json) {
		d[0] = ',';
		d[1] = '"';
		memcpy(d + 2, k, n);
		d[n + 2] = '"';
		d[n + 3] = ':';
		p->w->pos += n + 4;
	} else {
		d[0] = ' ';
		memcpy(d + 1, k, n);
		d[n + 1] = '=';
		p->w->pos += n + 2;
	}
}

static void key(printer *p, const char *k)
{
	key_n(p, k, strlen(k));
}

/* Literal keys skip strlen on the per-sample path. */
#define KEY(p, lit) key_n((p), "" lit, sizeof(lit) - 1)
/* JSON: integers beyond 2^53 as strings (see tk_put_json_u64) */
static inline void put_u64_val(printer *p, uint64_t v)
{
	if (p->json)
		tk_put_json_u64(p->w, v);
	else
		tk_put_u64(p->w, v);
}

static inline void put_i64_val(printer *p, int64_t v)
{
	if (p->json)
		tk_put_json_i64(p->w, v);
	else
		tk_put_i64(p->w, v);
}

#define KV_U64(p, lit, v) (KEY(p, lit), put_u64_val((p), (v)))
#define KV_I64(p, lit, v) (KEY(p, lit), put_i64_val((p), (v)))

static void kv_hex_n(printer *p, const char *k, size_t n, uint64_t v)
{
	key_n(p, k, n);
	if (p->json)
		tk_put_lit(p->w, "\"0x");
	else
		tk_put_lit(p->w, "0x");
	tk_put_hex(p->w, v);
	if (p->json)
		tk_put_char(p->w, '"');
}
#define KV_HEX(p, lit, v) kv_hex_n((p), "" lit, sizeof(lit) - 1, (v))

static void kv_u64(printer *p, const char *k, uint64_t v)
{
	key(p, k);
	put_u64_val(p, v);
}

static void kv_hex(printer *p, const char *k, uint64_t v)
{
	key(p, k);
	tk_put_str(p->w, p->json ? "\"0x" : "0x");
	tk_put_hex(p->w, v);
	if (p->json)
		tk_put_char(p->w, '"');
}

static void kv_str(printer *p, const char *k, const char *s)
{
	key(p, k);
	if (p->json)
		tk_put_json_str(p->w, s ? s : "", s ? strlen(s) : 0);
	else
		tk_put_str(p->w, s ? s : "");
}

static void kv_bytes_hex(printer *p, const char *k, const uint8_t *b, size_t n)
{
	key(p, k);
	if (p->json)
		tk_put_char(p->w, '"');
	for (size_t i = 0; i < n; i++)
		tk_put_hex_pad(p->w, b[i], 2);
	if (p->json)
		tk_put_char(p->w, '"');
}

static void put_time(tk_writer *w, uint64_t ns)
{
	tk_put_u64(w, ns / 1000000000u);
	tk_put_char(w, '.');
	tk_put_u64_pad(w, ns % 1000000000u, 9, '0');
}

/* "sample", "mmap2", "finished_round", ...: the record type in lower case. */
static void put_type_lower(tk_writer *w, uint32_t type)
{
	const char *name = tk_perf_record_type_name(type);
	if (!name) {
		tk_put_str(w, "unknown");
		return;
	}
	for (; *name; name++)
		tk_put_char(w, (char)(*name >= 'A' && *name <= 'Z' ? *name + 32 : *name));
}

/* The common head of a line: type/event/time/cpu/pid/tid. */
static void head(printer *p, const tk_perf_record *rec, uint32_t pid, uint32_t tid, bool has_pid)
{
	tk_writer *w = p->w;
	const tk_perf_sample_id *sid = &rec->sid;
	if (p->json) {
		tk_put_lit(w, "{\"type\":\"");
		put_type_lower(w, rec->type);
		tk_put_char(w, '"');
		if (rec->type == TK_PERF_RECORD_SAMPLE && rec->attr && rec->attr->name)
			kv_str(p, "event", rec->attr->name);
		if (rec->has_time)
			KV_U64(p, "time", sid->time);
		if (sid->present & TK_PERF_SAMPLE_CPU)
			KV_U64(p, "cpu", sid->cpu);
		if (has_pid) {
			KV_I64(p, "pid", (int32_t)pid);
			KV_I64(p, "tid", (int32_t)tid);
		}
		return;
	}
	if (has_pid) {
		const char *comm = comm_get(&p->comms, tid);
		tk_put_str(w, comm);
		size_t n = strlen(comm);
		tk_put_spaces(w, n < 16 ? (unsigned)(16 - n) : 1);
		tk_put_i64_pad(w, (int32_t)pid, 7);
		tk_put_char(w, '/');
		tk_put_i64(w, (int32_t)tid);
	} else {
		tk_put_spaces(w, 16 + 7);
	}
	if (sid->present & TK_PERF_SAMPLE_CPU) {
		tk_put_str(w, " [");
		tk_put_u64_pad(w, sid->cpu, 3, '0');
		tk_put_char(w, ']');
	}
	tk_put_char(w, ' ');
	if (rec->has_time)
		put_time(w, sid->time);
	tk_put_str(w, ": ");
	if (rec->type == TK_PERF_RECORD_SAMPLE)
		tk_put_str(w, rec->attr && rec->attr->name ? rec->attr->name : "?");
	else
		tk_perf_put_record_type(w, rec->type);
	tk_put_char(w, ':');
}

static tk_status print_tracepoint(printer *p, const tk_perf_sample *s, const tk_perf_record *rec,
				  tk_error *err)
{
	const tk_perf_tracing *tr = tk_perf_get_tracing(p->f);
	if (!tr || !rec->attr || rec->attr->type != TK_PERF_TYPE_TRACEPOINT || !s->raw)
		return TK_OK;
	const tk_perf_tp_format *fmt = tk_perf_tracing_format(tr, rec->attr->config);
	if (!fmt)
		return TK_OK;
	if (fmt->n_fields > p->tp_cap) {
		tk_value *nv = realloc(p->tp_values, fmt->n_fields * sizeof *nv);
		if (!nv)
			return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
		p->tp_values = nv;
		p->tp_cap = fmt->n_fields;
	}
	tk_arena_reset(&p->scratch);
	tk_error derr;
	tk_error_clear(&derr);
	if (tk_perf_tp_decode(tr, fmt, s->raw, s->raw_size, &p->scratch, p->tp_values, &derr) !=
	    TK_OK) {
		/* One bad payload should not hide the rest of the file: show the
		 * sample without its fields and say so once. */
		if (!p->warned_tp && p->log) {
			char msg[700];
			snprintf(msg, sizeof msg,
				 "offset 0x%llx: %s (fields of such samples are omitted)",
				 (unsigned long long)rec->offset, derr.message);
			p->log(p->log_user, 0, msg);
		}
		p->warned_tp = true;
		return TK_OK;
	}
	(void)err;
	const tk_field_class *cls = fmt->payload;
	if (p->json)
		tk_put_str(p->w, ",\"fields\":{");
	for (size_t i = fmt->n_common, j = 0; i < fmt->n_fields; i++, j++) {
		const tk_value *v = &p->tp_values[i];
		if (!v->cls && cls && j < cls->n_members)
			continue;
		if (p->json) {
			if (j)
				tk_put_char(p->w, ',');
			tk_put_json_str(p->w, fmt->fields[i].name, strlen(fmt->fields[i].name));
			tk_put_char(p->w, ':');
			tk_value_write_json(p->w, v);
		} else {
			tk_put_char(p->w, ' ');
			tk_put_str(p->w, fmt->fields[i].name);
			tk_put_char(p->w, '=');
			tk_value_write_text(p->w, v);
		}
	}
	if (p->json)
		tk_put_char(p->w, '}');
	return TK_OK;
}

/* The sample's thread as perf script finds it (samples come in runs per
 * thread: the previous one is kept). */
static tk_thread *sample_thread(printer *p, const tk_perf_sample *s, bool has_pid)
{
	int32_t pid = has_pid ? (int32_t)s->pid : -1, tid = has_pid ? (int32_t)s->tid : -1;
	if (!p->last_th || pid != p->last_pid || tid != p->last_tid) {
		p->last_th = tk_threads_findnew(&p->threads, pid, tid);
		p->last_pid = pid;
		p->last_tid = tid;
	}
	return p->last_th;
}

/* ,"callchain":[frames] (perf data convert --to-json's callchain, every
 * frame resolved as perf script resolves it: the chain with perf's rules,
 * else the sample's ip); nothing for no frames. */
static void json_frames(printer *p, const tk_perf_record *rec, const tk_perf_sample *s,
			const tk_perf_attr *attr, tk_thread *th)
{
	tk_writer *w = p->w;
	bool chain = (s->sample_type & TK_PERF_SAMPLE_CALLCHAIN) != 0;
	if (!chain && !(s->sample_type & TK_PERF_SAMPLE_IP))
		return;
	static const char open[] = ",\"callchain\":[";
	tk_put_lit(w, open);
	uint64_t start = tk_writer_tell(w);
	if (chain) {
		size_t n_unwound = p->dwarf_unwind && attr
				       ? tk_perf_unwind_sample(&p->threads, th, attr, s, p->unwound,
							       TK_CALLCHAIN_MAX)
				       : 0;
		/* PERF_SAMPLE_BRANCH_CALL_STACK */
		bool lbr = attr && (attr->branch_sample_type & (1u << 11)) != 0;
		tk_line_cache_put_callchain(&p->frames, &p->threads, th, s, lbr, p->unwound,
					    n_unwound, w);
	} else {
		tk_line_cache_put_ip(&p->frames, &p->threads, th, rec->misc & 7u, s->ip, w);
	}
	if (tk_writer_tell(w) == start) {
		/* no frame (perf prints none either): no key; nothing was
		 * written since the key, so it is still in the buffer */
		if (w->pos >= sizeof open - 1)
			w->pos -= sizeof open - 1;
		return;
	}
	/* each frame ends with a comma: the last one becomes the bracket
	 * (a frame is reserved whole, so its bytes are still in the buffer) */
	if (w->pos && w->buf[w->pos - 1] == ',')
		w->buf[w->pos - 1] = ']';
	else
		tk_put_char(w, ']');
}

/* Copies piece pc (rendered by the caller into p->js when stale) to the
 * output. A piece too long for its slot is written straight from js. */
static void put_piece(printer *p, jpiece *pc, bool fresh)
{
	if (fresh) {
		pc->len = p->js->pos;
		pc->valid = pc->len <= sizeof pc->text && !p->js->error;
		if (pc->valid)
			memcpy(pc->text, p->js->buf, pc->len);
		else
			tk_put_mem(p->w, p->js->buf, pc->len);
	}
	if (!pc->valid)
		return;
	/* a fixed-size copy (one to three 32-byte moves) where the writer
	 * has room: most pieces (cpu, time, id, period) fit the first */
	tk_writer *w = p->w;
	if (tk_writer_reserve(w, sizeof pc->text)) {
		char *d = w->buf + w->pos;
		memcpy(d, pc->text, 32);
		if (pc->len > 32) {
			memcpy(d + 32, pc->text + 32, 32);
			if (pc->len > 64)
				memcpy(d + 64, pc->text + 64, 32);
		}
		w->pos += pc->len;
	}
}

/* Starts rendering a piece that no longer shows (k1, k2, kp). false: the
 * kept one is current. */
static bool piece_stale(printer *p, jpiece *pc, uint64_t k1, uint64_t k2, const void *kp)
{
	if (pc->valid && pc->k1 == k1 && pc->k2 == k2 && pc->kp == kp)
		return false;
	pc->k1 = k1;
	pc->k2 = k2;
	pc->kp = kp;
	p->js->pos = 0;
	return true;
}

/* v (< 10^9) as 9 zero-padded digits at d. */
static void put_9digits(char *d, uint32_t v)
{
	d[8] = (char)('0' + v % 10);
	v /= 10;
	for (int i = 6; i >= 0; i -= 2) {
		memcpy(d + i, tk_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
}

/* The head of a sample's JSON line, as head() writes it for any record
 * plus the thread's comm: {"type":"sample","event":..,"time":..,"cpu":..,
 * "pid":..,"tid":..,"comm":..; each piece formatted once per run of equal
 * values (the time's seconds too: nanoseconds are 9 padded digits). */
static void json_sample_head(printer *p, const tk_perf_record *rec, const tk_perf_sample *s,
			     const tk_perf_attr *attr, bool has_pid, tk_thread *th)
{
	tk_writer *w = p->w, *js = p->js;
	bool fresh = piece_stale(p, &p->j_event, 0, 0, attr);
	if (fresh) {
		tk_put_lit(js, "{\"type\":\"sample\"");
		if (attr && attr->name) {
			tk_put_lit(js, ",\"event\":");
			tk_put_json_str(js, attr->name, strlen(attr->name));
		}
	}
	put_piece(p, &p->j_event, fresh);
	const tk_perf_sample_id *sid = &rec->sid;
	if (rec->has_time) {
		uint64_t t = sid->time, sec = t / 1000000000u;
		if (t > TK_JSON_EXACT_MAX || !sec) {
			KV_U64(p, "time", t);
		} else {
			fresh = piece_stale(p, &p->j_sec, sec, 0, NULL);
			if (fresh) {
				tk_put_lit(js, ",\"time\":");
				tk_put_u64(js, sec);
			}
			put_piece(p, &p->j_sec, fresh);
			if (tk_writer_reserve(w, 9)) {
				put_9digits(w->buf + w->pos, (uint32_t)(t % 1000000000u));
				w->pos += 9;
			}
		}
	}
	if (sid->present & TK_PERF_SAMPLE_CPU) {
		jpiece *pc = &p->j_cpu[sid->cpu % 64];
		fresh = piece_stale(p, pc, sid->cpu, 0, NULL);
		if (fresh) {
			tk_put_lit(js, ",\"cpu\":");
			tk_put_json_u64(js, sid->cpu);
		}
		put_piece(p, pc, fresh);
	}
	if (!has_pid)
		return;
	jpiece *pt = &p->j_thread[((uintptr_t)th >> 4 ^ s->tid) % 256];
	fresh = piece_stale(p, pt, ((uint64_t)s->pid << 32) | s->tid, p->j_epoch, th);
	if (fresh) {
		tk_put_lit(js, ",\"pid\":");
		tk_put_json_i64(js, (int32_t)s->pid);
		tk_put_lit(js, ",\"tid\":");
		tk_put_json_i64(js, (int32_t)s->tid);
		if (th && th->comm[0]) {
			tk_put_lit(js, ",\"comm\":");
			tk_put_json_str(js, th->comm, strnlen(th->comm, sizeof th->comm));
		}
	}
	put_piece(p, pt, fresh);
}

/* ,"id":.. and ,"period":.., kept while they repeat. */
static void json_id_period(printer *p, bool has_id, uint64_t id, uint64_t period)
{
	tk_writer *js = p->js;
	bool fresh;
	if (has_id) {
		fresh = piece_stale(p, &p->j_id, id, 0, NULL);
		if (fresh) {
			tk_put_lit(js, ",\"id\":");
			tk_put_json_u64(js, id);
		}
		put_piece(p, &p->j_id, fresh);
	}
	fresh = piece_stale(p, &p->j_period, period, 0, NULL);
	if (fresh) {
		tk_put_lit(js, ",\"period\":");
		tk_put_json_u64(js, period);
	}
	put_piece(p, &p->j_period, fresh);
}

/* One delivered sample. perf delivers a PERF_SAMPLE_READ sample once per
 * counter it read (session.c deliver_sample_value), with that counter's
 * attr, id and value delta as period: `attr`, `id` and `period` say which. */
static tk_status print_one(printer *p, const tk_perf_record *rec, const tk_perf_sample *s,
			   const tk_perf_attr *attr, bool has_id, uint64_t id, uint64_t period,
			   tk_error *err)
{
	bool has_pid = s->sample_type & TK_PERF_SAMPLE_TID;
	tk_perf_record shown = *rec;
	shown.attr = attr;
	tk_writer *w = p->w;
	tk_status st;
	if (p->json) {
		tk_thread *th = sample_thread(p, s, has_pid);
		json_sample_head(p, &shown, s, attr, has_pid, th);
		if (s->sample_type & TK_PERF_SAMPLE_IP)
			KV_HEX(p, "ip", s->ip);
		if (s->sample_type & TK_PERF_SAMPLE_ADDR)
			KV_HEX(p, "addr", s->addr);
		json_id_period(p, has_id, id, period);
		json_frames(p, rec, s, attr, th);
		st = print_tracepoint(p, s, &shown, err);
		tk_put_lit(w, "}\n");
		return st;
	}
	head(p, &shown, s->pid, s->tid, has_pid);
	tk_put_char(w, ' ');
	tk_put_u64_pad(w, period, 10, ' ');
	if (s->sample_type & TK_PERF_SAMPLE_IP) {
		tk_put_char(w, ' ');
		tk_put_hex_pad(w, s->ip, 16);
	}
	if (s->sample_type & TK_PERF_SAMPLE_ADDR)
		KV_HEX(p, "addr", s->addr);
	st = print_tracepoint(p, s, &shown, err);
	tk_put_char(w, '\n');
	if (s->sample_type & TK_PERF_SAMPLE_CALLCHAIN) {
		for (uint64_t i = 0; i < s->callchain_nr; i++) {
			uint64_t a = tk_perf_u64_at(s->callchain, i, s->swap);
			/* PERF_CONTEXT_KERNEL/USER/...: markers, not frames */
			if (a >= (uint64_t)-4095)
				continue;
			tk_put_char(w, '\t');
			tk_put_hex_pad(w, a, 16);
			tk_put_char(w, '\n');
		}
	}
	return st;
}

static const tk_perf_attr *attr_of_id(printer *p, uint64_t id)
{
	size_t n = tk_perf_attr_count(p->f);
	for (; p->attrs_mapped < n; p->attrs_mapped++) {
		const tk_perf_attr *a = tk_perf_attr_at(p->f, p->attrs_mapped);
		for (size_t i = 0; i < a->n_ids; i++)
			tk_hashmap_put(&p->attr_of_id, a->ids[i], p->attrs_mapped + 1);
	}
	const uint64_t *idx = tk_hashmap_get(&p->attr_of_id, id);
	return idx ? tk_perf_attr_at(p->f, (size_t)*idx - 1) : NULL;
}

static tk_status print_sample(printer *p, const tk_perf_record *rec, tk_error *err)
{
	tk_perf_sample s;
	tk_status st = tk_perf_parse_sample(p->f, rec, &s, err);
	if (st != TK_OK)
		return st;
	bool has_id = s.sample_type & (TK_PERF_SAMPLE_ID | TK_PERF_SAMPLE_IDENTIFIER);
	uint64_t id = s.sample_type & TK_PERF_SAMPLE_ID ? s.id : s.identifier;
	/* Without PERIOD in the sample, perf reports the attr's fixed period. */
	uint64_t period = s.sample_type & TK_PERF_SAMPLE_PERIOD ? s.period
			  : rec->attr                           ? rec->attr->sample_period
								: 0;
	if (!(s.sample_type & TK_PERF_SAMPLE_READ) || !(s.read_format & TK_PERF_FORMAT_ID))
		return print_one(p, rec, &s, rec->attr, has_id, id, period, err);
	for (uint64_t i = 0; i < s.read_nr; i++) {
		uint64_t value = tk_perf_u64_at(s.read_values, i * s.read_stride, s.swap);
		uint64_t rid = tk_perf_u64_at(s.read_values, i * s.read_stride + 1, s.swap);
		const tk_perf_attr *a = attr_of_id(p, rid);
		if (!a)
			continue; /* perf counts it as an unknown id and moves on */
		uint64_t *last = tk_hashmap_get(&p->last_value, rid);
		uint64_t delta = value - (last ? *last : 0);
		if (!tk_hashmap_put(&p->last_value, rid, value))
			return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
		if (!delta)
			continue;
		if ((st = print_one(p, rec, &s, a, true, rid, delta, err)) != TK_OK)
			return st;
	}
	return TK_OK;
}

/* A non-sample record's own fields. */
static void print_event_fields(printer *p, const tk_perf_event *e)
{
	switch (e->type) {
	case TK_PERF_RECORD_MMAP:
		kv_hex(p, "start", e->u.mmap.start);
		kv_hex(p, "len", e->u.mmap.len);
		kv_hex(p, "pgoff", e->u.mmap.pgoff);
		kv_str(p, "filename", e->u.mmap.filename);
		break;
	case TK_PERF_RECORD_MMAP2:
		kv_hex(p, "start", e->u.mmap2.start);
		kv_hex(p, "len", e->u.mmap2.len);
		kv_hex(p, "pgoff", e->u.mmap2.pgoff);
		if (e->u.mmap2.build_id_size) {
			kv_bytes_hex(p, "build_id", e->u.mmap2.build_id, e->u.mmap2.build_id_size);
		} else {
			kv_u64(p, "maj", e->u.mmap2.maj);
			kv_u64(p, "min", e->u.mmap2.min);
			kv_u64(p, "ino", e->u.mmap2.ino);
			kv_u64(p, "ino_generation", e->u.mmap2.ino_generation);
		}
		kv_u64(p, "prot", e->u.mmap2.prot);
		kv_u64(p, "flags", e->u.mmap2.flags);
		kv_str(p, "filename", e->u.mmap2.filename);
		break;
	case TK_PERF_RECORD_LOST:
		kv_u64(p, "lost_id", e->u.lost.id);
		kv_u64(p, "lost", e->u.lost.lost);
		break;
	case TK_PERF_RECORD_COMM: kv_str(p, "comm", e->u.comm.comm); break;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		kv_u64(p, "ppid", e->u.fork.ppid);
		kv_u64(p, "ptid", e->u.fork.ptid);
		break;
	case TK_PERF_RECORD_THROTTLE:
	case TK_PERF_RECORD_UNTHROTTLE: kv_u64(p, "stream_id", e->u.throttle.stream_id); break;
	case TK_PERF_RECORD_LOST_SAMPLES: kv_u64(p, "lost", e->u.lost_samples.lost); break;
	case TK_PERF_RECORD_SWITCH_CPU_WIDE:
		kv_u64(p, "next_prev_pid", e->u.switch_cpu_wide.next_prev_pid);
		kv_u64(p, "next_prev_tid", e->u.switch_cpu_wide.next_prev_tid);
		break;
	case TK_PERF_RECORD_AUX:
		kv_u64(p, "aux_offset", e->u.aux.aux_offset);
		kv_u64(p, "aux_size", e->u.aux.aux_size);
		kv_u64(p, "flags", e->u.aux.flags);
		break;
	case TK_PERF_RECORD_KSYMBOL:
		kv_hex(p, "addr", e->u.ksymbol.addr);
		kv_u64(p, "len", e->u.ksymbol.len);
		kv_u64(p, "ksym_type", e->u.ksymbol.ksym_type);
		kv_str(p, "name", e->u.ksymbol.name);
		break;
	case TK_PERF_RECORD_BPF_EVENT:
		kv_u64(p, "bpf_type", e->u.bpf_event.type);
		kv_u64(p, "bpf_id", e->u.bpf_event.id);
		break;
	case TK_PERF_RECORD_CGROUP:
		kv_u64(p, "cgroup_id", e->u.cgroup.id);
		kv_str(p, "path", e->u.cgroup.path);
		break;
	case TK_PERF_RECORD_TEXT_POKE:
		kv_hex(p, "addr", e->u.text_poke.addr);
		kv_u64(p, "old_len", e->u.text_poke.old_len);
		kv_u64(p, "new_len", e->u.text_poke.new_len);
		break;
	case TK_PERF_RECORD_HEADER_BUILD_ID:
		kv_bytes_hex(p, "build_id", e->u.build_id.build_id, e->u.build_id.size);
		kv_str(p, "filename", e->u.build_id.filename);
		break;
	case TK_PERF_RECORD_AUXTRACE:
		kv_u64(p, "size", e->u.auxtrace.size);
		kv_hex(p, "offset", e->u.auxtrace.offset);
		kv_u64(p, "idx", e->u.auxtrace.idx);
		break;
	case TK_PERF_RECORD_TIME_CONV:
		kv_u64(p, "time_shift", e->u.time_conv.time_shift);
		kv_u64(p, "time_mult", e->u.time_conv.time_mult);
		kv_u64(p, "time_zero", e->u.time_conv.time_zero);
		break;
	case TK_PERF_RECORD_HEADER_FEATURE:
		kv_u64(p, "feat_id", e->u.header_feature.feat_id);
		break;
	case TK_PERF_RECORD_ID_INDEX: kv_u64(p, "nr", e->u.id_index.nr); break;
	default: break;
	}
}

static void record_pid(const tk_perf_event *e, const tk_perf_record *rec, uint32_t *pid,
		       uint32_t *tid, bool *has)
{
	*has = true;
	switch (e ? e->type : 0) {
	case TK_PERF_RECORD_MMAP:
		*pid = e->u.mmap.pid;
		*tid = e->u.mmap.tid;
		return;
	case TK_PERF_RECORD_MMAP2:
		*pid = e->u.mmap2.pid;
		*tid = e->u.mmap2.tid;
		return;
	case TK_PERF_RECORD_COMM:
		*pid = e->u.comm.pid;
		*tid = e->u.comm.tid;
		return;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		*pid = e->u.fork.pid;
		*tid = e->u.fork.tid;
		return;
	default: break;
	}
	*has = rec->sid.present & TK_PERF_SAMPLE_TID;
	*pid = rec->sid.pid;
	*tid = rec->sid.tid;
}

static tk_status print_other(printer *p, const tk_perf_record *rec, tk_error *err)
{
	tk_perf_event e;
	tk_status st = tk_perf_parse_event(p->f, rec, &e, err);
	bool typed = st == TK_OK;
	if (st != TK_OK && st != TK_ERR_UNSUPPORTED)
		return st;
	if (typed && e.type == TK_PERF_RECORD_COMM)
		comm_set(&p->comms, e.u.comm.tid, e.u.comm.comm);
	if (!p->all)
		return TK_OK;
	uint32_t pid, tid;
	bool has_pid;
	record_pid(typed ? &e : NULL, rec, &pid, &tid, &has_pid);
	if (!tk_id_set_any(&p->filter.pid) &&
	    (!has_pid || !tk_id_set_has(&p->filter.pid, (int32_t)pid)))
		return TK_OK;
	head(p, rec, pid, tid, has_pid);
	if (typed) {
		print_event_fields(p, &e);
	} else {
		kv_u64(p, "record_type", rec->type);
		kv_u64(p, "size", rec->size);
	}
	tk_put_str(p->w, p->json ? "}\n" : "\n");
	return TK_OK;
}

static bool sample_wanted(const printer *p, const tk_perf_record *rec)
{
	const tk_filter *f = &p->filter;
	const tk_perf_sample_id *sid = &rec->sid;
	if ((f->has_begin || f->has_end) && !rec->has_time)
		return false;
	if (f->has_begin && sid->time < f->begin_ns)
		return false;
	if (f->has_end && sid->time > f->end_ns)
		return false;
	if (!tk_id_set_any(&f->pid) &&
	    (!(sid->present & TK_PERF_SAMPLE_TID) || !tk_id_set_has(&f->pid, (int32_t)sid->pid)))
		return false;
	if (!tk_id_set_any(&f->tid) &&
	    (!(sid->present & TK_PERF_SAMPLE_TID) || !tk_id_set_has(&f->tid, (int32_t)sid->tid)))
		return false;
	if (!tk_id_set_any(&f->cpu) &&
	    (!(sid->present & TK_PERF_SAMPLE_CPU) || !tk_id_set_has(&f->cpu, (int32_t)sid->cpu)))
		return false;
	if (f->events &&
	    !(rec->attr && rec->attr->name && tk_filter_name_matches(f->events, rec->attr->name)))
		return false;
	return true;
}

/* Output waiting for the kernel's symbols beyond this goes out at once
 * (waiting for them): memory stays bounded. */
#define DEFER_LIMIT ((size_t)32 << 20)

/* Writes the output held back with its kernel frames filled in (waiting
 * for the kernel's table if need be), and writes straight out from now. */
static tk_status settle(printer *p, tk_error *err)
{
	if (!p->pending)
		return TK_OK;
	tk_line_cache_fill_holes(&p->frames, &p->threads, p->pending->buf, p->pending->pos, p->out);
	tk_line_cache_defer_kernel(&p->frames, false);
	bool lost = p->pending->error != 0;
	tk_writer_abort(p->pending);
	p->pending = NULL;
	p->w = p->out;
	if (lost)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "out of memory for the output");
	return TK_OK;
}

/* A sample of the other lane's chunk: not printed, but what printing it
 * would change for later samples is changed as it would be. */
static tk_status keep_state(printer *p, const tk_perf_record *rec, tk_error *err)
{
	const tk_perf_attr *a = rec->attr;
	if (!sample_wanted(p, rec))
		return TK_OK;
	/* the first kernel address moves the kernel's map (threads_model.c),
	 * and counter reads keep the last value per id: printed, dropped */
	const tk_dso *k = p->threads.kernel_dso;
	if ((p->json && k && !k->tried &&
	     !(a && tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_KERNEL))) ||
	    !a || (a->sample_type & TK_PERF_SAMPLE_READ))
		return print_sample(p, rec, err);
	/* a sample makes its thread (sample_thread), which later records see */
	if (p->json) {
		bool has_pid = (a->sample_type & TK_PERF_SAMPLE_TID) != 0;
		int32_t pid = has_pid ? (int32_t)rec->sid.pid : -1;
		int32_t tid = has_pid ? (int32_t)rec->sid.tid : -1;
		if (!p->last_th || pid != p->last_pid || tid != p->last_tid) {
			p->last_th = tk_threads_findnew(&p->threads, pid, tid);
			p->last_pid = pid;
			p->last_tid = tid;
		}
	}
	return TK_OK;
}

static tk_status on_sample(tk_session *s, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)s;
	printer *p = user;
	if (p->lane.lanes) {
		tk_status lst = tk_lane_step(&p->lane, true, &p->w, err);
		if (lst != TK_OK)
			return lst;
		if (p->w == p->lane.sink)
			return keep_state(p, rec, err);
	}
	if (!sample_wanted(p, rec))
		return TK_OK;
	if (p->pending &&
	    (!tk_threads_kernel_pending(&p->threads) || p->pending->pos > DEFER_LIMIT)) {
		tk_status sst = settle(p, err);
		if (sst != TK_OK)
			return sst;
	}
	/* lane 0 alone until here (late lanes): lane 1 joins */
	if (p->lane.join == UINT64_MAX &&
	    tk_lanes_may_join(&p->lane, rec->offset, p->pending != NULL)) {
		if (p->pending) {
			tk_status sst = settle(p, err);
			if (sst != TK_OK)
				return sst;
		}
		tk_lanes_join(&p->lane, tk_threads_kernel_table(&p->threads));
	}
	tk_status st = print_sample(p, rec, err);
	p->n++;
	/* a write failed (the reader left: `| head`; a full disk): nothing
	 * more can go out; the caller reports it as it commits the output */
	if (st == TK_OK && tk_writer_failed(p->w))
		return TK_END;
	if (st == TK_OK && p->limit && p->n >= p->limit)
		return TK_END;
	return st;
}

static tk_status on_other(tk_session *s, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)s;
	printer *p = user;
	if (p->lane.lanes) {
		tk_status lst = tk_lane_step(&p->lane, false, &p->w, err);
		if (lst != TK_OK)
			return lst;
	}
	if (p->json) {
		/* the record may rename the thread or reuse its tid */
		p->last_th = NULL;
		p->j_epoch++;
		/* deferred kernel frames resolve in the kernel's space as it
		 * was: a kernel MMAP changes it (none deferred yet: the
		 * deferral goes on) */
		unsigned mode = rec->misc & 7u;
		if (p->pending && tk_line_cache_has_holes(&p->frames) &&
		    (rec->type == TK_PERF_RECORD_MMAP || rec->type == TK_PERF_RECORD_MMAP2) &&
		    (mode == TK_CPUMODE_KERNEL || mode == TK_CPUMODE_GUEST_KERNEL)) {
			tk_status sst = settle(p, err);
			if (sst != TK_OK)
				return sst;
		}
		tk_status st = tk_threads_process(&p->threads, p->f, rec, err);
		if (st != TK_OK)
			return st;
	}
	return print_other(p, rec, err);
}

/* What a run prints, whether in one lane or two. */
typedef struct print_args {
	const char *path;
	const tk_render_options *opt;
	tk_writer *w;
	bool json;
} print_args;

/* One lane's run, or the whole run (r->lanes NULL). */
static void run_lane(tk_lane_run *r)
{
	tk_error *err = &r->err;
	const print_args *args = r->user;
	tk_render_options lane_opt;
	tk_log_fn sample_log;
	void *sample_user;
	tk_lane_logs(r, args->opt, &lane_opt, &sample_log, &sample_user);
	const tk_render_options *opt = &lane_opt;
	tk_writer *w = args->w;
	bool json = args->json;
	printer p = {
	    .w = w,
	    .out = w,
	    .json = json,
	    .all = opt->all_records,
	    .filter = tk_render_filter(opt),
	    .limit = opt->limit,
	};
	r->stop = UINT64_MAX;
	tk_session *ses;
	tk_status st = tk_session_open_perf(args->path, opt, opt->raw_order, &ses, err);
	if (st != TK_OK) {
		if (r->lanes)
			tk_lanes_stop(r->lanes, 0);
		r->st = st;
		return;
	}
	p.f = tk_session_perf(ses);
	tk_hashmap_init(&p.comms.by_tid);
	tk_hashmap_init(&p.attr_of_id);
	tk_hashmap_init(&p.last_value);
	p.log = sample_log; /* a sample's warning comes from its chunk's lane */
	p.log_user = sample_user;
	tk_arena_init(&p.scratch, 16 * 1024);
	/* text lines show no frames: no threads model, no symbols */
	tk_line_cache_init(&p.frames);
	if (json && (!tk_threads_init(&p.threads, NULL) || !tk_line_cache_init_json(&p.frames) ||
		     tk_writer_open_memory(&p.js, NULL) != TK_OK)) {
		st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		if (r->lanes)
			tk_lanes_stop(r->lanes, 0);
		goto out;
	}
	if (json)
		tk_threads_prefetch_kernel(&p.threads, p.f, r->lane == 1);
	/* two lanes from the start only when the kernel's symbols are there
	 * already, else lane 1 joins once lane 0 has them (print_lanes.h) */
	bool late;
	const struct tk_symtab *lent;
	if (!tk_lane_begin(r, !json || !tk_threads_kernel_pending(&p.threads), &late, &lent))
		goto out; /* st is TK_OK: the one lane is lane 0 */
	tk_threads_adopt_kernel(&p.threads, lent);
	if (!tk_lane_cursor_init(&p.lane, r->lanes, r->lane)) {
		st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		tk_lanes_stop(r->lanes, 0);
		goto out;
	}
	if (r->lanes && (!late || r->lane == 1)) {
		/* each lane formats into its buffers; no held-back output (the
		 * other core is the other lane's) */
		p.w = p.out = p.lane.sink;
	} else if (json && tk_threads_kernel_pending(&p.threads) &&
		   tk_writer_open_memory(&p.pending, NULL) == TK_OK) {
		/* the first records need not wait for the kernel's symbols */
		p.w = p.pending;
		tk_line_cache_defer_kernel(&p.frames, true);
	}
	p.dwarf_unwind = tk_perf_unwind_wanted(p.f);
	tk_session_tool tool = {.perf_sample = on_sample, .perf_other = on_other};
	st = tk_session_run(ses, &tool, &p, err);
out:;
	tk_status sst = settle(&p, st == TK_OK ? err : NULL);
	if (st == TK_OK)
		st = sst;
	if (r->lanes && p.lane.lanes) {
		st = tk_lane_end(&p.lane, st, err);
		r->stop = p.lane.chunk;
		/* lane 1 may look symbols up in the kernel table lent */
		if (p.lane.lent)
			tk_lanes_wait_lane1(r->lanes);
	}
	tk_lane_cursor_free(&p.lane);
	tk_writer_abort(p.js);
	tk_line_cache_free(&p.frames);
	tk_threads_free(&p.threads);
	tk_arena_free(&p.scratch);
	free(p.tp_values);
	free(p.comms.names);
	tk_hashmap_free(&p.comms.by_tid);
	tk_hashmap_free(&p.attr_of_id);
	tk_hashmap_free(&p.last_value);
	tk_session_close(ses);
	r->st = st;
}

tk_status tk_perf_render_print(const char *path, const tk_render_options *opt, tk_writer *w,
			       tk_error *err)
{
	if (strcmp(opt->style, "perf-script") == 0)
		return tk_perf_script_print(path, opt, w, err);
	bool json = strcmp(opt->style, "json") == 0;
	if (!json && strcmp(opt->style, "text") != 0)
		return TK_ERR_UNSUPPORTED;
	print_args args = {.path = path, .opt = opt, .w = w, .json = json};
	return tk_lanes_print(path, opt, w, run_lane, &args, err);
}
