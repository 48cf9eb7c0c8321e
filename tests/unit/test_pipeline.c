/* Unit tests for the conversion pipeline: muxing by time, filters, limits,
 * the JSON-lines and Chrome sinks, and atomic output on abort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert/pipeline.h"
#include "model/source_impl.h"
#include "output/text_sinks.h"
#include "test_support.h"

/* A source yielding events at the given times, with a callchain payload. */
static const tk_field_class u64_cls = {.kind = TK_TYPE_INT, .bits = 64, .base = 16};
static const tk_field_class chain_cls = {
    .kind = TK_TYPE_SEQUENCE, .semantic = TK_SEM_CALLCHAIN, .element = &u64_cls};
static const tk_field_class comm_cls = {.kind = TK_TYPE_STRING, .semantic = TK_SEM_COMM};
static const tk_member payload_members[] = {
    {"perf_ip", &u64_cls}, {"comm", &comm_cls}, {"perf_callchain", &chain_cls}};
static const tk_field_class payload_cls = {
    .kind = TK_TYPE_STRUCT, .members = payload_members, .n_members = 3};
static const tk_event_class cls_a = {.id = 1, .name = "alpha", .payload = &payload_cls};
static const tk_event_class cls_b = {.id = 2, .name = "beta", .payload = &payload_cls};

typedef struct fake_source {
	tk_source base;
	const uint64_t *times;
	size_t n, i;
	int32_t tid;
	const tk_event_class *cls;
	tk_event ev;
	tk_value payload, items[3], chain[3];
} fake_source;

static tk_status fake_next(tk_source *s, const tk_event **out, tk_error *err)
{
	(void)err;
	fake_source *f = (fake_source *)s;
	if (f->i == f->n)
		return TK_END;
	uint64_t t = f->times[f->i++];
	f->ev = (tk_event){.cls = f->cls,
			   .cpu = 0,
			   .pid = f->tid,
			   .tid = f->tid,
			   .has_time = true,
			   .time_ns = t,
			   .time_raw = t,
			   .payload = &f->payload};
	f->chain[0] = (tk_value){.cls = &u64_cls, .v.u = 0x1000 + t % 7};
	f->chain[1] = (tk_value){.cls = &u64_cls, .v.u = TK_PERF_CONTEXT_USER};
	f->chain[2] = (tk_value){.cls = &u64_cls, .v.u = 0x2000};
	f->items[0] = (tk_value){.cls = &u64_cls, .v.u = 0x1000 + t % 7};
	f->items[1] = (tk_value){.cls = &comm_cls, .v.str = {"worker", 6}};
	f->items[2] = (tk_value){.cls = &chain_cls, .v.list = {f->chain, 3, 0}};
	f->payload = (tk_value){.cls = &payload_cls, .v.list = {f->items, 3, 0}};
	*out = &f->ev;
	return TK_OK;
}

static void fake_close(tk_source *s)
{
	(void)s;
}
static const tk_source_ops fake_ops = {fake_next, fake_close};

static void fake_init(fake_source *f, const uint64_t *times, size_t n, int32_t tid,
		      const tk_event_class *c)
{
	memset(f, 0, sizeof *f);
	f->base.ops = &fake_ops;
	f->times = times;
	f->n = n;
	f->tid = tid;
	f->cls = c;
}

static const uint64_t times_a[] = {10, 30, 50, 70};
static const uint64_t times_b[] = {20, 30, 40, 80, 90};

static void test_muxer_orders_by_time(void **state)
{
	(void)state;
	fake_source a, b;
	fake_init(&a, times_a, 4, 100, &cls_a);
	fake_init(&b, times_b, 5, 200, &cls_b);
	tk_session *srcs[2];
	assert_int_equal(tk_session_open_source(&a.base, false, NULL, &srcs[0], NULL), TK_OK);
	assert_int_equal(tk_session_open_source(&b.base, false, NULL, &srcs[1], NULL), TK_OK);
	tk_muxer *m;
	assert_int_equal(tk_muxer_new(srcs, 2, &m, NULL), TK_OK);
	const uint64_t want[] = {10, 20, 30, 30, 40, 50, 70, 80, 90};
	const tk_event *ev;
	size_t i = 0, src;
	while (tk_muxer_next(m, &ev, &src, NULL) == TK_OK) {
		assert_true(i < 9);
		assert_int_equal(ev->time_ns, want[i]);
		i++;
	}
	assert_int_equal(i, 9);
	tk_muxer_free(m);
	tk_session_close(srcs[0]);
	tk_session_close(srcs[1]);
}

