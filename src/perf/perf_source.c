/* The perf.data adapter: a tk_source of model events shaped as perf's own
 * `perf data convert --to-ctf` shapes its CTF (tools/perf/util/
 * data-convert-bt.c), so that a CTF written from this model reads the same
 * in babeltrace2 as perf's:
 * - one event class per attr, named like the attr, whose payload is
 *   perf_ip, perf_tid, perf_pid, perf_id, ... (perf's order and types),
 *   then for tracepoints every field, common ones first, typed and named
 *   as perf does (perf_tp_view.c);
 * - with all_records, the records perf's --all adds and no others:
 *   perf_comm, perf_exit, perf_fork, perf_mmap and perf_mmap2 with perf's
 *   fields, on CPU 0 as perf writes them.
 * Classes are built once per attr / record type; per-event values live in
 * a scratch arena reset at each event (no malloc per event). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/source_impl.h"
#include "perf/perf_internal.h"
#include "perf/perf_tp_view.h"

/* ---- field classes shared by every source ---- */
#define INT_CLASS(name, bits_, sig, base_, sem)                                                    \
	static const tk_field_class name = {                                                       \
	    .kind = TK_TYPE_INT, .bits = bits_, .is_signed = sig, .base = base_, .semantic = sem}
INT_CLASS(c_ip, 64, false, 16, TK_SEM_IP);
INT_CLASS(c_addr, 64, false, 16, TK_SEM_ADDR);
INT_CLASS(c_u64, 64, false, 10, TK_SEM_NONE);
INT_CLASS(c_u32, 32, false, 10, TK_SEM_NONE);
INT_CLASS(c_pid, 32, true, 10, TK_SEM_PID);
INT_CLASS(c_tid, 32, true, 10, TK_SEM_TID);
INT_CLASS(c_id, 64, false, 10, TK_SEM_ID);
INT_CLASS(c_period, 64, false, 10, TK_SEM_PERIOD);
INT_CLASS(c_cpu, 32, false, 10, TK_SEM_CPU);
INT_CLASS(c_time, 64, false, 10, TK_SEM_TIMESTAMP);
static const tk_field_class c_chain_elem = {.kind = TK_TYPE_INT, .bits = 64, .base = 16};
static const tk_field_class c_callchain = {
    .kind = TK_TYPE_SEQUENCE, .semantic = TK_SEM_CALLCHAIN, .element = &c_chain_elem};
static const tk_field_class c_string = {.kind = TK_TYPE_STRING};
/* a bpf-output event's RAW data, as perf's add_bpf_output_types: raw_len
 * then raw_data, a sequence of raw_len hex u32 */
static const tk_field_class c_raw_word = {.kind = TK_TYPE_INT, .bits = 32, .base = 16};
static const tk_field_class c_raw_data = {.kind = TK_TYPE_SEQUENCE, .element = &c_raw_word};
static const tk_field_class c_comm = {.kind = TK_TYPE_STRING, .semantic = TK_SEM_COMM};

/* perf's own order (data-convert-bt.c add_generic_types) first, so the
 * layout matches `perf data convert --to-ctf`; perf_addr and perf_cpu
 * (which perf keeps elsewhere) come last. */
enum {
	M_IP,
	M_TID,
	M_PID,
	M_ID,
	M_STREAM_ID,
	M_PERIOD,
	M_WEIGHT,
	M_DATA_SRC,
	M_TRANSACTION,
	M_CALLCHAIN_SIZE,
	M_CALLCHAIN,
	M_ADDR,
	M_CPU,
	M_COUNT
};

static const tk_member sample_members[M_COUNT] = {
    [M_IP] = {"perf_ip", &c_ip},
    [M_TID] = {"perf_tid", &c_tid},
    [M_PID] = {"perf_pid", &c_pid},
    [M_ID] = {"perf_id", &c_id},
    [M_STREAM_ID] = {"perf_stream_id", &c_u64},
    [M_PERIOD] = {"perf_period", &c_period},
    [M_ADDR] = {"perf_addr", &c_addr},
    [M_CPU] = {"perf_cpu", &c_cpu},
    [M_WEIGHT] = {"perf_weight", &c_u64},
    [M_DATA_SRC] = {"perf_data_src", &c_u64},
    [M_TRANSACTION] = {"perf_transaction", &c_u64},
    [M_CALLCHAIN_SIZE] = {"perf_callchain_size", &c_u32},
    [M_CALLCHAIN] = {"perf_callchain", &c_callchain},
};

