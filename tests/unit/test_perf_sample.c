/* Sample decoding on crafted records: every PERF_SAMPLE_* bit in perf's
 * order, READ with and without GROUP/ID/LOST, branch stacks with hw_idx and
 * counters, register sets sized by popcount, every truncation rejected, and
 * the sample_id trailer parsed backwards. Both byte orders. */
#include <stdlib.h>
#include <string.h>

#include "perf/perf_internal.h"
#include "perf_craft.h"
#include "test_support.h"

#define ALL_BITS 0x1ffffffULL

/* Writes a sample with every bit of t; values are small distinct numbers. */
static void write_sample(pc_buf *b, const tk_perf_attr *a)
{
	uint64_t t = a->sample_type;
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_SAMPLE, 0);
	if (t & TK_PERF_SAMPLE_IDENTIFIER)
		pc_u64(b, 1001);
	if (t & TK_PERF_SAMPLE_IP)
		pc_u64(b, 0x400123);
	if (t & TK_PERF_SAMPLE_TID) {
		pc_u32(b, 10);
		pc_u32(b, 11);
	}
	if (t & TK_PERF_SAMPLE_TIME)
		pc_u64(b, 5000000001ULL);
	if (t & TK_PERF_SAMPLE_ADDR)
		pc_u64(b, 0xdead0000);
	if (t & TK_PERF_SAMPLE_ID)
		pc_u64(b, 1001);
	if (t & TK_PERF_SAMPLE_STREAM_ID)
		pc_u64(b, 1002);
	if (t & TK_PERF_SAMPLE_CPU) {
		pc_u32(b, 3);
		pc_u32(b, 0);
	}
	if (t & TK_PERF_SAMPLE_PERIOD)
		pc_u64(b, 250000);
	if (t & TK_PERF_SAMPLE_READ) {
		uint64_t rf = a->read_format;
		if (rf & TK_PERF_FORMAT_GROUP) {
			pc_u64(b, 2);
			if (rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED)
				pc_u64(b, 700);
			if (rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING)
				pc_u64(b, 600);
			for (int i = 0; i < 2; i++) {
				pc_u64(b, 100 + i);
				if (rf & TK_PERF_FORMAT_ID)
					pc_u64(b, 200 + i);
				if (rf & TK_PERF_FORMAT_LOST)
					pc_u64(b, 300 + i);
			}
		} else {
			pc_u64(b, 100);
			if (rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED)
				pc_u64(b, 700);
			if (rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING)
				pc_u64(b, 600);
			if (rf & TK_PERF_FORMAT_ID)
				pc_u64(b, 200);
			if (rf & TK_PERF_FORMAT_LOST)
				pc_u64(b, 300);
		}
	}
	if (t & TK_PERF_SAMPLE_CALLCHAIN) {
		pc_u64(b, 3);
		pc_u64(b, TK_PERF_CONTEXT_USER);
		pc_u64(b, 0x400123);
		pc_u64(b, 0x400456);
	}
	if (t & TK_PERF_SAMPLE_RAW) {
		pc_u32(b, 12);
		pc_bytes(b, "rawdata12345", 12);
	}
	if (t & TK_PERF_SAMPLE_BRANCH_STACK) {
		pc_u64(b, 2);
		if (a->branch_sample_type & (1U << 17))
			pc_u64(b, 9);
		for (int i = 0; i < 6; i++)
			pc_u64(b, 0x1000 + i);
		if (a->branch_sample_type & (1U << 19)) {
			pc_u64(b, 41);
			pc_u64(b, 42);
		}
	}
	if (t & TK_PERF_SAMPLE_REGS_USER) {
		pc_u64(b, 2); /* PERF_SAMPLE_REGS_ABI_64 */
		for (int i = 0; i < __builtin_popcountll(a->sample_regs_user); i++)
			pc_u64(b, 0x50 + i);
	}
	if (t & TK_PERF_SAMPLE_STACK_USER) {
		pc_u64(b, 16);
		pc_bytes(b, "stackstackstack!", 16);
		pc_u64(b, 12);
	}
	if (t & (TK_PERF_SAMPLE_WEIGHT | TK_PERF_SAMPLE_WEIGHT_STRUCT))
		pc_u64(b, 77);
	if (t & TK_PERF_SAMPLE_DATA_SRC)
		pc_u64(b, 0x68100142);
	if (t & TK_PERF_SAMPLE_TRANSACTION)
		pc_u64(b, 0x80);
	if (t & TK_PERF_SAMPLE_REGS_INTR) {
		pc_u64(b, 2);
		for (int i = 0; i < __builtin_popcountll(a->sample_regs_intr); i++)
			pc_u64(b, 0x70 + i);
	}
	if (t & TK_PERF_SAMPLE_PHYS_ADDR)
		pc_u64(b, 0x1234000);
	if (t & TK_PERF_SAMPLE_CGROUP)
		pc_u64(b, 55);
	if (t & TK_PERF_SAMPLE_DATA_PAGE_SIZE)
		pc_u64(b, 4096);
	if (t & TK_PERF_SAMPLE_CODE_PAGE_SIZE)
		pc_u64(b, 2097152);
	if (t & TK_PERF_SAMPLE_AUX) {
		pc_u64(b, 8);
		pc_bytes(b, "auxdata!", 8);
	}
	pc_rec_end(b, r);
}

