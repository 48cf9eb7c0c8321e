/* perf script's side-band record lines (perf 6.1 builtin-script.c
 * print_event_with_time + util/event.c perf_event__fprintf), by hand
 * formatting: no printf, no allocation. */
#include <string.h>

#include "output/perf_script_events.h"

enum {
	MISC_COMM_EXEC = 1u << 13,     /* COMM: the comm changed by exec */
	MISC_MMAP_DATA = 1u << 13,     /* MMAP: a data (non-exec) mapping */
	MISC_SWITCH_OUT = 1u << 13,    /* SWITCH: out, not in */
	MISC_MMAP_BUILD_ID = 1u << 14, /* MMAP2 carries a build id */
	MISC_SWITCH_PREEMPT = 1u << 14,
	MMAP_PROT_READ = 1, /* PROT_* and MAP_SHARED as the kernel records them */
	MMAP_PROT_WRITE = 2,
	MMAP_PROT_EXEC = 4,
	MMAP_FLAG_SHARED = 1,
	SW_DUMMY = 9, /* PERF_COUNT_SW_DUMMY */
};

bool tk_perf_script_shows(unsigned show, uint32_t type)
{
	switch (type) {
	case TK_PERF_RECORD_COMM:
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT: return show & TK_SHOW_TASK_EVENTS;
	case TK_PERF_RECORD_MMAP:
	case TK_PERF_RECORD_MMAP2: return show & TK_SHOW_MMAP_EVENTS;
	case TK_PERF_RECORD_SWITCH:
	case TK_PERF_RECORD_SWITCH_CPU_WIDE: return show & TK_SHOW_SWITCH_EVENTS;
	/* perf 6.1 prints LOST only; LOST_SAMPLES stays silent */
	case TK_PERF_RECORD_LOST: return show & TK_SHOW_LOST_EVENTS;
	case TK_PERF_RECORD_NAMESPACES: return show & TK_SHOW_NAMESPACE_EVENTS;
	case TK_PERF_RECORD_CGROUP: return show & TK_SHOW_CGROUP_EVENTS;
	case TK_PERF_RECORD_KSYMBOL: return show & (TK_SHOW_BPF_EVENTS | TK_SHOW_TEXT_POKE_EVENTS);
	case TK_PERF_RECORD_BPF_EVENT: return show & TK_SHOW_BPF_EVENTS;
	case TK_PERF_RECORD_TEXT_POKE: return show & TK_SHOW_TEXT_POKE_EVENTS;
	case TK_PERF_RECORD_FINISHED_ROUND: return show & TK_SHOW_ROUND_EVENTS;
	default: return false;
	}
}

/* ---- which evsel, which fields (perf_sample__fprintf_start) ---- */

static bool has_callchain(const tk_perf_attr *a)
{
	return (a->sample_type & TK_PERF_SAMPLE_CALLCHAIN) != 0;
}

static bool attr_owns_id(const tk_perf_attr *a, uint64_t id)
{
	for (size_t i = 0; i < a->n_ids; i++)
		if (a->ids[i] == id)
			return true;
	return false;
}

/* evlist__id2evsel(evlist, sample->id): one attr or id 0 (synthesized
 * records) -> the first; a known id -> its attr; otherwise the first
 * without sample_id_all, and none (the line then has no comm/tid/time
 * columns) with it. sample->id is the trailer's ID or IDENTIFIER, -1
 * when it has neither. */
static const tk_perf_attr *print_attr(const tk_perf_file *f, const tk_perf_record *rec)
{
	size_t n = tk_perf_attr_count(f);
	if (n == 0)
		return NULL;
	const tk_perf_attr *first = tk_perf_attr_at(f, 0);
	if (n == 1)
		return first;
	bool id_all = tk_perf_attr_flag(first, TK_PERF_ATTR_SAMPLE_ID_ALL);
	uint64_t id = UINT64_MAX;
	if (id_all && (rec->sid.present & TK_PERF_SAMPLE_ID))
		id = rec->sid.id;
	else if (id_all && (rec->sid.present & TK_PERF_SAMPLE_IDENTIFIER))
		id = rec->sid.identifier;
	if (id == 0)
		return first;
	if (rec->attr && attr_owns_id(rec->attr, id))
		return rec->attr;
	for (size_t i = 0; i < n; i++) {
		const tk_perf_attr *a = tk_perf_attr_at(f, i);
		if (attr_owns_id(a, id))
			return a;
	}
	return id_all ? NULL : first;
}

