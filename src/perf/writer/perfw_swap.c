/* Byte-order conversion of records, features and attrs (see perfw_swap.h). */
#include "perf/writer/perfw_swap.h"

#include <string.h>

#include "base/bytes.h"

/* A bounded cursor that flips fields in place and returns their values as
 * they read in the source order. Running off the end clears `ok` and turns
 * every later access into a no-op. */
typedef struct sw {
	uint8_t *p;
	size_t n, pos;
	bool foreign;
	bool ok;
} sw;

static bool sw_has(sw *s, size_t k)
{
	if (s->ok && s->pos <= s->n && s->n - s->pos >= k)
		return true;
	s->ok = false;
	return false;
}

static uint16_t sw_u16(sw *s)
{
	if (!sw_has(s, 2))
		return 0;
	uint16_t v = tk_load_u16(s->p + s->pos, s->foreign);
	tk_store_u16(s->p + s->pos, v, !s->foreign);
	s->pos += 2;
	return v;
}

static uint32_t sw_u32(sw *s)
{
	if (!sw_has(s, 4))
		return 0;
	uint32_t v = tk_load_u32(s->p + s->pos, s->foreign);
	tk_store_u32(s->p + s->pos, v, !s->foreign);
	s->pos += 4;
	return v;
}

static uint64_t sw_u64(sw *s)
{
	if (!sw_has(s, 8))
		return 0;
	uint64_t v = tk_load_u64(s->p + s->pos, s->foreign);
	tk_store_u64(s->p + s->pos, v, !s->foreign);
	s->pos += 8;
	return v;
}

/* n u64 words; n is checked against what remains first. */
static void sw_u64s(sw *s, uint64_t n)
{
	if (!s->ok || n > (s->n - s->pos) / 8) {
		s->ok = false;
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		sw_u64(s);
}

static void sw_skip(sw *s, uint64_t k)
{
	if (!s->ok || k > s->n - s->pos) {
		s->ok = false;
		return;
	}
	s->pos += (size_t)k;
}

/* perf's header string: u32 length (padding included), then the bytes. */
static void sw_str(sw *s)
{
	uint32_t len = sw_u32(s);
	sw_skip(s, len);
}

static void sw_strs(sw *s, uint64_t n)
{
	for (uint64_t i = 0; i < n && s->ok; i++)
		sw_str(s);
}

/* The rest as u64 words, a short tail left as is. */
static void sw_rest_u64(sw *s)
{
	if (s->ok)
		sw_u64s(s, (s->n - s->pos) / 8);
}

/* ---- attrs ---- */

void perfw_swap_attr(uint8_t *p, size_t size)
{
	/* offset, width of every scalar field of perf_event_attr up to VER8;
	 * 40 is the flags bitfield, done apart. */
	static const uint8_t fields[][2] = {
	    {0, 4},   {4, 4},   {8, 8},   {16, 8},  {24, 8},  {32, 8},  {48, 4}, {52, 4},
	    {56, 8},  {64, 8},  {72, 8},  {80, 8},  {88, 4},  {92, 4},  {96, 8}, {104, 4},
	    {108, 2}, {110, 2}, {112, 4}, {116, 4}, {120, 8}, {128, 8},
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		size_t off = fields[i][0], w = fields[i][1];
		if (off + w > size)
			break;
		if (w == 2)
			tk_store_u16(p + off, tk_load_u16(p + off, true), false);
		else if (w == 4)
			tk_store_u32(p + off, tk_load_u32(p + off, true), false);
		else
			tk_store_u64(p + off, tk_load_u64(p + off, true), false);
	}
	/* perf's swap_bitfield(): the bitfield word keeps its byte order and
	 * each byte is bit-reversed (big-endian compilers allocate bitfields
	 * from the most significant bit). */
	if (size >= 48)
		for (size_t i = 40; i < 48; i++)
			p[i] = tk_reverse_bits8(p[i]);
	/* unknown tail fields (attrs newer than VER8): u64 words, a guess */
	for (size_t off = 136; off + 8 <= size; off += 8)
		tk_store_u64(p + off, tk_load_u64(p + off, true), false);
}

/* ---- branch flags ---- */

uint64_t perfw_branch_flags_mirror(uint64_t v, bool src_le)
{
	/* (position on little-endian, width) of struct branch_flags' fields:
	 * mispred, predicted, in_tx, abort, cycles, type, spec, new_type,
	 * priv, reserved. A big-endian compiler puts each at 64 - pos - width. */
	static const uint8_t f[][2] = {{0, 1},  {1, 1},  {2, 1},  {3, 1},  {4, 16},
				       {20, 4}, {24, 2}, {26, 4}, {30, 3}, {33, 31}};
	uint64_t out = 0;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		unsigned le = f[i][0], w = f[i][1], be = 64 - le - w;
		uint64_t mask = (((uint64_t)1) << w) - 1;
		unsigned from = src_le ? le : be, to = src_le ? be : le;
		out |= ((v >> from) & mask) << to;
	}
	return out;
}

