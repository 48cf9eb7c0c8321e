/* perf.data header, attrs and features on crafted files: attr sizes 64 and
 * 136 (and unknown tails) accepted in both byte orders, sizes below 64
 * rejected with the offset, sections outside the file rejected, string
 * features decoded, unknown features kept raw, pipe-mode metadata. */
#include <stdlib.h>
#include <string.h>

#include "perf_craft.h"
#include "test_support.h"

static const pc_attr cycles_attr = {
    .type = TK_PERF_TYPE_HARDWARE,
    .config = 0,
    .sample_period = 4000,
    .sample_type = TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME,
    .read_format = TK_PERF_FORMAT_ID,
    .flags = (1ULL << TK_PERF_ATTR_DISABLED) | (1ULL << TK_PERF_ATTR_FREQ) |
	     (1ULL << TK_PERF_ATTR_SAMPLE_ID_ALL) | (1ULL << TK_PERF_ATTR_EXCLUDE_HV) |
	     (1ULL << TK_PERF_ATTR_CGROUP),
    .branch_sample_type = 1U << 17,
    .regs_user = 0xff,
    .regs_intr = 0x3,
    .config3 = 0x1234,
};

/* One attr (with 2 ids), one COMM record, optional features. */
static void build_file(pc_file *f, bool be, uint32_t attr_size, bool with_features)
{
	pc_file_begin(f, be, attr_size);
	pc_file_attr(f, &cycles_attr);
	const uint64_t ids[] = {11, 12};
	pc_file_ids(f, 0, ids, 2);
	pc_file_data_begin(f);
	size_t r = pc_rec_begin(&f->b, TK_PERF_RECORD_COMM, 0);
	pc_u32(&f->b, 42);
	pc_u32(&f->b, 43);
	pc_bytes(&f->b, "true\0\0\0\0", 8);
	pc_u32(&f->b, 42); /* trailer: TID */
	pc_u32(&f->b, 43);
	pc_u64(&f->b, 1000); /* TIME */
	pc_rec_end(&f->b, r);
	pc_file_data_end(f);
	if (!with_features)
		return;
	pc_buf host = {.be = be}, cmd = {.be = be}, unk = {.be = be};
	pc_u32(&host, 8);
	pc_bytes(&host, "box\0\0\0\0\0", 8);
	pc_u32(&cmd, 2);
	pc_u32(&cmd, 8);
	pc_bytes(&cmd, "perf\0\0\0\0", 8);
	pc_u32(&cmd, 8);
	pc_bytes(&cmd, "record\0\0", 8);
	pc_bytes(&unk, "simpleperf!", 11);
	const unsigned fid[] = {TK_PERF_FEAT_HOSTNAME, TK_PERF_FEAT_CMDLINE, 200};
	const void *fdata[] = {host.p, cmd.p, unk.p};
	const size_t fsize[] = {host.n, cmd.n, unk.n};
	pc_file_features(f, fid, fdata, fsize, 3);
	free(host.p);
	free(cmd.p);
	free(unk.p);
}

