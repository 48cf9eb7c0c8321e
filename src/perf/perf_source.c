/* The perf.data adapter: a tk_source of model events. One event class per
 * attr (named like the attr) whose payload is named like perf's own
 * `perf data convert --to-ctf` (perf_ip, perf_tid, perf_pid, perf_id, ...)
 * followed by the tracepoint's own fields; with all_records every other
 * record becomes an event too ("perf_comm", "perf_mmap2", ...).
 * Classes are built once per attr / record type; per-event values live in
 * a scratch arena reset at each event (no malloc per event). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/source_impl.h"
#include "perf/perf_internal.h"

/* ---- field classes shared by every source ---- */
#define INT_CLASS(name, bits_, sig, base_, sem)                                                    \
	static const tk_field_class name = {                                                       \
	    .kind = TK_TYPE_INT, .bits = bits_, .is_signed = sig, .base = base_, .semantic = sem}
INT_CLASS(c_ip, 64, false, 16, TK_SEM_IP);
INT_CLASS(c_addr, 64, false, 16, TK_SEM_ADDR);
INT_CLASS(c_hex, 64, false, 16, TK_SEM_NONE);
INT_CLASS(c_u64, 64, false, 10, TK_SEM_NONE);
INT_CLASS(c_u32, 32, false, 10, TK_SEM_NONE);
INT_CLASS(c_u16, 16, false, 10, TK_SEM_NONE);
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
	case M_WEIGHT: return t & (TK_PERF_SAMPLE_WEIGHT | TK_PERF_SAMPLE_WEIGHT_STRUCT);
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
} attr_class;

/* ---- non-sample records ---- */
typedef struct rec_member {
	const char *name;
	const tk_field_class *cls;
} rec_member;

/* Static tables (a compound literal in a function would not outlive it). */
#define END                                                                                        \
	{                                                                                          \
		NULL, NULL                                                                         \
	}
static const rec_member rm_mmap[] = {{"pid", &c_pid},
				     {"tid", &c_tid},
				     {"start", &c_addr},
				     {"len", &c_hex},
				     {"pgoff", &c_hex},
				     {"filename", &c_string},
				     END};
static const rec_member rm_mmap2[] = {{"pid", &c_pid},
				      {"tid", &c_tid},
				      {"start", &c_addr},
				      {"len", &c_hex},
				      {"pgoff", &c_hex},
				      {"maj", &c_u32},
				      {"min", &c_u32},
				      {"ino", &c_u64},
				      {"ino_generation", &c_u64},
				      {"prot", &c_u32},
				      {"flags", &c_u32},
				      {"filename", &c_string},
				      END};
static const rec_member rm_comm[] = {
    {"pid", &c_pid}, {"tid", &c_tid}, {"comm", &c_comm}, {"exec", &c_u32}, END};
static const rec_member rm_fork[] = {{"pid", &c_pid},  {"ppid", &c_u32},  {"tid", &c_tid},
				     {"ptid", &c_u32}, {"time", &c_time}, END};
static const rec_member rm_lost[] = {{"id", &c_id}, {"lost", &c_u64}, END};
static const rec_member rm_throttle[] = {
    {"time", &c_time}, {"id", &c_id}, {"stream_id", &c_u64}, END};
static const rec_member rm_lost_samples[] = {{"lost", &c_u64}, END};
static const rec_member rm_switch[] = {{"out", &c_u32}, {"preempt", &c_u32}, END};
static const rec_member rm_switch_wide[] = {{"out", &c_u32},
					    {"preempt", &c_u32},
					    {"next_prev_pid", &c_pid},
					    {"next_prev_tid", &c_tid},
					    END};
static const rec_member rm_ksymbol[] = {{"addr", &c_addr},     {"len", &c_u32},
					{"ksym_type", &c_u16}, {"flags", &c_u16},
					{"name", &c_string},   END};
static const rec_member rm_cgroup[] = {{"id", &c_u64}, {"path", &c_string}, END};
static const rec_member rm_itrace[] = {{"pid", &c_pid}, {"tid", &c_tid}, END};
static const rec_member rm_aux[] = {
    {"aux_offset", &c_hex}, {"aux_size", &c_u64}, {"flags", &c_hex}, END};
