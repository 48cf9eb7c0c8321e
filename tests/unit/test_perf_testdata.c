/* The perf reader over every file in $TK_TESTDATA/perf: each one reads to
 * the end with every record parsed, except the two known-bad files, which
 * must fail with a format/truncation error at a sensible offset. Also:
 * every prefix of small files ends cleanly or with an error; a byte-swapped
 * (2ELIFREP) twin decodes to the same records; stdin streaming equals the
 * mmap path; a --threads style directory is merged. */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_byteswap.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

/* The helper is test-only and not in the library; build it in here. */
#include "perf_byteswap.c"

static bool have_data(void)
{
	struct stat sb;
	return stat(tk_test_data("perf"), &sb) == 0;
}

/* Reads everything; returns the final status. counts[0] = records,
 * counts[1] = samples; hash folds sample fields in delivery order. */
static tk_status read_all(tk_perf_file *f, uint64_t counts[2], uint64_t *hash, tk_error *err)
{
	const tk_perf_record *r;
	tk_status st;
	uint64_t h = 1469598103934665603ULL;
	while ((st = tk_perf_next(f, &r, err)) == TK_OK) {
		counts[0]++;
		h = (h ^ r->type) * 1099511628211ULL;
		if (r->type == TK_PERF_RECORD_SAMPLE) {
			tk_perf_sample s;
			tk_status ps = tk_perf_parse_sample(f, r, &s, err);
			if (ps != TK_OK)
				return ps;
			counts[1]++;
			h = (h ^ s.ip ^ (s.time << 1) ^ ((uint64_t)s.tid << 7) ^ s.period) *
			    1099511628211ULL;
			for (uint64_t i = 0; i < s.callchain_nr; i++)
				h = (h ^ tk_perf_u64_at(s.callchain, i, s.swap)) * 1099511628211ULL;
		} else {
			tk_perf_event e;
			tk_status ps = tk_perf_parse_event(f, r, &e, err);
			if (ps != TK_OK && ps != TK_ERR_UNSUPPORTED)
				return ps;
			if (ps == TK_OK &&
			    (r->type == TK_PERF_RECORD_MMAP || r->type == TK_PERF_RECORD_COMM)) {
				const char *s = r->type == TK_PERF_RECORD_MMAP ? e.u.mmap.filename
									       : e.u.comm.comm;
				for (; *s; s++)
					h = (h ^ (uint8_t)*s) * 1099511628211ULL;
			}
		}
	}
	if (hash)
		*hash = h;
	return st;
}

static const char *const known_bad[] = {
    "quipper/perf.data.piped.corrupted.zero_size_sample-3.2",
    "simpleperf/invalid_perf.data",
};

static int n_files, n_failed;

static int visit(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag != FTW_F)
		return 0;
	const char *rel = strstr(path, "/perf/") + 6;
	bool bad = false;
	for (size_t i = 0; i < sizeof known_bad / sizeof known_bad[0]; i++)
		bad = bad || strcmp(rel, known_bad[i]) == 0;
	n_files++;
	tk_perf_file *f;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_perf_open(path, NULL, &f, &err);
	if (st == TK_OK) {
		uint64_t counts[2] = {0, 0};
		st = read_all(f, counts, NULL, &err);
		tk_perf_close(f);
		if (st == TK_END && counts[0] == 0) {
			print_error("%s: no records\n", rel);
			n_failed++;
		}
	}
	if (bad) {
		if (st != TK_ERR_FORMAT && st != TK_ERR_TRUNCATED) {
			print_error("%s: want a format error, got %s\n", rel, tk_status_str(st));
			n_failed++;
		} else if (err.offset == TK_NO_OFFSET) {
			print_error("%s: error without an offset\n", rel);
			n_failed++;
		}
	} else if (st != TK_END) {
		print_error("%s: %s at 0x%llx: %s\n", rel, tk_status_str(st),
			    (unsigned long long)err.offset, err.message);
		n_failed++;
	}
	return 0;
}

static void test_every_file(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	n_files = n_failed = 0;
	assert_int_equal(nftw(tk_test_data("perf"), visit, 16, FTW_PHYS), 0);
	assert_true(n_files >= 90);
	assert_int_equal(n_failed, 0);
}