/* ---- records ---- */

#define TRAILER_BITS                                                                               \
	(TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID | TK_PERF_SAMPLE_STREAM_ID | \
	 TK_PERF_SAMPLE_CPU | TK_PERF_SAMPLE_IDENTIFIER)

/* The sample_id trailer of a kernel record, forward from its start. */
static void swap_trailer(sw *s, uint64_t st)
{
	if (st & TK_PERF_SAMPLE_TID) {
		sw_u32(s);
		sw_u32(s);
	}
	if (st & TK_PERF_SAMPLE_TIME)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_ID)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_STREAM_ID)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_CPU) {
		sw_u32(s);
		sw_u32(s);
	}
	if (st & TK_PERF_SAMPLE_IDENTIFIER)
		sw_u64(s);
}

static void swap_read_values(sw *s, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & TK_PERF_FORMAT_ID) + !!(rf & TK_PERF_FORMAT_LOST);
	uint64_t nr = 1;
	if (rf & TK_PERF_FORMAT_GROUP)
		nr = sw_u64(s);
	if (rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED)
		sw_u64(s);
	if (rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING)
		sw_u64(s);
	if (!s->ok || nr > (s->n - s->pos) / 8 / per) {
		s->ok = false;
		return;
	}
	sw_u64s(s, nr * per);
}

#define BRANCH_HW_INDEX (1ULL << 17)
#define BRANCH_COUNTERS (1ULL << 19)

static void swap_sample(sw *s, const tk_perf_attr *a)
{
	uint64_t st = a->sample_type;
	if (st & TK_PERF_SAMPLE_IDENTIFIER)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_IP)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_TID) {
		sw_u32(s);
		sw_u32(s);
	}
	if (st & TK_PERF_SAMPLE_TIME)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_ADDR)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_ID)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_STREAM_ID)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_CPU) {
		sw_u32(s);
		sw_u32(s);
	}
	if (st & TK_PERF_SAMPLE_PERIOD)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_READ)
		swap_read_values(s, a->read_format);
	if (st & TK_PERF_SAMPLE_CALLCHAIN)
		sw_u64s(s, sw_u64(s));
	if (st & TK_PERF_SAMPLE_RAW) {
		/* the size only: the payload is in the tracing data's byte order */
		uint32_t n = sw_u32(s);
		sw_skip(s, n);
	}
	if (st & TK_PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = sw_u64(s);
		if (a->branch_sample_type & BRANCH_HW_INDEX)
			sw_u64(s);
		if (!s->ok || nr > (s->n - s->pos) / 24) {
			s->ok = false;
			return;
		}
		bool src_le = tk_host_is_le() != s->foreign;
		for (uint64_t i = 0; i < nr; i++) {
			sw_u64(s);
			sw_u64(s);
			uint64_t fl = tk_load_u64(s->p + s->pos, s->foreign);
			tk_store_u64(s->p + s->pos, perfw_branch_flags_mirror(fl, src_le),
				     !s->foreign);
			s->pos += 8;
		}
		if (a->branch_sample_type & BRANCH_COUNTERS)
			sw_u64s(s, nr);
	}
	if (st & TK_PERF_SAMPLE_REGS_USER) {
		if (sw_u64(s))
			sw_u64s(s, (uint64_t)__builtin_popcountll(a->sample_regs_user));
	}
	if (st & TK_PERF_SAMPLE_STACK_USER) {
		/* perf reads stack memory as u64 words: swap it as such */
		uint64_t n = sw_u64(s);
		sw_u64s(s, n / 8);
		sw_skip(s, n % 8);
		if (n)
			sw_u64(s);
	}
	if (st & (TK_PERF_SAMPLE_WEIGHT | TK_PERF_SAMPLE_WEIGHT_STRUCT))
		sw_u64(s); /* perf reads WEIGHT_STRUCT as one u64 too */
	if (st & TK_PERF_SAMPLE_DATA_SRC)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_TRANSACTION)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_REGS_INTR) {
		if (sw_u64(s))
			sw_u64s(s, (uint64_t)__builtin_popcountll(a->sample_regs_intr));
	}
	if (st & TK_PERF_SAMPLE_PHYS_ADDR)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_CGROUP)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_DATA_PAGE_SIZE)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_CODE_PAGE_SIZE)
		sw_u64(s);
	if (st & TK_PERF_SAMPLE_AUX) {
		uint64_t n = sw_u64(s);
		sw_u64s(s, n / 8);
		sw_skip(s, n % 8);
	}
}

