/* Unit tests for the DCPI profile reader, writer and database: the shared
 * testdata (accepted files against their .expect, rejected files with the
 * status and offset of the fault), pdb-1.x headers, writer round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/writer.h"
#include "output/dcpi_print.h"
#include "test_support.h"
#include "tracekit/tracekit.h"

static tk_dcpi_profile *open_testdata(const char *name)
{
	tk_dcpi_profile *p = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_dcpi_open(tk_test_data(name), &p, &err);
	if (st != TK_OK)
		fprintf(stderr, "%s: %s\n", name, err.message);
	assert_int_equal(st, TK_OK);
	return p;
}

/* The listing must equal NAME.expect byte for byte. */
static void check_expect(const char *base)
{
	char prof[256], expect[256];
	snprintf(prof, sizeof prof, "dcpi/%s.prof", base);
	snprintf(expect, sizeof expect, "dcpi/%s.expect", base);
	size_t want_len;
	uint8_t *want = tk_test_read_file(tk_test_data(expect), &want_len);
	if (!want)
		skip();
	tk_dcpi_profile *p = open_testdata(prof);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	assert_int_equal(tk_dcpi_print_listing(p, w, NULL), TK_OK);
	size_t got_len;
	const char *got = tk_writer_data(w, &got_len);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	tk_writer_abort(w);
	tk_dcpi_close(p);
	free(want);
}

static void test_expected_listings(void **state)
{
	(void)state;
	check_expect("simple");
	check_expect("empty");
	check_expect("optional-unknown");
	check_expect("version-006");
}

static void test_header_fields(void **state)
{
	(void)state;
	tk_dcpi_profile *p = open_testdata("dcpi/optional-unknown.prof");
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	assert_int_equal(h->major, 0);
	assert_int_equal(h->minor, 7);
	assert_string_equal(h->image, "19970328081403c0c18b");
	assert_string_equal(h->epoch, "9805191724");
	assert_string_equal(h->event, "cycles");
	assert_true(h->tstart == 0x120000000ull);
	assert_int_equal(h->tsize, 8388608);
	assert_int_equal(h->period, 63488);
	assert_int_equal(h->cpuspeed, 333);
	assert_true(h->has_cpuamask && h->cpuamask == 3);
	assert_true(h->has_cpucount && h->cpucount == 2);
	assert_false(h->has_cpuimplv);
	assert_string_equal(h->path, "/usr/local/bin/xemacs");
	/* unknown lines are kept, in order, unchanged */
	assert_int_equal(h->n_lines, 14);
	assert_false(h->lines[12].known);
	assert_int_equal(h->lines[12].len, strlen("label nightly build"));
	assert_memory_equal(h->lines[12].text, "label nightly build", h->lines[12].len);
	assert_memory_equal(h->lines[13].text, "checksum a1b2 c3d4", h->lines[13].len);
	assert_true(tk_dcpi_body_supported(p));
	assert_int_equal(tk_dcpi_total_offsets(p), 21);
	assert_int_equal(tk_dcpi_total_samples(p), 160);
	assert_int_equal(tk_dcpi_chunk_total(p), 4);
	/* chunk iteration gives the counts in address order, zeros included */
	uint64_t cursor = 0, sum = 0, prev_end = 0;
	tk_dcpi_chunk c;
	int chunks = 0;
	while (tk_dcpi_next_chunk(p, &cursor, &c, NULL) == TK_OK) {
		assert_true(chunks == 0 || c.offset >= prev_end);
		for (uint32_t i = 0; i < c.n; i++)
			sum += tk_dcpi_chunk_count(&c, i);
		prev_end = (uint64_t)c.offset + c.n;
		chunks++;
	}
	assert_int_equal(chunks, 4);
	assert_int_equal(sum, 160);
	tk_dcpi_close(p);
}

/* Each bad file fails with the given status at the given offset. */
static void check_bad(const char *name, tk_status want, uint64_t offset, const char *words)
{
	tk_dcpi_profile *p = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_dcpi_open(tk_test_data(name), &p, &err);
	assert_null(p);
	if (st != want || err.offset != offset || !strstr(err.message, words))
		fprintf(stderr, "%s: status %d offset 0x%llx: %s\n", name, st,
			(unsigned long long)err.offset, err.message);
	assert_int_equal(st, want);
	assert_int_equal(err.offset, offset);
	assert_non_null(strstr(err.message, words));
}