static void test_known_bad_offsets(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(
	    tk_perf_open(
		tk_test_data("perf/quipper/perf.data.piped.corrupted.zero_size_sample-3.2"), NULL,
		&f, &err),
	    TK_OK);
	uint64_t counts[2] = {0, 0};
	assert_int_equal(read_all(f, counts, NULL, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0xbfd0); /* the record whose size is 0 */
	assert_true(counts[0] > 500);
	tk_perf_close(f);
	assert_int_equal(
	    tk_perf_open(tk_test_data("perf/simpleperf/invalid_perf.data"), NULL, &f, &err),
	    TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0);
}

/* Every prefix (every 7th for bigger files) ends cleanly or with an error. */
static void test_truncations(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	static const char *const files[] = {
	    "perf/lpd/sleep.data",
	    "perf/lpd/sleep.compressed.pipe.data",
	    "perf/lpd/sleep.compressed2.data",
	    "perf/quipper/perf.data.piped.header_features_aligned-6.12",
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t size;
		uint8_t *data = tk_test_read_file(tk_test_data(files[i]), &size);
		assert_non_null(data);
		size_t step = size > 8192 ? 7 : 1;
		for (size_t n = 0; n < size; n += step) {
			uint8_t *cut = malloc(n ? n : 1); /* exact size: ASan sees overreads */
			memcpy(cut, data, n);
			tk_perf_file *f;
			tk_error err;
			tk_status st = tk_perf_open_memory(cut, n, files[i], NULL, &f, &err);
			if (st == TK_OK) {
				uint64_t counts[2] = {0, 0};
				st = read_all(f, counts, NULL, &err);
				tk_perf_close(f);
			}
			assert_true(st == TK_END || st < 0);
			if (st < 0)
				assert_true(err.offset == TK_NO_OFFSET || err.offset <= n);
			free(cut);
		}
		free(data);
	}
}

static void check_swapped_twin(const char *rel)
{
	size_t size;
	uint8_t *data = tk_test_read_file(tk_test_data(rel), &size);
	assert_non_null(data);
	char why[256];
	uint8_t *be = tk_test_perf_byteswap(data, size, why, sizeof why);
	if (!be)
		fail_msg("byteswap %s: %s", rel, why);
	tk_perf_file *a, *b;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(data, size, "le", NULL, &a, &err), TK_OK);
	assert_int_equal(tk_perf_open_memory(be, size, "be", NULL, &b, &err), TK_OK);
	assert_false(tk_perf_get_header(a)->swap);
	assert_true(tk_perf_get_header(b)->swap);
	assert_true(tk_perf_get_header(b)->big_endian);
	assert_int_equal(tk_perf_attr_count(a), tk_perf_attr_count(b));
	for (size_t i = 0; i < tk_perf_attr_count(a); i++) {
		const tk_perf_attr *x = tk_perf_attr_at(a, i), *y = tk_perf_attr_at(b, i);
		assert_int_equal(x->sample_type, y->sample_type);
		assert_int_equal(x->flags, y->flags);
		assert_int_equal(x->config, y->config);
		assert_int_equal(x->n_ids, y->n_ids);
	}
	assert_string_equal(tk_perf_get_features(a)->hostname, tk_perf_get_features(b)->hostname);
	assert_int_equal(tk_perf_get_features(a)->nr_cpus_online,
			 tk_perf_get_features(b)->nr_cpus_online);
	uint64_t ca[2] = {0, 0}, cb[2] = {0, 0}, ha, hb;
	assert_int_equal(read_all(a, ca, &ha, &err), TK_END);
	assert_int_equal(read_all(b, cb, &hb, &err), TK_END);
	assert_int_equal(ca[0], cb[0]);
	assert_int_equal(ca[1], cb[1]);
	assert_true(ca[1] > 1000);
	assert_int_equal(ha, hb);
	tk_perf_close(a);
	tk_perf_close(b);
	free(be);
	free(data);
}

static void test_big_endian_twin(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	check_swapped_twin("perf/quipper/perf.data.callgraph-3.8");
	check_swapped_twin("perf/pdc/with-callchain.perf.data");
}

