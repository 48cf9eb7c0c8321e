/* perf script's default sample output (builtin-script.c process_event,
 * perf_sample__fprintf_start, util/evsel_fprintf.c sample__fprintf_sym and
 * sample__fprintf_callchain), reproduced with hand formatting. */
#include <stdlib.h>
#include <string.h>

#include "session/session_events.h"
#include "context/perf_callchain.h"
#include "analysis/perf_unwind.h"
#include "base/hashmap.h"
#include "model/filter.h"
#include "output/perf_script_bpf.h"
#include "output/perf_script.h"
#include "output/perf_script_events.h"
#include "output/perf_script_lines.h"
#include "output/print_lanes.h"

/* Output flushed at sample boundaries past this many bytes. */
#define SCRIPT_FLUSH_BYTES (64u * 1024)

/* What perf script prints for one event (its output[type].fields after
 * the fields the attr cannot provide were dropped). */
typedef struct evsel_out {
	bool ready;
	bool comm, tid, cpu, time, period, ip, trace;
	bool callchain;   /* IP with a callchain: multi-line block */
	const char *name; /* as perf names the event (see event_name) */
	size_t name_len;
	char name_buf[160];
	const tk_perf_tp_format *fmt;
} evsel_out;

typedef struct script {
	tk_writer *w; /* where lines go: out, or pending */
	/* the caller's writer, and the memory the output waits in while the
	 * kernel's symbols load (kernel frames deferred: perf_script_lines.h) */
	tk_writer *out, *pending;
	tk_perf_file *f;
	tk_threads threads;
	evsel_out *outs;
	size_t n_outs;
	unsigned name_width;
	bool use_callchain;
	bool decided_callchain;
	bool dwarf_unwind; /* perf's CALLCHAIN_DWARF record mode (perf_unwind.h) */
	char *tp_buf;
	size_t tp_cap;
	tk_log_fn log;
	void *log_user;
	bool warned_tp;
	bool ksym_set;
	tk_filter filter;
	tk_line_cache lines;
	/* the thread of the previous sample: samples come in runs per
	 * thread; forgotten whenever a non-sample record is processed */
	tk_thread *last_th;
	int32_t last_pid, last_tid;
	/* pieces of the sample line kept from the previous sample; the
	 * prefix is forgotten with last_th */
	bool prefix_valid;
	const tk_thread *prefix_th;
	const evsel_out *prefix_o;
	int32_t prefix_tid;
	char prefix[64];
	size_t prefix_len;
	uint64_t sec, period;
	char sec_text[24], period_text[32];
	size_t sec_len, period_len;
	tk_hashmap attr_of_id; /* sample id -> attr index + 1 (PERF_SAMPLE_READ) */
	size_t attrs_mapped;
	tk_hashmap last_value; /* sample id -> last counter value */
	const tk_render_options *opt;
	uint64_t n;                         /* samples printed */
	uint64_t unwound[TK_CALLCHAIN_MAX]; /* the sample's DWARF-unwound user frames */
	tk_lane_cursor lane; /* two lanes: which chunks this one prints (print_lanes.h) */
} script;

/* ---- formatting helpers (no printf) ---- */

static void put_pad_left(tk_writer *w, const char *s, size_t n, unsigned width)
{
	size_t pad = n < width ? width - n : 0;
	if (!tk_writer_reserve(w, pad + n))
		return;
	memset(w->buf + w->pos, ' ', pad);
	memcpy(w->buf + w->pos + pad, s, n);
	w->pos += pad + n;
}