static bool member_present(unsigned m, uint64_t t)
{
	switch (m) {
	case M_IP: return t & TK_PERF_SAMPLE_IP;
	case M_TID:
	case M_PID: return t & TK_PERF_SAMPLE_TID;
	case M_ID: return t & (TK_PERF_SAMPLE_ID | TK_PERF_SAMPLE_IDENTIFIER);
	case M_STREAM_ID: return t & TK_PERF_SAMPLE_STREAM_ID;
	case M_PERIOD: return t & TK_PERF_SAMPLE_PERIOD;
	case M_ADDR: return t & TK_PERF_SAMPLE_ADDR;
	case M_CPU: return t & TK_PERF_SAMPLE_CPU;
	/* perf's converter knows PERF_SAMPLE_WEIGHT only, not WEIGHT_STRUCT
	 * (which `perf record -W` uses on x86) */
	case M_WEIGHT: return t & TK_PERF_SAMPLE_WEIGHT;
	case M_DATA_SRC: return t & TK_PERF_SAMPLE_DATA_SRC;
	case M_TRANSACTION: return t & TK_PERF_SAMPLE_TRANSACTION;
	case M_CALLCHAIN_SIZE:
	case M_CALLCHAIN: return t & TK_PERF_SAMPLE_CALLCHAIN;
	default: return false;
	}
}

/* Per-attr class and how to fill its payload. */
typedef struct attr_class {
	tk_event_class cls;
	tk_field_class payload;
	uint8_t members[M_COUNT]; /* which sample members, in order */
	size_t n_sample_members;
	const tk_perf_tp_format *tp; /* tracepoint format or NULL */
	const tp_view *view;         /* its fields as perf's converter shows them */
	bool bpf_output;             /* + raw_len, raw_data (perf's evsel__is_bpf_output) */
} attr_class;

/* ---- non-sample records (perf's --all) ---- */
INT_CLASS(c_rec_pid, 32, false, 10, TK_SEM_PID);
INT_CLASS(c_rec_tid, 32, false, 10, TK_SEM_TID);

typedef struct rec_member {
	const char *name;
	const tk_field_class *cls;
} rec_member;

/* Static tables (a compound literal in a function would not outlive it).
 * Fields and types of data-convert-bt.c's __FUNC_ADD_NON_SAMPLE_EVENT_CLASS:
 * pids are u32 there, start is hexadecimal. */
#define END                                                                                        \
	{                                                                                          \
		NULL, NULL                                                                         \
	}
static const rec_member rm_comm[] = {
    {"pid", &c_rec_pid}, {"tid", &c_rec_tid}, {"comm", &c_comm}, END};
static const rec_member rm_fork[] = {{"pid", &c_rec_pid}, {"ppid", &c_u32},  {"tid", &c_rec_tid},
				     {"ptid", &c_u32},    {"time", &c_time}, END};
static const rec_member rm_mmap[] = {
    {"pid", &c_rec_pid}, {"tid", &c_rec_tid}, {"start", &c_addr}, {"filename", &c_string}, END};
#undef END

/* The records perf's --all converts, in the order it declares their
 * classes (setup_non_sample_events), with their class names. */
static const struct {
	uint32_t type;
	const char *name;
	const rec_member *rm;
} converted_records[] = {
    {TK_PERF_RECORD_COMM, "perf_comm", rm_comm},   {TK_PERF_RECORD_EXIT, "perf_exit", rm_fork},
    {TK_PERF_RECORD_FORK, "perf_fork", rm_fork},   {TK_PERF_RECORD_MMAP, "perf_mmap", rm_mmap},
    {TK_PERF_RECORD_MMAP2, "perf_mmap2", rm_mmap},
};
#define N_REC_CLASSES (sizeof converted_records / sizeof converted_records[0])

