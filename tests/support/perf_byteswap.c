/* Test-only little-endian -> big-endian perf.data converter (see
 * perf_byteswap.h). Walks the input with the library in file order to get
 * each record's offset and attr, and swaps fields in place in a copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "perf_byteswap.h"
#include "tracekit/tracekit.h"

static void sw16(uint8_t *p)
{
	tk_store_u16(p, tk_load_u16(p, false), true);
}
static void sw32(uint8_t *p)
{
	tk_store_u32(p, tk_load_u32(p, false), true);
}
static void sw64(uint8_t *p)
{
	tk_store_u64(p, tk_load_u64(p, false), true);
}

/* perf_event_attr: u64s and u32s per its layout; the flags word keeps its
 * bytes but has the bits of each byte reversed. */
static void swap_attr(uint8_t *p, size_t size)
{
	static const struct {
		uint8_t off, width;
	} fields[] = {
	    {0, 4},   {4, 4},   {8, 8},   {16, 8},  {24, 8},  {32, 8},  {48, 4}, {52, 4},
	    {56, 8},  {64, 8},  {72, 8},  {80, 8},  {88, 4},  {92, 4},  {96, 8}, {104, 4},
	    {108, 2}, {110, 2}, {112, 4}, {116, 4}, {120, 8}, {128, 8},
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (fields[i].off + fields[i].width > size)
			break;
		uint8_t *q = p + fields[i].off;
		fields[i].width == 8 ? sw64(q) : fields[i].width == 4 ? sw32(q) : sw16(q);
	}
	for (int i = 0; i < 8; i++)
		p[40 + i] = tk_reverse_bits8(p[40 + i]);
}

static void swap_trailer(uint8_t *end, uint64_t t)
{
	t &= TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID |
	     TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU | TK_PERF_SAMPLE_IDENTIFIER;
	uint8_t *p = end - 8 * __builtin_popcountll(t);
	for (uint64_t bit = 1; bit <= TK_PERF_SAMPLE_IDENTIFIER; bit <<= 1) {
		if (!(t & bit))
			continue;
		if (bit == TK_PERF_SAMPLE_TID || bit == TK_PERF_SAMPLE_CPU) {
			sw32(p);
			sw32(p + 4);
		} else {
			sw64(p);
		}
		p += 8;
	}
}

