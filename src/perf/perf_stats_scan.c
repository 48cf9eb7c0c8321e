/* tracekit stats' counts, and the lean scan that gathers them from a mapped
 * data section in file order (see perf_stats_scan.h). The lean loop stands
 * in for tk_perf_next (raw order) only on records where the reader's work
 * reduces to the counting: a named kernel record, or a user record that
 * carries no metadata; every other record, and the end of the data, is
 * read by tk_perf_next itself, after which the loop resumes where the
 * reader stands once its compressed window is drained. */
#include <stdlib.h>

#include "perf/perf_internal.h"
#include "perf/perf_stats_scan.h"

/* the reader's release step (perf_records.c): pages far behind are dropped */
#define RELEASE_EVERY ((uint64_t)1 << 20)
/* records between two looks at a pending SIGINT (tk_perf_next looks each time) */
#define INTERRUPT_EVERY 4096u

#define HEAD_BEFORE_TIME (TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID)
#define HEAD_BEFORE_CPU                                                                            \
	(HEAD_BEFORE_TIME | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ADDR | TK_PERF_SAMPLE_ID |        \
	 TK_PERF_SAMPLE_STREAM_ID)
#define HEAD_FIELDS (HEAD_BEFORE_CPU | TK_PERF_SAMPLE_CPU)