/* Index in converted_records, or -1 for a record perf's --all leaves out. */
static int converted_index(uint32_t type)
{
	for (size_t i = 0; i < N_REC_CLASSES; i++)
		if (converted_records[i].type == type)
			return (int)i;
	return -1;
}

typedef struct rec_class {
	tk_event_class cls;
	tk_field_class payload;
	const rec_member *rm;
	size_t n;
} rec_class;

typedef struct perf_source {
	tk_source base;
	tk_perf_file *f;
	tk_open_options opt;
	tk_arena classes; /* classes, env: live until close */
	tk_arena scratch; /* per-event values */
	attr_class **by_attr;
	size_t n_by_attr;
	rec_class *by_record[N_REC_CLASSES]; /* converted_records order */
	tk_clock_info clock;
	tk_stream_class stream;
	tk_event ev;
	tk_value payload;
} perf_source;

static tk_status list_add(perf_source *s, const tk_event_class *c, tk_error *err)
{
	if (!tk_source_add_class(&s->base, c))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

static attr_class *class_for_attr(perf_source *s, const tk_perf_attr *a, tk_error *err)
{
	if (a->index >= s->n_by_attr) {
		size_t n = a->index + 16;
		attr_class **nb = realloc(s->by_attr, n * sizeof *nb);
		if (!nb)
			goto nomem;
		memset(nb + s->n_by_attr, 0, (n - s->n_by_attr) * sizeof *nb);
		s->by_attr = nb;
		s->n_by_attr = n;
	}
	if (s->by_attr[a->index])
		return s->by_attr[a->index];
	attr_class *ac = tk_arena_calloc(&s->classes, 1, sizeof *ac);
	if (!ac)
		goto nomem;
	const tk_perf_tracing *tr = tk_perf_get_tracing(s->f);
	if (a->type == TK_PERF_TYPE_TRACEPOINT && tr && (a->sample_type & TK_PERF_SAMPLE_RAW))
		ac->tp = tk_perf_tracing_format(tr, a->config);
	for (unsigned m = 0; m < M_COUNT; m++)
		if (member_present(m, a->sample_type))
			ac->members[ac->n_sample_members++] = (uint8_t)m;
	size_t n_tp = ac->tp ? ac->tp->n_fields : 0;
	ac->bpf_output = a->type == TK_PERF_TYPE_SOFTWARE && a->config == 10; /* BPF_OUTPUT */
	size_t n_raw = ac->bpf_output ? 2 : 0;
	tk_member *mem =
	    tk_arena_calloc(&s->classes, ac->n_sample_members + n_tp + n_raw + 1, sizeof *mem);
	if (!mem)
		goto nomem;
	size_t n_perf = 0; /* the members perf has too (not perf_addr, perf_cpu) */
	for (size_t i = 0; i < ac->n_sample_members; i++) {
		mem[i] = sample_members[ac->members[i]];
		if (ac->members[i] < M_ADDR)
			n_perf++;
	}
	if (ac->tp) {
		/* perf_addr and perf_cpu (ours) come last among the sample
		 * members, so the first n_perf are the names perf checks the
		 * tracepoint's against */
		ac->view = perf_tp_view_build(&s->classes, ac->tp, mem, n_perf);
		if (!ac->view)
			goto nomem;
		memcpy(mem + ac->n_sample_members, ac->view->members, n_tp * sizeof *mem);
	}
	ac->payload.kind = TK_TYPE_STRUCT;
	ac->payload.members = mem;
	if (ac->bpf_output) {
		mem[ac->n_sample_members + n_tp] = (tk_member){"raw_len", &c_u32};
		mem[ac->n_sample_members + n_tp + 1] = (tk_member){"raw_data", &c_raw_data};
	}
	ac->payload.n_members = ac->n_sample_members + n_tp + n_raw;
	ac->cls.id = a->index;
	ac->cls.name = a->name ? a->name : "unknown";
	ac->cls.loglevel = -1;
	ac->cls.payload = &ac->payload;
	if (list_add(s, &ac->cls, err) != TK_OK)
		return NULL;
	s->by_attr[a->index] = ac;
	return ac;
nomem:
	tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for event classes");
	return NULL;
}

/* Class ids of the converted records: after any plausible attr index. */
#define REC_CLASS_ID_BASE 60000

static rec_class *class_for_record(perf_source *s, size_t idx, tk_error *err)
{
	if (s->by_record[idx])
		return s->by_record[idx];
	rec_class *rc = tk_arena_calloc(&s->classes, 1, sizeof *rc);
	if (!rc)
		goto nomem;
	rc->cls.name = converted_records[idx].name;
	rc->rm = converted_records[idx].rm;
	while (rc->rm[rc->n].name)
		rc->n++;
	tk_member *mem = tk_arena_calloc(&s->classes, rc->n, sizeof *mem);
	if (!mem)
		goto nomem;
	for (size_t i = 0; i < rc->n; i++)
		mem[i] = (tk_member){rc->rm[i].name, rc->rm[i].cls};
	rc->payload.kind = TK_TYPE_STRUCT;
	rc->payload.members = mem;
	rc->payload.n_members = rc->n;
	rc->cls.id = REC_CLASS_ID_BASE + (uint64_t)idx;
	rc->cls.loglevel = -1;
	rc->cls.payload = &rc->payload;
	if (list_add(s, &rc->cls, err) != TK_OK)
		return NULL;
	s->by_record[idx] = rc;
	return rc;
nomem:
	tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for event classes");
	return NULL;
}

static void set_int(tk_value *v, const tk_field_class *c, uint64_t u)
{
	v->cls = c;
	v->v.u = u;
}

/* A string of a record, escaped as perf's converter stores it. */
static tk_status set_str(perf_source *s, tk_value *v, const tk_field_class *c, const char *str,
			 const tk_perf_record *r, tk_error *err)
{
	size_t len;
	const char *o = perf_ctf_escape(str ? str : "", str ? strlen(str) : 0, &s->scratch, &len);
	if (!o)
		return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	v->cls = c;
	v->v.str.ptr = o;
	v->v.str.len = len;
	return TK_OK;
}

/* raw_len and raw_data of a bpf-output sample: the RAW bytes as 32-bit
 * words (in the file's byte order; perf reads them in the host's, which is
 * the same unless the file comes from a machine of the other byte order).
 * A size that is not a multiple of 4 loses its tail, with a warning, as
 * perf's add_bpf_output_values does. */
static tk_status bpf_output_values(perf_source *s, const tk_perf_sample *smp,
				   const tk_perf_record *r, tk_value *v, tk_error *err)
{
	uint32_t words = smp->raw_size / 4;
	if ((uint64_t)words * 4 != smp->raw_size)
		tk_perf_warn(s->f, "sample at 0x%llx: bpf output of %u bytes, not a multiple of 4",
			     (unsigned long long)r->offset, (unsigned)smp->raw_size);
	tk_value *items = NULL;
	if (words) {
		items = tk_arena_alloc(&s->scratch, (size_t)words * sizeof *items);
		if (!items)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
		const uint8_t *p = smp->raw;
		for (uint32_t k = 0; k < words; k++) {
			uint32_t w;
			memcpy(&w, p + 4 * (size_t)k, sizeof w);
			set_int(&items[k], &c_raw_word, smp->swap ? __builtin_bswap32(w) : w);
		}
	}
	set_int(&v[0], &c_u32, words);
	v[1].cls = &c_raw_data;
	v[1].v.list.items = items;
	v[1].v.list.n = words;
	return TK_OK;
}

static tk_status fill_sample(perf_source *s, const tk_perf_record *r, tk_error *err)
{
	tk_perf_sample smp;
	tk_status st = tk_perf_parse_sample(s->f, r, &smp, err);
	if (st != TK_OK)
		return st;
	const tk_perf_attr *a = r->attr ? r->attr : tk_perf_attr_at(s->f, 0);
	attr_class *ac = class_for_attr(s, a, err);
	if (!ac)
		return err->status;
	size_t n = ac->payload.n_members;
	/* every member is set below: no need to zero them first */
	tk_value *vals = tk_arena_alloc(&s->scratch, (n ? n : 1) * sizeof *vals);
	if (!vals)
		return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	for (size_t i = 0; i < ac->n_sample_members; i++) {
		unsigned m = ac->members[i];
		const tk_field_class *c = sample_members[m].cls;
		tk_value *v = &vals[i];
		switch (m) {
		case M_IP: set_int(v, c, smp.ip); break;
		case M_TID:
			v->cls = c;
			v->v.i = (int32_t)smp.tid;
			break;
		case M_PID:
			v->cls = c;
			v->v.i = (int32_t)smp.pid;
			break;
		case M_ID:
			set_int(v, c,
				(smp.sample_type & TK_PERF_SAMPLE_IDENTIFIER) ? smp.identifier
									      : smp.id);
			break;
		case M_STREAM_ID: set_int(v, c, smp.stream_id); break;
		case M_PERIOD: set_int(v, c, smp.period); break;
		case M_ADDR: set_int(v, c, smp.addr); break;
		case M_CPU: set_int(v, c, smp.cpu); break;
		case M_WEIGHT: set_int(v, c, smp.weight); break;
		case M_DATA_SRC: set_int(v, c, smp.data_src); break;
		case M_TRANSACTION: set_int(v, c, smp.transaction); break;
		case M_CALLCHAIN_SIZE: set_int(v, c, smp.callchain_nr); break;
		case M_CALLCHAIN: {
			tk_value *items = NULL;
			if (smp.callchain_nr) {
				items = tk_arena_alloc(&s->scratch,
						       (size_t)smp.callchain_nr * sizeof *items);
				if (!items)
					return tk_error_set(err, TK_ERR_NOMEM, r->offset,
							    "out of memory");
				for (uint64_t k = 0; k < smp.callchain_nr; k++)
					set_int(&items[k], &c_chain_elem,
						tk_perf_u64_at(smp.callchain, k, smp.swap));
			}
			v->cls = c;
			v->v.list.items = items;
			v->v.list.n = (size_t)smp.callchain_nr;
			break;
		}
		default: break;
		}
	}
	if (ac->view) {
		const tk_perf_tp_format *fmt = ac->tp;
		/* (read only when the decoder filled all of it) */
		tk_value *tv =
		    tk_arena_alloc(&s->scratch, (fmt->n_fields ? fmt->n_fields : 1) * sizeof *tv);
		if (!tv)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
		tk_error terr;
		tk_error_clear(&terr);
		bool decoded = tk_perf_tp_decode(tk_perf_get_tracing(s->f), fmt, smp.raw,
						 smp.raw_size, &s->scratch, tv, &terr) == TK_OK;
		/* a bad RAW payload loses its fields' values, not the event */
		if (!decoded)
			tk_perf_warn(s->f, "sample at 0x%llx: %s", (unsigned long long)r->offset,
				     terr.message);
		if (!perf_tp_view_values(ac->view, decoded ? tv : NULL, smp.raw, smp.raw_size,
					 &s->scratch, vals + ac->n_sample_members))
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	}
	if (ac->bpf_output && bpf_output_values(s, &smp, r, vals + n - 2, err) != TK_OK)
		return err->status;
	s->payload.cls = &ac->payload;
	s->payload.v.list.items = vals;
	s->payload.v.list.n = n;
	s->ev.cls = &ac->cls;
	if (smp.sample_type & TK_PERF_SAMPLE_CPU)
		s->ev.cpu = (int32_t)smp.cpu;
	return TK_OK;
}

static tk_status fill_record(perf_source *s, const tk_perf_record *r, size_t idx, tk_error *err)
{
	rec_class *rc = class_for_record(s, idx, err);
	if (!rc)
		return err->status;
	tk_value *vals = tk_arena_calloc(&s->scratch, rc->n, sizeof *vals);
	if (!vals)
		return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	tk_perf_event e;
	tk_error perr;
	if (tk_perf_parse_event(s->f, r, &e, &perr) != TK_OK) {
		/* a record too short for its fields keeps its place, zeroed */
		tk_perf_warn(s->f, "record at 0x%llx: %s", (unsigned long long)r->offset,
			     perr.message);
		memset(&e, 0, sizeof e);
	}
	uint64_t u[5] = {0};
	const char *str = NULL;
	switch (r->type) {
	case TK_PERF_RECORD_COMM:
		u[0] = e.u.comm.pid, u[1] = e.u.comm.tid, str = e.u.comm.comm;
		break;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		u[0] = e.u.fork.pid, u[1] = e.u.fork.ppid, u[2] = e.u.fork.tid;
		u[3] = e.u.fork.ptid, u[4] = e.u.fork.time;
		break;
	case TK_PERF_RECORD_MMAP:
		u[0] = e.u.mmap.pid, u[1] = e.u.mmap.tid, u[2] = e.u.mmap.start;
		str = e.u.mmap.filename;
		break;
	case TK_PERF_RECORD_MMAP2:
		u[0] = e.u.mmap2.pid, u[1] = e.u.mmap2.tid, u[2] = e.u.mmap2.start;
		str = e.u.mmap2.filename;
		break;
	default: break;
	}
	for (size_t i = 0, k = 0; i < rc->n; i++) {
		const tk_field_class *c = rc->rm[i].cls;
		if (c->kind == TK_TYPE_STRING) {
			tk_status st = set_str(s, &vals[i], c, str, r, err);
			if (st != TK_OK)
				return st;
		} else {
			uint64_t x = u[k++];
			set_int(&vals[i], c, c->bits < 64 ? (uint32_t)x : x);
		}
	}
	s->payload.cls = &rc->payload;
	s->payload.v.list.items = vals;
	s->payload.v.list.n = rc->n;
	s->ev.cls = &rc->cls;
	/* perf's converter writes every non-sample record to CPU 0's stream
	 * (ctf_stream(cw, 0)); a CTF identical to its own needs the same */
	s->ev.cpu = 0;
	return TK_OK;
}

static tk_status source_next(tk_source *src, const tk_event **out, tk_error *err)
{
	perf_source *s = (perf_source *)src;
	for (;;) {
		const tk_perf_record *r;
		tk_status st = tk_perf_next(s->f, &r, err);
		if (st != TK_OK)
			return st;
		/* sessions' observers and the model context see the side-band
		 * records the model drops */
		if (s->base.native &&
		    (st = s->base.native(s->base.native_user, s->f, r, err)) != TK_OK)
			return st;
		bool sample = r->type == TK_PERF_RECORD_SAMPLE;
		int rec = sample || !s->opt.all_records ? -1 : converted_index(r->type);
		if (!sample && rec < 0)
			continue;
		tk_arena_reset(&s->scratch);
		tk_event *ev = &s->ev;
		memset(ev, 0, sizeof *ev);
		ev->cpu = (r->sid.present & TK_PERF_SAMPLE_CPU) ? (int32_t)r->sid.cpu : TK_CPU_NONE;
		ev->pid = ev->tid = TK_PID_NONE;
		if (r->sid.present & TK_PERF_SAMPLE_TID) {
			ev->pid = (int32_t)r->sid.pid;
			ev->tid = (int32_t)r->sid.tid;
		}
		ev->has_time = r->has_time;
		ev->time_ns = ev->time_raw = r->sid.time;
		ev->offset = r->offset;
		ev->payload = &s->payload;
		if (sample && tk_perf_attr_count(s->f) == 0)
			continue;
		st = sample ? fill_sample(s, r, err) : fill_record(s, r, (size_t)rec, err);
		if (st != TK_OK)
			return st;
		*out = ev;
		return TK_OK;
	}
}

static void source_close(tk_source *src)
{
	perf_source *s = (perf_source *)src;
	tk_perf_close(s->f);
	tk_arena_free(&s->classes);
	tk_arena_free(&s->scratch);
	free(s->by_attr);
	tk_source_classes_free(&s->base);
	free(s);
}

static const tk_source_ops perf_source_ops = {source_next, source_close};

static void add_env_str(tk_env_entry *env, size_t *n, const char *key, const char *val)
{
	if (val)
		env[(*n)++] = (tk_env_entry){.key = key, .str = val};
}

static void add_env_int(tk_env_entry *env, size_t *n, const char *key, int64_t val)
{
	env[(*n)++] = (tk_env_entry){.key = key, .is_int = true, .i = val};
}

/* Environment like perf's CTF conversion writes (hostname, sysname, release, ...). */
/* perf's names for the clocks -k takes (util/clockid.c's clockid_name) */
static const char *perf_clockid_name(uint32_t clockid)
{
	switch (clockid) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void build_info(perf_source *s, const char *path)
{
	const tk_perf_features *ft = tk_perf_get_features(s->f);
	tk_env_entry *env = tk_arena_calloc(&s->classes, 16, sizeof *env);
	size_t n = 0;
	if (env) {
		add_env_str(env, &n, "domain", "kernel");
		add_env_str(env, &n, "tracer_name", "perf");
		add_env_str(env, &n, "host", ft->hostname);
		add_env_str(env, &n, "sysname", "Linux");
		add_env_str(env, &n, "release", ft->osrelease);
		add_env_str(env, &n, "version", ft->version);
		add_env_str(env, &n, "machine", ft->arch);
		add_env_str(env, &n, "cpudesc", ft->cpudesc);
		add_env_str(env, &n, "cpuid", ft->cpuid);
		if (ft->nr_cpus_online)
			add_env_int(env, &n, "nr_cpus_online", ft->nr_cpus_online);
		if (ft->nr_cpus_avail)
			add_env_int(env, &n, "nr_cpus_avail", ft->nr_cpus_avail);
		if (ft->total_mem_kb)
			add_env_int(env, &n, "total_mem_kb", (int64_t)ft->total_mem_kb);
	}
	/* perf's clock (ctf_writer__setup_clock); with --tod it is named after
	 * the recording's clockid and offset to the time of day, so readers
	 * print wall-clock times */
	s->clock = (tk_clock_info){
	    .name = "perf_clock", .description = "perf clock", .freq = 1000000000, .precision = 10};
	if (s->opt.wall_clock && ft->clock_data_version) {
		s->clock.description = perf_clockid_name(ft->clock_data_clockid);
		s->clock.offset_cycles = (int64_t)(ft->clock_wall_ns - ft->clock_clockid_ns);
	}
	s->stream = (tk_stream_class){.id = 0, .clock = &s->clock};
	tk_trace_info *info = &s->base.info;
	info->format = TK_FORMAT_PERF;
	info->name = tk_arena_strdup(&s->classes, path);
	info->env = env;
	info->n_env = n;
	info->clocks = &s->clock;
	info->n_clocks = 1;
	info->stream_classes = &s->stream;
	info->n_stream_classes = 1;
}

tk_status tk_perf_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err)
{
	*out = NULL;
	perf_source *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (opt)
		s->opt = *opt;
	tk_perf_open_options po = {
	    .raw_order = s->opt.raw_order, .log = s->opt.log, .log_user = s->opt.log_user};
	tk_status st = tk_perf_open(path, &po, &s->f, err);
	if (st != TK_OK) {
		free(s);
		return st;
	}
	s->base.ops = &perf_source_ops;
	if (s->opt.wall_clock && !tk_perf_get_features(s->f)->clock_data_version) {
		tk_perf_close(s->f);
		free(s);
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "--tod: the recording has no clock data (CLOCK_DATA "
				    "feature); record with -k/--clockid");
	}
	tk_arena_init(&s->classes, 16 * 1024);
	tk_arena_init(&s->scratch, 64 * 1024);
	build_info(s, path);
	/* classes of the attrs known now (pipe mode adds more as they come),
	 * then those of the records --all converts, as perf declares them */
	for (size_t i = 0; i < tk_perf_attr_count(s->f); i++)
		if (!class_for_attr(s, tk_perf_attr_at(s->f, i), err)) {
			source_close(&s->base);
			return err->status;
		}
	for (size_t i = 0; s->opt.all_records && i < N_REC_CLASSES; i++)
		if (!class_for_record(s, i, err)) {
			source_close(&s->base);
			return err->status;
		}
	*out = &s->base;
	return TK_OK;
}
