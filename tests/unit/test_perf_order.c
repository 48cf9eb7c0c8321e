/* Time ordering on a crafted record stream, checked against perf's rules
 * (ordered-events.c): records without a time (or time 0) and user records
 * go out at once; a FINISHED_ROUND flushes what is <= the max time seen at
 * the previous round; equal times keep file order; a late record is still
 * delivered; everything is flushed at the end. raw_order gives file order. */
#include <stdlib.h>
#include <string.h>

#include "perf_craft.h"
#include "test_support.h"

static const pc_attr attr = {
    .type = TK_PERF_TYPE_SOFTWARE,
    .config = 0,
    .sample_type = TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME,
    .flags = 1ULL << TK_PERF_ATTR_SAMPLE_ID_ALL,
};

/* tag: the sample's ip; 'R' = FINISHED_ROUND, 'I' = FINISHED_INIT */
static void sample(pc_buf *b, char tag, uint64_t time)
{
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_SAMPLE, 0);
	pc_u64(b, (uint64_t)tag);
	pc_u32(b, 1);
	pc_u32(b, 1);
	pc_u64(b, time);
	pc_rec_end(b, r);
}

static void user(pc_buf *b, uint32_t type)
{
	size_t r = pc_rec_begin(b, type, 0);
	pc_rec_end(b, r);
}

static void records(pc_buf *b)
{
	sample(b, 'A', 5);
	sample(b, 'B', 3);
	sample(b, 'C', 0); /* no usable time: out at once */
	user(b, TK_PERF_RECORD_FINISHED_INIT);
	user(b, TK_PERF_RECORD_FINISHED_ROUND); /* limit 0: flushes nothing; limit := 5 */
	sample(b, 'E', 4);
	sample(b, 'F', 8);
	sample(b, 'G', 6);
	sample(b, 'H', 6);
	user(b, TK_PERF_RECORD_FINISHED_ROUND); /* flushes B E A; limit := 8 */
	sample(b, 'I', 7);
	sample(b, 'J', 2); /* older than what went out: still delivered, first */
	user(b, TK_PERF_RECORD_FINISHED_ROUND); /* flushes J G H I F */
	sample(b, 'K', 9);
}

static void expect(tk_perf_file *f, const char *want)
{
	char got[64];
	size_t n = 0;
	const tk_perf_record *r;
	tk_error err;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK && n < sizeof got - 1) {
		if (r->type == TK_PERF_RECORD_SAMPLE) {
			tk_perf_sample s;
			assert_int_equal(tk_perf_parse_sample(f, r, &s, &err), TK_OK);
			got[n++] = (char)s.ip;
		} else {
			got[n++] = r->type == TK_PERF_RECORD_FINISHED_ROUND ? 'R' : 'I';
		}
	}
	assert_int_equal(st, TK_END);
	got[n] = 0;
	assert_string_equal(got, want);
}

#define PERF_ORDER "CIRBEARJGHIFRK"
#define FILE_ORDER "ABCIREFGHRIJRK"

static void test_file_mode(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++)
		for (int raw = 0; raw < 2; raw++) {
			pc_file pf;
			pc_file_begin(&pf, be, 128);
			pc_file_attr(&pf, &attr);
			pc_file_data_begin(&pf);
			records(&pf.b);
			pc_file_data_end(&pf);
			tk_perf_open_options opt = {.raw_order = raw};
			tk_perf_file *f;
			tk_error err;
			assert_int_equal(
			    tk_perf_open_memory(pf.b.p, pf.b.n, "order", &opt, &f, &err), TK_OK);
			expect(f, raw ? FILE_ORDER : PERF_ORDER);
			tk_perf_close(f);
			free(pf.b.p);
		}
}

static void test_pipe_mode(void **state)
{
	(void)state;
	pc_buf b = {.be = false};
	pc_pipe_header(&b);
	pc_header_attr(&b, &attr, 128, NULL, 0);
	records(&b);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(b.p, b.n, "order", NULL, &f, &err), TK_OK);
	/* the HEADER_ATTR record comes out first, then the same order */
	const tk_perf_record *r;
	assert_int_equal(tk_perf_next(f, &r, &err), TK_OK);
	assert_int_equal(r->type, TK_PERF_RECORD_HEADER_ATTR);
	expect(f, PERF_ORDER);
	tk_perf_close(f);
	free(b.p);
}

/* Without any FINISHED_ROUND everything is sorted at the end (stable). */
static void test_no_rounds(void **state)
{
	(void)state;
	pc_file pf;
	pc_file_begin(&pf, false, 64);
	pc_file_attr(&pf, &attr);
	pc_file_data_begin(&pf);
	sample(&pf.b, 'a', 30);
	sample(&pf.b, 'b', 10);
	sample(&pf.b, 'c', 30);
	sample(&pf.b, 'd', 20);
	sample(&pf.b, 'e', 10);
	pc_file_data_end(&pf);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "order", NULL, &f, &err), TK_OK);
	expect(f, "bedac");
	tk_perf_close(f);
	free(pf.b.p);
}

/* perf script keeps file order for a file whose attr lacks sample_id_all. */
static void test_no_sample_id_all(void **state)
{
	(void)state;
	pc_attr a = attr;
	a.flags = 0;
	pc_file pf;
	pc_file_begin(&pf, false, 64);
	pc_file_attr(&pf, &a);
	pc_file_data_begin(&pf);
	sample(&pf.b, 'a', 30);
	sample(&pf.b, 'b', 10);
	user(&pf.b, TK_PERF_RECORD_FINISHED_ROUND);
	sample(&pf.b, 'c', 20);
	pc_file_data_end(&pf);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "order", NULL, &f, &err), TK_OK);
	expect(f, "abRc");
	tk_perf_close(f);
	free(pf.b.p);
}

/* Many records in one round: the sort must stay stable and complete. */
static void test_big_round(void **state)
{
	(void)state;
	pc_file pf;
	pc_file_begin(&pf, false, 64);
	pc_file_attr(&pf, &attr);
	pc_file_data_begin(&pf);
	const int n = 5000;
	for (int i = 0; i < n; i++)
		sample(&pf.b, (char)(i % 100), (uint64_t)((i * 7919) % 1000) + 1);
	pc_file_data_end(&pf);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "order", NULL, &f, &err), TK_OK);
	const tk_perf_record *r;
	uint64_t last_time = 0, last_off = 0;
	int count = 0;
	while (tk_perf_next(f, &r, &err) == TK_OK) {
		assert_true(r->sid.time >= last_time);
		if (r->sid.time == last_time)
			assert_true(r->offset > last_off); /* stable */
		last_time = r->sid.time;
		last_off = r->offset;
		count++;
	}
	assert_int_equal(count, n);
	tk_perf_close(f);
	free(pf.b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_file_mode), cmocka_unit_test(test_pipe_mode),
	    cmocka_unit_test(test_no_rounds), cmocka_unit_test(test_no_sample_id_all),
	    cmocka_unit_test(test_big_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
