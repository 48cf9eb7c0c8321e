/* Native sessions of the VPP formats (session_cpel.h) against plain walks
 * of their readers:
 * - CPEL: pulled records are every event of every EVENT section (an empty
 *   one between two others included) with their section, index and
 *   offset; pushing gives the same; TK_END from the tool stops the run;
 * - elog: the events of the log, in order;
 * - DCPI: a start item per profile, then the counts tk_dcpi_each_count
 *   gives; tk_session_dcpi_skip() leaves only the start items. */
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "session/session_cpel.h"
#include "tracekit/tracekit.h"
#include "test_support.h"

static void be32(tk_writer *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
	tk_put_mem(w, b, 4);
}

static void name64(tk_writer *w, const char *s)
{
	char b[64] = {0};
	memcpy(b, s, strlen(s));
	tk_put_mem(w, b, 64);
}

static void event_section(tk_writer *w, uint32_t tps, uint32_t n, uint32_t first_track)
{
	be32(w, 5);
	be32(w, 72 + 20 * n);
	name64(w, "T");
	be32(w, n);
	be32(w, tps);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t = 5000000000ULL + i * 700000;
		be32(w, (uint32_t)(t >> 32));
		be32(w, (uint32_t)t);
		be32(w, first_track + i);
		be32(w, 1);
		be32(w, i * 3);
	}
}

/* Three EVENT sections of 5, 0 and 4 events. */
static tk_writer *three_sections(void)
{
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	static const char strtab[16] = "T\0ONE\0%d\0";
	tk_put_mem(w, (const uint8_t[]){1, 0, 0, 5}, 4);
	be32(w, 0);
	be32(w, 1);
	be32(w, sizeof strtab);
	tk_put_mem(w, strtab, sizeof strtab);
	be32(w, 3);
	be32(w, 68 + 12);
	name64(w, "T");
	be32(w, 1);
	be32(w, 1);
	be32(w, 2);
	be32(w, 6);
	event_section(w, 1000000, 5, 10);
	event_section(w, 1000, 0, 0);
	event_section(w, 1000, 4, 20);
	return w;
}

typedef struct seen {
	size_t n;
	uint64_t stop_after;
	tk_cpel_record recs[16];
} seen;

static tk_status on_cpel(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	seen *v = user;
	assert_int_equal(item->kind, TK_SESSION_CPEL_EVENT);
	if (v->stop_after && v->n == v->stop_after)
		return TK_END;
	assert_true(v->n < 16);
	v->recs[v->n++] = *(const tk_cpel_record *)item->native;
	return TK_OK;
}

static void check_walk(const tk_cpel_file *f, const seen *v)
{
	size_t k = 0;
	for (size_t si = 0; si < f->n_event_sections; si++) {
		const tk_cpel_events *s = &f->event_sections[si];
		for (uint32_t i = 0; i < s->count; i++, k++) {
			assert_true(k < v->n);
			const tk_cpel_record *r = &v->recs[k];
			tk_cpel_event e = tk_cpel_event_at(f, s, i);
			assert_ptr_equal(r->section, s);
			assert_int_equal(r->section_index, si);
			assert_int_equal(r->index, i);
			assert_int_equal(r->offset, s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE);
			assert_true(r->event.time == e.time);
			assert_int_equal(r->event.track, e.track);
			assert_int_equal(r->event.code, e.code);
			assert_int_equal(r->event.datum, e.datum);
		}
	}
	assert_int_equal(k, v->n);
}

static void test_cpel_session(void **state)
{
	(void)state;
	tk_writer *bytes = three_sections();
	size_t size;
	const char *data = tk_writer_data(bytes, &size);
	tk_cpel_file *f;
	tk_error err;
	assert_int_equal(tk_cpel_open_memory(data, size, "three", NULL, NULL, &f, &err), TK_OK);
	assert_int_equal(f->n_event_sections, 3);

	/* pull */
	tk_session *s;
	assert_int_equal(tk_session_open_cpel(f, false, "three", &s, &err), TK_OK);
	assert_ptr_equal(tk_session_cpel(s), f);
	assert_null(tk_session_elog(s));
	seen pulled = {0};
	const tk_session_item *item;
	tk_status st;
	while ((st = tk_session_next(s, &item, &err)) == TK_OK)
		assert_int_equal(on_cpel(s, item, &pulled, &err), TK_OK);
	assert_int_equal(st, TK_END);
	tk_session_close(s);
	assert_int_equal(pulled.n, 9);
	check_walk(f, &pulled);

	/* push, and a tool that stops early */
	seen pushed = {0}, three = {.stop_after = 3};
	tk_session_tool tool = {.record = on_cpel};
	assert_int_equal(tk_session_open_cpel(f, false, "three", &s, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &pushed, &err), TK_OK);
	tk_session_close(s);
	assert_int_equal(pushed.n, 9);
	check_walk(f, &pushed); /* what pulling gave (field by field: structs have padding) */
	/* owned this time: closed with the session */
	assert_int_equal(tk_session_open_cpel(f, true, "three", &s, &err), TK_OK);
	assert_int_equal(tk_session_run(s, &tool, &three, &err), TK_OK);
	tk_session_close(s);
	assert_int_equal(three.n, 3);
	tk_writer_abort(bytes);
}