static tk_perf_attr make_attr(uint64_t t, uint64_t rf, uint64_t bst)
{
	tk_perf_attr a;
	memset(&a, 0, sizeof a);
	a.sample_type = t;
	a.read_format = rf;
	a.branch_sample_type = bst;
	a.sample_regs_user = 0xf0f; /* 8 registers */
	a.sample_regs_intr = 0x3;   /* 2 registers */
	return a;
}

static void check_all(const tk_perf_sample *s, const tk_perf_attr *a)
{
	bool sw = s->swap;
	assert_int_equal(s->identifier, 1001);
	assert_int_equal(s->ip, 0x400123);
	assert_int_equal(s->pid, 10);
	assert_int_equal(s->tid, 11);
	assert_int_equal(s->time, 5000000001ULL);
	assert_int_equal(s->addr, 0xdead0000);
	assert_int_equal(s->id, 1001);
	assert_int_equal(s->stream_id, 1002);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 250000);
	uint64_t rf = a->read_format;
	if (rf & TK_PERF_FORMAT_GROUP) {
		assert_int_equal(s->read_nr, 2);
		for (uint64_t i = 0; i < 2; i++) {
			size_t k = i * s->read_stride;
			assert_int_equal(tk_perf_u64_at(s->read_values, k, sw), 100 + i);
			if (rf & TK_PERF_FORMAT_ID)
				assert_int_equal(tk_perf_u64_at(s->read_values, ++k, sw), 200 + i);
			if (rf & TK_PERF_FORMAT_LOST)
				assert_int_equal(tk_perf_u64_at(s->read_values, ++k, sw), 300 + i);
		}
	} else {
		assert_int_equal(s->read_nr, 1);
		size_t k = 0;
		assert_int_equal(tk_perf_u64_at(s->read_values, k, sw), 100);
		if (rf & TK_PERF_FORMAT_ID)
			assert_int_equal(tk_perf_u64_at(s->read_values, ++k, sw), 200);
		if (rf & TK_PERF_FORMAT_LOST)
			assert_int_equal(tk_perf_u64_at(s->read_values, ++k, sw), 300);
		assert_int_equal(s->read_stride, k + 1);
	}
	assert_int_equal(s->read_time_enabled, rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED ? 700 : 0);
	assert_int_equal(s->read_time_running, rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING ? 600 : 0);
	assert_int_equal(s->callchain_nr, 3);
	assert_true(tk_perf_u64_at(s->callchain, 0, sw) == TK_PERF_CONTEXT_USER);
	assert_int_equal(tk_perf_u64_at(s->callchain, 2, sw), 0x400456);
	assert_int_equal(s->raw_size, 12);
	assert_memory_equal(s->raw, "rawdata12345", 12);
	assert_int_equal(s->branch_nr, 2);
	assert_int_equal(s->has_branch_hw_idx, (a->branch_sample_type & (1U << 17)) != 0);
	if (s->has_branch_hw_idx)
		assert_int_equal(s->branch_hw_idx, 9);
	assert_int_equal(tk_perf_u64_at(s->branches, 5, sw), 0x1005);
	if (a->branch_sample_type & (1U << 19))
		assert_int_equal(tk_perf_u64_at(s->branch_counters, 1, sw), 42);
	else
		assert_null(s->branch_counters);
	assert_int_equal(s->regs_user_abi, 2);
	assert_int_equal(s->regs_user_n, 8);
	assert_int_equal(tk_perf_u64_at(s->regs_user, 7, sw), 0x57);
	assert_int_equal(s->stack_user_size, 16);
	assert_memory_equal(s->stack_user, "stackstackstack!", 16);
	assert_int_equal(s->stack_user_dyn_size, 12);
	assert_int_equal(s->weight, 77);
	assert_int_equal(s->data_src, 0x68100142);
	assert_int_equal(s->transaction, 0x80);
	assert_int_equal(s->regs_intr_n, 2);
	assert_int_equal(tk_perf_u64_at(s->regs_intr, 1, sw), 0x71);
	assert_int_equal(s->phys_addr, 0x1234000);
	assert_int_equal(s->cgroup, 55);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, 8);
	assert_memory_equal(s->aux, "auxdata!", 8);
}