static const rec_member rm_other[] = {{"size", &c_u32}, END};
#undef END

static const rec_member *record_members(uint32_t type)
{
	switch (type) {
	case TK_PERF_RECORD_MMAP: return rm_mmap;
	case TK_PERF_RECORD_MMAP2: return rm_mmap2;
	case TK_PERF_RECORD_COMM: return rm_comm;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT: return rm_fork;
	case TK_PERF_RECORD_LOST: return rm_lost;
	case TK_PERF_RECORD_THROTTLE:
	case TK_PERF_RECORD_UNTHROTTLE: return rm_throttle;
	case TK_PERF_RECORD_LOST_SAMPLES: return rm_lost_samples;
	case TK_PERF_RECORD_SWITCH: return rm_switch;
	case TK_PERF_RECORD_SWITCH_CPU_WIDE: return rm_switch_wide;
	case TK_PERF_RECORD_KSYMBOL: return rm_ksymbol;
	case TK_PERF_RECORD_CGROUP: return rm_cgroup;
	case TK_PERF_RECORD_ITRACE_START: return rm_itrace;
	case TK_PERF_RECORD_AUX: return rm_aux;
	default: return rm_other;
	}
}

#define MISC_SWITCH_OUT         (1U << 13)
#define MISC_SWITCH_OUT_PREEMPT (1U << 14)
#define MISC_COMM_EXEC          (1U << 13)

typedef struct rec_class {
	tk_event_class cls;
	tk_field_class payload;
	const rec_member *rm;
	size_t n;
} rec_class;

#define N_REC_CLASSES 128 /* kernel 0..63 and user 64..127; others share slot 127 */

typedef struct perf_source {
	tk_source base;
	tk_perf_file *f;
	tk_open_options opt;
	tk_arena classes; /* classes, env: live until close */
	tk_arena scratch; /* per-event values */
	attr_class **by_attr;
	size_t n_by_attr;
	rec_class *by_type[N_REC_CLASSES];
	const tk_event_class **list;
	size_t n_list, cap_list;
	tk_clock_info clock;
	tk_stream_class stream;
	tk_event ev;
	tk_value payload;
} perf_source;