static void test_bad_files(void **state)
{
	(void)state;
	check_bad("dcpi/bad-duplicate-event.prof", TK_ERR_FORMAT, 0x93, "duplicate 'event'");
	check_bad("dcpi/bad-footer.prof", TK_ERR_FORMAT, 0xb0, "footer says 99 samples");
	check_bad("dcpi/bad-missing-tstart.prof", TK_ERR_FORMAT, 0x82, "'tstart' is missing");
	check_bad("dcpi/bad-no-terminator.prof", TK_ERR_FORMAT, 0x93, "terminator");
	check_bad("dcpi/bad-overlap.prof", TK_ERR_FORMAT, 0xb4, "overlaps");
	check_bad("dcpi/bad-truncated.prof", TK_ERR_TRUNCATED, 0xa0, "runs past the footer");
	check_bad("dcpi/bad-unsorted.prof", TK_ERR_FORMAT, 0xa8, "sorted");
	check_bad("dcpi/bad-version.prof", TK_ERR_UNSUPPORTED, 0x8, "pdb-7.00");
}

static const char hdr_v0[] =
    "version pdb-0.07\nimage 1a\nepoch 2401021304\nplatform x86_64\n"
    "event cycles\nperiod 1000\ntstart 400000\ntsize 4096\ncpuspeed 3000\n";

static tk_status open_text(const char *text, size_t len, tk_dcpi_profile **p, tk_error *err)
{
	tk_error_clear(err);
	return tk_dcpi_open_memory(text, len, "mem", p, err);
}

static void test_header_grammar(void **state)
{
	(void)state;
	tk_dcpi_profile *p;
	tk_error err;
	char buf[1024];
	/* a minimal valid profile: header + empty footer */
	int n = snprintf(buf, sizeof buf, "%ssamples\n", hdr_v0);
	memset(buf + n, 0, 8);
	assert_int_equal(open_text(buf, (size_t)n + 8, &p, &err), TK_OK);
	assert_int_equal(tk_dcpi_total_samples(p), 0);
	tk_dcpi_close(p);
	/* the optional 'path' twice */
	n = snprintf(buf, sizeof buf, "%spath /a\npath /b\nsamples\n", hdr_v0);
	memset(buf + n, 0, 8);
	assert_int_equal(open_text(buf, (size_t)n + 8, &p, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "duplicate 'path'"));
	assert_int_equal(err.offset, strlen(hdr_v0) + 8);
	/* a known key with a malformed value: tstart is hex */
	n = snprintf(buf, sizeof buf, "%s", hdr_v0);
	char *t = strstr(buf, "tstart 400000");
	memcpy(t, "tstart 40000g", 13);
	n += snprintf(buf + n, sizeof buf - (size_t)n, "samples\n");
	memset(buf + n, 0, 8);
	assert_int_equal(open_text(buf, (size_t)n + 8, &p, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, (uint64_t)(t - buf) + 7);
	/* a bad epoch */
	n = snprintf(buf, sizeof buf, "%s", hdr_v0);
	memcpy(strstr(buf, "epoch 24"), "epoch x4", 8);
	n += snprintf(buf + n, sizeof buf - (size_t)n, "samples\n");
	memset(buf + n, 0, 8);
	assert_int_equal(open_text(buf, (size_t)n + 8, &p, &err), TK_ERR_FORMAT);
	/* a 14-digit epoch is accepted */
	n = snprintf(buf, sizeof buf, "%s", hdr_v0);
	char *e = strstr(buf, "epoch 2401021304\n");
	memmove(e + 21, e + 17, strlen(e + 17) + 1);
	memcpy(e, "epoch 20240102130405\n", 21);
	n = (int)strlen(buf);
	n += snprintf(buf + n, sizeof buf - (size_t)n, "samples  \n");
	memset(buf + n, 0, 8);
	assert_int_equal(open_text(buf, (size_t)n + 8, &p, &err), TK_OK);
	assert_string_equal(tk_dcpi_profile_header(p)->epoch, "20240102130405");
	tk_dcpi_close(p);
	/* the header runs into the end of the file */
	assert_int_equal(open_text(hdr_v0, strlen(hdr_v0), &p, &err), TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, strlen(hdr_v0));
	/* DOS line endings are named as such */
	assert_int_equal(open_text("version pdb-0.07\r\nimage 1\n", 26, &p, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 16);
	assert_non_null(strstr(err.message, "carriage return"));
	/* empty input */
	assert_int_equal(open_text("", 0, &p, &err), TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, 0);
	/* a footer cut short */
	n = snprintf(buf, sizeof buf, "%ssamples\n", hdr_v0);
	assert_int_equal(open_text(buf, (size_t)n + 4, &p, &err), TK_ERR_TRUNCATED);
	assert_int_equal(err.offset, (uint64_t)n);
}

/* pdb-1.x: the header reads, the body is reported as unsupported. */
static void test_version1_header_only(void **state)
{
	(void)state;
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "%s", hdr_v0);
	memcpy(buf + 12, "1.01", 4);
	n += snprintf(buf + n, sizeof buf - (size_t)n, "samples\n\x01\x02\x03");
	tk_dcpi_profile *p;
	tk_error err;
	assert_int_equal(open_text(buf, (size_t)n, &p, &err), TK_OK);
	assert_false(tk_dcpi_body_supported(p));
	assert_int_equal(tk_dcpi_profile_header(p)->major, 1);
	uint64_t cursor = 0;
	tk_dcpi_chunk c;
	tk_error_clear(&err);
	assert_int_equal(tk_dcpi_next_chunk(p, &cursor, &c, &err), TK_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.message, "pdb-1.01"));
	assert_int_equal(err.offset, (uint64_t)n - 3);
	tk_dcpi_close(p);
}

