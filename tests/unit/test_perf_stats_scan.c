/* tracekit stats' lean scan (src/perf/perf_stats_scan.c) against the full
 * path (every record of tk_perf_next counted): the same counts, status,
 * error offset and warnings on every perf.data test file and on crafted
 * images of the cases where the lean loop hands records to the reader
 * (metadata, compressed data, unknown and invalid types, damaged, cut and
 * unfinished files, pipe mode, attrs that disagree). Each crafted case also
 * checks the counts against what it wrote. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "perf_craft.h"
#include "perf_stats_check.h"
#include "test_support.h"

#define T_IDENT TK_PERF_SAMPLE_IDENTIFIER
#define T_BASIC                                                                                    \
	(TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_CPU |       \
	 TK_PERF_SAMPLE_PERIOD)
#define SID_ALL (1ULL << TK_PERF_ATTR_SAMPLE_ID_ALL)

/* TID, TIME, ID, CPU as t has them: the run a sample and a sample_id
 * trailer share. */
static void id_fields(pc_buf *b, uint64_t t, uint64_t id, uint64_t time, uint32_t cpu)
{
	if (t & TK_PERF_SAMPLE_TID) {
		pc_u32(b, 7);
		pc_u32(b, 7);
	}
	if (t & TK_PERF_SAMPLE_TIME)
		pc_u64(b, time);
	if (t & TK_PERF_SAMPLE_ID)
		pc_u64(b, id);
	if (t & TK_PERF_SAMPLE_CPU) {
		pc_u32(b, cpu);
		pc_u32(b, 0);
	}
}

/* A sample with the fields of sample_type t, in perf's order. */
static void sample(pc_buf *b, uint64_t t, uint64_t id, uint64_t time, uint32_t cpu)
{
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_SAMPLE, 0);
	if (t & T_IDENT)
		pc_u64(b, id);
	if (t & TK_PERF_SAMPLE_IP)
		pc_u64(b, 0x400000);
	id_fields(b, t, id, time, cpu);
	if (t & TK_PERF_SAMPLE_PERIOD)
		pc_u64(b, 1);
	pc_rec_end(b, r);
}

/* The sample_id trailer of a non-sample record (perf's order). */
static void trailer(pc_buf *b, uint64_t t, uint64_t id, uint64_t time, uint32_t cpu)
{
	id_fields(b, t, id, time, cpu);
	if (t & T_IDENT)
		pc_u64(b, id);
}

static void comm(pc_buf *b, uint64_t t, uint64_t id, uint64_t time)
{
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_COMM, 0);
	pc_u32(b, 7);
	pc_u32(b, 7);
	pc_bytes(b, "worker\0\0", 8);
	trailer(b, t, id, time, 0);
	pc_rec_end(b, r);
}

/* A record of `type` with n_u64 payload words (v each) and no trailer. */
static void plain(pc_buf *b, uint32_t type, size_t n_u64, uint64_t v)
{
	size_t r = pc_rec_begin(b, type, 0);
	for (size_t i = 0; i < n_u64; i++)
		pc_u64(b, v);
	pc_rec_end(b, r);
}

/* Lean and full counts of an image must agree; returns the lean run. */
static psc_run check(const pc_buf *b)
{
	psc_run lean, full;
	psc_count(b->p, b->n, "crafted", true, &lean);
	psc_count(b->p, b->n, "crafted", false, &full);
	const char *diff = psc_diff(&lean, &full);
	if (diff)
		fail_msg("lean scan and full path differ: %s (lean st %d: %s; full st %d: %s)",
			 diff, lean.st, lean.err.message, full.st, full.err.message);
	assert_int_equal(lean.open_st, TK_OK);
	psc_run_free(&full);
	return lean;
}

static void one_attr_records(pc_buf *b, uint64_t t)
{
	comm(b, t, 0, 0); /* synthesized: time 0 is not part of the span */
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_MMAP, 0);
	pc_zero(b, 40);
	pc_bytes(b, "/bin/x\0\0", 8);
	trailer(b, t, 0, 50, 0);
	pc_rec_end(b, r);
	sample(b, t, 0, 100, 0);
	sample(b, t, 0, 120, 1);
	plain(b, TK_PERF_RECORD_FINISHED_ROUND, 0, 0);
	sample(b, t, 0, 110, 1);
	sample(b, t, 0, 130, 3);
	sample(b, t, 0, 0, 3);                       /* time 0 still counts for a sample */
	sample(b, t, 0, 140, (1u << 20) + 1u);       /* no plausible cpu */
	plain(b, TK_PERF_RECORD_SAMPLE, 1, 0);       /* too short: no time, no cpu */
	plain(b, TK_PERF_RECORD_THREAD_MAP, 2, 999); /* where its time would be */
	plain(b, TK_PERF_RECORD_FINISHED_INIT, 0, 0);
}