/* "%16" PRIx64 */
static void put_hex16(tk_writer *w, uint64_t v)
{
	char buf[16];
	size_t n = 0;
	do {
		buf[15 - n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	put_pad_left(w, buf + 16 - n, n, 16);
}

/* "sym+0xoff (dso)" or "[unknown] (dso)": one reservation, memcpy only */
static void put_sym_dso(script *s, const tk_addr_loc *loc)
{
	tk_writer *w = s->w;
	size_t dso_len = loc->map ? loc->map->dso->name_len : 9;
	size_t name_len = loc->name ? loc->name_len : 9;
	if (!tk_writer_reserve(w, name_len + dso_len + 24))
		return;
	w->pos = (size_t)(tk_script_sym_dso(w->buf + w->pos, loc) - w->buf);
}

/* ---- per-event field selection ---- */

static bool has_callchain(const tk_perf_attr *a)
{
	return (a->sample_type & TK_PERF_SAMPLE_CALLCHAIN) != 0;
}

static void event_name(const script *s, const tk_perf_attr *a, evsel_out *o);

static void decide_callchain(script *s)
{
	/* perf_session__check_output_opt: callchains are shown only when some
	 * event has them; computed once, from the attrs known at the first sample */
	s->decided_callchain = true;
	s->use_callchain = false;
	size_t n = tk_perf_attr_count(s->f);
	for (size_t i = 0; i < n; i++) {
		const tk_perf_attr *a = tk_perf_attr_at(s->f, i);
		evsel_out named;
		event_name(s, a, &named);
		size_t len = named.name_len;
		if (len > s->name_width)
			s->name_width = (unsigned)len;
		if (has_callchain(a))
			s->use_callchain = true;
	}
	/* script__setup_sample_type: user regs and stack in the combined
	 * sample type make the callchains DWARF-unwound */
	s->dwarf_unwind = tk_perf_unwind_wanted(s->f);
}

static void event_name(const script *s, const tk_perf_attr *a, evsel_out *o)
{
	o->name = tk_perf_event_name(s->f, a, o->name_buf, sizeof o->name_buf);
	o->name_len = strlen(o->name);
}

static evsel_out *out_for(script *s, const tk_perf_attr *a)
{
	if (a->index >= s->n_outs) {
		size_t n = a->index + 8;
		evsel_out *no = realloc(s->outs, n * sizeof *no);
		if (!no)
			return NULL;
		memset(no + s->n_outs, 0, (n - s->n_outs) * sizeof *no);
		s->outs = no;
		s->n_outs = n;
	}
	evsel_out *o = &s->outs[a->index];
	if (o->ready)
		return o;
	/* perf decides the fields per event type, from the first event of
	 * that type (perf_session__find_first_evtype), and drops a default
	 * field that event does not sample. PERIOD is not checked: without it
	 * the attr's fixed period is printed. */
	uint64_t st = a->sample_type;
	size_t n_attrs = tk_perf_attr_count(s->f);
	for (size_t i = 0; i < n_attrs; i++) {
		const tk_perf_attr *first = tk_perf_attr_at(s->f, i);
		if (first->type == a->type) {
			st = first->sample_type;
			break;
		}
	}
	o->ready = true;
	event_name(s, a, o);
	o->comm = true;
	o->tid = (st & TK_PERF_SAMPLE_TID) != 0;
	o->cpu = (st & TK_PERF_SAMPLE_CPU) != 0;
	o->time = (st & TK_PERF_SAMPLE_TIME) != 0;
	if (a->type == TK_PERF_TYPE_TRACEPOINT) {
		o->trace = true;
		const tk_perf_tracing *tr = tk_perf_get_tracing(s->f);
		o->fmt = tr ? tk_perf_tracing_format(tr, a->config) : NULL;
		/* a tracepoint with a callchain gets ip, sym and dso too */
		o->ip = has_callchain(a) && (st & TK_PERF_SAMPLE_IP);
	} else {
		o->period = true;
		o->ip = (st & TK_PERF_SAMPLE_IP) != 0;
	}
	o->callchain = o->ip && has_callchain(a) && s->use_callchain;
	return o;
}

/* ---- the sample ---- */

/* v in decimal, right-aligned in width with pad; returns the end. */
static char *fmt_u64_pad(char *p, uint64_t v, unsigned width, char pad)
{
	char tmp[24];
	size_t n = tk_fmt_u64(tmp, v);
	if (n < width) {
		memset(p, pad, width - n);
		p += width - n;
	}
	memcpy(p, tmp, n);
	return p + n;
}

/* "%<width>d" */
static char *fmt_i32_pad(char *p, int32_t v, unsigned width)
{
	char tmp[24];
	size_t n;
	if (v < 0) {
		tmp[0] = '-';
		n = 1 + tk_fmt_u64(tmp + 1, (uint64_t)0 - (uint64_t)(int64_t)v);
	} else {
		n = tk_fmt_u64(tmp, (uint64_t)v);
	}
	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	memcpy(p, tmp, n);
	return p + n;
}

/* v (< 100) as two digits */
static void put_2digits(char *p, uint32_t v)
{
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
}

/* "comm tid " (comm padded to 16 without a callchain), kept while the
 * thread stays the same: samples come in runs per thread. */
static void make_prefix(script *s, const evsel_out *o, const tk_thread *th, int32_t tid)
{
	const char *comm = th ? th->comm : ":-1";
	size_t comm_len = strnlen(comm, 32);
	char *p = s->prefix;
	if (!o->callchain && comm_len < 16) {
		memset(p, ' ', 16 - comm_len);
		p += 16 - comm_len;
	}
	memcpy(p, comm, comm_len);
	p += comm_len;
	*p++ = ' ';
	if (o->tid) {
		p = fmt_i32_pad(p, tid, 5);
		*p++ = ' ';
	}
	s->prefix_len = (size_t)(p - s->prefix);
	s->prefix_th = th;
	s->prefix_tid = tid;
	s->prefix_o = o;
	s->prefix_valid = true;
}

/* perf_sample__fprintf_start and the event name: everything before the
 * trace fields / ip, in one reservation. The parts that repeat from one
 * sample to the next (thread, second, period) are formatted once. */
static void put_sample_start(script *s, const evsel_out *o, const tk_thread *th,
			     const tk_perf_sample *sp, uint64_t period)
{
	tk_writer *w = s->w;
	int32_t tid = (int32_t)sp->tid;
	if (!s->prefix_valid || s->prefix_th != th || s->prefix_tid != tid || s->prefix_o != o)
		make_prefix(s, o, th, tid);
	size_t name_len = o->name_len;
	size_t bound = sizeof s->prefix + 8 + 48 + 24 + name_len + s->name_width + 2;
	if (!tk_writer_reserve(w, bound))
		return;
	char *p = w->buf + w->pos;
	memcpy(p, s->prefix, s->prefix_len);
	p += s->prefix_len;
	if (o->cpu) {
		*p++ = '[';
		if (sp->cpu < 1000) {
			*p++ = (char)('0' + sp->cpu / 100);
			put_2digits(p, sp->cpu % 100);
			p += 2;
		} else {
			p = fmt_u64_pad(p, sp->cpu, 3, '0');
		}
		*p++ = ']';
		*p++ = ' ';
	}
	if (o->time) {
		/* timestamp__scnprintf_usec then "%12s: " */
		uint64_t sec = sp->time / 1000000000u;
		if (sec != s->sec || !s->sec_len) {
			s->sec = sec;
			s->sec_len = tk_fmt_u64(s->sec_text, sec);
		}
		uint32_t usec = (uint32_t)((sp->time % 1000000000u) / 1000u);
		size_t n = s->sec_len + 7;
		if (n < 12) {
			memset(p, ' ', 12 - n);
			p += 12 - n;
		}
		memcpy(p, s->sec_text, s->sec_len);
		p += s->sec_len;
		*p++ = '.';
		put_2digits(p, usec / 10000);
		put_2digits(p + 2, usec / 100 % 100);
		put_2digits(p + 4, usec % 100);
		p += 6;
		*p++ = ':';
		*p++ = ' ';
	}
	if (o->period) {
		if (period != s->period || !s->period_len) {
			s->period = period;
			char *e = fmt_u64_pad(s->period_text, period, 10, ' ');
			*e++ = ' ';
			s->period_len = (size_t)(e - s->period_text);
		}
		memcpy(p, s->period_text, s->period_len);
		p += s->period_len;
	}
	if (name_len < s->name_width) {
		memset(p, ' ', s->name_width - name_len);
		p += s->name_width - name_len;
	}
	memcpy(p, o->name, name_len);
	p += name_len;
	*p++ = ':';
	*p++ = ' ';
	w->pos = (size_t)(p - w->buf);
}

/* %pS / %ps in print fmts: perf resolves them through its kernel map
 * (kallsyms here), so "function=tick_nohz_handler" rather than hex. */
static const char *ksym_lookup(void *user, uint64_t addr, uint64_t *start)
{
	script *s = user;
	const tk_symtab *k = tk_symcache_kernel(s->threads.symbols);
	const tk_symbol *sym = k ? tk_symtab_lookup(k, addr, NULL) : NULL;
	if (!sym)
		return NULL;
	*start = sym->start;
	return sym->name;
}

static tk_status put_trace(script *s, const evsel_out *o, const tk_perf_sample *smp,
			   const tk_perf_record *rec, tk_error *err)
{
	if (!o->fmt || !smp->raw) {
		return TK_OK;
	}
	const tk_perf_tracing *tr = tk_perf_get_tracing(s->f);
	if (!s->ksym_set) {
		/* the handle is the file's; the resolver is the one mutable
		 * setting it has, made for this use */
		tk_perf_tracing_set_ksym_resolver((tk_perf_tracing *)tr, ksym_lookup, s);
		s->ksym_set = true;
	}
	size_t len = 0;
	tk_error e2 = {0};
	tk_status st = tk_perf_tp_render(tr, o->fmt, smp->raw, smp->raw_size, (int)smp->cpu,
					 s->tp_buf, s->tp_cap, &len, &e2);
	if (st == TK_OK && len >= s->tp_cap) {
		/* rare: a rendering longer than the buffer; grow once and redo */
		size_t cap = len + 1;
		char *nb = realloc(s->tp_buf, cap);
		if (!nb)
			return tk_error_set(err, TK_ERR_NOMEM, rec->offset,
					    "out of memory rendering a tracepoint");
		s->tp_buf = nb;
		s->tp_cap = cap;
		st = tk_perf_tp_render(tr, o->fmt, smp->raw, smp->raw_size, (int)smp->cpu,
				       s->tp_buf, s->tp_cap, &len, &e2);
	}
	if (st != TK_OK) {
		if (!s->warned_tp && s->log) {
			s->warned_tp = true;
			s->log(s->log_user, 0, e2.message);
		}
		return TK_OK;
	}
	tk_put_mem(s->w, s->tp_buf, len);
	return TK_OK;
}

static tk_status print_one(script *s, const tk_perf_record *rec, const tk_perf_sample *sp,
			   const tk_perf_attr *a, uint64_t period, tk_error *err)
{
	tk_status st;
	if (!s->decided_callchain)
		decide_callchain(s);
	evsel_out *o = out_for(s, a);
	if (!o)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	bool has_tid = (sp->sample_type & TK_PERF_SAMPLE_TID) != 0;
	int32_t pid = has_tid ? (int32_t)sp->pid : -1, tid = has_tid ? (int32_t)sp->tid : -1;
	tk_thread *th = s->last_th;
	if (!th || pid != s->last_pid || tid != s->last_tid) {
		th = tk_threads_findnew(&s->threads, pid, tid);
		s->last_th = th;
		s->last_pid = pid;
		s->last_tid = tid;
	}
	tk_writer *w = s->w;
	put_sample_start(s, o, th, sp, period);
	if (o->trace) {
		st = put_trace(s, o, sp, rec, err);
		if (st != TK_OK)
			return st;
	}
	if (o->ip) {
		unsigned cpumode = rec->misc & 7u;
		if (o->callchain) {
			tk_put_char(w, '\n');
			size_t n_unwound = s->dwarf_unwind
					       ? tk_perf_unwind_sample(&s->threads, th, a, sp,
								       s->unwound, TK_CALLCHAIN_MAX)
					       : 0;
			/* PERF_SAMPLE_BRANCH_CALL_STACK */
			bool lbr = (a->branch_sample_type & (1u << 11)) != 0;
			tk_line_cache_put_callchain(&s->lines, &s->threads, th, sp, lbr, s->unwound,
						    n_unwound, w);
		} else {
			tk_addr_loc loc;
			tk_threads_resolve(&s->threads, th, cpumode, sp->ip, &loc);
			tk_put_char(w, ' ');
			put_hex16(w, sp->ip);
			tk_put_char(w, ' ');
			put_sym_dso(s, &loc);
		}
	}
	if (tk_script_is_bpf_output(a))
		tk_script_bpf_output(w, sp->raw, sp->raw_size);
	tk_put_char(w, '\n');
	return TK_OK;
}

static const tk_perf_attr *attr_of_id(script *s, uint64_t id)
{
	size_t n = tk_perf_attr_count(s->f);
	for (; s->attrs_mapped < n; s->attrs_mapped++) {
		const tk_perf_attr *a = tk_perf_attr_at(s->f, s->attrs_mapped);
		for (size_t i = 0; i < a->n_ids; i++)
			if (!tk_hashmap_put(&s->attr_of_id, a->ids[i], s->attrs_mapped + 1))
				return NULL;
	}
	const uint64_t *idx = tk_hashmap_get(&s->attr_of_id, id);
	return idx ? tk_perf_attr_at(s->f, (size_t)*idx - 1) : NULL;
}

/* perf_evlist__deliver_sample: a PERF_SAMPLE_READ sample is delivered once
 * per counter read (with an id), as that counter's event, its period the
 * growth of the value since the id's last sample; zero growth is skipped. */
static tk_status print_sample(script *s, const tk_perf_record *rec, tk_error *err)
{
	tk_perf_sample smp;
	tk_status st = tk_perf_parse_sample(s->f, rec, &smp, err);
	if (st != TK_OK)
		return st;
	if (!rec->attr)
		return TK_OK;
	if (!(smp.sample_type & TK_PERF_SAMPLE_READ)) {
		uint64_t period =
		    smp.sample_type & TK_PERF_SAMPLE_PERIOD ? smp.period : rec->attr->sample_period;
		return print_one(s, rec, &smp, rec->attr, period, err);
	}
	if (!(smp.read_format & TK_PERF_FORMAT_ID))
		return TK_OK; /* no id: perf counts it as unknown and prints nothing */
	for (uint64_t i = 0; i < smp.read_nr; i++) {
		uint64_t value =
		    tk_perf_u64_at(smp.read_values, (size_t)(i * smp.read_stride), smp.swap);
		uint64_t rid =
		    tk_perf_u64_at(smp.read_values, (size_t)(i * smp.read_stride + 1), smp.swap);
		const tk_perf_attr *a = attr_of_id(s, rid);
		if (!a)
			continue;
		uint64_t *last = tk_hashmap_get(&s->last_value, rid);
		uint64_t delta = value - (last ? *last : 0);
		if (!tk_hashmap_put(&s->last_value, rid, value))
			return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
		if (delta && (st = print_one(s, rec, &smp, a, delta, err)) != TK_OK)
			return st;
	}
	return TK_OK;
}

static bool sample_wanted(script *s, const tk_perf_record *rec)
{
	const tk_perf_attr *a = rec->attr;
	if (s->filter.events && a && !tk_filter_name_matches(s->filter.events, a->name))
		return false;
	if (!tk_id_set_any(&s->filter.cpu) && (!(rec->sid.present & TK_PERF_SAMPLE_CPU) ||
					       !tk_id_set_has(&s->filter.cpu, rec->sid.cpu)))
		return false;
	if (!tk_id_set_any(&s->filter.pid) && (!(rec->sid.present & TK_PERF_SAMPLE_TID) ||
					       !tk_id_set_has(&s->filter.pid, rec->sid.pid)))
		return false;
	if (!tk_id_set_any(&s->filter.tid) && (!(rec->sid.present & TK_PERF_SAMPLE_TID) ||
					       !tk_id_set_has(&s->filter.tid, rec->sid.tid)))
		return false;
	if ((s->filter.has_begin || s->filter.has_end) && rec->has_time) {
		if (s->filter.has_begin && rec->sid.time < s->filter.begin_ns)
			return false;
		if (s->filter.has_end && rec->sid.time > s->filter.end_ns)
			return false;
	}
	return true;
}

/* Output waiting for the kernel's symbols beyond this goes out at once
 * (waiting for them): memory stays bounded. */
#define DEFER_LIMIT ((size_t)32 << 20)

/* Writes the output held back with its kernel frames filled in (waiting
 * for the kernel's table if need be), and writes straight out from now. */
static tk_status settle(script *s, tk_error *err)
{
	if (!s->pending)
		return TK_OK;
	tk_line_cache_fill_holes(&s->lines, &s->threads, s->pending->buf, s->pending->pos, s->out);
	tk_line_cache_defer_kernel(&s->lines, false);
	bool lost = s->pending->error != 0;
	tk_writer_abort(s->pending);
	s->pending = NULL;
	s->w = s->out;
	if (lost)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "out of memory for the output");
	return TK_OK;
}

/* A sample of the other lane's chunk: not printed, but what printing it
 * would change for later samples is changed as it would be. */
static tk_status keep_state(script *s, const tk_perf_record *rec, tk_error *err)
{
	const tk_perf_attr *a = rec->attr;
	if (!sample_wanted(s, rec) || !a)
		return TK_OK;
	/* the first kernel address moves the kernel's map (threads_model.c),
	 * and counter reads keep the last value per id: printed, dropped */
	const tk_dso *k = s->threads.kernel_dso;
	if ((k && !k->tried && !tk_perf_attr_flag(a, TK_PERF_ATTR_EXCLUDE_KERNEL)) ||
	    (a->sample_type & TK_PERF_SAMPLE_READ)) {
		return print_sample(s, rec, err);
	}
	/* decided at the first sample, from the attrs known then */
	if (!s->decided_callchain)
		decide_callchain(s);
	if (!out_for(s, a))
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	/* a sample makes its thread (print_one), which later records see */
	bool has_tid = (a->sample_type & TK_PERF_SAMPLE_TID) != 0;
	int32_t pid = has_tid ? (int32_t)rec->sid.pid : -1,
		tid = has_tid ? (int32_t)rec->sid.tid : -1;
	if (!s->last_th || pid != s->last_pid || tid != s->last_tid) {
		s->last_th = tk_threads_findnew(&s->threads, pid, tid);
		s->last_pid = pid;
		s->last_tid = tid;
	}
	return TK_OK;
}

/* What a run prints, whether in one lane or two. */
typedef struct tk_perf_script_args {
	const char *path;
	const tk_render_options *opt;
	tk_writer *w;
} tk_perf_script_args;

static tk_status on_sample(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)ses;
	script *s = user;
	if (s->lane.lanes) {
		tk_status lst = tk_lane_step(&s->lane, true, &s->w, err);
		if (lst != TK_OK)
			return lst;
		if (s->w == s->lane.sink)
			return keep_state(s, rec, err);
	}
	if (!sample_wanted(s, rec))
		return TK_OK;
	/* the kernel's table is there: the held-back output goes out */
	if (s->pending &&
	    (!tk_threads_kernel_pending(&s->threads) || s->pending->pos > DEFER_LIMIT)) {
		tk_status sst = settle(s, err);
		if (sst != TK_OK)
			return sst;
	}
	/* lane 0 alone until here (late lanes): lane 1 joins */
	if (s->lane.join == UINT64_MAX &&
	    tk_lanes_may_join(&s->lane, rec->offset, s->pending != NULL)) {
		if (s->pending) {
			tk_status sst = settle(s, err);
			if (sst != TK_OK)
				return sst;
		}
		tk_lanes_join(&s->lane, tk_threads_kernel_table(&s->threads));
	}
	tk_status st = print_sample(s, rec, err);
	s->n++;
	/* Hand the output over in small pieces: the lines copied into a 1 MiB
	 * buffer would evict the cached lines they come from (the whole L2 of
	 * a core); flush errors are sticky and reported when the output is
	 * committed. */
	tk_writer *w = s->w;
	if (w->fd >= 0 && w->pos >= SCRIPT_FLUSH_BYTES)
		tk_writer_flush(w, NULL);
	/* a write failed (the reader left: `| head`; a full disk): nothing
	 * more can go out; the caller reports it as it commits the output */
	if (st == TK_OK && tk_writer_failed(w))
		return TK_END;
	if (st == TK_OK && s->opt->limit && s->n >= s->opt->limit)
		return TK_END;
	return st;
}