static char *read_all(const char *path)
{
	size_t n;
	return (char *)tk_test_read_file(path, &n);
}

static void test_jsonl_sink_with_filter_and_limit(void **state)
{
	(void)state;
	char path[] = "/tmp/tk-pipe-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	fake_source a, b;
	fake_init(&a, times_a, 4, 100, &cls_a);
	fake_init(&b, times_b, 5, 200, &cls_b);
	tk_session *srcs[2];
	assert_int_equal(tk_session_open_source(&a.base, false, NULL, &srcs[0], NULL), TK_OK);
	assert_int_equal(tk_session_open_source(&b.base, false, NULL, &srcs[1], NULL), TK_OK);
	tk_sink *sink;
	assert_int_equal(tk_jsonl_sink_open(path, NULL, NULL, &sink, NULL), TK_OK);
	tk_pipeline_options po = {.filter = {.events = "be*", .has_begin = true, .begin_ns = 25},
				  .limit = 2};
	uint64_t n = 0;
	assert_int_equal(tk_pipeline_run(srcs, 2, sink, &po, &n, NULL), TK_OK);
	assert_int_equal(tk_sink_close(sink, NULL), TK_OK);
	assert_int_equal(n, 2);
	tk_session_close(srcs[0]);
	tk_session_close(srcs[1]);
	char *got = read_all(path);
	assert_non_null(got);
	assert_non_null(strstr(got, "{\"event\":\"beta\",\"time\":30,"));
	assert_non_null(strstr(got, "\"time\":40,"));
	assert_null(strstr(got, "alpha"));
	assert_null(strstr(got, "\"time\":80"));
	free(got);
	unlink(path);
}

static void test_chrome_sink_and_abort(void **state)
{
	(void)state;
	char dir[] = "/tmp/tk-chrome-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/out.json", dir);
	fake_source a;
	fake_init(&a, times_a, 4, 100, &cls_a);
	tk_session *srcs[1];
	assert_int_equal(tk_session_open_source(&a.base, false, NULL, &srcs[0], NULL), TK_OK);
	tk_sink *sink;
	assert_int_equal(tk_chrome_sink_open(path, NULL, NULL, &sink, NULL), TK_OK);
	tk_pipeline_options po = {0};
	assert_int_equal(tk_pipeline_run(srcs, 1, sink, &po, NULL, NULL), TK_OK);
	assert_int_equal(access(path, F_OK), -1); /* nothing before commit */
	assert_int_equal(tk_sink_close(sink, NULL), TK_OK);
	char *got = read_all(path);
	assert_non_null(got);
	assert_non_null(strstr(got, "{\"traceEvents\":["));
	assert_non_null(strstr(got, "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":100,\"tid\":100,"
				    "\"args\":{\"name\":\"worker\"}"));
	assert_non_null(strstr(got, "\"ph\":\"i\",\"s\":\"t\",\"ts\":0.010,"));
	/* The root frame 0x2000 is shared by every sample: written once. */
	assert_non_null(strstr(got, "\"1\":{\"name\":\"0x2000\",\"category\":\"ip\"}"));
	assert_null(strstr(got, "\"name\":\"0xfffffffffffffe00\""));
	char cmd[256];
	snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s",
		 path);
	assert_int_equal(system(cmd), 0);
	free(got);
	unlink(path);
	/* An aborted sink leaves nothing behind. */
	snprintf(path, sizeof path, "%s/aborted.json", dir);
	tk_session_close(srcs[0]);
	fake_init(&a, times_a, 4, 100, &cls_a);
	assert_int_equal(tk_session_open_source(&a.base, false, NULL, &srcs[0], NULL), TK_OK);
	assert_int_equal(tk_chrome_sink_open(path, NULL, NULL, &sink, NULL), TK_OK);
	assert_int_equal(tk_pipeline_run(srcs, 1, sink, &po, NULL, NULL), TK_OK);
	tk_sink_abort(sink);
	tk_session_close(srcs[0]);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(cmd, sizeof cmd, "rmdir %s", dir);
	assert_int_equal(system(cmd), 0); /* and no temporary either */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_muxer_orders_by_time),
	    cmocka_unit_test(test_jsonl_sink_with_filter_and_limit),
	    cmocka_unit_test(test_chrome_sink_and_abort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