typedef struct start_fields {
	bool tid, cpu, time;
	bool comm_unpadded; /* the callchain layout: "%s " instead of "%16s " */
} start_fields;

/* perf decides the columns per event type from the first attr of that
 * type (perf_session__check_output_opt), as the sample printer does; the
 * comm loses its padding when the record's own attr has callchains. */
static start_fields fields_for(const tk_perf_file *f, const tk_perf_attr *a)
{
	size_t n = tk_perf_attr_count(f);
	uint64_t st = a->sample_type;
	bool use_callchain = false, tp_callchain = false, first_found = false;
	bool first_is_dummy = false;
	for (size_t i = 0; i < n; i++) {
		const tk_perf_attr *o = tk_perf_attr_at(f, i);
		if (!first_found && o->type == a->type) {
			st = o->sample_type;
			first_found = true;
			first_is_dummy = o->type == TK_PERF_TYPE_SOFTWARE && o->config == SW_DUMMY;
		}
		if (has_callchain(o)) {
			use_callchain = true;
			if (o->type == TK_PERF_TYPE_TRACEPOINT)
				tp_callchain = true;
		}
	}
	/* evsel__check_attr skips dummy events: when the first of its type is
	 * one, nothing is dropped and a missing cpu prints as [-01] */
	if (first_is_dummy)
		st |= TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_CPU | TK_PERF_SAMPLE_TIME |
		      TK_PERF_SAMPLE_IP;
	start_fields sf = {
	    .tid = (st & TK_PERF_SAMPLE_TID) != 0,
	    .cpu = (st & TK_PERF_SAMPLE_CPU) != 0,
	    .time = (st & TK_PERF_SAMPLE_TIME) != 0,
	};
	/* tracepoints print ip only when one of them has callchains */
	bool ip = (st & TK_PERF_SAMPLE_IP) != 0;
	if (a->type == TK_PERF_TYPE_TRACEPOINT)
		ip = ip && tp_callchain;
	sf.comm_unpadded = ip && has_callchain(a) && use_callchain;
	return sf;
}

/* What perf's struct perf_sample holds for a non-sample record. */
typedef struct sb_sample {
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
} sb_sample;

/* ---- formatting helpers ---- */

static void put_i32(tk_writer *w, uint32_t v)
{
	tk_put_i64(w, (int32_t)v);
}

/* "%#lx": "0" for zero, else 0x and lowercase digits */
static void put_alt_hex(tk_writer *w, uint64_t v)
{
	if (v)
		tk_put_mem(w, "0x", 2);
	tk_put_hex(w, v);
}

/* "%-<width>d" */
static void put_i32_left(tk_writer *w, uint32_t v, unsigned width)
{
	uint64_t before = tk_writer_tell(w);
	put_i32(w, v);
	uint64_t n = tk_writer_tell(w) - before;
	if (n < width)
		tk_put_spaces(w, (unsigned)(width - n));
}

/* "[%03d] " */
static void put_cpu(tk_writer *w, uint32_t cpu)
{
	int32_t c = (int32_t)cpu;
	tk_put_char(w, '[');
	if (c < 0) {
		tk_put_char(w, '-');
		tk_put_u64_pad(w, (uint64_t)0 - (uint64_t)(int64_t)c, 2, '0');
	} else {
		tk_put_u64_pad(w, (uint64_t)c, 3, '0');
	}
	tk_put_mem(w, "] ", 2);
}

