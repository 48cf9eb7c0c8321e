/* perf.data writer: copies of the shared perf files read back with the same
 * records (byte for byte in the same order; the same decoded samples in the
 * other order; LE -> BE -> LE gives the original bytes back).
 *
 * With arguments this program is also the copy tool the oracle test
 * (tests/oracle/perfw_roundtrip.sh) uses until the CLI is wired:
 *   test_perfw_copy copy IN OUT [--byte-order B] [--compress] [--pid N]
 *                   [--tid N] [--cpu N] [--begin NS] [--end NS] [--event G] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/filter.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static void log_stderr(void *user, int level, const char *msg)
{
	(void)user;
	(void)level;
	fprintf(stderr, "warning: %s\n", msg);
}

/* sink IN OUT: any readable trace -> perf.data through the model sink;
 * prints the number of events written on stdout. */
static int tool_sink(const char *in, const char *out)
{
	tk_open_options oo = {.log = log_stderr};
	tk_source *src;
	tk_sink *sink;
	tk_error err;
	tk_error_clear(&err);
	if (tk_source_open(in, &oo, &src, &err) != TK_OK)
		goto fail;
	tk_sink_options so = {.log = log_stderr};
	if (tk_perf_sink_open(out, tk_source_info(src), &so, &sink, &err) != TK_OK) {
		tk_source_close(src);
		goto fail;
	}
	const tk_event *ev;
	tk_status st;
	unsigned long n = 0;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK) {
		if ((st = tk_sink_write(sink, ev, &err)) != TK_OK)
			break;
		n++;
	}
	if (st != TK_END) {
		tk_sink_abort(sink);
		tk_source_close(src);
		goto fail;
	}
	st = tk_sink_close(sink, &err);
	tk_source_close(src);
	if (st != TK_OK)
		goto fail;
	printf("%lu\n", n);
	return 0;
fail:
	fprintf(stderr, "error: %s: offset %llu: %s\n", err.file, (unsigned long long)err.offset,
		err.message);
	return 1;
}

static int tool(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "sink") == 0)
		return tool_sink(argv[2], argv[3]);
	if (argc < 4 || strcmp(argv[1], "copy") != 0) {
		fprintf(stderr, "usage: %s copy IN OUT [options]\n", argv[0]);
		return 2;
	}
	tk_sink_options opt = {.log = log_stderr};
	tk_filter f = {0};
	for (int i = 4; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--compress") == 0) {
			opt.compress = true;
			continue;
		}
		if (!v)
			return 2;
		i++;
		if (strcmp(a, "--byte-order") == 0)
			opt.byte_order = v;
		else if (strcmp(a, "--pid") == 0)
			f.pid = tk_id_set_one(strtoll(v, NULL, 0));
		else if (strcmp(a, "--tid") == 0)
			f.tid = tk_id_set_one(strtoll(v, NULL, 0));
		else if (strcmp(a, "--cpu") == 0)
			f.cpu = tk_id_set_one(strtoll(v, NULL, 0));
		else if (strcmp(a, "--begin") == 0)
			f.has_begin = true, f.begin_ns = strtoull(v, NULL, 0);
		else if (strcmp(a, "--end") == 0)
			f.has_end = true, f.end_ns = strtoull(v, NULL, 0);
		else if (strcmp(a, "--event") == 0)
			f.events = v;
		else
			return 2;
	}
	tk_error err;
	tk_error_clear(&err);
	if (tk_perf_copy_filtered(argv[2], argv[3], &opt, &f, &err) != TK_OK) {
		fprintf(stderr, "error: %s: offset %llu: %s\n", err.file,
			(unsigned long long)err.offset, err.message);
		return 1;
	}
	return 0;
}

/* ---- helpers ---- */

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
	static char buf[512];
	snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
	return buf;
}

static bool is_meta(uint32_t type)
{
	return type == TK_PERF_RECORD_HEADER_ATTR || type == TK_PERF_RECORD_HEADER_FEATURE ||
	       type == TK_PERF_RECORD_HEADER_TRACING_DATA ||
	       type == TK_PERF_RECORD_HEADER_BUILD_ID || type == TK_PERF_RECORD_HEADER_EVENT_TYPE ||
	       type == TK_PERF_RECORD_COMPRESSED || type == TK_PERF_RECORD_COMPRESSED2;
}

