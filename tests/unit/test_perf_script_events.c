/* perf script's side-band record lines (src/output/perf_script_events.c) on
 * crafted records: the forms the oracle recordings rarely or never hold
 * (preempted switches, TEXT_POKE byte dumps, NAMESPACES with no entries or
 * unknown kinds, an id no attr owns, a cpu column without a cpu), and a
 * truncated record rejected with its offset. Expected lines follow perf
 * 6.1's util/event.c and builtin-script.c formats. */
#include <stdio.h>

#include "test_support.h"

#include "output/perf_script_events.h"
#include "perf_craft.h"

enum {
	ST = TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_CPU |
	     TK_PERF_SAMPLE_IDENTIFIER,
	T0 = 1000000000u, /* 1 s */
};

/* sample_id trailer of ST: TID, TIME, CPU, IDENTIFIER */
static void trailer(pc_buf *b, uint32_t tid, uint64_t time, uint32_t cpu, uint64_t id)
{
	pc_u32(b, tid);
	pc_u32(b, tid);
	pc_u64(b, time);
	pc_u32(b, cpu);
	pc_u32(b, 0);
	pc_u64(b, id);
}

static void begin(pc_buf *b, int n_attrs)
{
	memset(b, 0, sizeof *b);
	pc_pipe_header(b);
	pc_attr a = {.type = TK_PERF_TYPE_SOFTWARE,
		     .sample_type = ST,
		     .flags = 1ull << TK_PERF_ATTR_SAMPLE_ID_ALL};
	for (int i = 0; i < n_attrs; i++) {
		uint64_t id = 10 + (uint64_t)i;
		pc_header_attr(b, &a, 128, &id, 1);
	}
}

static void rec_comm(pc_buf *b, uint32_t tid, const char *comm, uint64_t time)
{
	size_t at = pc_rec_begin(b, TK_PERF_RECORD_COMM, 0);
	pc_u32(b, tid);
	pc_u32(b, tid);
	char c[16] = {0};
	snprintf(c, sizeof c, "%s", comm);
	pc_bytes(b, c, 16);
	trailer(b, tid, time, 1, 10);
	pc_rec_end(b, at);
}

/* Runs every record of b through the printer with `show`; returns the
 * output (static buffer) and the status of the first failure in *st. */
static const char *run(pc_buf *b, unsigned show, int64_t cpu, tk_status *st_out,
		       uint64_t *err_offset)
{
	static char out[8192];
	tk_perf_open_options po = {.raw_order = true};
	tk_perf_file *f;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_perf_open_memory(b->p, b->n, "sb", &po, &f, &err), TK_OK);
	tk_threads t;
	assert_true(tk_threads_init(&t, NULL));
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_render_options opt = {.script_show = show};
	if (cpu >= 0)
		opt.cpu = tk_id_set_one(cpu);
	const tk_perf_record *r;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK) {
		if (r->type == TK_PERF_RECORD_SAMPLE || r->type >= TK_PERF_RECORD_HEADER_ATTR) {
			if (r->type != TK_PERF_RECORD_FINISHED_ROUND)
				continue;
		}
		st = tk_perf_script_side_band(&t, f, r, &opt, w, &err);
		if (st != TK_OK)
			break;
	}
	*st_out = st == TK_END ? TK_OK : st;
	if (err_offset)
		*err_offset = err.offset;
	size_t len;
	const char *d = tk_writer_data(w, &len);
	assert_true(len < sizeof out);
	memcpy(out, d, len);
	out[len] = '\0';
	tk_writer_abort(w);
	tk_threads_free(&t);
	tk_perf_close(f);
	free(b->p);
	return out;
}