static void check_attr_roundtrip(uint32_t attr_size, bool be)
{
	pc_file pf;
	build_file(&pf, be, attr_size, true);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err), TK_OK);
	const tk_perf_header *h = tk_perf_get_header(f);
	assert_int_equal(h->big_endian, be);
	assert_false(h->pipe_mode);
	assert_int_equal(tk_perf_attr_count(f), 1);
	const tk_perf_attr *a = tk_perf_attr_at(f, 0);
	assert_int_equal(a->size, attr_size);
	assert_int_equal(a->sample_period, 4000);
	assert_int_equal(a->sample_type, cycles_attr.sample_type);
	assert_int_equal(a->read_format, TK_PERF_FORMAT_ID);
	assert_int_equal(a->flags, cycles_attr.flags);
	assert_true(tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL));
	assert_true(tk_perf_attr_flag(a, TK_PERF_ATTR_CGROUP));
	assert_false(tk_perf_attr_flag(a, TK_PERF_ATTR_INHERIT));
	assert_int_equal(a->branch_sample_type, attr_size >= 80 ? 1U << 17 : 0);
	assert_int_equal(a->sample_regs_intr, attr_size >= 104 ? 3 : 0);
	assert_int_equal(a->config3, attr_size >= 136 ? 0x1234 : 0);
	assert_int_equal(a->n_ids, 2);
	assert_int_equal(a->ids[1], 12);
	assert_string_equal(a->name, "cycles");

	const tk_perf_features *ft = tk_perf_get_features(f);
	assert_string_equal(ft->hostname, "box");
	assert_int_equal(ft->n_cmdline, 2);
	assert_string_equal(ft->cmdline[1], "record");
	assert_int_equal(ft->n_raw, 3);
	assert_int_equal(ft->raw[2].id, 200);
	assert_int_equal(ft->raw[2].size, 11);
	assert_memory_equal(ft->raw[2].data, "simpleperf!", 11);
	assert_null(tk_perf_feature_name(200));

	const tk_perf_record *r;
	assert_int_equal(tk_perf_next(f, &r, &err), TK_OK);
	assert_int_equal(r->type, TK_PERF_RECORD_COMM);
	assert_ptr_equal(r->attr, a);
	assert_true(r->has_time);
	assert_int_equal(r->sid.time, 1000);
	assert_int_equal(r->sid.tid, 43);
	tk_perf_event e;
	assert_int_equal(tk_perf_parse_event(f, r, &e, &err), TK_OK);
	assert_int_equal(e.u.comm.pid, 42);
	assert_string_equal(e.u.comm.comm, "true");
	assert_int_equal(tk_perf_next(f, &r, &err), TK_END);
	tk_perf_close(f);
	free(pf.b.p);
}

static void test_attr_sizes(void **state)
{
	(void)state;
	static const uint32_t sizes[] = {64, 72, 80, 96, 104, 112, 120, 128, 136, 160};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		check_attr_roundtrip(sizes[i], false);
		check_attr_roundtrip(sizes[i], true);
	}
}

static void test_attr_too_small(void **state)
{
	(void)state;
	pc_file pf;
	build_file(&pf, false, 64, false);
	/* header attr_size 56 + 16: the attr part is below 64 */
	pc_put_u64(&pf.b, 16, 56 + 16);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 16);
	/* the attr's own size field below 64 */
	pc_put_u64(&pf.b, 16, 64 + 16);
	tk_store_u32(pf.b.p + pf.attr_at[0] + 4, 48, false);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, pf.attr_at[0] + 4);
	/* size 0 means PERF_ATTR_SIZE_VER0 and is fine */
	tk_store_u32(pf.b.p + pf.attr_at[0] + 4, 0, false);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err), TK_OK);
	tk_perf_close(f);
	free(pf.b.p);
}

static void test_sections_checked(void **state)
{
	(void)state;
	pc_file pf;
	build_file(&pf, false, 128, false);
	tk_perf_file *f;
	tk_error err;
	/* data section runs past the end: a truncated file, whose complete
	 * records are read before the error at the end of the file */
	uint64_t ds = tk_load_le64(pf.b.p + 48);
	pc_put_u64(&pf.b, 48, ds + 1);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err), TK_OK);
	const tk_perf_record *r;
	tk_status st;
	size_t n = 0;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK)
		n++;
	assert_int_equal(st, TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, pf.b.n);
	assert_true(n > 0);
	tk_perf_close(f);
	pc_put_u64(&pf.b, 48, ds);
	/* an ids section outside the file */
	pc_put_u64(&pf.b, pf.attr_at[0] + 128, pf.b.n);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, pf.attr_at[0] + 128);
	/* short and foreign files */
	assert_int_equal(tk_perf_open_memory(pf.b.p, 50, "crafted", NULL, &f, &err),
			 TK_ERR_TRUNCATED);
	assert_int_equal(tk_perf_open_memory("PERFFILE12345678", 16, "v1", NULL, &f, &err),
			 TK_ERR_UNSUPPORTED);
	assert_int_equal(tk_perf_open_memory("hello world, not perf", 21, "x", NULL, &f, &err),
			 TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0);
	assert_int_equal(tk_perf_open_memory("", 0, "empty", NULL, &f, &err), TK_ERR_TRUNCATED);
	free(pf.b.p);
}