static tk_status next_data(tk_perf_file *f, const tk_perf_record **r, tk_error *err)
{
	tk_status st;
	while ((st = tk_perf_next(f, r, err)) == TK_OK && is_meta((*r)->type))
		;
	return st;
}

/* Same data records; byte-identical when same_order, else the same
 * decoded samples. Returns the number of records compared. */
static size_t compare_files(const char *a, const char *b, bool same_order)
{
	tk_perf_open_options oo = {.raw_order = true};
	tk_perf_file *fa, *fb;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_open(a, &oo, &fa, &err), TK_OK);
	assert_int_equal(tk_perf_open(b, &oo, &fb, &err), TK_OK);
	size_t n = 0;
	for (;;) {
		const tk_perf_record *ra, *rb;
		tk_status sa = next_data(fa, &ra, &err);
		uint32_t ta = sa == TK_OK ? ra->type : 0, za = sa == TK_OK ? ra->size : 0;
		uint8_t *copy = NULL;
		if (sa == TK_OK) {
			copy = malloc(za);
			memcpy(copy, ra->data, za);
		}
		tk_perf_sample smp_a;
		bool is_sample = sa == TK_OK && ta == TK_PERF_RECORD_SAMPLE && ra->attr;
		if (is_sample)
			assert_int_equal(tk_perf_parse_sample(fa, ra, &smp_a, &err), TK_OK);
		tk_status sb = next_data(fb, &rb, &err);
		assert_int_equal(sa, sb);
		if (sa != TK_OK) {
			free(copy);
			break;
		}
		assert_int_equal(ta, rb->type);
		assert_int_equal(za, rb->size);
		if (same_order)
			assert_memory_equal(copy, rb->data, za);
		if (is_sample) {
			tk_perf_sample smp_b;
			assert_int_equal(tk_perf_parse_sample(fb, rb, &smp_b, &err), TK_OK);
			assert_int_equal(smp_a.ip, smp_b.ip);
			assert_int_equal(smp_a.pid, smp_b.pid);
			assert_int_equal(smp_a.tid, smp_b.tid);
			assert_int_equal(smp_a.time, smp_b.time);
			assert_int_equal(smp_a.cpu, smp_b.cpu);
			assert_int_equal(smp_a.period, smp_b.period);
			assert_int_equal(smp_a.callchain_nr, smp_b.callchain_nr);
			for (uint64_t k = 0; k < smp_a.callchain_nr; k++)
				assert_int_equal(tk_perf_u64_at(smp_a.callchain, k, smp_a.swap),
						 tk_perf_u64_at(smp_b.callchain, k, smp_b.swap));
			assert_int_equal(smp_a.raw_size, smp_b.raw_size);
		}
		free(copy);
		n++;
	}
	/* pipe files know their attrs only once read */
	assert_int_equal(tk_perf_attr_count(fa), tk_perf_attr_count(fb));
	for (size_t i = 0; i < tk_perf_attr_count(fa); i++) {
		const tk_perf_attr *x = tk_perf_attr_at(fa, i), *y = tk_perf_attr_at(fb, i);
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->config, y->config);
		assert_int_equal(x->sample_type, y->sample_type);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->n_ids, y->n_ids);
		if (strcmp(x->name, y->name) != 0)
			fail_msg("%s -> %s: attr %zu named '%s' then '%s'", a, b, i, x->name,
				 y->name);
	}
	/* every feature carried over (build ids of pipe files become one) */
	const tk_perf_features *ffa = tk_perf_get_features(fa), *ffb = tk_perf_get_features(fb);
	for (size_t i = 0; i < ffa->n_raw; i++) {
		unsigned id = ffa->raw[i].id;
		if (id == TK_PERF_FEAT_COMPRESSED || id == TK_PERF_FEAT_AUXTRACE ||
		    id == TK_PERF_FEAT_DIR_FORMAT)
			continue;
		bool found = false;
		for (size_t k = 0; k < ffb->n_raw; k++)
			found |= ffb->raw[k].id == id;
		if (!found)
			fail_msg("%s: feature %u missing in %s", a, id, b);
	}
	tk_perf_close(fa);
	tk_perf_close(fb);
	return n;
}