/* timestamp__scnprintf_usec right-aligned in 12, then ": " */
static void put_time(tk_writer *w, uint64_t t)
{
	char buf[48];
	size_t n = tk_fmt_u64(buf, t / 1000000000u);
	uint64_t usec = (t % 1000000000u) / 1000u;
	buf[n++] = '.';
	for (int i = 5; i >= 0; i--) {
		buf[n + (size_t)i] = (char)('0' + usec % 10);
		usec /= 10;
	}
	n += 6;
	if (n < 12)
		tk_put_spaces(w, (unsigned)(12 - n));
	tk_put_mem(w, buf, n);
	tk_put_mem(w, ": ", 2);
}

static void put_start(tk_writer *w, const start_fields *sf, const tk_thread *th, const sb_sample *s)
{
	const char *comm = th ? th->comm : ":-1";
	size_t len = strlen(comm);
	if (!sf->comm_unpadded && len < 16)
		tk_put_spaces(w, (unsigned)(16 - len));
	tk_put_mem(w, comm, len);
	tk_put_char(w, ' ');
	if (sf->tid) {
		tk_put_i64_pad(w, s->tid, 5);
		tk_put_char(w, ' ');
	}
	if (sf->cpu)
		put_cpu(w, s->cpu);
	if (sf->time)
		put_time(w, s->time);
}

/* ---- record bodies (perf_event__fprintf_*) ---- */

static const char *ns_name(uint32_t idx)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
	return idx < sizeof names / sizeof names[0] ? names[idx] : "UNKNOWN";
}

static void put_namespaces(tk_writer *w, const tk_perf_event *ev, bool swap)
{
	uint32_t nr = (uint32_t)ev->u.namespaces.nr;
	tk_put_char(w, ' ');
	put_i32(w, ev->u.namespaces.pid);
	tk_put_char(w, '/');
	put_i32(w, ev->u.namespaces.tid);
	tk_put_str(w, " - nr_namespaces: ");
	tk_put_u64(w, nr);
	tk_put_str(w, "\n\t\t[");
	for (uint32_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			tk_put_str(w, "\n\t\t ");
		tk_put_u64(w, i);
		tk_put_char(w, '/');
		tk_put_str(w, ns_name(i));
		tk_put_str(w, ": ");
		tk_put_u64(w, tk_perf_u64_at(ev->u.namespaces.entries, 2 * (size_t)i, swap));
		tk_put_char(w, '/');
		put_alt_hex(w, tk_perf_u64_at(ev->u.namespaces.entries, 2 * (size_t)i + 1, swap));
		tk_put_str(w, i + 1 != nr ? ", " : "]\n");
	}
}

static void put_mmap(tk_writer *w, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
		     uint64_t pgoff)
{
	tk_put_char(w, ' ');
	put_i32(w, pid);
	tk_put_char(w, '/');
	put_i32(w, tid);
	tk_put_str(w, ": [");
	put_alt_hex(w, start);
	tk_put_char(w, '(');
	put_alt_hex(w, len);
	tk_put_str(w, ") @ ");
	put_alt_hex(w, pgoff);
}

static void put_mmap2(tk_writer *w, const tk_perf_record *rec, const tk_perf_event *ev)
{
	put_mmap(w, ev->u.mmap2.pid, ev->u.mmap2.tid, ev->u.mmap2.start, ev->u.mmap2.len,
		 ev->u.mmap2.pgoff);
	if (rec->misc & MISC_MMAP_BUILD_ID) {
		tk_put_str(w, " <");
		for (unsigned i = 0; i < ev->u.mmap2.build_id_size; i++)
			tk_put_hex_pad(w, ev->u.mmap2.build_id[i], 2);
		tk_put_char(w, '>');
	} else {
		tk_put_char(w, ' ');
		tk_put_hex_pad(w, ev->u.mmap2.maj, 2);
		tk_put_char(w, ':');
		tk_put_hex_pad(w, ev->u.mmap2.min, 2);
		tk_put_char(w, ' ');
		tk_put_u64(w, ev->u.mmap2.ino);
		tk_put_char(w, ' ');
		tk_put_u64(w, ev->u.mmap2.ino_generation);
	}
	char prot[4] = {
	    ev->u.mmap2.prot & MMAP_PROT_READ ? 'r' : '-',
	    ev->u.mmap2.prot & MMAP_PROT_WRITE ? 'w' : '-',
	    ev->u.mmap2.prot & MMAP_PROT_EXEC ? 'x' : '-',
	    ev->u.mmap2.flags & MMAP_FLAG_SHARED ? 's' : 'p',
	};
	tk_put_str(w, "]: ");
	tk_put_mem(w, prot, 4);
	tk_put_char(w, ' ');
	tk_put_str(w, ev->u.mmap2.filename);
	tk_put_char(w, '\n');
}