static void swap_pid_tid(sw *s)
{
	sw_u32(s);
	sw_u32(s);
}

/* Kernel record bodies (between the header and the sample_id trailer). */
static bool swap_kernel_body(sw *s, uint32_t type, uint16_t misc)
{
	switch (type) {
	case TK_PERF_RECORD_MMAP:
		swap_pid_tid(s);
		sw_u64s(s, 3);
		return true; /* then the file name */
	case TK_PERF_RECORD_MMAP2:
		swap_pid_tid(s);
		sw_u64s(s, 3);
		if (misc & (1U << 14)) { /* PERF_RECORD_MISC_MMAP_BUILD_ID: bytes */
			sw_skip(s, 24);
		} else {
			sw_u32(s);
			sw_u32(s);
			sw_u64s(s, 2);
		}
		/* prot and flags are left as they are: perf's mmap2 swap op does
		 * not swap them, and a perf on the other byte order that sees
		 * PROT_EXEC missing treats code maps as data maps */
		return true;
	case TK_PERF_RECORD_COMM:
	case TK_PERF_RECORD_ITRACE_START:
	case TK_PERF_RECORD_SWITCH_CPU_WIDE: swap_pid_tid(s); return true;
	case TK_PERF_RECORD_EXIT:
	case TK_PERF_RECORD_FORK:
		sw_u32(s);
		sw_u32(s);
		swap_pid_tid(s);
		sw_u64(s);
		return true;
	case TK_PERF_RECORD_READ:
	case TK_PERF_RECORD_NAMESPACES:
		swap_pid_tid(s);
		sw_rest_u64(s);
		return true;
	case TK_PERF_RECORD_LOST:
	case TK_PERF_RECORD_THROTTLE:
	case TK_PERF_RECORD_UNTHROTTLE:
	case TK_PERF_RECORD_AUX:
	case TK_PERF_RECORD_LOST_SAMPLES:
	case TK_PERF_RECORD_AUX_OUTPUT_HW_ID:
	case TK_PERF_RECORD_CALLCHAIN_DEFERRED:
	case TK_PERF_RECORD_SWITCH: sw_rest_u64(s); return true;
	case TK_PERF_RECORD_KSYMBOL:
		sw_u64(s);
		sw_u32(s);
		sw_u16(s);
		sw_u16(s);
		return true;
	case TK_PERF_RECORD_BPF_EVENT:
		sw_u16(s);
		sw_u16(s);
		sw_u32(s);
		return true; /* then the tag bytes */
	case TK_PERF_RECORD_CGROUP: sw_u64(s); return true;
	case TK_PERF_RECORD_TEXT_POKE:
		sw_u64(s);
		sw_u16(s);
		sw_u16(s);
		return true;
	default: return false;
	}
}

/* perf_record_cpu_map_data (packed): u16 type, then a cpu list, a mask of
 * u32 or u64 words, or a range. */