static void test_one_attr(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		const pc_attr a = {
		    .type = TK_PERF_TYPE_SOFTWARE, .sample_type = T_BASIC, .flags = SID_ALL};
		pc_file pf;
		pc_file_begin(&pf, be, 128);
		pc_file_attr(&pf, &a);
		pc_file_data_begin(&pf);
		one_attr_records(&pf.b, T_BASIC);
		pc_file_data_end(&pf);
		psc_run r = check(&pf.b);
		assert_int_equal(r.st, TK_OK);
		assert_int_equal(r.c.total, 12);
		assert_int_equal(r.c.per_type[TK_PERF_RECORD_SAMPLE], 7);
		assert_int_equal(r.c.per_type[TK_PERF_RECORD_FINISHED_INIT], 1);
		assert_int_equal(r.c.per_attr[0], 7);
		assert_int_equal(r.c.per_cpu[0], 1);
		assert_int_equal(r.c.per_cpu[1], 2);
		assert_int_equal(r.c.per_cpu[3], 2);
		assert_int_equal(r.c.samples_no_cpu, 1);
		assert_true(r.c.has_time);
		assert_int_equal(r.c.first_time, 0);
		assert_int_equal(r.c.last_time, 140);
		psc_run_free(&r);
		free(pf.b.p);
	}
}

/* Two events told apart by the sample id; id 0 and an id no attr owns go
 * to the first (with one warning), as perf's evlist__event2evsel. */
static void test_two_attrs(void **state)
{
	(void)state;
	const uint64_t t = T_IDENT | T_BASIC;
	const pc_attr a = {.type = TK_PERF_TYPE_SOFTWARE, .sample_type = t, .flags = SID_ALL};
	const pc_attr d = {
	    .type = TK_PERF_TYPE_SOFTWARE, .config = 9, .sample_type = t, .flags = SID_ALL};
	pc_file pf;
	pc_file_begin(&pf, false, 128);
	pc_file_attr(&pf, &a);
	pc_file_attr(&pf, &d);
	const uint64_t ids_a[] = {11, 12}, ids_d[] = {21};
	pc_file_ids(&pf, 0, ids_a, 2);
	pc_file_ids(&pf, 1, ids_d, 1);
	pc_file_data_begin(&pf);
	comm(&pf.b, t, 21, 5);
	const uint64_t ids[] = {11, 21, 12, 21, 21, 0, 99, 11, 99};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		sample(&pf.b, t, ids[i], 10 + i, (uint32_t)i % 2);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.st, TK_OK);
	assert_int_equal(r.c.per_attr[0], 6);
	assert_int_equal(r.c.per_attr[1], 3);
	assert_int_equal(r.c.first_time, 5);
	assert_int_equal(r.c.last_time, 18);
	assert_non_null(strstr(r.log, "id 99 that no attr owns"));
	psc_run_free(&r);
	free(pf.b.p);
}

/* Attrs placing the id differently: warned about, the first one's layout. */
static void test_attrs_disagree(void **state)
{
	(void)state;
	const pc_attr a = {.sample_type = TK_PERF_SAMPLE_ID | T_BASIC, .flags = SID_ALL};
	const pc_attr d = {.config = 9, .sample_type = T_IDENT | T_BASIC, .flags = SID_ALL};
	pc_file pf;
	pc_file_begin(&pf, false, 128);
	pc_file_attr(&pf, &a);
	pc_file_attr(&pf, &d);
	const uint64_t ids_a[] = {1}, ids_d[] = {2};
	pc_file_ids(&pf, 0, ids_a, 1);
	pc_file_ids(&pf, 1, ids_d, 1);
	pc_file_data_begin(&pf);
	for (uint64_t i = 0; i < 6; i++)
		sample(&pf.b, a.sample_type, 1 + i % 2, 100 + i, 0);
	comm(&pf.b, a.sample_type, 2, 99);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_SAMPLE], 6);
	assert_non_null(strstr(r.log, "place the sample id differently"));
	psc_run_free(&r);
	free(pf.b.p);
}

/* Without sample_id_all the non-samples have no time (their tails are not
 * read as trailers); LOST and LOST_SAMPLES add what they lost. */