/* Streams a file through a real pipe on stdin ("-"): the copy path. */
static void check_stdin(const char *rel)
{
	const char *path = tk_test_data(rel);
	tk_perf_file *f;
	tk_error err;
	uint64_t cm[2] = {0, 0}, cs[2] = {0, 0}, hm = 0, hs = 0;
	assert_int_equal(tk_perf_open(path, NULL, &f, &err), TK_OK);
	assert_int_equal(read_all(f, cm, &hm, &err), TK_END);
	tk_perf_close(f);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		size_t size;
		uint8_t *data = tk_test_read_file(path, &size);
		size_t off = 0;
		while (data && off < size) {
			ssize_t w =
			    write(fds[1], data + off, size - off > 4096 ? 4096 : size - off);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	int saved = dup(0);
	dup2(fds[0], 0);
	close(fds[0]);
	tk_status st = tk_perf_open("-", NULL, &f, &err);
	if (st == TK_OK) {
		st = read_all(f, cs, &hs, &err);
		tk_perf_close(f);
	}
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
	assert_int_equal(st, TK_END);
	assert_int_equal(cm[0], cs[0]);
	assert_int_equal(cm[1], cs[1]);
	assert_int_equal(hm, hs);
}

static void test_stdin_stream(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	check_stdin("perf/quipper/perf.data.piped.target-3.8");
	check_stdin("perf/lpd/fibo.compressed2.pipe.data");
	check_stdin("perf/perfparser/probe.data.stream");
}

/* DIR/data (header + records) and DIR/data.0, DIR/data.1 (more records):
 * every sample of every file comes out, in time order. */
static void test_threads_directory(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	size_t size;
	uint8_t *data = tk_test_read_file(tk_test_data("perf/lpd/sleep.data"), &size);
	assert_non_null(data);
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(data, size, "sleep", NULL, &f, &err), TK_OK);
	const tk_perf_header *h = tk_perf_get_header(f);
	uint64_t doff = h->data_offset, dsize = h->data_size;
	uint64_t c1[2] = {0, 0};
	assert_int_equal(read_all(f, c1, NULL, &err), TK_END);
	tk_perf_close(f);
	/* perf record --threads writes no FINISHED_ROUND; retype them to an
	 * unknown user type (passed through) so the merge is fully sorted */
	tk_perf_open_options raw = {.raw_order = true};
	assert_int_equal(tk_perf_open_memory(data, size, "sleep", &raw, &f, &err), TK_OK);
	const tk_perf_record *rr;
	while (tk_perf_next(f, &rr, &err) == TK_OK)
		if (rr->type == TK_PERF_RECORD_FINISHED_ROUND)
			tk_store_u32(data + rr->offset, 99, false);
	tk_perf_close(f);
	char dir[] = "/tmp/tk-perf-dir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[512];
	const char *names[] = {"data", "data.0", "data.1"};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		FILE *o = fopen(p, "wb");
		assert_non_null(o);
		if (i == 0)
			fwrite(data, 1, size, o);
		else
			fwrite(data + doff, 1, (size_t)dsize, o);
		fclose(o);
	}
	assert_int_equal(tk_perf_open(dir, NULL, &f, &err), TK_OK);
	assert_true(tk_perf_get_header(f)->is_directory);
	const tk_perf_record *r;
	uint64_t samples = 0, last = 0;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK) {
		if (r->type != TK_PERF_RECORD_SAMPLE)
			continue;
		samples++;
		assert_true(r->sid.time >= last);
		last = r->sid.time;
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(samples, 3 * c1[1]);
	tk_perf_close(f);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
	free(data);
}

/* The adapter: events per sample with perf's --to-ctf member names. */
static void test_source_adapter(void **state)
{
	(void)state;
	if (!have_data())
		skip();
	tk_source *src;
	tk_error err;
	tk_open_options opt = {.all_records = false};
	assert_int_equal(tk_perf_source_open(tk_test_data("perf/quipper/perf.data.callgraph-3.8"),
					     &opt, &src, &err),
			 TK_OK);
	const tk_event *ev;
	uint64_t n = 0;
	tk_status st;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK) {
		if (n++ == 0) {
			assert_string_equal(ev->cls->name, "cycles");
			const tk_value *ip = tk_value_member(ev->payload, "perf_ip");
			const tk_value *cc = tk_value_member(ev->payload, "perf_callchain");
			const tk_value *tid = tk_value_member(ev->payload, "perf_tid");
			assert_non_null(ip);
			assert_non_null(cc);
			assert_non_null(tid);
			assert_int_equal(ip->cls->semantic, TK_SEM_IP);
			assert_int_equal(cc->cls->semantic, TK_SEM_CALLCHAIN);
			assert_int_equal(tid->v.i, ev->tid);
			assert_true(ev->has_time);
			assert_true(ev->cpu >= 0);
		}
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(n, 1768);
	tk_source_close(src);
	opt.all_records = true;
	assert_int_equal(tk_perf_source_open(tk_test_data("perf/quipper/perf.data.callgraph-3.8"),
					     &opt, &src, &err),
			 TK_OK);
	n = 0;
	bool saw_comm = false;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK) {
		n++;
		if (strcmp(ev->cls->name, "perf_comm") == 0 && !saw_comm) {
			saw_comm = true;
			const tk_value *c = tk_value_member(ev->payload, "comm");
			assert_non_null(c);
			assert_true(c->v.str.len > 0);
		}
	}
	assert_int_equal(st, TK_END);
	assert_int_equal(n, 3798);
	assert_true(saw_comm);
	tk_source_close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_file),     cmocka_unit_test(test_known_bad_offsets),
	    cmocka_unit_test(test_truncations),    cmocka_unit_test(test_big_endian_twin),
	    cmocka_unit_test(test_stdin_stream),   cmocka_unit_test(test_threads_directory),
	    cmocka_unit_test(test_source_adapter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