static bool swap_cpu_map(sw *s)
{
	uint16_t type = sw_u16(s);
	switch (type) {
	case 0: { /* CPUS */
		uint16_t nr = sw_u16(s);
		for (uint16_t i = 0; i < nr && s->ok; i++)
			sw_u16(s);
		return true;
	}
	case 1: { /* MASK */
		if (!sw_has(s, 4))
			return true;
		uint16_t nr = tk_load_u16(s->p + s->pos, s->foreign);
		sw_u16(s);
		uint16_t long_size = sw_u16(s);
		if (long_size == 4) {
			for (uint16_t i = 0; i < nr && s->ok; i++)
				sw_u32(s);
		} else if (long_size == 8) {
			sw_skip(s, 4);
			sw_u64s(s, nr);
		} else {
			return false;
		}
		return true;
	}
	case 2: /* RANGE_CPUS: any_cpu, pad, start, end */
		sw_skip(s, 2);
		sw_u16(s);
		sw_u16(s);
		return true;
	default: return false;
	}
}

/* perf's own records (64 and up). */
static bool swap_user_body(sw *s, uint32_t type, uint32_t nr_cpus)
{
	switch (type) {
	case TK_PERF_RECORD_HEADER_ATTR: {
		if (!sw_has(s, 8))
			return true;
		uint32_t asz = tk_load_u32(s->p + s->pos + 4, s->foreign);
		if (asz == 0)
			asz = 64;
		if (asz > s->n - s->pos) {
			s->ok = false;
			return true;
		}
		perfw_swap_attr(s->p + s->pos, asz);
		s->pos += asz;
		sw_rest_u64(s);
		return true;
	}
	case TK_PERF_RECORD_HEADER_EVENT_TYPE: sw_u64(s); return true; /* then a name */
	case TK_PERF_RECORD_HEADER_TRACING_DATA: sw_u32(s); return true;
	case TK_PERF_RECORD_HEADER_BUILD_ID:
		sw_u32(s); /* pid; then build id bytes and the file name */
		return true;
	case TK_PERF_RECORD_FINISHED_ROUND:
	case TK_PERF_RECORD_FINISHED_INIT:
	case TK_PERF_RECORD_ID_INDEX:
	case TK_PERF_RECORD_STAT_CONFIG:
	case TK_PERF_RECORD_STAT_ROUND: sw_rest_u64(s); return true;
	case TK_PERF_RECORD_AUXTRACE_INFO:
		sw_u32(s);
		sw_u32(s);
		sw_rest_u64(s);
		return true;
	case TK_PERF_RECORD_AUXTRACE:
		sw_u64s(s, 3);
		sw_u32(s);
		sw_u32(s);
		sw_u32(s);
		sw_u32(s);
		return true; /* the payload after the record is data: as is */
	case TK_PERF_RECORD_AUXTRACE_ERROR: {
		for (int i = 0; i < 5; i++)
			sw_u32(s);
		uint32_t fmt = sw_u32(s);
		sw_u64(s);      /* ip */
		sw_skip(s, 64); /* msg */
		if (fmt >= 1 && s->n - s->pos >= 8)
			sw_u64(s); /* time */
		if (fmt >= 2 && s->n - s->pos >= 8) {
			sw_u32(s); /* machine_pid */
			sw_u32(s); /* vcpu */
		}
		return true;
	}
	case TK_PERF_RECORD_THREAD_MAP: {
		uint64_t nr = sw_u64(s);
		for (uint64_t i = 0; i < nr && s->ok; i++) {
			sw_u64(s);
			sw_skip(s, 16);
		}
		return true;
	}
	case TK_PERF_RECORD_CPU_MAP: return swap_cpu_map(s);
	case TK_PERF_RECORD_STAT:
		sw_u64(s);
		sw_u32(s);
		sw_u32(s);
		sw_rest_u64(s);
		return true;
	case TK_PERF_RECORD_TIME_CONV:
		/* shift, mult, zero, [cycles, mask], then u8 flags */
		sw_u64s(s, s->n - s->pos >= 40 ? 5 : 3);
		return true;
	case TK_PERF_RECORD_HEADER_FEATURE: {
		uint64_t id = sw_u64(s);
		if (!s->ok || id >= TK_PERF_FEAT_MAX)
			return false;
		return perfw_swap_feature((unsigned)id, s->p + s->pos, s->n - s->pos, nr_cpus,
					  s->foreign);
	}
	case TK_PERF_RECORD_EVENT_UPDATE: {
		uint64_t t = sw_u64(s);
		sw_u64(s); /* id */
		/* UNIT 0 and NAME 2: strings; SCALE 1: a double; CPUS 3: a cpu map */
		if (t == 1)
			sw_u64(s);
		if (t == 3)
			return swap_cpu_map(s);
		return t <= 2;
	}
	default: return false;
	}
}