static void test_switches(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 1);
	rec_comm(&b, 42, "worker", T0);
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_SWITCH, 0x2000 | 0x4000); /* out, preempt */
	trailer(&b, 42, T0 + 1500, 1, 10);
	pc_rec_end(&b, at);
	at = pc_rec_begin(&b, TK_PERF_RECORD_SWITCH, 0); /* in */
	trailer(&b, 42, T0 + 2500, 1, 10);
	pc_rec_end(&b, at);
	at = pc_rec_begin(&b, TK_PERF_RECORD_SWITCH_CPU_WIDE, 0x2000);
	pc_u32(&b, 7);
	pc_u32(&b, 123456); /* wider than %-5d */
	trailer(&b, 42, T0 + 3000, 1, 10);
	pc_rec_end(&b, at);
	at = pc_rec_begin(&b, TK_PERF_RECORD_SWITCH_CPU_WIDE, 0);
	pc_u32(&b, 0);
	pc_u32(&b, 0);
	trailer(&b, 42, T0 + 4000, 1, 10);
	pc_rec_end(&b, at);
	tk_status st;
	const char *out = run(&b, TK_SHOW_SWITCH_EVENTS, -1, &st, NULL);
	assert_int_equal(st, TK_OK);
	assert_string_equal(
	    out, "          worker    42 [001]     1.000001: PERF_RECORD_SWITCH OUT preempt\n"
		 "          worker    42 [001]     1.000002: PERF_RECORD_SWITCH IN         \n"
		 "          worker    42 [001]     1.000003: PERF_RECORD_SWITCH_CPU_WIDE OUT  "
		 "        next pid/tid:     7/123456\n"
		 "          worker    42 [001]     1.000004: PERF_RECORD_SWITCH_CPU_WIDE IN   "
		 "        prev pid/tid:     0/0    \n");
}

static void test_text_poke_and_round(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 1);
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_TEXT_POKE, 1);
	pc_u64(&b, 0xffffffff81000010ull);
	pc_u16(&b, 18); /* old_len: a full line and two more */
	pc_u16(&b, 2);
	for (uint8_t i = 0; i < 20; i++)
		pc_bytes(&b, &(uint8_t){(uint8_t)(0xe0 + i)}, 1);
	pc_zero(&b, 4); /* 20 + 20 bytes, padded to 8 */
	trailer(&b, 0, T0, 0, 10);
	pc_rec_end(&b, at);
	at = pc_rec_begin(&b, TK_PERF_RECORD_FINISHED_ROUND, 0);
	pc_rec_end(&b, at);
	tk_status st;
	const char *out = run(&b, TK_SHOW_TEXT_POKE_EVENTS | TK_SHOW_ROUND_EVENTS, -1, &st, NULL);
	assert_int_equal(st, TK_OK);
	/* no kernel map holds the address: no symbol between the spaces */
	assert_string_equal(out, "         swapper     0 [000]     1.000000: PERF_RECORD_TEXT_POKE "
				 "ffffffff81000010  old len 18 new len 2\n"
				 "            Old bytes: e0 e1 e2 e3 e4 e5 e6 e7 e8 e9 ea eb ec ed "
				 "ee ef\n"
				 "            Old bytes: f0 f1\n"
				 "            New bytes: f2 f3\n"
				 "PERF_RECORD_FINISHED_ROUND\n");
}

static void rec_namespaces(pc_buf *b, uint32_t tid, uint64_t nr)
{
	size_t at = pc_rec_begin(b, TK_PERF_RECORD_NAMESPACES, 0);
	pc_u32(b, tid);
	pc_u32(b, tid);
	pc_u64(b, nr);
	for (uint64_t i = 0; i < nr; i++) {
		pc_u64(b, 3);
		pc_u64(b, i ? 0xf0000000u + i : 0);
	}
	trailer(b, tid, T0, 0, 10);
	pc_rec_end(b, at);
}

static void test_namespaces(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 1);
	rec_namespaces(&b, 5, 9); /* two kinds perf has no name for */
	rec_namespaces(&b, 5, 0); /* perf leaves the bracket open */
	tk_status st;
	const char *out = run(&b, TK_SHOW_NAMESPACE_EVENTS, -1, &st, NULL);
	assert_int_equal(st, TK_OK);
	assert_string_equal(
	    out,
	    "              :5     5 [000]     1.000000: PERF_RECORD_NAMESPACES 5/5 - "
	    "nr_namespaces: 9\n"
	    "\t\t[0/net: 3/0, 1/uts: 3/0xf0000001, 2/ipc: 3/0xf0000002, 3/pid: 3/0xf0000003, \n"
	    "\t\t 4/user: 3/0xf0000004, 5/mnt: 3/0xf0000005, 6/cgroup: 3/0xf0000006, "
	    "7/UNKNOWN: 3/0xf0000007, \n"
	    "\t\t 8/UNKNOWN: 3/0xf0000008]\n"
	    "              :5     5 [000]     1.000000: PERF_RECORD_NAMESPACES 5/5 - "
	    "nr_namespaces: 0\n"
	    "\t\t[");
}

