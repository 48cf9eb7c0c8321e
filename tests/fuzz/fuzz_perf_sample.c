/* Fuzz target: one sample body decoded against an attr configuration the
 * input chooses (sample_type, read_format, branch flags, register masks),
 * plus the sample_id trailer and head parsers on the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; p && i < n; i++)
		sink += p[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 16)
		return 0;
	tk_perf_attr a;
	memset(&a, 0, sizeof a);
	uint64_t cfg;
	memcpy(&cfg, data, 8);
	a.sample_type = cfg & 0x1ffffff;
	a.read_format = (cfg >> 25) & 0x1f;
	a.branch_sample_type = ((cfg >> 30) & 1 ? 1U << 17 : 0) | ((cfg >> 31) & 1 ? 1U << 19 : 0);
	a.sample_regs_user = (cfg >> 32) & 0xffff;
	a.sample_regs_intr = (cfg >> 48) & 0xffff;
	bool swap = data[8] & 1;
	data += 9;
	size -= 9;
	if (size > 65535 - 8)
		size = 65535 - 8;
	uint8_t *rec = malloc(size + 8);
	if (!rec)
		return 0;
	tk_store_u32(rec, TK_PERF_RECORD_SAMPLE, swap);
	tk_store_u16(rec + 4, 0, swap);
	tk_store_u16(rec + 6, (uint16_t)(size + 8), swap);
	memcpy(rec + 8, data, size);
	tk_perf_sample s;
	tk_error err;
	if (tk_perf_parse_sample_with(&a, swap, rec, (uint32_t)(size + 8), 0, &s, &err) == TK_OK) {
		touch(s.callchain, s.callchain_nr * 8);
		touch(s.raw, s.raw_size);
		touch(s.branches, s.branch_nr * 24);
		touch(s.branch_counters, s.branch_counters ? s.branch_nr * 8 : 0);
		touch(s.read_values, s.read_nr * s.read_stride * 8);
		touch(s.regs_user, s.regs_user_n * 8);
		touch(s.regs_intr, s.regs_intr_n * 8);
		touch(s.stack_user, s.stack_user_size);
		touch(s.aux, s.aux_size);
	}
	tk_perf_sample_id sid;
	(void)tk_perf_parse_trailer(rec, (uint32_t)(size + 8), a.sample_type, swap, &sid);
	/* The ordering queue reads a sample's time alone (tk_perf_sample_time);
	 * it must agree with the head parse the record gets when emitted. */
	bool head_ok =
	    tk_perf_parse_sample_head(rec, (uint32_t)(size + 8), a.sample_type, swap, &sid);
	uint64_t t;
	bool time_ok = tk_perf_sample_time(rec, (uint32_t)(size + 8), a.sample_type, swap, &t);
	if ((a.sample_type & TK_PERF_SAMPLE_TIME) &&
	    (time_ok != head_ok || (head_ok && t != sid.time)))
		abort();
	free(rec);
	return 0;
}