static void run_config(uint64_t rf, uint64_t bst, bool be)
{
	tk_perf_attr a = make_attr(ALL_BITS & ~(uint64_t)TK_PERF_SAMPLE_WEIGHT, rf, bst);
	pc_buf b = {.be = be};
	write_sample(&b, &a);
	bool swap = pc_swap(&b);
	tk_perf_sample s;
	tk_error err;
	assert_int_equal(tk_perf_parse_sample_with(&a, swap, b.p, (uint32_t)b.n, 0, &s, &err),
			 TK_OK);
	check_all(&s, &a);
	/* every shorter record is rejected, never over-read */
	for (uint32_t n = 8; n < b.n; n++) {
		uint8_t *cut = malloc(n);
		memcpy(cut, b.p, n);
		assert_int_equal(tk_perf_parse_sample_with(&a, swap, cut, n, 64, &s, &err),
				 TK_ERR_FORMAT);
		assert_int_equal(err.offset, 64);
		free(cut);
	}
	free(b.p);
}

static void test_every_bit(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		run_config(0, 0, be);
		run_config(TK_PERF_FORMAT_ID | TK_PERF_FORMAT_LOST, 1U << 17, be);
		run_config(TK_PERF_FORMAT_TOTAL_TIME_ENABLED | TK_PERF_FORMAT_TOTAL_TIME_RUNNING |
			       TK_PERF_FORMAT_ID,
			   1U << 19, be);
		run_config(TK_PERF_FORMAT_GROUP | TK_PERF_FORMAT_ID | TK_PERF_FORMAT_LOST,
			   (1U << 17) | (1U << 19), be);
		run_config(TK_PERF_FORMAT_GROUP | TK_PERF_FORMAT_TOTAL_TIME_ENABLED |
			       TK_PERF_FORMAT_TOTAL_TIME_RUNNING,
			   0, be);
	}
}

/* Each bit alone: the field lands where perf puts it. */
static void test_single_bits(void **state)
{
	(void)state;
	for (unsigned bit = 0; bit < 25; bit++) {
		tk_perf_attr a = make_attr(1ULL << bit, TK_PERF_FORMAT_ID, 0);
		pc_buf b = {.be = false};
		write_sample(&b, &a);
		tk_perf_sample s;
		tk_error err;
		assert_int_equal(
		    tk_perf_parse_sample_with(&a, pc_swap(&b), b.p, (uint32_t)b.n, 0, &s, &err),
		    TK_OK);
		/* one byte short fails: the field was expected exactly there */
		assert_int_equal(
		    tk_perf_parse_sample_with(&a, pc_swap(&b), b.p, (uint32_t)b.n - 1, 0, &s, &err),
		    TK_ERR_FORMAT);
		free(b.p);
	}
}