static tk_status list_add(perf_source *s, const tk_event_class *c, tk_error *err)
{
	if (s->n_list == s->cap_list) {
		size_t cap = s->cap_list ? s->cap_list * 2 : 16;
		const tk_event_class **nl = realloc(s->list, cap * sizeof *nl);
		if (!nl)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		s->list = nl;
		s->cap_list = cap;
	}
	s->list[s->n_list++] = c;
	s->base.info.event_classes = s->list;
	s->base.info.n_event_classes = s->n_list;
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
	size_t n_tp = ac->tp && ac->tp->payload ? ac->tp->payload->n_members : 0;
	tk_member *mem = tk_arena_calloc(&s->classes, ac->n_sample_members + n_tp + 1, sizeof *mem);
	if (!mem)
		goto nomem;
	for (size_t i = 0; i < ac->n_sample_members; i++)
		mem[i] = sample_members[ac->members[i]];
	for (size_t i = 0; i < n_tp; i++)
		mem[ac->n_sample_members + i] = ac->tp->payload->members[i];
	ac->payload.kind = TK_TYPE_STRUCT;
	ac->payload.members = mem;
	ac->payload.n_members = ac->n_sample_members + n_tp;
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

static rec_class *class_for_record(perf_source *s, uint32_t type, tk_error *err)
{
	unsigned slot = type < N_REC_CLASSES ? type : N_REC_CLASSES - 1;
	if (s->by_type[slot])
		return s->by_type[slot];
	rec_class *rc = tk_arena_calloc(&s->classes, 1, sizeof *rc);
	char name[64];
	const char *tn = slot == N_REC_CLASSES - 1 ? NULL : tk_perf_record_type_name(type);
	if (tn) {
		size_t k = (size_t)snprintf(name, sizeof name, "perf_%s", tn);
		for (size_t i = 5; i < k && i < sizeof name; i++)
			name[i] = (char)tolower((unsigned char)name[i]);
	} else {
		snprintf(name, sizeof name, "perf_unknown");
	}
	if (!rc || !(rc->cls.name = tk_arena_strdup(&s->classes, name))) {
		tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for event classes");
		return NULL;
	}
	rc->rm = record_members(slot == N_REC_CLASSES - 1 ? 0 : type);
	while (rc->rm[rc->n].name)
		rc->n++;
	tk_member *mem = tk_arena_calloc(&s->classes, rc->n, sizeof *mem);
	if (!mem) {
		tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for event classes");
		return NULL;
	}
	for (size_t i = 0; i < rc->n; i++)
		mem[i] = (tk_member){rc->rm[i].name, rc->rm[i].cls};
	rc->payload.kind = TK_TYPE_STRUCT;
	rc->payload.members = mem;
	rc->payload.n_members = rc->n;
	rc->cls.id = 1000000 + (uint64_t)slot;
	rc->cls.loglevel = -1;
	rc->cls.payload = &rc->payload;
	if (list_add(s, &rc->cls, err) != TK_OK)
		return NULL;
	s->by_type[slot] = rc;
	return rc;
}

static void set_int(tk_value *v, const tk_field_class *c, uint64_t u)
{
	v->cls = c;
	v->v.u = u;
}

static void set_str(tk_value *v, const tk_field_class *c, const char *str)
{
	v->cls = c;
	v->v.str.ptr = str ? str : "";
	v->v.str.len = str ? strlen(str) : 0;
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
	tk_value *vals = tk_arena_calloc(&s->scratch, n ? n : 1, sizeof *vals);
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
	if (ac->tp && ac->tp->payload) {
		const tk_perf_tp_format *fmt = ac->tp;
		tk_value *tv =
		    tk_arena_calloc(&s->scratch, fmt->n_fields ? fmt->n_fields : 1, sizeof *tv);
		if (!tv)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
		tk_error terr;
		tk_error_clear(&terr);
		if (tk_perf_tp_decode(tk_perf_get_tracing(s->f), fmt, smp.raw, smp.raw_size,
				      &s->scratch, tv, &terr) == TK_OK) {
			for (size_t i = 0; i < fmt->payload->n_members; i++)
				vals[ac->n_sample_members + i] = tv[fmt->n_common + i];
		} else {
			/* a bad RAW payload loses its fields, not the event */
			for (size_t i = 0; i < fmt->payload->n_members; i++) {
				vals[ac->n_sample_members + i].cls = fmt->payload->members[i].cls;
			}
			tk_perf_warn(s->f, "sample at 0x%llx: %s", (unsigned long long)r->offset,
				     terr.message);
		}
	}
	s->payload.cls = &ac->payload;
	s->payload.v.list.items = vals;
	s->payload.v.list.n = n;
	s->ev.cls = &ac->cls;
	if (smp.sample_type & TK_PERF_SAMPLE_CPU)
		s->ev.cpu = (int32_t)smp.cpu;
	return TK_OK;
}

static tk_status fill_record(perf_source *s, const tk_perf_record *r, tk_error *err)
{
	rec_class *rc = class_for_record(s, r->type, err);
	if (!rc)
		return err->status;
	tk_value *vals = tk_arena_calloc(&s->scratch, rc->n ? rc->n : 1, sizeof *vals);
	if (!vals)
		return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	tk_perf_event e;
	tk_error perr;
	bool typed = tk_perf_parse_event(s->f, r, &e, &perr) == TK_OK;
	if (!typed)
		memset(&e, 0, sizeof e);
	uint64_t u[12] = {0};
	const char *str = NULL;
	switch (r->type) {
	case TK_PERF_RECORD_MMAP:
		u[0] = e.u.mmap.pid, u[1] = e.u.mmap.tid, u[2] = e.u.mmap.start,
		u[3] = e.u.mmap.len;
		u[4] = e.u.mmap.pgoff, str = e.u.mmap.filename;
		break;
	case TK_PERF_RECORD_MMAP2:
		u[0] = e.u.mmap2.pid, u[1] = e.u.mmap2.tid, u[2] = e.u.mmap2.start,
		u[3] = e.u.mmap2.len;
		u[4] = e.u.mmap2.pgoff, u[5] = e.u.mmap2.maj, u[6] = e.u.mmap2.min,
		u[7] = e.u.mmap2.ino;
		u[8] = e.u.mmap2.ino_generation, u[9] = e.u.mmap2.prot, u[10] = e.u.mmap2.flags;
		str = e.u.mmap2.filename;
		break;
	case TK_PERF_RECORD_COMM:
		u[0] = e.u.comm.pid, u[1] = e.u.comm.tid, str = e.u.comm.comm;
		u[3] = (r->misc & MISC_COMM_EXEC) != 0;
		break;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		u[0] = e.u.fork.pid, u[1] = e.u.fork.ppid, u[2] = e.u.fork.tid,
		u[3] = e.u.fork.ptid;
		u[4] = e.u.fork.time;
		break;
	case TK_PERF_RECORD_LOST: u[0] = e.u.lost.id, u[1] = e.u.lost.lost; break;
	case TK_PERF_RECORD_THROTTLE:
	case TK_PERF_RECORD_UNTHROTTLE:
		u[0] = e.u.throttle.time, u[1] = e.u.throttle.id, u[2] = e.u.throttle.stream_id;
		break;
	case TK_PERF_RECORD_LOST_SAMPLES: u[0] = e.u.lost_samples.lost; break;
	case TK_PERF_RECORD_SWITCH:
	case TK_PERF_RECORD_SWITCH_CPU_WIDE:
		u[0] = (r->misc & MISC_SWITCH_OUT) != 0,
		u[1] = (r->misc & MISC_SWITCH_OUT_PREEMPT) != 0;
		u[2] = e.u.switch_cpu_wide.next_prev_pid, u[3] = e.u.switch_cpu_wide.next_prev_tid;
		break;
	case TK_PERF_RECORD_KSYMBOL:
		u[0] = e.u.ksymbol.addr, u[1] = e.u.ksymbol.len, u[2] = e.u.ksymbol.ksym_type;
		u[3] = e.u.ksymbol.flags, str = e.u.ksymbol.name;
		break;
	case TK_PERF_RECORD_CGROUP: u[0] = e.u.cgroup.id, str = e.u.cgroup.path; break;
	case TK_PERF_RECORD_ITRACE_START:
		u[0] = e.u.itrace_start.pid, u[1] = e.u.itrace_start.tid;
		break;
	case TK_PERF_RECORD_AUX:
		u[0] = e.u.aux.aux_offset, u[1] = e.u.aux.aux_size, u[2] = e.u.aux.flags;
		break;
	default: u[0] = r->size; break;
	}
	for (size_t i = 0, k = 0; i < rc->n; i++) {
		const tk_field_class *c = rc->rm[i].cls;
		if (c->kind == TK_TYPE_STRING) {
			set_str(&vals[i], c, typed ? str : NULL);
		} else if (c->is_signed) {
			vals[i].cls = c;
			vals[i].v.i = (int32_t)u[k++];
		} else {
			set_int(&vals[i], c, u[k++]);
		}
	}
	s->payload.cls = &rc->payload;
	s->payload.v.list.items = vals;
	s->payload.v.list.n = rc->n;
	s->ev.cls = &rc->cls;
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
		bool sample = r->type == TK_PERF_RECORD_SAMPLE;
		if (!sample && !s->opt.all_records)
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
		st = sample ? fill_sample(s, r, err) : fill_record(s, r, err);
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
	free(s->list);
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
	s->clock = (tk_clock_info){
	    .name = "perf_clock", .description = "perf clock", .freq = 1000000000, .precision = 1};
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
	tk_arena_init(&s->classes, 16 * 1024);
	tk_arena_init(&s->scratch, 64 * 1024);
	build_info(s, path);
	/* classes of the attrs known now; pipe mode adds more as they come */
	for (size_t i = 0; i < tk_perf_attr_count(s->f); i++)
		if (!class_for_attr(s, tk_perf_attr_at(s->f, i), err)) {
			source_close(&s->base);
			return err->status;
		}
	*out = &s->base;
	return TK_OK;
}