static tk_status on_elog(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)err;
	uint32_t *n = user;
	assert_int_equal(item->kind, TK_SESSION_ELOG_EVENT);
	const tk_elog_record *r = item->native;
	const tk_elog_file *f = tk_session_elog(s);
	assert_int_equal(r->index, *n);
	assert_ptr_equal(r->event, &f->events[*n]);
	(*n)++;
	return TK_OK;
}

static void test_elog_session(void **state)
{
	(void)state;
	tk_open_options oo = {.format = TK_FORMAT_ELOG};
	tk_session *s;
	tk_error err;
	assert_int_equal(
	    tk_session_open(tk_test_data("cpel/vpp-small.elog"), &oo, TK_SESSION_NATIVE, &s, &err),
	    TK_OK);
	const tk_elog_file *f = tk_session_elog(s);
	assert_non_null(f);
	assert_true(f->n_events > 0);
	uint32_t n = 0;
	tk_session_tool tool = {.record = on_elog};
	assert_int_equal(tk_session_run(s, &tool, &n, &err), TK_OK);
	assert_int_equal(n, f->n_events);
	tk_session_close(s);
}

typedef struct counts {
	size_t n;
	uint64_t addr[64];
	uint32_t count[64];
} counts;

static tk_status add_count(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	(void)err;
	counts *c = user;
	assert_true(c->n < 64);
	c->addr[c->n] = addr;
	c->count[c->n++] = count;
	return TK_OK;
}

typedef struct dcpi_seen {
	bool skip;
	size_t starts;
	counts got;
} dcpi_seen;

static tk_status on_dcpi(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	dcpi_seen *d = user;
	assert_int_equal(item->kind, TK_SESSION_DCPI_ITEM);
	const tk_dcpi_record *r = item->native;
	if (r->start) {
		d->starts++;
		assert_int_equal(r->n_profiles, 1);
		if (d->skip)
			tk_session_dcpi_skip(s);
		return TK_OK;
	}
	return add_count(&d->got, r->addr, r->count, err);
}

static void test_dcpi_session(void **state)
{
	(void)state;
	const char *path = tk_test_data("dcpi/simple.prof");
	tk_dcpi_profile *p;
	tk_error err;
	assert_int_equal(tk_dcpi_open(path, &p, &err), TK_OK);
	counts want = {0};
	assert_int_equal(tk_dcpi_each_count(p, add_count, &want, &err), TK_OK);
	tk_dcpi_close(p);
	assert_true(want.n > 0);
	for (int skip = 0; skip < 2; skip++) {
		tk_open_options oo = {.format = TK_FORMAT_DCPI};
		tk_session *s;
		assert_int_equal(tk_session_open(path, &oo, TK_SESSION_NATIVE, &s, &err), TK_OK);
		dcpi_seen d = {.skip = skip};
		tk_session_tool tool = {.record = on_dcpi};
		assert_int_equal(tk_session_run(s, &tool, &d, &err), TK_OK);
		tk_session_close(s);
		assert_int_equal(d.starts, 1);
		if (skip) {
			assert_int_equal(d.got.n, 0);
			continue;
		}
		assert_int_equal(d.got.n, want.n);
		assert_memory_equal(d.got.addr, want.addr, want.n * sizeof *want.addr);
		assert_memory_equal(d.got.count, want.count, want.n * sizeof *want.count);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpel_session),
	    cmocka_unit_test(test_elog_session),
	    cmocka_unit_test(test_dcpi_session),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