/* Abi 0 means no registers follow; stack size 0 means no dyn_size. */
static void test_empty_regs_and_stack(void **state)
{
	(void)state;
	tk_perf_attr a = make_attr(
	    TK_PERF_SAMPLE_REGS_USER | TK_PERF_SAMPLE_STACK_USER | TK_PERF_SAMPLE_PERIOD, 0, 0);
	pc_buf b = {.be = false};
	size_t r = pc_rec_begin(&b, TK_PERF_RECORD_SAMPLE, 0);
	pc_u64(&b, 99); /* PERIOD comes first */
	pc_u64(&b, 0);  /* abi none */
	pc_u64(&b, 0);  /* stack size 0 */
	pc_rec_end(&b, r);
	tk_perf_sample s;
	tk_error err;
	assert_int_equal(tk_perf_parse_sample_with(&a, false, b.p, (uint32_t)b.n, 0, &s, &err),
			 TK_OK);
	assert_int_equal(s.regs_user_n, 0);
	assert_null(s.stack_user);
	assert_int_equal(s.period, 99);
	free(b.p);
}

/* Huge counts never allocate or read past the record. */
static void test_hostile_counts(void **state)
{
	(void)state;
	const uint64_t bits[] = {TK_PERF_SAMPLE_CALLCHAIN, TK_PERF_SAMPLE_BRANCH_STACK,
				 TK_PERF_SAMPLE_RAW,       TK_PERF_SAMPLE_STACK_USER,
				 TK_PERF_SAMPLE_AUX,       TK_PERF_SAMPLE_READ};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		tk_perf_attr a = make_attr(bits[i], TK_PERF_FORMAT_GROUP | TK_PERF_FORMAT_ID, 0);
		pc_buf b = {.be = false};
		size_t r = pc_rec_begin(&b, TK_PERF_RECORD_SAMPLE, 0);
		pc_u64(&b, UINT64_MAX / 3);
		pc_u64(&b, 1);
		pc_rec_end(&b, r);
		tk_perf_sample s;
		tk_error err;
		assert_int_equal(
		    tk_perf_parse_sample_with(&a, false, b.p, (uint32_t)b.n, 8, &s, &err),
		    TK_ERR_FORMAT);
		free(b.p);
	}
}

static void test_trailer(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		pc_buf b = {.be = be};
		size_t r = pc_rec_begin(&b, TK_PERF_RECORD_COMM, 0);
		pc_u32(&b, 1);
		pc_u32(&b, 2);
		pc_bytes(&b, "a-longer-comm\0\0\0", 16);
		pc_u32(&b, 7); /* TID */
		pc_u32(&b, 8);
		pc_u64(&b, 999); /* TIME */
		pc_u64(&b, 31);  /* ID */
		pc_u64(&b, 32);  /* STREAM_ID */
		pc_u32(&b, 5);   /* CPU */
		pc_u32(&b, 0);
		pc_u64(&b, 31); /* IDENTIFIER */
		pc_rec_end(&b, r);
		tk_perf_sample_id sid;
		uint64_t t = TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID |
			     TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU |
			     TK_PERF_SAMPLE_IDENTIFIER | TK_PERF_SAMPLE_IP |
			     TK_PERF_SAMPLE_CALLCHAIN; /* non-id bits are ignored */
		assert_true(tk_perf_parse_trailer(b.p, (uint32_t)b.n, t, pc_swap(&b), &sid));
		assert_int_equal(sid.pid, 7);
		assert_int_equal(sid.tid, 8);
		assert_int_equal(sid.time, 999);
		assert_int_equal(sid.id, 31);
		assert_int_equal(sid.stream_id, 32);
		assert_int_equal(sid.cpu, 5);
		assert_int_equal(sid.identifier, 31);
		/* a record too short for its trailer */
		assert_false(tk_perf_parse_trailer(b.p, 40, t, pc_swap(&b), &sid));
		free(b.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_bit),
	    cmocka_unit_test(test_single_bits),
	    cmocka_unit_test(test_empty_regs_and_stack),
	    cmocka_unit_test(test_hostile_counts),
	    cmocka_unit_test(test_trailer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