static void test_no_sample_id_all_and_lost(void **state)
{
	(void)state;
	const pc_attr a = {.sample_type = T_BASIC};
	pc_file pf;
	pc_file_begin(&pf, false, 128);
	pc_file_attr(&pf, &a);
	pc_file_data_begin(&pf);
	comm(&pf.b, T_BASIC, 0, 1); /* a tail that looks like a trailer */
	sample(&pf.b, T_BASIC, 0, 300, 0);
	plain(&pf.b, TK_PERF_RECORD_LOST, 2, 4);         /* id 4, lost 4 */
	plain(&pf.b, TK_PERF_RECORD_LOST_SAMPLES, 1, 6); /* lost 6 */
	plain(&pf.b, TK_PERF_RECORD_LOST_SAMPLES, 0, 0); /* too short to say */
	plain(&pf.b, TK_PERF_RECORD_THROTTLE, 3, 0);
	sample(&pf.b, T_BASIC, 0, 200, 0);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.c.first_time, 200);
	assert_int_equal(r.c.last_time, 300);
	assert_int_equal(r.c.lost_events, 4);
	assert_int_equal(r.c.lost_samples, 6);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_LOST_SAMPLES], 2);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_THROTTLE], 1);
	psc_run_free(&r);
	free(pf.b.p);
}

static pc_file simple_file(void)
{
	const pc_attr a = {.sample_type = T_BASIC, .flags = SID_ALL};
	pc_file pf;
	pc_file_begin(&pf, false, 128);
	pc_file_attr(&pf, &a);
	pc_file_data_begin(&pf);
	return pf;
}

/* Unknown types are warned about and counted; an invalid one (no perf
 * writes it) ends the reading with an error at its offset. */
static void test_unknown_and_invalid_types(void **state)
{
	(void)state;
	pc_file pf = simple_file();
	sample(&pf.b, T_BASIC, 0, 1, 0);
	plain(&pf.b, 50, 1, 0);  /* unknown kernel type */
	plain(&pf.b, 100, 1, 0); /* unknown user type */
	sample(&pf.b, T_BASIC, 0, 2, 0);
	size_t bad = pf.b.n - pf.data_at;
	plain(&pf.b, 0xffffffffu, 1, 0);
	plain(&pf.b, 300, 0, 0);
	sample(&pf.b, T_BASIC, 0, 3, 0);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.st, TK_ERR_FORMAT);
	assert_int_equal(r.err.offset, pf.data_at + bad);
	assert_int_equal(r.c.total, 7);
	assert_int_equal(r.c.per_type[50], 1);
	assert_int_equal(r.c.per_type[300], 1);
	assert_int_equal(r.c.n_big, 1);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_SAMPLE], 3);
	psc_run_free(&r);
	free(pf.b.p);
}

/* A record whose size is below its header: error at its offset, after the
 * records before it were counted. */
static void test_bad_size(void **state)
{
	(void)state;
	pc_file pf = simple_file();
	sample(&pf.b, T_BASIC, 0, 1, 0);
	size_t bad = pf.b.n;
	plain(&pf.b, TK_PERF_RECORD_COMM, 2, 0);
	pc_put_u16(&pf.b, bad + 6, 4);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.st, TK_ERR_FORMAT);
	assert_int_equal(r.err.offset, bad);
	assert_int_equal(r.c.total, 1);
	psc_run_free(&r);
	free(pf.b.p);
}

/* Cut files: the data section declared past the end (cut inside a record
 * and between records), and a last record running past the declared end. */
static void test_cut(void **state)
{
	(void)state;
	for (int k = 0; k < 3; k++) {
		pc_file pf = simple_file();
		for (uint64_t i = 0; i < 5; i++)
			sample(&pf.b, T_BASIC, 0, 10 + i, 0);
		pc_file_data_end(&pf);
		size_t n = pf.b.n;
		if (k == 0)
			pf.b.n -= 12; /* inside the last sample */
		else if (k == 1)
			pf.b.n -= 48; /* one whole sample less */
		else
			pc_put_u64(&pf.b, 48, n - pf.data_at - 4); /* declared end inside */
		psc_run r = check(&pf.b);
		assert_int_equal(r.st, TK_ERR_TRUNCATED);
		assert_int_equal(r.c.total, 4);
		psc_run_free(&r);
		free(pf.b.p);
	}
}

/* A killed recording (data size 0): counted to its last complete record
 * (zeros after it), with the reader's warning. */
static void test_unfinished(void **state)
{
	(void)state;
	pc_file pf = simple_file();
	for (uint64_t i = 0; i < 3; i++)
		sample(&pf.b, T_BASIC, 0, 10 + i, 0);
	pc_zero(&pf.b, 40);
	pc_put_u64(&pf.b, 40, pf.data_at);
	psc_run r = check(&pf.b);
	assert_int_equal(r.st, TK_OK);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_SAMPLE], 3);
	assert_non_null(strstr(r.log, "not finished"));
	psc_run_free(&r);
	free(pf.b.p);
}

/* Pipe mode: attrs arrive as records, one in the middle with a new id;
 * EVENT_UPDATE names an event; the samples after them use them. */