static void test_unknown_id_and_filters(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 2);
	rec_comm(&b, 42, "worker", T0);
	/* LOST with an id no attr owns: perf finds no evsel, prints no columns */
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_LOST, 0);
	pc_u64(&b, 99);
	pc_u64(&b, 5);
	trailer(&b, 42, T0 + 1000, 1, 99);
	pc_rec_end(&b, at);
	/* on cpu 3: dropped by --cpu 1, as filter_cpu does */
	at = pc_rec_begin(&b, TK_PERF_RECORD_LOST, 0);
	pc_u64(&b, 11);
	pc_u64(&b, 6);
	trailer(&b, 42, T0 + 2000, 3, 11);
	pc_rec_end(&b, at);
	/* synthesized (id 0): the first attr */
	at = pc_rec_begin(&b, TK_PERF_RECORD_LOST, 0);
	pc_u64(&b, 0);
	pc_u64(&b, 7);
	trailer(&b, 42, T0 + 3000, 1, 0);
	pc_rec_end(&b, at);
	tk_status st;
	const char *out = run(&b, TK_SHOW_LOST_EVENTS | TK_SHOW_TASK_EVENTS, 1, &st, NULL);
	assert_int_equal(st, TK_OK);
	assert_string_equal(
	    out, "          worker    42 [001]     1.000000: PERF_RECORD_COMM: worker:42/42\n"
		 "PERF_RECORD_LOST lost 5\n"
		 "          worker    42 [001]     1.000003: PERF_RECORD_LOST lost 7\n");
}

static void test_not_shown_still_feeds_threads(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 1);
	rec_comm(&b, 42, "worker", T0); /* not shown, but names the thread */
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_EXIT, 0);
	pc_u32(&b, 42);
	pc_u32(&b, 1);
	pc_u32(&b, 42);
	pc_u32(&b, 1);
	pc_u64(&b, T0 + 5000);
	trailer(&b, 42, T0 + 5000, 2, 10);
	pc_rec_end(&b, at);
	tk_status st;
	const char *out = run(&b, TK_SHOW_SWITCH_EVENTS, -1, &st, NULL);
	assert_int_equal(st, TK_OK);
	assert_string_equal(out, "");
	begin(&b, 1);
	rec_comm(&b, 42, "worker", T0);
	at = pc_rec_begin(&b, TK_PERF_RECORD_EXIT, 0);
	pc_u32(&b, 42);
	pc_u32(&b, 1);
	pc_u32(&b, 42);
	pc_u32(&b, 1);
	pc_u64(&b, T0 + 5000);
	trailer(&b, 42, T0 + 5000, 2, 10);
	pc_rec_end(&b, at);
	out = run(&b, TK_SHOW_TASK_EVENTS, -1, &st, NULL);
	assert_int_equal(st, TK_OK);
	assert_string_equal(
	    out, "          worker    42 [001]     1.000000: PERF_RECORD_COMM: worker:42/42\n"
		 "          worker    42 [002]     1.000005: PERF_RECORD_EXIT(42:42):(1:1)\n");
}

static void test_truncated_record(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b, 1);
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_MMAP2, 0);
	pc_u32(&b, 1);
	pc_u32(&b, 1); /* ends long before MMAP2's 72 bytes */
	pc_rec_end(&b, at);
	tk_status st;
	uint64_t off = 0;
	run(&b, TK_SHOW_MMAP_EVENTS, -1, &st, &off);
	assert_int_equal(st, TK_ERR_FORMAT);
	assert_int_equal(off, at);
}

static void test_shows(void **state)
{
	(void)state;
	assert_true(tk_perf_script_shows(TK_SHOW_BPF_EVENTS, TK_PERF_RECORD_KSYMBOL));
	assert_true(tk_perf_script_shows(TK_SHOW_TEXT_POKE_EVENTS, TK_PERF_RECORD_KSYMBOL));
	assert_false(tk_perf_script_shows(TK_SHOW_TEXT_POKE_EVENTS, TK_PERF_RECORD_BPF_EVENT));
	/* perf 6.1 prints LOST_SAMPLES with no option */
	assert_false(tk_perf_script_shows(~0u, TK_PERF_RECORD_LOST_SAMPLES));
	assert_false(tk_perf_script_shows(~0u, TK_PERF_RECORD_SAMPLE));
	assert_false(tk_perf_script_shows(~0u, TK_PERF_RECORD_THROTTLE));
	assert_true(tk_perf_script_shows(TK_SHOW_TASK_EVENTS, TK_PERF_RECORD_EXIT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_switches),
	    cmocka_unit_test(test_text_poke_and_round),
	    cmocka_unit_test(test_namespaces),
	    cmocka_unit_test(test_unknown_id_and_filters),
	    cmocka_unit_test(test_not_shown_still_feeds_threads),
	    cmocka_unit_test(test_truncated_record),
	    cmocka_unit_test(test_shows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