static int swap_sample(uint8_t *p, uint32_t size, const tk_perf_attr *a)
{
	uint64_t t = a->sample_type;
	uint8_t *q = p + 8, *end = p + size;
#define U64N(n)                                                                                    \
	do {                                                                                       \
		for (uint64_t k_ = 0; k_ < (uint64_t)(n); k_++) {                                  \
			if (q + 8 > end)                                                           \
				return -1;                                                         \
			sw64(q);                                                                   \
			q += 8;                                                                    \
		}                                                                                  \
	} while (0)
	/* reads a count in the input's (little-endian) order, then swaps it */
#define COUNT(var)                                                                                 \
	do {                                                                                       \
		if (q + 8 > end)                                                                   \
			return -1;                                                                 \
		var = tk_load_le64(q);                                                             \
		U64N(1);                                                                           \
	} while (0)
	if (t & TK_PERF_SAMPLE_IDENTIFIER)
		U64N(1);
	if (t & TK_PERF_SAMPLE_IP)
		U64N(1);
	if (t & TK_PERF_SAMPLE_TID) {
		if (q + 8 > end)
			return -1;
		sw32(q);
		sw32(q + 4);
		q += 8;
	}
	if (t & TK_PERF_SAMPLE_TIME)
		U64N(1);
	if (t & TK_PERF_SAMPLE_ADDR)
		U64N(1);
	if (t & TK_PERF_SAMPLE_ID)
		U64N(1);
	if (t & TK_PERF_SAMPLE_STREAM_ID)
		U64N(1);
	if (t & TK_PERF_SAMPLE_CPU) {
		if (q + 8 > end)
			return -1;
		sw32(q);
		sw32(q + 4);
		q += 8;
	}
	if (t & TK_PERF_SAMPLE_PERIOD)
		U64N(1);
	if (t & TK_PERF_SAMPLE_READ) {
		uint64_t rf = a->read_format, n = 1,
			 per = 1 + !!(rf & TK_PERF_FORMAT_ID) + !!(rf & TK_PERF_FORMAT_LOST);
		if (rf & TK_PERF_FORMAT_GROUP)
			COUNT(n);
		else
			per = 1;
		U64N(!!(rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING));
		U64N(n * per);
		if (!(rf & TK_PERF_FORMAT_GROUP))
			U64N(!!(rf & TK_PERF_FORMAT_ID) + !!(rf & TK_PERF_FORMAT_LOST));
	}
	if (t & TK_PERF_SAMPLE_CALLCHAIN) {
		uint64_t n;
		COUNT(n);
		U64N(n);
	}
	if (t & TK_PERF_SAMPLE_RAW)
		return -1; /* tracepoint payloads are swapped per format: not here */
	if (t & TK_PERF_SAMPLE_BRANCH_STACK) {
		uint64_t n;
		COUNT(n);
		if (a->branch_sample_type & (1U << 17))
			U64N(1);
		U64N(n * 3);
	}
	if (t & TK_PERF_SAMPLE_REGS_USER) {
		uint64_t abi;
		COUNT(abi);
		if (abi)
			U64N((uint64_t)__builtin_popcountll(a->sample_regs_user));
	}
	if (t & TK_PERF_SAMPLE_STACK_USER) {
		uint64_t n;
		COUNT(n);
		if (n) {
			if ((uint64_t)(end - q) < n)
				return -1;
			q += n;
			U64N(1);
		}
	}
	if (t & (TK_PERF_SAMPLE_WEIGHT | TK_PERF_SAMPLE_WEIGHT_STRUCT))
		U64N(1);
	if (t & TK_PERF_SAMPLE_DATA_SRC)
		U64N(1);
	if (t & TK_PERF_SAMPLE_TRANSACTION)
		U64N(1);
	if (t & TK_PERF_SAMPLE_REGS_INTR) {
		uint64_t abi;
		COUNT(abi);
		if (abi)
			U64N((uint64_t)__builtin_popcountll(a->sample_regs_intr));
	}
	if (t & TK_PERF_SAMPLE_PHYS_ADDR)
		U64N(1);
	if (t & TK_PERF_SAMPLE_CGROUP)
		U64N(1);
	if (t & TK_PERF_SAMPLE_DATA_PAGE_SIZE)
		U64N(1);
	if (t & TK_PERF_SAMPLE_CODE_PAGE_SIZE)
		U64N(1);
	if (t & TK_PERF_SAMPLE_AUX)
		return -1;
#undef U64N
#undef COUNT
	return 0;
}

static int swap_record(uint8_t *p, const tk_perf_record *r)
{
	uint32_t type = r->type;
	const tk_perf_attr *a = r->attr;
	if (type == TK_PERF_RECORD_SAMPLE) {
		if (!a || swap_sample(p, r->size, a) != 0)
			return -1;
	} else if (type == TK_PERF_RECORD_FINISHED_ROUND) {
		/* header only */
	} else if (type < 64) {
		switch (type) {
		case TK_PERF_RECORD_MMAP:
			sw32(p + 8);
			sw32(p + 12);
			sw64(p + 16);
			sw64(p + 24);
			sw64(p + 32);
			break;
		case TK_PERF_RECORD_MMAP2:
			sw32(p + 8);
			sw32(p + 12);
			sw64(p + 16);
			sw64(p + 24);
			sw64(p + 32);
			sw32(p + 40);
			sw32(p + 44);
			sw64(p + 48);
			sw64(p + 56);
			sw32(p + 64);
			sw32(p + 68);
			break;
		case TK_PERF_RECORD_COMM:
			sw32(p + 8);
			sw32(p + 12);
			break;
		case TK_PERF_RECORD_FORK:
		case TK_PERF_RECORD_EXIT:
			sw32(p + 8);
			sw32(p + 12);
			sw32(p + 16);
			sw32(p + 20);
			sw64(p + 24);
			break;
		case TK_PERF_RECORD_LOST:
			sw64(p + 8);
			sw64(p + 16);
			break;
		case TK_PERF_RECORD_THROTTLE:
		case TK_PERF_RECORD_UNTHROTTLE:
			sw64(p + 8);
			sw64(p + 16);
			sw64(p + 24);
			break;
		default: return -1;
		}
		if (a && tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL))
			swap_trailer(p + r->size, a->sample_type);
	} else {
		return -1;
	}
	sw32(p);
	sw16(p + 4);
	sw16(p + 6);
	return 0;
}

