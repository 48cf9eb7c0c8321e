/* PERF_RECORD_SAMPLE decoding per sample_type (evsel.c evsel__parse_sample
 * order) and the sample_id trailer of other kernel records. Every length is
 * checked against what remains of the record before it is used. */
#include <string.h>

#include "perf/perf_internal.h"

#define BRANCH_HW_INDEX (1ULL << 17)
#define BRANCH_COUNTERS (1ULL << 19)

typedef struct scur {
	const uint8_t *p;
	uint32_t size, pos;
	bool swap;
} scur;

static bool need(const scur *c, uint64_t n)
{
	return n <= (uint64_t)(c->size - c->pos);
}

static uint64_t take64(scur *c)
{
	uint64_t v = tk_load_u64(c->p + c->pos, c->swap);
	c->pos += 8;
	return v;
}

/* Bit count without a libgcc call (no -mpopcnt): the callers are per record. */
static inline uint32_t count_bits(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (uint32_t)((v * 0x0101010101010101ULL) >> 56);
}

bool tk_perf_parse_trailer(const uint8_t *rec, uint32_t size, uint64_t t, bool swap,
			   tk_perf_sample_id *sid)
{
	memset(sid, 0, sizeof *sid);
	t &= TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID |
	     TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU | TK_PERF_SAMPLE_IDENTIFIER;
	uint32_t n = count_bits(t) * 8;
	if (size < 8 || size - 8 < n)
		return false;
	const uint8_t *p = rec + size - n;
	sid->present = t;
	if (t & TK_PERF_SAMPLE_TID) {
		sid->pid = tk_load_u32(p, swap);
		sid->tid = tk_load_u32(p + 4, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_TIME) {
		sid->time = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_ID) {
		sid->id = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_STREAM_ID) {
		sid->stream_id = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_CPU) {
		sid->cpu = tk_load_u32(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_IDENTIFIER)
		sid->identifier = tk_load_u64(p, swap);
	return true;
}

bool tk_perf_sample_time(const uint8_t *rec, uint32_t size, uint64_t t, bool swap, uint64_t *time)
{
	if (!(t & TK_PERF_SAMPLE_TIME))
		return false;
	/* true exactly when tk_perf_parse_sample_head would succeed */
	uint32_t n =
	    count_bits(t & (TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID |
			    TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ADDR | TK_PERF_SAMPLE_ID |
			    TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU)) *
	    8;
	if (size < 8 || size - 8 < n)
		return false;
	uint32_t before =
	    count_bits(t & (TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID));
	*time = tk_load_u64(rec + 8 + 8 * before, swap);
	return true;
}

bool tk_perf_parse_sample_head(const uint8_t *rec, uint32_t size, uint64_t t, bool swap,
			       tk_perf_sample_id *sid)
{
	memset(sid, 0, sizeof *sid);
	/* The leading fields are all 8 bytes: one length check covers them
	 * (this runs twice per queued sample, so it is kept short). */
	t &= TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID |
	     TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ADDR | TK_PERF_SAMPLE_ID |
	     TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU;
	uint32_t n = count_bits(t) * 8;
	if (size < 8 || size - 8 < n)
		return false;
	const uint8_t *p = rec + 8;
	sid->present = t & ~(uint64_t)(TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_ADDR);
	if (t & TK_PERF_SAMPLE_IDENTIFIER) {
		sid->identifier = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_IP)
		p += 8;
	if (t & TK_PERF_SAMPLE_TID) {
		sid->pid = tk_load_u32(p, swap);
		sid->tid = tk_load_u32(p + 4, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_TIME) {
		sid->time = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_ADDR)
		p += 8;
	if (t & TK_PERF_SAMPLE_ID) {
		sid->id = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_STREAM_ID) {
		sid->stream_id = tk_load_u64(p, swap);
		p += 8;
	}
	if (t & TK_PERF_SAMPLE_CPU)
		sid->cpu = tk_load_u32(p, swap);
	return true;
}

static tk_status short_sample(const scur *c, uint64_t offset, const char *what, uint64_t want,
			      tk_error *err)
{
	return tk_error_set(err, TK_ERR_FORMAT, offset,
			    "sample: %s needs %llu bytes at +%u, the %u-byte record has %u left",
			    what, (unsigned long long)want, c->pos, c->size, c->size - c->pos);
}

/* An array of n u64s: checks n against what remains, returns its start. */
static const uint8_t *take_array(scur *c, uint64_t n, bool *ok)
{
	if (n > (uint64_t)(c->size - c->pos) / 8) {
		*ok = false;
		return NULL;
	}
	const uint8_t *p = c->p + c->pos;
	c->pos += (uint32_t)(n * 8);
	return p;
}

/* memset(s, 0, sizeof *s) in 32-byte steps: gcc makes one 376-byte memset a
 * `rep stos`, whose start-up cost was a quarter of the sample decoding. */
static void zero_sample(tk_perf_sample *s)
{
	uint8_t *p = (uint8_t *)s;
	size_t i = 0;
	for (; i + 32 <= sizeof *s; i += 32)
		memset(p + i, 0, 32);
	memset(p + i, 0, sizeof *s - i);
}

tk_status tk_perf_parse_sample_with(const tk_perf_attr *attr, bool swap, const uint8_t *rec,
				    uint32_t size, uint64_t offset, tk_perf_sample *s,
				    tk_error *err)
{
	zero_sample(s);
	uint64_t t = attr->sample_type;
	s->sample_type = t;
	s->read_format = attr->read_format;
	s->swap = swap;
	if (size < 8)
		return tk_error_set(err, TK_ERR_FORMAT, offset, "sample record of %u bytes", size);
	scur c = {rec, size, 8, swap};
	bool ok = true;
#define U64(bit, name, dst)                                                                        \
	if (t & (bit)) {                                                                           \
		if (!need(&c, 8))                                                                  \
			return short_sample(&c, offset, name, 8, err);                             \
		dst = take64(&c);                                                                  \
	}
	U64(TK_PERF_SAMPLE_IDENTIFIER, "IDENTIFIER", s->identifier)
	U64(TK_PERF_SAMPLE_IP, "IP", s->ip)
	if (t & TK_PERF_SAMPLE_TID) {
		if (!need(&c, 8))
			return short_sample(&c, offset, "TID", 8, err);
		s->pid = tk_load_u32(rec + c.pos, swap);
		s->tid = tk_load_u32(rec + c.pos + 4, swap);
		c.pos += 8;
	}
	U64(TK_PERF_SAMPLE_TIME, "TIME", s->time)
	U64(TK_PERF_SAMPLE_ADDR, "ADDR", s->addr)
	U64(TK_PERF_SAMPLE_ID, "ID", s->id)
	U64(TK_PERF_SAMPLE_STREAM_ID, "STREAM_ID", s->stream_id)
	if (t & TK_PERF_SAMPLE_CPU) {
		if (!need(&c, 8))
			return short_sample(&c, offset, "CPU", 8, err);
		s->cpu = tk_load_u32(rec + c.pos, swap);
		s->cpu_res = tk_load_u32(rec + c.pos + 4, swap);
		c.pos += 8;
	}
	U64(TK_PERF_SAMPLE_PERIOD, "PERIOD", s->period)
	if (t & TK_PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format;
		if (rf & TK_PERF_FORMAT_GROUP) {
			U64(TK_PERF_SAMPLE_READ, "READ nr", s->read_nr)
			U64(rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED ? TK_PERF_SAMPLE_READ : 0,
			    "READ enabled", s->read_time_enabled)
			U64(rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING ? TK_PERF_SAMPLE_READ : 0,
			    "READ running", s->read_time_running)
			s->read_stride =
			    1 + !!(rf & TK_PERF_FORMAT_ID) + !!(rf & TK_PERF_FORMAT_LOST);
			if (s->read_nr > (uint64_t)(c.size - c.pos) / 8 / s->read_stride)
				return short_sample(&c, offset, "READ values",
						    s->read_nr * 8 * s->read_stride, err);
			s->read_values = take_array(&c, s->read_nr * s->read_stride, &ok);
		} else {
			/* value, [enabled], [running], [id], [lost]: value/id/lost are
			 * gathered into read_buf so read_values has one layout. */
			s->read_nr = 1;
			s->read_stride = 1;
			if (!need(&c, 8))
				return short_sample(&c, offset, "READ value", 8, err);
			memcpy(s->read_buf, rec + c.pos, 8);
			c.pos += 8;
			U64(rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED ? TK_PERF_SAMPLE_READ : 0,
			    "READ enabled", s->read_time_enabled)
			U64(rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING ? TK_PERF_SAMPLE_READ : 0,
			    "READ running", s->read_time_running)
			for (uint64_t bit = TK_PERF_FORMAT_ID; bit <= TK_PERF_FORMAT_LOST;
			     bit <<= 1) {
				if (!(rf & bit) || bit == TK_PERF_FORMAT_GROUP)
					continue;
				if (!need(&c, 8))
					return short_sample(&c, offset, "READ id/lost", 8, err);
				memcpy(s->read_buf + 8 * s->read_stride++, rec + c.pos, 8);
				c.pos += 8;
			}
			s->read_values = s->read_buf;
		}
	}
	if (t & TK_PERF_SAMPLE_CALLCHAIN) {
		U64(TK_PERF_SAMPLE_CALLCHAIN, "CALLCHAIN nr", s->callchain_nr)
		s->callchain = take_array(&c, s->callchain_nr, &ok);
		if (!ok)
			return short_sample(&c, offset, "CALLCHAIN", s->callchain_nr * 8, err);
	}
	if (t & TK_PERF_SAMPLE_RAW) {
		if (!need(&c, 4))
			return short_sample(&c, offset, "RAW size", 4, err);
		s->raw_size = tk_load_u32(rec + c.pos, swap);
		c.pos += 4;
		if (!need(&c, s->raw_size))
			return short_sample(&c, offset, "RAW", s->raw_size, err);
		s->raw = rec + c.pos;
		c.pos += s->raw_size;
	}
	if (t & TK_PERF_SAMPLE_BRANCH_STACK) {
		U64(TK_PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK nr", s->branch_nr)
		if (attr->branch_sample_type & BRANCH_HW_INDEX) {
			s->has_branch_hw_idx = true;
			U64(TK_PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK hw_idx", s->branch_hw_idx)
		}
		if (s->branch_nr > (uint64_t)(c.size - c.pos) / 24)
			return short_sample(&c, offset, "BRANCH_STACK entries", s->branch_nr * 24,
					    err);
		s->branches = take_array(&c, s->branch_nr * 3, &ok);
		if (attr->branch_sample_type & BRANCH_COUNTERS) {
			s->branch_counters = take_array(&c, s->branch_nr, &ok);
			if (!ok)
				return short_sample(&c, offset, "BRANCH_STACK counters",
						    s->branch_nr * 8, err);
		}
	}
	if (t & TK_PERF_SAMPLE_REGS_USER) {
		U64(TK_PERF_SAMPLE_REGS_USER, "REGS_USER abi", s->regs_user_abi)
		if (s->regs_user_abi) {
			s->regs_user_n = (size_t)__builtin_popcountll(attr->sample_regs_user);
			s->regs_user = take_array(&c, s->regs_user_n, &ok);
			if (!ok)
				return short_sample(&c, offset, "REGS_USER", s->regs_user_n * 8,
						    err);
		}
	}
	if (t & TK_PERF_SAMPLE_STACK_USER) {
		U64(TK_PERF_SAMPLE_STACK_USER, "STACK_USER size", s->stack_user_size)
		if (s->stack_user_size) {
			if (!need(&c, s->stack_user_size))
				return short_sample(&c, offset, "STACK_USER", s->stack_user_size,
						    err);
			s->stack_user = rec + c.pos;
			c.pos += (uint32_t)s->stack_user_size;
			U64(TK_PERF_SAMPLE_STACK_USER, "STACK_USER dyn_size",
			    s->stack_user_dyn_size)
		}
	}
	U64(t & (TK_PERF_SAMPLE_WEIGHT | TK_PERF_SAMPLE_WEIGHT_STRUCT), "WEIGHT", s->weight)
	U64(TK_PERF_SAMPLE_DATA_SRC, "DATA_SRC", s->data_src)
	U64(TK_PERF_SAMPLE_TRANSACTION, "TRANSACTION", s->transaction)
	if (t & TK_PERF_SAMPLE_REGS_INTR) {
		U64(TK_PERF_SAMPLE_REGS_INTR, "REGS_INTR abi", s->regs_intr_abi)
		if (s->regs_intr_abi) {
			s->regs_intr_n = (size_t)__builtin_popcountll(attr->sample_regs_intr);
			s->regs_intr = take_array(&c, s->regs_intr_n, &ok);
			if (!ok)
				return short_sample(&c, offset, "REGS_INTR", s->regs_intr_n * 8,
						    err);
		}
	}
	U64(TK_PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", s->phys_addr)
	U64(TK_PERF_SAMPLE_CGROUP, "CGROUP", s->cgroup)
	U64(TK_PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", s->data_page_size)
	U64(TK_PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", s->code_page_size)
	if (t & TK_PERF_SAMPLE_AUX) {
		U64(TK_PERF_SAMPLE_AUX, "AUX size", s->aux_size)
		if (!need(&c, s->aux_size))
			return short_sample(&c, offset, "AUX", s->aux_size, err);
		s->aux = rec + c.pos;
		c.pos += (uint32_t)s->aux_size;
	}
#undef U64
	if (!ok)
		return short_sample(&c, offset, "array", 0, err);
	return TK_OK;
}

tk_status tk_perf_parse_sample(const tk_perf_file *f, const tk_perf_record *rec,
			       tk_perf_sample *out, tk_error *err)
{
	if (rec->type != TK_PERF_RECORD_SAMPLE)
		return tk_error_set(err, TK_ERR_USAGE, rec->offset,
				    "record type %u is not a sample", rec->type);
	const tk_perf_attr *a = rec->attr;
	if (!a && f->n_attrs)
		a = f->attrs[0];
	if (!a)
		return tk_error_set(err, TK_ERR_FORMAT, rec->offset, "sample before any attr");
	return tk_perf_parse_sample_with(a, f->swap, rec->data, rec->size, rec->offset, out, err);
}