static void test_pipe_mode(void **state)
{
	(void)state;
	const uint64_t t = T_IDENT | T_BASIC;
	const pc_attr a = {.sample_type = t, .flags = SID_ALL};
	const pc_attr d = {.config = 9, .sample_type = t, .flags = SID_ALL};
	pc_buf b = {.be = false};
	pc_pipe_header(&b);
	const uint64_t id_a = 1, id_d = 2;
	pc_header_attr(&b, &a, 128, &id_a, 1);
	sample(&b, t, 1, 10, 0);
	sample(&b, t, 2, 11, 0); /* nobody owns 2 yet */
	pc_header_attr(&b, &d, 128, &id_d, 1);
	sample(&b, t, 2, 12, 1);
	size_t r0 = pc_rec_begin(&b, TK_PERF_RECORD_EVENT_UPDATE, 0);
	pc_u64(&b, 2); /* EVENT_UPDATE_NAME */
	pc_u64(&b, 2);
	pc_bytes(&b, "renamed\0", 8);
	pc_rec_end(&b, r0);
	plain(&b, TK_PERF_RECORD_FINISHED_ROUND, 0, 0);
	sample(&b, t, 2, 13, 1);
	psc_run r = check(&b);
	assert_int_equal(r.st, TK_OK);
	assert_int_equal(r.c.per_attr[0], 2);
	assert_int_equal(r.c.per_attr[1], 2);
	psc_run_free(&r);
	free(b.p);
}

/* Samples inside a zstd COMPRESSED record between plain ones. */
static void test_compressed(void **state)
{
	(void)state;
	pc_buf inner = {.be = false};
	for (uint64_t i = 0; i < 50; i++)
		sample(&inner, T_BASIC, 0, 1000 + i, (uint32_t)i % 4);
	size_t cap = ZSTD_compressBound(inner.n);
	uint8_t *z = malloc(cap);
	size_t zn = ZSTD_compress(z, cap, inner.p, inner.n, 1);
	assert_false(ZSTD_isError(zn));
	pc_file pf = simple_file();
	sample(&pf.b, T_BASIC, 0, 5, 0);
	size_t r0 = pc_rec_begin(&pf.b, TK_PERF_RECORD_COMPRESSED, 0);
	pc_bytes(&pf.b, z, zn);
	pc_rec_end(&pf.b, r0);
	sample(&pf.b, T_BASIC, 0, 2000, 5);
	pc_file_data_end(&pf);
	psc_run r = check(&pf.b);
	assert_int_equal(r.st, TK_OK);
	assert_int_equal(r.c.per_type[TK_PERF_RECORD_SAMPLE], 52);
	assert_int_equal(r.c.per_cpu[3], 12);
	assert_int_equal(r.c.first_time, 5);
	assert_int_equal(r.c.last_time, 2000);
	psc_run_free(&r);
	free(z);
	free(inner.p);
	free(pf.b.p);
}

/* The comparison itself can fail: different counts are reported. */
static void test_check_can_fail(void **state)
{
	(void)state;
	pc_file x = simple_file(), y = simple_file();
	sample(&x.b, T_BASIC, 0, 1, 0);
	sample(&y.b, T_BASIC, 0, 1, 1);
	pc_file_data_end(&x);
	pc_file_data_end(&y);
	psc_run rx, ry;
	psc_count(x.b.p, x.b.n, "x", true, &rx);
	psc_count(y.b.p, y.b.n, "y", false, &ry);
	assert_string_equal(psc_diff(&rx, &ry), "samples per cpu");
	psc_run_free(&rx);
	psc_run_free(&ry);
	free(x.b.p);
	free(y.b.p);
}

/* Every perf.data test file, read from disk (mapped) as the CLI does. */
static void compare_tree(const char *dir, int *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		struct stat sb;
		if (stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			compare_tree(path, n);
			continue;
		}
		psc_run lean, full;
		psc_count(NULL, 0, path, true, &lean);
		psc_count(NULL, 0, path, false, &full);
		const char *diff = psc_diff(&lean, &full);
		if (diff)
			fail_msg("%s: lean scan and full path differ: %s", path, diff);
		psc_run_free(&lean);
		psc_run_free(&full);
		(*n)++;
	}
	closedir(d);
}

static void test_testdata(void **state)
{
	(void)state;
	int n = 0;
	compare_tree(tk_test_data("perf"), &n);
	if (n == 0)
		skip();
	assert_true(n >= 90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_attr),
	    cmocka_unit_test(test_two_attrs),
	    cmocka_unit_test(test_attrs_disagree),
	    cmocka_unit_test(test_no_sample_id_all_and_lost),
	    cmocka_unit_test(test_unknown_and_invalid_types),
	    cmocka_unit_test(test_bad_size),
	    cmocka_unit_test(test_cut),
	    cmocka_unit_test(test_unfinished),
	    cmocka_unit_test(test_pipe_mode),
	    cmocka_unit_test(test_compressed),
	    cmocka_unit_test(test_check_can_fail),
	    cmocka_unit_test(test_testdata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