static void copy_ok(const char *in, const char *out, const char *order, bool compress)
{
	tk_sink_options opt = {.byte_order = order, .compress = compress};
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_perf_copy(in, out, &opt, &err);
	if (st != TK_OK)
		fail_msg("copy %s -> %s: %s", in, out, err.message);
}

static const char *const inputs[] = {
    "perf/quipper/perf.data.callgraph_and_branch-3.8",
    "perf/quipper/perf.data.piped.target-3.8",
    "perf/quipper/perf.data.ctx_switch_namespaces-4.14",
    "perf/quipper/perf.data.piped.ctx_switch_namespaces-4.14",
    "perf/quipper/perf.data.weight_struct",
    "perf/quipper/perf.data.branch_stack_hw_index",
    "perf/quipper/perf.data.raw-3.4",
    "perf/quipper/perf.data.group_desc-4.14",
    "perf/quipper/perf.data.intel_pt-4.14",
    "perf/perfparser/probe.data.file",
    "perf/perfparser/probe.data.stream",
    "perf/perfparser/vector_static_gcc__perf.data.zstd",
    "perf/lpd/sleep.compressed.data",
    "perf/lpd/fibo.compressed2.pipe.data",
    "perf/pdc/with-callchain.perf.data",
    /* empty pipe-mode feature (NULL data) and no feature at all: UBSan
     * findings of fuzz_perfw_roundtrip */
    "perf/quipper/perf.data.piped.header_features_aligned-6.12",
    "perf/quipper/perf.data.piped.lost_samples-4.4",
    "perf/simpleperf/perf_with_two_event_types.data",
    "perf/lpd/sleep.compressed2.data",
};

static void test_same_order(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		const char *in = tk_test_data(inputs[i]);
		char inp[512];
		snprintf(inp, sizeof inp, "%s", in);
		copy_ok(inp, tmp_path("same.data"), NULL, false);
		assert_true(compare_files(inp, tmp_path("same.data"), true) > 0);
	}
}

static void test_big_endian_round_trip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char inp[512], be[512];
		snprintf(inp, sizeof inp, "%s", tk_test_data(inputs[i]));
		snprintf(be, sizeof be, "%s", tmp_path("be.data"));
		copy_ok(inp, be, "big", false);
		FILE *fp = fopen(be, "rb");
		char magic[8];
		assert_int_equal(fread(magic, 1, 8, fp), 8);
		fclose(fp);
		assert_memory_equal(magic, "2ELIFREP", 8);
		compare_files(inp, be, false);
		copy_ok(be, tmp_path("le.data"), "little", false);
		compare_files(inp, tmp_path("le.data"), true);
	}
}

static void test_compressed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char inp[512];
		snprintf(inp, sizeof inp, "%s", tk_test_data(inputs[i]));
		copy_ok(inp, tmp_path("z.data"), NULL, true);
		compare_files(inp, tmp_path("z.data"), true);
		const tk_perf_features *ft;
		tk_perf_file *f;
		tk_error err;
		assert_int_equal(tk_perf_open(tmp_path("z.data"), NULL, &f, &err), TK_OK);
		ft = tk_perf_get_features(f);
		assert_int_equal(ft->comp_type, 1);
		tk_perf_close(f);
	}
}

static void test_bad_byte_order(void **state)
{
	(void)state;
	tk_sink_options opt = {.byte_order = "middle"};
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(
	    tk_perf_copy(tk_test_data("perf/lpd/sleep.data"), tmp_path("x.data"), &opt, &err),
	    TK_ERR_USAGE);
	assert_int_equal(access(tmp_path("x.data"), F_OK), -1);
}

static void test_bad_input_leaves_nothing(void **state)
{
	(void)state;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_perf_copy(
	    tk_test_data("perf/quipper/perf.data.piped.corrupted.zero_size_sample-3.2"),
	    tmp_path("bad.data"), NULL, &err);
	assert_true(st < 0);
	assert_int_equal(access(tmp_path("bad.data"), F_OK), -1);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return tool(argc, argv);
	snprintf(tmpdir, sizeof tmpdir, "/tmp/tk-perfw-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_order),
	    cmocka_unit_test(test_big_endian_round_trip),
	    cmocka_unit_test(test_compressed),
	    cmocka_unit_test(test_bad_byte_order),
	    cmocka_unit_test(test_bad_input_leaves_nothing),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