/* Features kept: strings, NRCPUS, TOTAL_MEM (their layouts are simple). */
static int swap_feature(unsigned id, uint8_t *p, uint64_t size)
{
	switch (id) {
	case TK_PERF_FEAT_HOSTNAME:
	case TK_PERF_FEAT_OSRELEASE:
	case TK_PERF_FEAT_VERSION:
	case TK_PERF_FEAT_ARCH:
	case TK_PERF_FEAT_CPUDESC:
	case TK_PERF_FEAT_CPUID:
		if (size < 4)
			return -1;
		sw32(p);
		return 0;
	case TK_PERF_FEAT_NRCPUS:
		if (size < 8)
			return -1;
		sw32(p);
		sw32(p + 4);
		return 0;
	case TK_PERF_FEAT_TOTAL_MEM:
		if (size < 8)
			return -1;
		sw64(p);
		return 0;
	default: return -1;
	}
}

uint8_t *tk_test_perf_byteswap(const uint8_t *in, size_t size, char *why, size_t why_len)
{
	tk_perf_file *f = NULL;
	tk_error err;
	uint8_t *out = NULL;
	tk_perf_open_options opt = {.raw_order = true};
	if (!tk_host_is_le() || size < 104 || memcmp(in, "PERFILE2", 8) != 0) {
		snprintf(why, why_len, "not a little-endian file on a little-endian host");
		return NULL;
	}
	if (tk_perf_open_memory(in, size, "byteswap", &opt, &f, &err) != TK_OK) {
		snprintf(why, why_len, "open: %s", err.message);
		return NULL;
	}
	const tk_perf_header *h = tk_perf_get_header(f);
	if (h->pipe_mode) {
		snprintf(why, why_len, "pipe mode is not supported");
		goto fail;
	}
	out = malloc(size);
	if (!out)
		goto fail;
	memcpy(out, in, size);
	memcpy(out, "2ELIFREP", 8);
	/* features: keep the simple ones, rewrite the table in place */
	uint64_t table = h->data_offset + h->data_size;
	uint64_t keep[4] = {0};
	unsigned k = 0, w = 0;
	for (unsigned bit = 0; bit < 256; bit++) {
		if (!((h->features[bit / 64] >> (bit % 64)) & 1))
			continue;
		const uint8_t *e = in + table + 16 * k++;
		uint64_t off = tk_load_le64(e), len = tk_load_le64(e + 8);
		if (off > size || len > size - off || swap_feature(bit, out + off, len) != 0)
			continue;
		keep[bit / 64] |= 1ULL << (bit % 64);
		tk_store_u64(out + table + 16 * w, off, true);
		tk_store_u64(out + table + 16 * w + 8, len, true);
		w++;
	}
	for (int i = 0; i < 13; i++)
		sw64(out + 8 + 8 * i);
	for (int i = 0; i < 4; i++)
		tk_store_u64(out + 72 + 8 * i, keep[i], true);
	/* attrs and their ids */
	for (uint64_t off = h->attrs_offset; off + h->attr_size <= h->attrs_offset + h->attrs_size;
	     off += h->attr_size) {
		size_t asz = (size_t)h->attr_size - 16;
		uint64_t ids_off = tk_load_le64(in + off + asz),
			 ids_size = tk_load_le64(in + off + asz + 8);
		swap_attr(out + off, asz);
		sw64(out + off + asz);
		sw64(out + off + asz + 8);
		for (uint64_t i = 0; i + 8 <= ids_size; i += 8)
			sw64(out + ids_off + i);
	}
	const tk_perf_record *r;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK) {
		if (r->from_compressed || swap_record(out + r->offset, r) != 0) {
			snprintf(why, why_len, "cannot swap a %s record at 0x%llx",
				 tk_perf_record_type_name(r->type)
				     ? tk_perf_record_type_name(r->type)
				     : "unknown",
				 (unsigned long long)r->offset);
			goto fail;
		}
	}
	if (st != TK_END) {
		snprintf(why, why_len, "read: %s", err.message);
		goto fail;
	}
	tk_perf_close(f);
	return out;
fail:
	free(out);
	tk_perf_close(f);
	return NULL;
}