static tk_status on_other(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	(void)ses;
	script *s = user;
	s->last_th = NULL;
	s->prefix_valid = false;
	/* a kernel MMAP changes the kernel's address space, in which the
	 * deferred frames must be resolved as they were (none yet: the
	 * kernel's own MMAP, the file's first record, keeps the deferral) */
	unsigned mode = rec->misc & 7u; /* PERF_RECORD_MISC_CPUMODE_MASK */
	if (s->pending && tk_line_cache_has_holes(&s->lines) &&
	    (rec->type == TK_PERF_RECORD_MMAP || rec->type == TK_PERF_RECORD_MMAP2) &&
	    (mode == TK_CPUMODE_KERNEL || mode == TK_CPUMODE_GUEST_KERNEL)) {
		tk_status sst = settle(s, err);
		if (sst != TK_OK)
			return sst;
	}
	if (s->lane.lanes) {
		tk_status lst = tk_lane_step(&s->lane, false, &s->w, err);
		if (lst != TK_OK)
			return lst;
	}
	return tk_perf_script_side_band(&s->threads, s->f, rec, s->opt, s->w, err);
}

/* One lane's run, or the whole run (r->lanes NULL). */
static void run_lane(tk_lane_run *r)
{
	tk_error *err = &r->err;
	const tk_perf_script_args *args = r->user;
	tk_render_options lane_opt;
	tk_log_fn sample_log;
	void *sample_user;
	tk_lane_logs(r, args->opt, &lane_opt, &sample_log, &sample_user);
	const tk_render_options *opt = &lane_opt;
	script s = {
	    .w = args->w,
	    .out = args->w,
	    .opt = opt,
	    .log = sample_log, /* a sample's warning comes from its chunk's lane */
	    .log_user = sample_user,
	    .filter = tk_render_filter(opt),
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
	s.f = tk_session_perf(ses);
	if (!tk_threads_init(&s.threads, NULL)) {
		tk_session_close(ses);
		tk_threads_free(&s.threads);
		if (r->lanes)
			tk_lanes_stop(r->lanes, 0);
		r->st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		return;
	}
	/* the kernel's symbols load on the second core while the first
	 * records are read */
	tk_threads_prefetch_kernel(&s.threads, s.f, r->lane == 1);
	/* two lanes from the start only when they are there already, else
	 * lane 1 joins once lane 0 has them (print_lanes.h) */
	bool late;
	const struct tk_symtab *lent;
	if (!tk_lane_begin(r, !tk_threads_kernel_pending(&s.threads), &late, &lent)) {
		tk_threads_free(&s.threads);
		tk_session_close(ses);
		r->st = TK_OK;
		return;
	}
	tk_threads_adopt_kernel(&s.threads, lent);
	tk_hashmap_init(&s.attr_of_id);
	tk_hashmap_init(&s.last_value);
	tk_line_cache_init(&s.lines);
	if (!tk_lane_cursor_init(&s.lane, r->lanes, r->lane)) {
		st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		tk_lanes_stop(r->lanes, 0);
		goto out;
	}
	if (r->lanes && (!late || r->lane == 1)) {
		/* each lane formats into its buffers; no held-back output (the
		 * other core is the other lane's) */
		s.w = s.out = s.lane.sink;
	} else if (tk_threads_kernel_pending(&s.threads) &&
		   tk_writer_open_memory(&s.pending, NULL) == TK_OK) {
		/* ... and the first records need not wait for them: until
		 * they are there, the output is held back with holes for
		 * the kernel frames */
		s.w = s.pending;
		tk_line_cache_defer_kernel(&s.lines, true);
	}
	s.tp_cap = 64 * 1024;
	s.tp_buf = malloc(s.tp_cap);
	if (!s.tp_buf) {
		st = tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
		goto out;
	}
	tk_session_tool tool = {.perf_sample = on_sample, .perf_other = on_other};
	st = tk_session_run(ses, &tool, &s, err);
out:;
	tk_status sst = settle(&s, st == TK_OK ? err : NULL);
	if (st == TK_OK)
		st = sst;
	if (r->lanes) {
		st = tk_lane_end(&s.lane, st, err);
		r->stop = s.lane.chunk;
		/* lane 1 may look symbols up in the kernel table lent */
		if (s.lane.lent)
			tk_lanes_wait_lane1(r->lanes);
	}
	tk_lane_cursor_free(&s.lane);
	free(s.tp_buf);
	free(s.outs);
	tk_hashmap_free(&s.attr_of_id);
	tk_hashmap_free(&s.last_value);
	tk_line_cache_free(&s.lines);
	tk_threads_free(&s.threads);
	tk_session_close(ses);
	r->st = st;
}

tk_status tk_perf_script_print(const char *path, const tk_render_options *opt, tk_writer *w,
			       tk_error *err)
{
	tk_perf_script_args args = {.path = path, .opt = opt, .w = w};
	return tk_lanes_print(path, opt, w, run_lane, &args, err);
}