static char *temp_dir(void)
{
	char tmpl[] = "/tmp/tk-dcpi-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return strdup(d);
}

static void test_writer_round_trip(void **state)
{
	(void)state;
	char *dir = temp_dir();
	char path[512];
	snprintf(path, sizeof path, "%s/w.prof", dir);
	const char *extra[] = {"label nightly build", "checksum a1b2"};
	tk_dcpi_fields f = {
	    .image = "deadbeef",
	    .epoch = "2401021304",
	    .platform = "x86_64",
	    .event = "cpu-clock",
	    .period = 250000,
	    .tstart = 0x401000,
	    .tsize = 0x2000,
	    .cpuspeed = 2400,
	    .path = "/usr/bin/true",
	    .extra_lines = extra,
	    .n_extra = 2,
	};
	/* unsorted, a repeat, a zero, a gap of 2 (zero-filled) and a far one */
	tk_dcpi_sample s[] = {{10, 1}, {3, 2}, {10, 4}, {4, 0}, {5, 7}, {0x1000, 9}, {8, 1}};
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_dcpi_write(path, &f, s, 7, &err), TK_OK);
	tk_dcpi_profile *p;
	assert_int_equal(tk_dcpi_open(path, &p, &err), TK_OK);
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	assert_int_equal(h->header_size % 4, 0);
	assert_string_equal(h->version, "pdb-0.07");
	assert_string_equal(h->path, "/usr/bin/true");
	assert_true(h->tstart == 0x401000);
	assert_int_equal(h->tsize, 0x2000);
	assert_memory_equal(h->lines[h->n_lines - 2].text, "label nightly build", 19);
	assert_int_equal(tk_dcpi_total_offsets(p), 5);
	assert_int_equal(tk_dcpi_total_samples(p), 24);
	/* offsets 3,5,8,10 share a chunk (gaps <= 2), 0x1000 has its own */
	assert_int_equal(tk_dcpi_chunk_total(p), 2);
	uint64_t cursor = 0;
	tk_dcpi_chunk c;
	assert_int_equal(tk_dcpi_next_chunk(p, &cursor, &c, NULL), TK_OK);
	assert_int_equal(c.offset, 3);
	assert_int_equal(c.n, 8);
	uint32_t want[8] = {2, 0, 7, 0, 0, 1, 0, 5};
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(tk_dcpi_chunk_count(&c, i), want[i]);
	tk_dcpi_close(p);

	/* builder: the same through the hash map */
	tk_dcpi_builder *b = tk_dcpi_builder_new();
	assert_non_null(b);
	for (int i = 0; i < 1000; i++)
		assert_true(tk_dcpi_builder_add(b, (uint64_t)(i * 7) % 500, 1));
	assert_int_equal(tk_dcpi_builder_samples(b), 1000);
	assert_int_equal(tk_dcpi_builder_write(b, path, &f, &err), TK_OK);
	tk_dcpi_builder_free(b);
	assert_int_equal(tk_dcpi_open(path, &p, &err), TK_OK);
	assert_int_equal(tk_dcpi_total_samples(p), 1000);
	assert_int_equal(tk_dcpi_total_offsets(p), 500);
	tk_dcpi_close(p);

	/* invalid fields are refused and leave no file */
	unlink(path);
	f.image = "not-hex";
	assert_int_equal(tk_dcpi_write(path, &f, s, 0, &err), TK_ERR_USAGE);
	assert_int_not_equal(access(path, F_OK), 0);
	f.image = "deadbeef";
	const char *bad_extra[] = {"tstart 5"};
	f.extra_lines = bad_extra;
	f.n_extra = 1;
	assert_int_equal(tk_dcpi_write(path, &f, s, 0, &err), TK_ERR_USAGE);
	f.n_extra = 0;
	tk_dcpi_sample big = {(uint64_t)1 << 33, 1};
	assert_int_equal(tk_dcpi_write(path, &f, &big, 1, &err), TK_ERR_LIMIT);
	assert_int_not_equal(access(path, F_OK), 0);
	rmdir(dir);
	free(dir);
}