tk_status tk_perf_counts_init(tk_perf_counts *c, tk_error *err)
{
	*c = (tk_perf_counts){0};
	c->per_type = calloc(TK_PERF_COUNTS_TYPES, sizeof *c->per_type);
	if (!c->per_type)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

void tk_perf_counts_free(tk_perf_counts *c)
{
	free(c->per_type);
	free(c->per_attr);
	free(c->lost_per_attr);
	free(c->per_cpu);
	*c = (tk_perf_counts){0};
}

static bool grow(uint64_t **arr, size_t *cap, size_t need)
{
	if (need < *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap <= need)
		ncap *= 2;
	uint64_t *n = realloc(*arr, ncap * sizeof **arr);
	if (!n)
		return false;
	for (size_t i = *cap; i < ncap; i++)
		n[i] = 0;
	*arr = n;
	*cap = ncap;
	return true;
}

/* Types past TK_PERF_COUNTS_TYPES (damage such as 0xffffffff) keep their
 * own number, so stats names them as print --all does: UNKNOWN(4294967295). */
static void count_big_type(tk_perf_counts *c, uint32_t type)
{
	size_t i = 0;
	while (i < c->n_big && c->big_type[i] != type)
		i++;
	if (i == c->n_big) {
		if (c->n_big == TK_PERF_COUNTS_BIG_TYPES) {
			c->big_other++;
			return;
		}
		c->big_type[c->n_big++] = type;
	}
	c->big_count[i]++;
}

static inline void count_time(tk_perf_counts *c, uint64_t t)
{
	if (!c->has_time || t < c->first_time)
		c->first_time = t;
	if (!c->has_time || t > c->last_time)
		c->last_time = t;
	c->has_time = true;
}

/* A sample's attr and cpu (has_cpu: the sample carries one). Both paths
 * count samples here, so they cannot drift apart. */
static inline tk_status count_sample(tk_perf_counts *c, const tk_perf_attr *a, bool has_cpu,
				     uint32_t cpu, uint64_t offset, tk_error *err)
{
	if (a && a->index < c->n_attr_cap) {
		c->per_attr[a->index]++; /* the common case: no call */
	} else if (a) {
		if (!grow(&c->per_attr, &c->n_attr_cap, a->index))
			return tk_error_set(err, TK_ERR_NOMEM, offset, "out of memory");
		c->per_attr[a->index]++;
	} else {
		c->samples_no_attr++;
	}
	if (has_cpu && cpu < c->n_cpu_cap) {
		c->per_cpu[cpu]++;
	} else if (has_cpu) {
		if (cpu > TK_PERF_COUNTS_MAX_CPU)
			c->samples_no_cpu++;
		else if (!grow(&c->per_cpu, &c->n_cpu_cap, cpu))
			return tk_error_set(err, TK_ERR_NOMEM, offset, "out of memory");
		else
			c->per_cpu[cpu]++;
	}
	return TK_OK;
}

/* A LOST_SAMPLES record's count, also under its event: perf report
 * --stats shows it there (count_lost_samples_event: the event of the
 * record's sample id, the first one when the file has a single event). */
static tk_status count_lost_samples(tk_perf_counts *c, tk_perf_file *f, const tk_perf_record *r,
				    uint64_t lost, tk_error *err)
{
	c->lost_samples += lost;
	const tk_perf_attr *a = r->attr;
	if (!a && tk_perf_attr_count(f) == 1)
		a = tk_perf_attr_at(f, 0);
	if (!a)
		return TK_OK;
	if (!grow(&c->lost_per_attr, &c->n_lost_attr_cap, a->index))
		return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
	c->lost_per_attr[a->index] += lost;
	return TK_OK;
}

tk_status tk_perf_counts_add(tk_perf_counts *c, tk_perf_file *f, const tk_perf_record *r,
			     tk_error *err)
{
	c->total++;
	if (r->type < TK_PERF_COUNTS_TYPES)
		c->per_type[r->type]++;
	else
		count_big_type(c, r->type);
	/* perf synthesizes the records of what ran before the recording
	 * (mmaps, comms) with time 0: the span starts at real times */
	if (r->has_time && (r->sid.time != 0 || r->type == TK_PERF_RECORD_SAMPLE))
		count_time(c, r->sid.time);
	if (r->type == TK_PERF_RECORD_SAMPLE)
		return count_sample(c, r->attr, (r->sid.present & TK_PERF_SAMPLE_CPU) != 0,
				    r->sid.cpu, r->offset, err);
	if (r->type == TK_PERF_RECORD_LOST || r->type == TK_PERF_RECORD_LOST_SAMPLES) {
		tk_perf_event ev;
		if (tk_perf_parse_event(f, r, &ev, NULL) == TK_OK) {
			if (r->type == TK_PERF_RECORD_LOST)
				c->lost_events += ev.u.lost.lost;
			else
				return count_lost_samples(c, f, r, ev.u.lost_samples.lost, err);
		}
	}
	return TK_OK;
}

/* Where a sample of one attr keeps what the counts need: the fixed-size
 * leading fields tk_perf_parse_sample_head reads, all or nothing. */
typedef struct sample_layout {
	const tk_perf_attr *attr;
	uint32_t need;     /* bytes of leading fields after the header */
	uint32_t time_off; /* 0: no TIME */
	uint32_t cpu_off;  /* 0: no CPU */
} sample_layout;

static void layout_of(sample_layout *l, const tk_perf_attr *a)
{
	uint64_t t = a->sample_type;
	l->attr = a;
	/* once per attr change, not per record: the libgcc call is fine */
	l->need = (uint32_t)__builtin_popcountll(t & HEAD_FIELDS) * 8;
	l->time_off = t & TK_PERF_SAMPLE_TIME
			  ? 8 + 8 * (uint32_t)__builtin_popcountll(t & HEAD_BEFORE_TIME)
			  : 0;
	l->cpu_off = t & TK_PERF_SAMPLE_CPU
			 ? 8 + 8 * (uint32_t)__builtin_popcountll(t & HEAD_BEFORE_CPU)
			 : 0;
}

/* Record types the lean loop counts as tk_perf_next would: the kernel's
 * named records (the reader only classifies them) and the user records
 * tk_perf_apply_meta and the record reader do nothing with. Everything
 * else (HEADER_ATTR, EVENT_UPDATE, ID_INDEX, TRACING_DATA, BUILD_ID,
 * HEADER_FEATURE, AUXTRACE and its payload, COMPRESSED(2), unknown and
 * invalid types) takes the reader's road. */
static void lean_types(bool ok[128])
{
	for (uint32_t t = 0; t < 64; t++)
		ok[t] = tk_perf_record_type_name(t) != NULL;
	for (uint32_t t = 64; t < 128; t++)
		ok[t] = false;
	static const uint32_t user_ok[] = {
	    TK_PERF_RECORD_HEADER_EVENT_TYPE, TK_PERF_RECORD_FINISHED_ROUND,
	    TK_PERF_RECORD_AUXTRACE_INFO,     TK_PERF_RECORD_AUXTRACE_ERROR,
	    TK_PERF_RECORD_THREAD_MAP,        TK_PERF_RECORD_CPU_MAP,
	    TK_PERF_RECORD_STAT_CONFIG,       TK_PERF_RECORD_STAT,
	    TK_PERF_RECORD_STAT_ROUND,        TK_PERF_RECORD_TIME_CONV,
	    TK_PERF_RECORD_FINISHED_INIT,
	};
	for (size_t i = 0; i < sizeof user_ok / sizeof user_ok[0]; i++)
		ok[user_ok[i]] = true;
}

/* Whether the lean loop may read the next record of f's only input: the
 * reader is in file order, has handed out all it buffered (queue, zstd
 * window) and has not met the end. */
static bool lean_ready(const tk_perf_file *f)
{
	if (!f->opt.raw_order || f->eof || f->n_inputs != 1 || f->q_head != f->q_len)
		return false;
	const perf_input *pi = &f->inputs[0];
	return pi->map && !pi->done && pi->end <= tk_input_size(pi->in) &&
	       pi->dbuf_len - pi->dbuf_pos < 8 && !(pi->zin && pi->zin_pos < pi->zin_size);
}

/* The attr of a sample as tk_perf_find_attr finds it, with the last id
 * remembered (samples cycle through a few ids). Only for files whose attrs
 * agree on the id position (tk_perf_find_attr warns otherwise). */
typedef struct id_memo {
	uint64_t id;
	const tk_perf_attr *attr; /* NULL: nothing remembered */
} id_memo;

static inline const tk_perf_attr *sample_attr(tk_perf_file *f, id_memo *m, tk_perf_record *r,
					      bool swap)
{
	tk_perf_attr *first = f->attrs[0];
	if (f->n_attrs == 1)
		return first;
	uint32_t n = (r->size - 8) / 8;
	if (f->id_pos < 0 || (uint32_t)f->id_pos >= n)
		return first;
	uint64_t id = tk_load_u64(r->data + 8 + 8 * (uint32_t)f->id_pos, swap);
	if (!id)
		return first;
	if (m->attr && m->id == id)
		return m->attr;
	r->type = TK_PERF_RECORD_SAMPLE;
	m->id = id;
	m->attr = tk_perf_find_attr(f, r); /* warns about an unowned id, once */
	return m->attr;
}

/* What the samples of one lean run add, kept in registers and folded into
 * the counts when the run ends (sums, and a min/max that any order gives). */
typedef struct run_sums {
	uint64_t samples;
	uint64_t t_min, t_max;
	bool any_time;
} run_sums;

static void fold(tk_perf_counts *c, const run_sums *s)
{
	c->total += s->samples;
	c->per_type[TK_PERF_RECORD_SAMPLE] += s->samples;
	if (s->any_time) {
		count_time(c, s->t_min);
		count_time(c, s->t_max);
	}
}

/* Counts records from the mapping while the record is one the loop
 * handles exactly; returns at the first that needs the reader. Inlined
 * twice with swap a constant, so the loads carry no byte-order test. */
static inline __attribute__((always_inline)) tk_status
lean_run_order(tk_perf_counts *c, tk_perf_file *f, const bool ok[128], bool swap, tk_error *err)
{
	perf_input *pi = &f->inputs[0];
	const uint8_t *map = pi->map;
	const uint64_t end = pi->end;
	/* samples take the short road when their attr can be found without
	 * the reader's warnings about disagreeing attrs */
	const bool fast_samples = f->n_attrs > 0 && f->id_pos_agree;
	sample_layout lay = {0};
	id_memo memo = {0};
	run_sums sums = {.t_min = UINT64_MAX};
	uint64_t pos = pi->pos, start = pos, next_release = pi->next_release;
	tk_status st = TK_OK;
	unsigned until_check = INTERRUPT_EVERY;
	tk_perf_record r = {0};
	while (end - pos >= 8) {
		const uint8_t *p = map + pos;
		uint32_t type = tk_load_u32(p, swap);
		uint32_t size = tk_load_u16(p + 6, swap);
		if (size < 8 || size > end - pos || type >= 128 || !ok[type])
			break;
		if (--until_check == 0) {
			until_check = INTERRUPT_EVERY;
			if (tk_interrupt_pending())
				break; /* tk_perf_next reports it */
		}
		if (pos >= next_release) {
			tk_input_release(pi->in, pos); /* resident memory stays flat */
			next_release = pos + RELEASE_EVERY;
		}
		r.size = size;
		r.data = p;
		r.offset = pos;
		if (type == TK_PERF_RECORD_SAMPLE && fast_samples) {
			const tk_perf_attr *a = sample_attr(f, &memo, &r, swap);
			if (a != lay.attr) {
				layout_of(&lay, a);
				if (!a->name) /* as tk_perf_classify_with; names stay once set */
					tk_perf_name_attrs(f, true);
			}
			sums.samples++;
			bool has_cpu = false;
			uint32_t cpu = 0;
			if (size - 8 >= lay.need) { /* tk_perf_parse_sample_head's test */
				if (lay.time_off) {
					uint64_t t = tk_load_u64(p + lay.time_off, swap);
					sums.t_min = t < sums.t_min ? t : sums.t_min;
					sums.t_max = t > sums.t_max ? t : sums.t_max;
					sums.any_time = true;
				}
				if (lay.cpu_off) {
					cpu = tk_load_u32(p + lay.cpu_off, swap);
					has_cpu = true;
				}
			}
			if (has_cpu && a->index < c->n_attr_cap && cpu < c->n_cpu_cap) {
				c->per_attr[a->index]++;
				c->per_cpu[cpu]++;
			} else if ((st = count_sample(c, a, has_cpu, cpu, pos, err)) != TK_OK) {
				pos += size;
				break;
			}
		} else if (type < TK_PERF_RECORD_HEADER_ATTR) {
			/* the reader's classification of a non-sample: its attr
			 * (sample_id_all trailer, id) decides whether it has a time */
			r.type = type;
			r.misc = tk_load_u16(p + 4, swap);
			tk_perf_classify(f, &r);
			if ((st = tk_perf_counts_add(c, f, &r, err)) != TK_OK) {
				pos += size;
				break;
			}
		} else {
			c->total++; /* a user record: no attr, no time */
			c->per_type[type]++;
		}
		pos += size;
	}
	fold(c, &sums);
	f->cur_input_bytes += pos - start;
	pi->pos = pos;
	pi->next_release = next_release;
	return st;
}

static tk_status lean_run(tk_perf_counts *c, tk_perf_file *f, const bool ok[128], tk_error *err)
{
	return f->swap ? lean_run_order(c, f, ok, true, err) : lean_run_order(c, f, ok, false, err);
}

tk_status tk_perf_counts_scan(tk_perf_counts *c, tk_perf_file *f, tk_error *err)
{
	bool ok[128];
	lean_types(ok);
	if (f->n_inputs == 1)
		tk_input_populate_ahead(f->inputs[0].in);
	for (;;) {
		tk_status st;
		if (lean_ready(f) && (st = lean_run(c, f, ok, err)) != TK_OK)
			return st;
		const tk_perf_record *r;
		st = tk_perf_next(f, &r, err);
		if (st == TK_END)
			return TK_OK;
		if (st != TK_OK)
			return st;
		if ((st = tk_perf_counts_add(c, f, r, err)) != TK_OK)
			return st;
	}
}