static void put_switch(tk_writer *w, const tk_perf_record *rec, const tk_perf_event *ev)
{
	bool out = rec->misc & MISC_SWITCH_OUT;
	const char *in_out = !out                                 ? "IN         "
			     : !(rec->misc & MISC_SWITCH_PREEMPT) ? "OUT        "
								  : "OUT preempt";
	tk_put_char(w, ' ');
	tk_put_str(w, in_out);
	if (rec->type == TK_PERF_RECORD_SWITCH) {
		tk_put_char(w, '\n');
		return;
	}
	tk_put_str(w, out ? "  next pid/tid: " : "  prev pid/tid: ");
	tk_put_i64_pad(w, (int32_t)ev->u.switch_cpu_wide.next_prev_pid, 5);
	tk_put_char(w, '/');
	put_i32_left(w, ev->u.switch_cpu_wide.next_prev_tid, 5);
	tk_put_char(w, '\n');
}

/* binary__fprintf with text_poke_printer: 16 bytes a line */
static void put_poke_bytes(tk_writer *w, const char *label, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i % 16 == 0) {
			tk_put_str(w, "            ");
			tk_put_str(w, label);
			tk_put_str(w, " bytes:");
		}
		tk_put_char(w, ' ');
		tk_put_hex_pad(w, p[i], 2);
		if (i % 16 == 15 || i == n - 1)
			tk_put_char(w, '\n');
	}
}

static void put_text_poke(tk_writer *w, tk_threads *t, const tk_perf_event *ev)
{
	tk_put_char(w, ' ');
	tk_put_hex(w, ev->u.text_poke.addr);
	tk_put_char(w, ' ');
	/* perf looks the address up in the kernel maps: "sym+0xoff" */
	tk_thread *idle = tk_threads_findnew(t, 0, 0);
	if (idle) {
		tk_addr_loc loc;
		tk_threads_resolve(t, idle, TK_CPUMODE_KERNEL, ev->u.text_poke.addr, &loc);
		if (loc.map && loc.name) {
			tk_put_mem(w, loc.name, loc.name_len);
			tk_put_str(w, "+0x");
			tk_put_hex(w, loc.sym_off);
		}
	}
	tk_put_str(w, " old len ");
	tk_put_u64(w, ev->u.text_poke.old_len);
	tk_put_str(w, " new len ");
	tk_put_u64(w, ev->u.text_poke.new_len);
	tk_put_char(w, '\n');
	put_poke_bytes(w, "Old", ev->u.text_poke.bytes, ev->u.text_poke.old_len);
	put_poke_bytes(w, "New", ev->u.text_poke.bytes + ev->u.text_poke.old_len,
		       ev->u.text_poke.new_len);
}