/* A record of size 0 and a record past the data section end. */
static void test_bad_record_sizes(void **state)
{
	(void)state;
	pc_file pf;
	build_file(&pf, false, 128, false);
	tk_perf_file *f;
	tk_error err;
	const tk_perf_record *r;
	pc_put_u16(&pf.b, pf.data_at + 6, 0);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err), TK_OK);
	assert_int_equal(tk_perf_next(f, &r, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, pf.data_at);
	tk_perf_close(f);
	pc_put_u16(&pf.b, pf.data_at + 6, 48);
	assert_int_equal(tk_perf_open_memory(pf.b.p, pf.b.n, "crafted", NULL, &f, &err), TK_OK);
	assert_int_equal(tk_perf_next(f, &r, &err), TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, pf.data_at);
	tk_perf_close(f);
	free(pf.b.p);
}

/* Pipe mode: HEADER_ATTR, HEADER_FEATURE, EVENT_UPDATE name, then a sample. */
static void test_pipe_metadata(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		pc_buf b = {.be = be};
		pc_pipe_header(&b);
		pc_attr a = cycles_attr;
		a.type = TK_PERF_TYPE_SOFTWARE;
		a.config = 2; /* page-faults */
		const uint64_t ids[] = {77};
		pc_header_attr(&b, &a, 136, ids, 1);
		size_t r = pc_rec_begin(&b, TK_PERF_RECORD_HEADER_FEATURE, 0);
		pc_u64(&b, TK_PERF_FEAT_OSRELEASE);
		pc_u32(&b, 8);
		pc_bytes(&b, "6.16.0\0\0", 8);
		pc_rec_end(&b, r);
		r = pc_rec_begin(&b, TK_PERF_RECORD_SAMPLE, 0);
		pc_u64(&b, 0xffffffff81000000ULL); /* IP */
		pc_u32(&b, 5);
		pc_u32(&b, 6);
		pc_u64(&b, 123456); /* TIME */
		pc_rec_end(&b, r);
		tk_perf_file *f;
		tk_error err;
		assert_int_equal(tk_perf_open_memory(b.p, b.n, "pipe", NULL, &f, &err), TK_OK);
		assert_true(tk_perf_get_header(f)->pipe_mode);
		assert_int_equal(tk_perf_attr_count(f), 0);
		const tk_perf_record *rec;
		int n = 0;
		while (tk_perf_next(f, &rec, &err) == TK_OK) {
			if (rec->type != TK_PERF_RECORD_SAMPLE)
				continue;
			n++;
			tk_perf_sample s;
			assert_int_equal(tk_perf_parse_sample(f, rec, &s, &err), TK_OK);
			assert_int_equal(s.ip, 0xffffffff81000000ULL);
			assert_int_equal(s.tid, 6);
			assert_int_equal(s.time, 123456);
		}
		assert_int_equal(n, 1);
		assert_int_equal(tk_perf_attr_count(f), 1);
		assert_string_equal(tk_perf_attr_at(f, 0)->name, "page-faults");
		assert_int_equal(tk_perf_attr_at(f, 0)->ids[0], 77);
		assert_string_equal(tk_perf_get_features(f)->osrelease, "6.16.0");
		tk_perf_close(f);
		free(b.p);
	}
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(tk_perf_record_type_name(TK_PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(tk_perf_record_type_name(TK_PERF_RECORD_FINISHED_ROUND),
			    "FINISHED_ROUND");
	assert_string_equal(tk_perf_record_type_name(TK_PERF_RECORD_SCHEDSTAT_DOMAIN),
			    "SCHEDSTAT_DOMAIN");
	assert_null(tk_perf_record_type_name(32768));
	assert_null(tk_perf_record_type_name(50));
	assert_string_equal(tk_perf_feature_name(TK_PERF_FEAT_CPU_DOMAIN_INFO), "cpu_domain_info");
	assert_string_equal(tk_perf_sample_bit_name(24), "WEIGHT_STRUCT");
	assert_null(tk_perf_sample_bit_name(40));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_attr_sizes),       cmocka_unit_test(test_attr_too_small),
	    cmocka_unit_test(test_sections_checked), cmocka_unit_test(test_bad_record_sizes),
	    cmocka_unit_test(test_pipe_metadata),    cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