bool perfw_swap_record(uint8_t *rec, size_t size, const tk_perf_attr *attr, uint32_t nr_cpus_avail,
		       bool foreign)
{
	if (size < 8)
		return false;
	uint32_t type = tk_load_u32(rec, foreign);
	uint16_t misc = tk_load_u16(rec + 4, foreign);
	sw hs = {rec, 8, 0, foreign, true};
	sw_u32(&hs);
	sw_u16(&hs);
	sw_u16(&hs);

	/* only kernel types whose body is known have a trailer we may swap:
	 * anything else is left whole, whatever attr the reader guessed */
	if (type == 0 || type > TK_PERF_RECORD_CALLCHAIN_DEFERRED) {
		if (type >= TK_PERF_RECORD_HEADER_ATTR) {
			sw us = {rec, size, 8, foreign, true};
			return swap_user_body(&us, type, nr_cpus_avail) && us.ok;
		}
		return false;
	}
	size_t body_end = size;
	if (type != TK_PERF_RECORD_SAMPLE && attr &&
	    tk_perf_attr_flag(attr, TK_PERF_ATTR_SAMPLE_ID_ALL)) {
		size_t tsize = 8 * (size_t)__builtin_popcountll(attr->sample_type & TRAILER_BITS);
		if (tsize <= size - 8) {
			body_end = size - tsize;
			sw ts = {rec, size, body_end, foreign, true};
			swap_trailer(&ts, attr->sample_type);
		}
	}
	sw s = {rec, body_end, 8, foreign, true};
	bool known;
	if (type == TK_PERF_RECORD_SAMPLE) {
		if (!attr) {
			sw_rest_u64(&s); /* perf's own fallback view of a sample */
			return false;
		}
		swap_sample(&s, attr);
		known = true;
	} else {
		known = swap_kernel_body(&s, type, misc);
	}
	return known && s.ok;
}

/* ---- features ---- */

static void swap_event_desc(sw *s)
{
	uint32_t nr = sw_u32(s);
	uint32_t asz = sw_u32(s);
	for (uint32_t i = 0; i < nr && s->ok; i++) {
		if (!sw_has(s, asz))
			return;
		perfw_swap_attr(s->p + s->pos, asz);
		s->pos += asz;
		uint32_t nids = sw_u32(s);
		sw_str(s);
		sw_u64s(s, nids);
	}
}

static void swap_cpu_topology(sw *s, uint32_t nr_cpus)
{
	sw_strs(s, sw_u32(s)); /* core siblings */
	sw_strs(s, sw_u32(s)); /* thread siblings */
	if (!s->ok || s->pos == s->n)
		return;
	/* {core_id, socket_id} per available cpu */
	if ((s->n - s->pos) / 8 < nr_cpus) {
		s->ok = false;
		return;
	}
	for (uint32_t i = 0; i < 2 * nr_cpus; i++)
		sw_u32(s);
	if (s->pos == s->n)
		return;
	sw_strs(s, sw_u32(s)); /* die siblings */
	while (s->ok && s->n - s->pos >= 4)
		sw_u32(s); /* die id per cpu */
}

static void swap_build_ids(sw *s)
{
	/* build_id records: header, pid, id bytes, file name */
	while (s->ok && s->n - s->pos >= 8) {
		size_t start = s->pos;
		sw_u32(s);
		sw_u16(s);
		uint16_t sz = sw_u16(s);
		if (sz < 12 || sz > s->n - start) {
			s->ok = false;
			return;
		}
		sw_u32(s);
		s->pos = start + sz;
	}
}