static void test_header_padding(void **state)
{
	(void)state;
	tk_dcpi_fields f = {
	    .image = "a",
	    .epoch = "2401021304",
	    .platform = "p",
	    .event = "e",
	    .period = 1,
	};
	/* every header length lands on a multiple of 4 */
	char img[8] = "a";
	for (int i = 0; i < 4; i++) {
		img[i] = 'a';
		img[i + 1] = '\0';
		f.image = img;
		char buf[512];
		size_t n = tk_dcpi_format_header(&f, buf, sizeof buf, NULL);
		assert_int_equal(n % 4, 0);
		assert_int_equal(buf[n - 1], '\n');
		assert_non_null(strstr(buf, "\nsamples"));
		assert_int_equal(tk_dcpi_format_header(&f, NULL, 0, NULL), n);
	}
	char e[11];
	tk_dcpi_format_epoch(896203440, e); /* 1998-05-26 17:24 UTC */
	assert_string_equal(e, "9805261724");
}

static void test_database(void **state)
{
	(void)state;
	char *dir = temp_dir();
	char db[512];
	snprintf(db, sizeof db, "%s/db", dir);
	tk_dcpi_fields f = {
	    .image = "ab",
	    .epoch = "2401021304",
	    .platform = "x",
	    .event = "cycles",
	    .period = 1,
	};
	tk_dcpi_sample s[] = {{1, 5}};
	char name[128];
	tk_dcpi_db_file_name("ab", "cpu/cycles:u", name, sizeof name);
	assert_string_equal(name, "ab_cpu_cycles_u.prof");
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_dcpi_db_write(db, "2401021304", "host1", name, &f, s, 1, &err), TK_OK);
	f.event = "imiss";
	assert_int_equal(
	    tk_dcpi_db_write(db, "2401021304", "host1", "ab_imiss.prof", &f, s, 1, &err), TK_OK);
	assert_int_equal(tk_dcpi_db_write(db, "..", "host1", "x.prof", &f, s, 1, &err),
			 TK_ERR_USAGE);
	assert_int_equal(tk_dcpi_db_write(db, "e", "h", "../x.prof", &f, s, 1, &err), TK_ERR_USAGE);
	/* a stray non-profile file is ignored */
	char stray[600];
	snprintf(stray, sizeof stray, "%s/2401021304/README", db);
	FILE *fp = fopen(stray, "w");
	assert_non_null(fp);
	fputs("not a profile\n", fp);
	fclose(fp);
	assert_true(tk_dcpi_db_detect(db));
	assert_false(tk_dcpi_db_detect(dir)); /* deeper than DB/EPOCH/HOST: not a database */
	char **paths;
	size_t n;
	assert_int_equal(tk_dcpi_db_list(db, &paths, &n, &err), TK_OK);
	assert_int_equal(n, 2);
	assert_non_null(strstr(paths[0], "/2401021304/host1/ab_cpu_cycles_u.prof"));
	assert_non_null(strstr(paths[1], "/2401021304/host1/ab_imiss.prof"));
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
	}
	tk_dcpi_db_free_list(paths, n);
	assert_false(tk_dcpi_db_detect(db));
	assert_int_equal(tk_dcpi_db_list(db, &paths, &n, &err), TK_ERR_NOT_FOUND);
	unlink(stray);
	char sub[600];
	snprintf(sub, sizeof sub, "%s/2401021304/host1", db);
	rmdir(sub);
	snprintf(sub, sizeof sub, "%s/2401021304", db);
	rmdir(sub);
	rmdir(db);
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_expected_listings),
	    cmocka_unit_test(test_header_fields),
	    cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_header_grammar),
	    cmocka_unit_test(test_version1_header_only),
	    cmocka_unit_test(test_writer_round_trip),
	    cmocka_unit_test(test_header_padding),
	    cmocka_unit_test(test_database),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