/* perf_event__fprintf: "PERF_RECORD_<NAME>" and the type's details. */
static void put_body(tk_writer *w, tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
		     const tk_perf_event *ev)
{
	switch (rec->type) {
	case TK_PERF_RECORD_COMM:
		tk_put_str(w, "PERF_RECORD_COMM");
		if (rec->misc & MISC_COMM_EXEC)
			tk_put_str(w, " exec");
		tk_put_str(w, ": ");
		tk_put_str(w, ev->u.comm.comm);
		tk_put_char(w, ':');
		put_i32(w, ev->u.comm.pid);
		tk_put_char(w, '/');
		put_i32(w, ev->u.comm.tid);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		tk_put_str(w, rec->type == TK_PERF_RECORD_FORK ? "PERF_RECORD_FORK("
							       : "PERF_RECORD_EXIT(");
		put_i32(w, ev->u.fork.pid);
		tk_put_char(w, ':');
		put_i32(w, ev->u.fork.tid);
		tk_put_str(w, "):(");
		put_i32(w, ev->u.fork.ppid);
		tk_put_char(w, ':');
		put_i32(w, ev->u.fork.ptid);
		tk_put_str(w, ")\n");
		break;
	case TK_PERF_RECORD_MMAP:
		tk_put_str(w, "PERF_RECORD_MMAP");
		put_mmap(w, ev->u.mmap.pid, ev->u.mmap.tid, ev->u.mmap.start, ev->u.mmap.len,
			 ev->u.mmap.pgoff);
		tk_put_str(w, (rec->misc & MISC_MMAP_DATA) ? "]: r " : "]: x ");
		tk_put_str(w, ev->u.mmap.filename);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_MMAP2:
		tk_put_str(w, "PERF_RECORD_MMAP2");
		put_mmap2(w, rec, ev);
		break;
	case TK_PERF_RECORD_SWITCH:
		tk_put_str(w, "PERF_RECORD_SWITCH");
		put_switch(w, rec, ev);
		break;
	case TK_PERF_RECORD_SWITCH_CPU_WIDE:
		tk_put_str(w, "PERF_RECORD_SWITCH_CPU_WIDE");
		put_switch(w, rec, ev);
		break;
	case TK_PERF_RECORD_LOST:
		tk_put_str(w, "PERF_RECORD_LOST lost ");
		tk_put_u64(w, ev->u.lost.lost);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_NAMESPACES:
		tk_put_str(w, "PERF_RECORD_NAMESPACES");
		put_namespaces(w, ev, tk_perf_get_header(f)->swap);
		break;
	case TK_PERF_RECORD_CGROUP:
		tk_put_str(w, "PERF_RECORD_CGROUP cgroup: ");
		tk_put_u64(w, ev->u.cgroup.id);
		tk_put_char(w, ' ');
		tk_put_str(w, ev->u.cgroup.path);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_KSYMBOL:
		tk_put_str(w, "PERF_RECORD_KSYMBOL addr ");
		tk_put_hex(w, ev->u.ksymbol.addr);
		tk_put_str(w, " len ");
		tk_put_u64(w, ev->u.ksymbol.len);
		tk_put_str(w, " type ");
		tk_put_u64(w, ev->u.ksymbol.ksym_type);
		tk_put_str(w, " flags 0x");
		tk_put_hex(w, ev->u.ksymbol.flags);
		tk_put_str(w, " name ");
		tk_put_str(w, ev->u.ksymbol.name);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_BPF_EVENT:
		tk_put_str(w, "PERF_RECORD_BPF_EVENT type ");
		tk_put_u64(w, ev->u.bpf_event.type);
		tk_put_str(w, ", flags ");
		tk_put_u64(w, ev->u.bpf_event.flags);
		tk_put_str(w, ", id ");
		tk_put_u64(w, ev->u.bpf_event.id);
		tk_put_char(w, '\n');
		break;
	case TK_PERF_RECORD_TEXT_POKE:
		tk_put_str(w, "PERF_RECORD_TEXT_POKE");
		put_text_poke(w, t, ev);
		break;
	default: break;
	}
}

/* ---- the record ---- */

/* The pid/tid perf's handler passes to print_event: the record's own for
 * COMM, FORK, EXIT, MMAP(2), NAMESPACES; the sample's for the rest. */