bool perfw_swap_feature(unsigned id, uint8_t *p, size_t size, uint32_t nr_cpus_avail, bool foreign)
{
	sw s = {p, size, 0, foreign, true};
	if (size == 0)
		return true;
	switch (id) {
	case TK_PERF_FEAT_TRACING_DATA: /* self-describing byte order */
	case TK_PERF_FEAT_BRANCH_STACK:
	case TK_PERF_FEAT_STAT: return true;
	case TK_PERF_FEAT_BUILD_ID: swap_build_ids(&s); break;
	case TK_PERF_FEAT_HOSTNAME:
	case TK_PERF_FEAT_OSRELEASE:
	case TK_PERF_FEAT_VERSION:
	case TK_PERF_FEAT_ARCH:
	case TK_PERF_FEAT_CPUDESC:
	case TK_PERF_FEAT_CPUID: sw_str(&s); break;
	case TK_PERF_FEAT_NRCPUS:
		sw_u32(&s);
		sw_u32(&s);
		break;
	case TK_PERF_FEAT_CMDLINE:
	case TK_PERF_FEAT_HYBRID_TOPOLOGY: /* nr, {pmu, cpus} */
	case TK_PERF_FEAT_CPU_PMU_CAPS:    /* nr, {name, value} */
	{
		uint32_t nr = sw_u32(&s);
		sw_strs(&s, id == TK_PERF_FEAT_CMDLINE ? nr : 2 * (uint64_t)nr);
		break;
	}
	case TK_PERF_FEAT_EVENT_DESC: swap_event_desc(&s); break;
	case TK_PERF_FEAT_CPU_TOPOLOGY: swap_cpu_topology(&s, nr_cpus_avail); break;
	case TK_PERF_FEAT_NUMA_TOPOLOGY: {
		uint32_t nr = sw_u32(&s);
		for (uint32_t i = 0; i < nr && s.ok; i++) {
			sw_u32(&s);
			sw_u64(&s);
			sw_u64(&s);
			sw_str(&s);
		}
		break;
	}
	case TK_PERF_FEAT_PMU_MAPPINGS: {
		uint32_t nr = sw_u32(&s);
		for (uint32_t i = 0; i < nr && s.ok; i++) {
			sw_u32(&s);
			sw_str(&s);
		}
		break;
	}
	case TK_PERF_FEAT_GROUP_DESC: {
		uint32_t nr = sw_u32(&s);
		for (uint32_t i = 0; i < nr && s.ok; i++) {
			sw_str(&s);
			sw_u32(&s);
			sw_u32(&s);
		}
		break;
	}
	case TK_PERF_FEAT_CACHE: {
		sw_u32(&s); /* version */
		uint32_t nr = sw_u32(&s);
		for (uint32_t i = 0; i < nr && s.ok; i++) {
			for (int k = 0; k < 4; k++)
				sw_u32(&s);
			sw_strs(&s, 3);
		}
		break;
	}
	case TK_PERF_FEAT_AUXTRACE:     /* u64 nr, {offset, size} */
	case TK_PERF_FEAT_SAMPLE_TIME:  /* first, last */
	case TK_PERF_FEAT_MEM_TOPOLOGY: /* u64 words throughout */
	case TK_PERF_FEAT_CLOCKID:
	case TK_PERF_FEAT_DIR_FORMAT:
	case TK_PERF_FEAT_TOTAL_MEM: sw_rest_u64(&s); break;
	case TK_PERF_FEAT_COMPRESSED:
		for (int k = 0; k < 5; k++)
			sw_u32(&s);
		break;
	case TK_PERF_FEAT_CLOCK_DATA:
		sw_u32(&s);
		sw_u32(&s);
		sw_u64(&s);
		sw_u64(&s);
		break;
	case TK_PERF_FEAT_PMU_CAPS: {
		uint32_t npmu = sw_u32(&s);
		for (uint32_t i = 0; i < npmu && s.ok; i++) {
			uint32_t ncaps = sw_u32(&s);
			sw_strs(&s, 2 * (uint64_t)ncaps);
			sw_str(&s);
		}
		break;
	}
	case TK_PERF_FEAT_BPF_BTF: {
		uint32_t nr = sw_u32(&s);
		for (uint32_t i = 0; i < nr && s.ok; i++) {
			sw_u32(&s); /* id */
			sw_skip(&s, sw_u32(&s));
		}
		break;
	}
	case TK_PERF_FEAT_BPF_PROG_INFO:
		/* the count only; bpf_prog_info entries (mixed widths, kernel
		 * version dependent) are kept as they are */
		return sw_u32(&s) == 0 && s.ok;
	default: /* CPU_DOMAIN_INFO, unknown ids: as is */ return false;
	}
	return s.ok;
}
