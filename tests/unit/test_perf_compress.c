/* zstd COMPRESSED (81) and COMPRESSED2 (83) records built with libzstd the
 * way perf writes them: one zstd stream for the whole file, flushed (never
 * ended) at each record, so records span compressed chunks. COMPRESSED2's
 * data_size is trusted over an overflowed u16 header.size. Corrupt data
 * is an error at the compressed record's offset. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perf_craft.h"
#include "test_support.h"

static const pc_attr attr = {
    .type = TK_PERF_TYPE_SOFTWARE,
    .config = 1,
    .sample_type =
	TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_PERIOD,
    .flags = 1ULL << TK_PERF_ATTR_SAMPLE_ID_ALL,
};

#define N_SAMPLES 3000

/* The uncompressed record stream: samples with descending-then-ascending
 * times inside rounds, so ordering has work to do. */
static pc_buf inner_records(void)
{
	pc_buf b = {.be = false};
	for (int i = 0; i < N_SAMPLES; i++) {
		size_t r = pc_rec_begin(&b, TK_PERF_RECORD_SAMPLE, 0);
		pc_u64(&b, 0x1000 + (uint64_t)i);
		pc_u32(&b, 1);
		pc_u32(&b, 2);
		pc_u64(&b, 1000 + (uint64_t)(i / 10) * 10 + (uint64_t)(9 - i % 10));
		pc_u64(&b, 1);
		pc_rec_end(&b, r);
		if (i % 100 == 99) {
			r = pc_rec_begin(&b, TK_PERF_RECORD_FINISHED_ROUND, 0);
			pc_rec_end(&b, r);
		}
	}
	return b;
}

/* Appends the inner stream as compressed records of about `chunk` input
 * bytes each, cut at arbitrary places. */
static void append_compressed(pc_buf *out, const pc_buf *in, size_t chunk, uint32_t type,
			      bool overflow_size)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(chunk) + 64;
	uint8_t *tmp = malloc(cap);
	for (size_t pos = 0; pos < in->n; pos += chunk) {
		size_t n = in->n - pos < chunk ? in->n - pos : chunk;
		ZSTD_inBuffer zi = {in->p + pos, n, 0};
		ZSTD_outBuffer zo = {tmp, cap, 0};
		size_t left;
		do {
			left = ZSTD_compressStream2(cc, &zo, &zi, ZSTD_e_flush);
			assert_false(ZSTD_isError(left));
		} while (left != 0);
		size_t r = pc_rec_begin(out, type, 0);
		if (type == TK_PERF_RECORD_COMPRESSED2)
			pc_u64(out, zo.pos);
		pc_bytes(out, tmp, zo.pos);
		if (type == TK_PERF_RECORD_COMPRESSED2)
			pc_zero(out, (8 - out->n % 8) % 8);
		size_t total = out->n - r;
		pc_put_u16(out, r + 6, (uint16_t)(overflow_size ? total & 0xffff : total));
	}
	free(tmp);
	ZSTD_freeCCtx(cc);
}

static void check_samples(tk_perf_file *f, bool ordered)
{
	const tk_perf_record *r;
	tk_error err;
	tk_status st;
	int n = 0;
	uint64_t last = 0;
	uint8_t seen[N_SAMPLES] = {0};
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK) {
		if (r->type != TK_PERF_RECORD_SAMPLE)
			continue;
		assert_true(r->from_compressed);
		tk_perf_sample s;
		assert_int_equal(tk_perf_parse_sample(f, r, &s, &err), TK_OK);
		assert_true(s.ip >= 0x1000 && s.ip < 0x1000 + N_SAMPLES);
		assert_int_equal(seen[s.ip - 0x1000]++, 0);
		assert_int_equal(s.tid, 2);
		if (ordered)
			assert_true(s.time >= last);
		last = s.time;
		n++;
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(n, N_SAMPLES);
}

static void run_pipe(size_t chunk, uint32_t type, bool overflow)
{
	pc_buf inner = inner_records();
	pc_buf b = {.be = false};
	pc_pipe_header(&b);
	pc_header_attr(&b, &attr, 136, NULL, 0);
	append_compressed(&b, &inner, chunk, type, overflow);
	for (int raw = 0; raw < 2; raw++) {
		tk_perf_open_options opt = {.raw_order = raw};
		tk_perf_file *f;
		tk_error err;
		assert_int_equal(tk_perf_open_memory(b.p, b.n, "zpipe", &opt, &f, &err), TK_OK);
		check_samples(f, !raw);
		tk_perf_close(f);
	}
	free(inner.p);
	free(b.p);
}

static void test_pipe_compressed(void **state)
{
	(void)state;
	run_pipe(997, TK_PERF_RECORD_COMPRESSED, false); /* records span chunks */
	run_pipe(13, TK_PERF_RECORD_COMPRESSED, false);  /* tiny chunks */
	run_pipe(4093, TK_PERF_RECORD_COMPRESSED2, false);
	run_pipe(1 << 20, TK_PERF_RECORD_COMPRESSED2, true); /* one chunk > 64 KiB */
}

static void test_file_compressed(void **state)
{
	(void)state;
	pc_buf inner = inner_records();
	pc_file pf;
	pc_file_begin(&pf, false, 128);
	pc_file_attr(&pf, &attr);
	pc_file_data_begin(&pf);
	append_compressed(&pf.b, &inner, 5000, TK_PERF_RECORD_COMPRESSED, false);
	pc_file_data_end(&pf);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "zfile", NULL, &f, &err), TK_OK);
	check_samples(f, true);
	tk_perf_close(f);
	free(inner.p);
	free(pf.b.p);
}

static void test_corrupt(void **state)
{
	(void)state;
	pc_buf inner = inner_records();
	pc_buf b = {.be = false};
	pc_pipe_header(&b);
	pc_header_attr(&b, &attr, 128, NULL, 0);
	size_t first = b.n;
	append_compressed(&b, &inner, 2000, TK_PERF_RECORD_COMPRESSED, false);
	/* damage the frame header of the first compressed record */
	memset(b.p + first + 8, 0xff, 8);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(b.p, b.n, "zbad", NULL, &f, &err), TK_OK);
	const tk_perf_record *r;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK)
		;
	assert_int_equal(st, TK_ERR_FORMAT);
	assert_int_equal(err.offset, first);
	tk_perf_close(f);
	free(inner.p);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pipe_compressed),
	    cmocka_unit_test(test_file_compressed),
	    cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