static void record_task(const tk_perf_record *rec, const tk_perf_event *ev, int32_t *pid,
			int32_t *tid, uint64_t *timestamp)
{
	*timestamp = 0;
	switch (rec->type) {
	case TK_PERF_RECORD_COMM:
		*pid = (int32_t)ev->u.comm.pid;
		*tid = (int32_t)ev->u.comm.tid;
		return;
	case TK_PERF_RECORD_FORK:
	case TK_PERF_RECORD_EXIT:
		*pid = (int32_t)ev->u.fork.pid;
		*tid = (int32_t)ev->u.fork.tid;
		*timestamp = ev->u.fork.time;
		return;
	case TK_PERF_RECORD_MMAP:
		*pid = (int32_t)ev->u.mmap.pid;
		*tid = (int32_t)ev->u.mmap.tid;
		return;
	case TK_PERF_RECORD_MMAP2:
		*pid = (int32_t)ev->u.mmap2.pid;
		*tid = (int32_t)ev->u.mmap2.tid;
		return;
	case TK_PERF_RECORD_NAMESPACES:
		*pid = (int32_t)ev->u.namespaces.pid;
		*tid = (int32_t)ev->u.namespaces.tid;
		return;
	default: return; /* keep the sample's */
	}
}

/* print_event_with_time */
static void print_record(tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
			 const tk_perf_event *ev, const tk_render_options *opt, tk_writer *w)
{
	sb_sample s = {
	    .pid = (rec->sid.present & TK_PERF_SAMPLE_TID) ? (int32_t)rec->sid.pid : -1,
	    .tid = (rec->sid.present & TK_PERF_SAMPLE_TID) ? (int32_t)rec->sid.tid : -1,
	    .cpu = (rec->sid.present & TK_PERF_SAMPLE_CPU) ? rec->sid.cpu : UINT32_MAX,
	    .time = (rec->sid.present & TK_PERF_SAMPLE_TIME) ? rec->sid.time : UINT64_MAX,
	};
	int32_t pid = s.pid, tid = s.tid;
	uint64_t timestamp;
	record_task(rec, ev, &pid, &tid, &timestamp);
	const tk_perf_attr *a = print_attr(f, rec);
	if (a && !tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL)) {
		/* no trailer: perf shows cpu 0, the record's task and time */
		s.cpu = 0;
		s.time = timestamp;
		s.pid = pid;
		s.tid = tid;
	}
	/* filter_cpu: the only filter perf script applies to these */
	if (s.cpu != UINT32_MAX && !tk_id_set_has(&opt->cpu, (int64_t)s.cpu))
		return;
	tk_thread *th = tid != -1 ? tk_threads_findnew(t, pid, tid) : NULL;
	if (a) {
		start_fields sf = fields_for(f, a);
		put_start(w, &sf, th, &s);
	}
	put_body(w, t, f, rec, ev);
}

tk_status tk_perf_script_side_band(tk_threads *t, const tk_perf_file *f, const tk_perf_record *rec,
				   const tk_render_options *opt, tk_writer *w, tk_error *err)
{
	if (!tk_perf_script_shows(opt->script_show, rec->type))
		return tk_threads_process(t, f, rec, err);
	if (rec->type == TK_PERF_RECORD_FINISHED_ROUND) {
		/* process_finished_round_event: the name alone, no columns */
		tk_put_str(w, "PERF_RECORD_FINISHED_ROUND\n");
		return TK_OK;
	}
	tk_perf_event ev;
	tk_status st = tk_perf_parse_event(f, rec, &ev, err);
	if (st != TK_OK)
		return st;
	/* EXIT is printed before the thread model sees it ("print before
	 * 'exit' deletes anything"); every other record after. */
	if (rec->type != TK_PERF_RECORD_EXIT && (st = tk_threads_process(t, f, rec, err)) != TK_OK)
		return st;
	print_record(t, f, rec, &ev, opt, w);
	if (rec->type == TK_PERF_RECORD_EXIT)
		st = tk_threads_process(t, f, rec, err);
	return st;
}
