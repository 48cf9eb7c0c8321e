/* CTF writer round trips: synthetic model events of every field type over
 * two stream classes and two CPUs, small packets, written with the CTF sink
 * and read back by babeltrace2 (the reference reader), whose text must be
 * exactly what the test predicts. Also: index files, both byte orders,
 * packetized metadata, and the atomic output (abort, SIGKILL, errors). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/writer.h"
#include "tracekit/tracekit.h"
#include "test_support.h"

/* ---- classes ---------------------------------------------------------- */

#define INT(bits_, signed_, base_)                                                                 \
	{                                                                                          \
		.kind = TK_TYPE_INT, .bits = bits_, .is_signed = signed_, .base = base_            \
	}

static const tk_field_class u8_hex = INT(8, false, 16);
static const tk_field_class s16 = INT(16, true, 10);
static const tk_field_class u3 = INT(3, false, 10);
static const tk_field_class s5 = INT(5, true, 10);
static const tk_field_class u64c = INT(64, false, 10);
static const tk_field_class u32c = INT(32, false, 10);
static const tk_field_class s32 = INT(32, true, 10);
static const tk_field_class u16c = INT(16, false, 10);
static const tk_field_class u8c = INT(8, false, 10);
static const tk_field_class chr = {.kind = TK_TYPE_INT, .bits = 8, .base = 10, .is_char = true};
static const tk_enum_mapping sign_map[] = {
    {"NEG", (uint64_t)-6, (uint64_t)-1}, {"ZERO", 0, 0}, {"POS", 1, 100}};
static const tk_field_class s8_enum = {.kind = TK_TYPE_INT,
				       .bits = 8,
				       .is_signed = true,
				       .base = 10,
				       .mappings = sign_map,
				       .n_mappings = 3};
static const tk_field_class f64 = {.kind = TK_TYPE_FLOAT, .bits = 64};
static const tk_field_class f32 = {.kind = TK_TYPE_FLOAT, .bits = 32};
static const tk_field_class str = {.kind = TK_TYPE_STRING};
static const tk_field_class arr3 = {.kind = TK_TYPE_ARRAY, .element = &u16c, .length = 3};
static const tk_field_class arr2x2 = {
    .kind = TK_TYPE_ARRAY,
    .element = &(const tk_field_class){.kind = TK_TYPE_ARRAY, .element = &u8c, .length = 2},
    .length = 2};
static const tk_field_class chars4 = {.kind = TK_TYPE_ARRAY, .element = &chr, .length = 4};
static const tk_field_class seq_s32 = {.kind = TK_TYPE_SEQUENCE, .element = &s32};
static const tk_field_class seq_str = {.kind = TK_TYPE_SEQUENCE, .element = &str};
static const tk_member inner_m[] = {{"x", &u8c}, {"name", &str}};
static const tk_field_class inner = {.kind = TK_TYPE_STRUCT, .members = inner_m, .n_members = 2};
static const tk_enum_mapping tag_map[] = {{"num", 0, 0}, {"text", 1, 1}};
static const tk_field_class tag_enum = {
    .kind = TK_TYPE_INT, .bits = 8, .base = 10, .mappings = tag_map, .n_mappings = 2};
static const tk_member var_opts[] = {{"num", &u32c}, {"text", &str}};
static const tk_field_class var = {.kind = TK_TYPE_VARIANT, .members = var_opts, .n_members = 2};
/* No enum sibling names these options: the writer adds a tag field. */
static const tk_member var2_opts[] = {{"count", &u32c}, {"label", &str}};
static const tk_field_class var2 = {.kind = TK_TYPE_VARIANT, .members = var2_opts, .n_members = 2};

static const tk_member ints_m[] = {{"a", &u8_hex},    {"b", &s16},     {"bits", &u3},
				   {"sbits", &s5},    {"big", &u64c},  {"e", &s8_enum},
				   {"_under", &u16c}, {"string", &u8c}};
static const tk_field_class ints_payload = {
    .kind = TK_TYPE_STRUCT, .members = ints_m, .n_members = 8};

static const tk_member misc_m[] = {
    {"d", &f64},         {"f", &f32},       {"s", &str},           {"arr", &arr3},
    {"grid", &arr2x2},   {"word", &chars4}, {"vals_length", &u8c}, {"vals", &seq_s32},
    {"names", &seq_str}, {"inner", &inner}, {"tag", &tag_enum},    {"v", &var},
    {"v2", &var2},
};
static const tk_field_class misc_payload = {
    .kind = TK_TYPE_STRUCT, .members = misc_m, .n_members = 13};

static const tk_member pc_m[] = {
    {"timestamp_begin", &u64c}, {"pc_field", &u16c}, {"events_discarded", &u64c}};
static const tk_field_class pc_class = {.kind = TK_TYPE_STRUCT, .members = pc_m, .n_members = 3};
static const tk_member sec_m[] = {{"vtid", &s32}};
static const tk_field_class sec_class = {.kind = TK_TYPE_STRUCT, .members = sec_m, .n_members = 1};
static const tk_member ctx_m[] = {{"ctxval", &u32c}};
static const tk_field_class ctx_class = {.kind = TK_TYPE_STRUCT, .members = ctx_m, .n_members = 1};
static const tk_member n_m[] = {{"n", &u32c}};
static const tk_field_class n_payload = {.kind = TK_TYPE_STRUCT, .members = n_m, .n_members = 1};

static const tk_clock_info clocks[] = {{.name = "monotonic",
					.description = "test clock",
					.freq = 1000000000,
					.offset_s = 1000,
					.absolute = false}};
static const tk_stream_class stream_classes[] = {
    {.id = 0, .clock = &clocks[0]},
    {.id = 1, .packet_context = &pc_class, .event_context = &sec_class, .clock = &clocks[0]},
};
static const tk_event_class ec_ints = {
    .id = 0, .name = "ints", .stream_class_id = 0, .loglevel = 13, .payload = &ints_payload};
static const tk_event_class ec_misc = {.id = 1,
				       .name = "misc:event",
				       .stream_class_id = 0,
				       .loglevel = -1,
				       .emf_uri = "http://example.com/misc",
				       .payload = &misc_payload};
static const tk_event_class ec_ctx = {.id = 0,
				      .name = "ctx",
				      .stream_class_id = 1,
				      .loglevel = -1,
				      .context = &ctx_class,
				      .payload = &n_payload};
static const tk_event_class *const event_classes[] = {&ec_ints, &ec_misc, &ec_ctx};
static const tk_env_entry env[] = {{.key = "hostname", .str = "testhost"},
				   {.key = "tracer_major", .is_int = true, .i = 2}};

static const tk_trace_info trace_info = {
    .format = TK_FORMAT_CTF,
    .name = "synthetic",
    .env = env,
    .n_env = 2,
    .clocks = clocks,
    .n_clocks = 1,
    .stream_classes = stream_classes,
    .n_stream_classes = 2,
    .event_classes = event_classes,
    .n_event_classes = 3,
};

/* ---- events and what babeltrace2 must print for them ------------------ */

typedef struct gen {
	tk_event ev;
	tk_value root, items[16], sub[64], pc, pc_items[3], sec, sec_items[1], ctx, ctx_items[1];
	char sbuf[64], nbuf[3][16];
} gen;

static tk_value ival(const tk_field_class *c, uint64_t u)
{
	tk_value v = {.cls = c};
	v.v.u = u;
	return v;
}

static tk_value sval(const char *s)
{
	tk_value v = {.cls = &str};
	v.v.str.ptr = s;
	v.v.str.len = strlen(s);
	return v;
}

static tk_value lval(const tk_field_class *c, const tk_value *items, size_t n)
{
	tk_value v = {.cls = c};
	v.v.list.items = items;
	v.v.list.n = n;
	return v;
}

static const uint64_t N_EVENTS = 400;

static uint64_t event_time(uint64_t i)
{
	/* 1 us apart, with a jump of 7 s (past 2^32 ns) half way through. */
	return 5000000000ull + i * 1000 + (i >= N_EVENTS / 2 ? 7000000000ull : 0);
}

static void put_time(tk_writer *w, uint64_t ns, uint64_t prev, bool first)
{
	uint64_t t = ns + 1000ull * 1000000000ull; /* clock offset_s = 1000 */
	uint64_t s = t / 1000000000ull;
	tk_put_fmt(w, "[%02llu:%02llu:%02llu.%09llu] ", (unsigned long long)(s / 3600 % 24),
		   (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60),
		   (unsigned long long)(t % 1000000000ull));
	if (first)
		tk_put_str(w, "(+?.\?\?\?\?\?\?\?\?\?) ");
	else
		tk_put_fmt(w, "(+%llu.%09llu) ", (unsigned long long)((ns - prev) / 1000000000ull),
			   (unsigned long long)((ns - prev) % 1000000000ull));
}

/* Fills g with event i and appends babeltrace2's line for it to w. */
static const tk_event *make_event(gen *g, uint64_t i, tk_writer *w, uint64_t prev, bool first)
{
	memset(g, 0, sizeof *g);
	tk_event *ev = &g->ev;
	ev->has_time = true;
	ev->time_ns = ev->time_raw = event_time(i);
	ev->pid = ev->tid = TK_PID_NONE;
	put_time(w, ev->time_ns, prev, first);
	if (i % 10 == 9) {             /* stream class 1, one stream */
		uint64_t pcv = i / 60; /* changes every few events: new packets */
		ev->cls = &ec_ctx;
		ev->stream_id = 1;
		ev->cpu = TK_CPU_NONE;
		g->pc_items[0] = ival(&u64c, 123);
		g->pc_items[1] = ival(&u16c, pcv);
		g->pc_items[2] = ival(&u64c, 0);
		g->pc = lval(&pc_class, g->pc_items, 3);
		g->sec_items[0] = ival(&s32, (uint64_t) - (int64_t)i);
		g->sec = lval(&sec_class, g->sec_items, 1);
		g->ctx_items[0] = ival(&u32c, i * 3);
		g->ctx = lval(&ctx_class, g->ctx_items, 1);
		g->items[0] = ival(&u32c, i);
		g->root = lval(&n_payload, g->items, 1);
		ev->packet_context = &g->pc;
		ev->stream_context = &g->sec;
		ev->context = &g->ctx;
		ev->payload = &g->root;
		tk_put_fmt(w,
			   "testhost ctx: { pc_field = %llu }, { vtid = %lld }, { ctxval = %llu }, "
			   "{ n = %llu }\n",
			   (unsigned long long)pcv, -(long long)i, (unsigned long long)(i * 3),
			   (unsigned long long)i);
		return ev;
	}
	ev->stream_id = 0;
	ev->cpu = (int32_t)(i % 2);
	if (i % 2 == 0) {
		int64_t b = (int64_t)i * 37 - 5000;
		int64_t sb = (int64_t)(i % 32) - 16;
		int64_t e = (int64_t)(i % 13) - 6;
		ev->cls = &ec_ints;
		g->items[0] = ival(&u8_hex, i & 0xff);
		g->items[1] = ival(&s16, (uint64_t)b);
		g->items[2] = ival(&u3, i % 8);
		g->items[3] = ival(&s5, (uint64_t)sb);
		g->items[4] = ival(&u64c, UINT64_MAX - i);
		g->items[5] = ival(&s8_enum, (uint64_t)e);
		g->items[6] = ival(&u16c, i + 1);
		g->items[7] = ival(&u8c, 7);
		g->root = lval(&ints_payload, g->items, 8);
		ev->payload = &g->root;
		tk_put_fmt(
		    w,
		    "testhost ints: { cpu_id = %d }, { a = 0x%llX, b = %lld, bits = %llu, sbits = "
		    "%lld, "
		    "big = %llu, e = ( \"%s\" : container = %lld ), _under = %llu, string = 7 }\n",
		    ev->cpu, (unsigned long long)(i & 0xff), (long long)b,
		    (unsigned long long)(i % 8), (long long)sb,
		    (unsigned long long)(UINT64_MAX - i),
		    e < 0    ? "NEG"
		    : e == 0 ? "ZERO"
			     : "POS",
		    (long long)e, (unsigned long long)(i + 1));
		return ev;
	}
	ev->cls = &ec_misc;
	size_t n = i % 4; /* 0..3 sequence items */
	tk_value *sub = g->sub;
	tk_value *arr = sub;
	for (int k = 0; k < 3; k++)
		arr[k] = ival(&u16c, i + (uint64_t)k);
	sub += 3;
	tk_value *rows = sub;
	sub += 2;
	for (int r = 0; r < 2; r++) {
		for (int c = 0; c < 2; c++)
			sub[c] = ival(&u8c, (uint64_t)(r * 2 + c));
		rows[r] = lval(arr2x2.element, sub, 2);
		sub += 2;
	}
	tk_value *word = sub;
	const char *wtxt = "abcd";
	for (int k = 0; k < 4; k++)
		word[k] = ival(&chr, (uint64_t)wtxt[k]);
	sub += 4;
	tk_value *vals = sub;
	for (size_t k = 0; k < n; k++)
		vals[k] = ival(&s32, (uint64_t)(-(int64_t)k * 1000));
	sub += n;
	tk_value *names = sub;
	for (size_t k = 0; k < n; k++) {
		snprintf(g->nbuf[k], sizeof g->nbuf[k], "n%zu", k);
		names[k] = sval(g->nbuf[k]);
	}
	sub += n;
	tk_value *in = sub;
	in[0] = ival(&u8c, 42);
	in[1] = sval("inner");
	sub += 2;
	bool text = i % 3 == 0;
	tk_value *opt = sub++;
	*opt = text ? sval("picked") : ival(&u32c, i * 11);
	tk_value *opt2 = sub++;
	*opt2 = text ? ival(&u32c, 9) : sval("other");
	snprintf(g->sbuf, sizeof g->sbuf, "str \"%llu\"", (unsigned long long)i);
	g->items[0] = (tk_value){.cls = &f64, .v.f = 1.5};
	g->items[1] = (tk_value){.cls = &f32, .v.f = 0.25};
	g->items[2] = sval(g->sbuf);
	g->items[3] = lval(&arr3, arr, 3);
	g->items[4] = lval(&arr2x2, rows, 2);
	g->items[5] = lval(&chars4, word, 4);
	g->items[6] = ival(&u8c, n);
	g->items[7] = lval(&seq_s32, vals, n);
	g->items[8] = lval(&seq_str, names, n);
	g->items[9] = lval(&inner, in, 2);
	g->items[10] = ival(&tag_enum, text ? 1 : 0);
	g->items[11] =
	    (tk_value){.cls = &var, .v.list = {.items = opt, .n = 1, .index = text ? 1 : 0}};
	g->items[12] =
	    (tk_value){.cls = &var2, .v.list = {.items = opt2, .n = 1, .index = text ? 0 : 1}};
	g->root = lval(&misc_payload, g->items, 13);
	ev->payload = &g->root;
	tk_put_fmt(
	    w,
	    "testhost misc:event: { cpu_id = %d }, { d = 1.5, f = 0.25, s = \"str \\\"%llu\\\"\", "
	    "arr = [ [0] = %llu, [1] = %llu, [2] = %llu ], "
	    "grid = [ [0] = [ [0] = 0, [1] = 1 ], [1] = [ [0] = 2, [1] = 3 ] ], word = \"abcd\", "
	    "vals_length = %zu, vals = [",
	    ev->cpu, (unsigned long long)i, (unsigned long long)i, (unsigned long long)i + 1,
	    (unsigned long long)i + 2, n);
	for (size_t k = 0; k < n; k++)
		tk_put_fmt(w, "%s [%zu] = %lld", k ? "," : "", k, -(long long)k * 1000);
	tk_put_fmt(w, " ], names_length = %zu, names = [", n);
	for (size_t k = 0; k < n; k++)
		tk_put_fmt(w, "%s [%zu] = \"n%zu\"", k ? "," : "", k, k);
	tk_put_str(w, " ], inner = { x = 42, name = \"inner\" }, ");
	tk_put_fmt(w, "tag = ( \"%s\" : container = %d ), ", text ? "text" : "num", text ? 1 : 0);
	if (text)
		tk_put_str(
		    w,
		    "v = { \"picked\" }, v2_tag = ( \"count\" : container = 0 ), v2 = { 9 } }\n");
	else
		tk_put_fmt(
		    w,
		    "v = { %llu }, v2_tag = ( \"label\" : container = 1 ), v2 = { \"other\" } }\n",
		    (unsigned long long)(i * 11));
	return ev;
}

/* ---- helpers ---------------------------------------------------------- */

static char tmp_root[256];

static int setup(void **state)
{
	(void)state;
	const char *b = getenv("TK_BUILD_DIR");
	snprintf(tmp_root, sizeof tmp_root, "%s/ctfw-test-XXXXXX", b ? b : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("TZ", "UTC", 1);
	setenv("LC_ALL", "C", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

static bool have_babeltrace2(void)
{
	return system("babeltrace2 --version >/dev/null 2>&1") == 0;
}

/* Runs babeltrace2 on dir; returns its stdout (malloc'd) and exit status. */
static char *run_babeltrace2(const char *dir, int *status)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "babeltrace2 '%s' 2>&1", dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += got;
		if (cap - n < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	buf[n] = '\0';
	*status = pclose(p);
	return buf;
}

static void expect_same_text(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return;
	/* Show the first differing line. */
	size_t line = 1;
	const char *g = got, *w = want;
	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++, w++;
	}
	const char *gl = g, *wl = w;
	while (gl > got && gl[-1] != '\n')
		gl--;
	while (wl > want && wl[-1] != '\n')
		wl--;
	print_error("line %zu differs\n got: %.300s\nwant: %.300s\n", line, gl, wl);
	fail();
}

typedef struct write_opts {
	const char *byte_order;
	bool packetized;
	unsigned packet_size;
} write_opts;

/* Writes the synthetic trace to dir; returns babeltrace2's expected text. */
static char *write_trace(const char *dir, const write_opts *o)
{
	tk_sink_options opt = {.byte_order = o->byte_order,
			       .packet_size = o->packet_size,
			       .packetized_metadata = o->packetized};
	tk_sink *sink;
	tk_error err;
	tk_error_clear(&err);
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, &opt, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen *g = malloc(sizeof *g);
	uint64_t prev = 0;
	for (uint64_t i = 0; i < N_EVENTS; i++) {
		const tk_event *ev = make_event(g, i, w, prev, i == 0);
		prev = ev->time_ns;
		tk_status st = tk_sink_write(sink, ev, &err);
		if (st != TK_OK)
			print_error("write %llu: %s\n", (unsigned long long)i, err.message);
		assert_int_equal(st, TK_OK);
	}
	free(g);
	tk_status st = tk_sink_close(sink, &err);
	if (st != TK_OK)
		print_error("close: %s\n", err.message);
	assert_int_equal(st, TK_OK);
	size_t n;
	const char *text = tk_writer_data(w, &n);
	char *out = strndup(text, n);
	tk_writer_abort(w);
	return out;
}

/* Checks every index file against its data file: entries cover the file
 * exactly, sizes and sequence numbers agree. Returns the packet count. */
static size_t check_indexes_n(const char *dir, size_t want_files)
{
	char path[600];
	snprintf(path, sizeof path, "%s/index", dir);
	DIR *d = opendir(path);
	assert_non_null(d);
	struct dirent *e;
	size_t packets = 0, files = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".idx") != 0)
			continue;
		files++;
		snprintf(path, sizeof path, "%s/index/%s", dir, e->d_name);
		size_t isz;
		uint8_t *idx = tk_test_read_file(path, &isz);
		assert_non_null(idx);
		snprintf(path, sizeof path, "%s/%.*s", dir, (int)(len - 4), e->d_name);
		struct stat sb;
		assert_int_equal(stat(path, &sb), 0);
		assert_true(isz >= 16);
		assert_int_equal(tk_load_be32(idx), 0xC1F1DCC1u);
		assert_int_equal(tk_load_be32(idx + 4), 1);
		assert_int_equal(tk_load_be32(idx + 8), 1);
		assert_int_equal(tk_load_be32(idx + 12), 72);
		assert_int_equal((isz - 16) % 72, 0);
		uint64_t off = 0;
		for (size_t k = 0; 16 + k * 72 < isz; k++) {
			const uint8_t *p = idx + 16 + k * 72;
			assert_int_equal(tk_load_be64(p), off);
			uint64_t psize = tk_load_be64(p + 8), csize = tk_load_be64(p + 16);
			assert_true(csize <= psize && psize % 8 == 0);
			assert_true(tk_load_be64(p + 24) <= tk_load_be64(p + 32));
			assert_int_equal(tk_load_be64(p + 64), k); /* packet_seq_num */
			off += psize / 8;
			packets++;
		}
		assert_int_equal(off, (uint64_t)sb.st_size);
		free(idx);
	}
	closedir(d);
	assert_int_equal(files, want_files);
	return packets;
}

/* The synthetic trace: two CPUs of class 0, one stream of class 1. */
static size_t check_indexes(const char *dir)
{
	return check_indexes_n(dir, 3);
}

static void roundtrip(const write_opts *o, const char *name)
{
	if (!have_babeltrace2())
		skip();
	char dir[512];
	snprintf(dir, sizeof dir, "%s/%s", tmp_root, name);
	char *want = write_trace(dir, o);
	size_t packets = check_indexes(dir);
	if (o->packet_size && o->packet_size < 4096)
		assert_true(packets > 10);
	int status;
	char *got = run_babeltrace2(dir, &status);
	expect_same_text(got, want);
	assert_int_equal(status, 0);
	free(got);
	free(want);
}

static void test_roundtrip_small_packets_le(void **state)
{
	(void)state;
	write_opts o = {.byte_order = "little", .packet_size = 512};
	roundtrip(&o, "le512");
}

static void test_roundtrip_big_endian_packetized(void **state)
{
	(void)state;
	write_opts o = {.byte_order = "big", .packet_size = 700, .packetized = true};
	roundtrip(&o, "be700p");
	char path[600];
	snprintf(path, sizeof path, "%s/be700p/metadata", tmp_root);
	size_t n;
	uint8_t *m = tk_test_read_file(path, &n);
	assert_non_null(m);
	assert_true(n > 37);
	assert_int_equal(tk_load_be32(m), 0x75D11D57u);
	assert_int_equal(m[35], 1);
	assert_int_equal(m[36], 8);
	free(m);
}

static void test_roundtrip_default_packets(void **state)
{
	(void)state;
	write_opts o = {0};
	roundtrip(&o, "default");
	char path[600];
	snprintf(path, sizeof path, "%s/default/metadata", tmp_root);
	size_t n;
	char *m = (char *)tk_test_read_file(path, &n);
	assert_non_null(m);
	assert_memory_equal(m, "/* CTF 1.8 */", 13);
	free(m);
}

/* An event larger than the packet bound gets a packet of its own. */
static void test_event_larger_than_packet(void **state)
{
	(void)state;
	if (!have_babeltrace2())
		skip();
	char dir[512];
	snprintf(dir, sizeof dir, "%s/bigevent", tmp_root);
	tk_sink_options opt = {.packet_size = 512};
	tk_sink *sink;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, &opt, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	static char big[20001];
	memset(big, 'x', sizeof big - 1);
	gen g;
	for (uint64_t i = 1; i < 8; i += 2) { /* misc events on cpu 1 */
		make_event(&g, i, w, 0, true);
		if (i == 3)
			g.items[2] = sval(big);
		assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_OK);
	}
	tk_writer_abort(w);
	assert_int_equal(tk_sink_close(sink, &err), TK_OK);
	int status;
	char *got = run_babeltrace2(dir, &status);
	assert_int_equal(status, 0);
	size_t lines = 0;
	for (const char *p = got; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 4);
	assert_non_null(strstr(got, big));
	free(got);
	size_t packets = check_indexes_n(dir, 1);
	if (packets < 3)
		print_error("%zu packets\n", packets);
	assert_true(packets >= 3);
}

/* More streams than the writer keeps files open for: the others are
 * reopened per packet; every stream and packet must still be complete. */
static void test_many_streams(void **state)
{
	(void)state;
	if (!have_babeltrace2())
		skip();
	char dir[512];
	snprintf(dir, sizeof dir, "%s/many", tmp_root);
	tk_sink_options opt = {.packet_size = 512};
	tk_sink *sink;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, &opt, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen g;
	const unsigned n_streams = 300, per_stream = 40;
	for (unsigned i = 0; i < n_streams * per_stream; i++) {
		make_event(&g, 2 * (uint64_t)i, w, 0, true); /* an "ints" event */
		g.ev.cpu = (int32_t)(i % n_streams);
		g.ev.time_ns = g.ev.time_raw = 1000000000ull + i;
		assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_OK);
	}
	tk_writer_abort(w);
	assert_int_equal(tk_sink_close(sink, &err), TK_OK);
	assert_true(check_indexes_n(dir, n_streams) >= 2 * n_streams); /* several packets each */
	int status;
	char *got = run_babeltrace2(dir, &status);
	assert_int_equal(status, 0);
	size_t lines = 0;
	for (const char *p = got; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, n_streams * per_stream);
	assert_non_null(strstr(got, "{ cpu_id = 299 }"));
	free(got);
}

/* ---- atomic output ---------------------------------------------------- */

static bool exists(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0;
}

static size_t leftovers(const char *name)
{
	DIR *d = opendir(tmp_root);
	assert_non_null(d);
	struct dirent *e;
	size_t n = 0, len = strlen(name);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strncmp(e->d_name + 1, name, len) == 0 &&
		    e->d_name[len + 1] == '.')
			n++;
	closedir(d);
	return n;
}

static void test_abort_leaves_nothing(void **state)
{
	(void)state;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/aborted", tmp_root);
	tk_sink *sink;
	tk_error err;
	tk_sink_options opt = {.packet_size = 512};
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, &opt, &sink, &err), TK_OK);
	assert_int_equal(leftovers("aborted"), 1);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen g;
	for (uint64_t i = 0; i < 100; i++)
		assert_int_equal(tk_sink_write(sink, make_event(&g, i, w, 0, true), &err), TK_OK);
	tk_writer_abort(w);
	tk_sink_abort(sink);
	assert_false(exists(dir));
	assert_int_equal(leftovers("aborted"), 0);
}

static void test_bad_value_fails_and_leaves_nothing(void **state)
{
	(void)state;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/bad", tmp_root);
	tk_sink *sink;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, NULL, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen g;
	make_event(&g, 1, w, 0, true); /* a misc event */
	g.items[3].v.list.n = 2;       /* array of 3 with 2 items */
	g.ev.offset = 0x1234;
	assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_ERR_FORMAT);
	assert_int_equal(err.offset, 0x1234);
	assert_non_null(strstr(err.message, "array value length"));
	make_event(&g, 1, w, 0, true);
	g.items[6].v.u = 9; /* vals_length disagrees with the sequence */
	assert_int_not_equal(tk_sink_write(sink, &g.ev, &err), TK_OK);
	assert_int_not_equal(tk_sink_close(sink, &err), TK_OK);
	tk_writer_abort(w);
	assert_false(exists(dir));
	assert_int_equal(leftovers("bad"), 0);
}

static void test_value_of_other_kind(void **state)
{
	(void)state;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/kind", tmp_root);
	tk_sink *sink;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, NULL, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen g;
	make_event(&g, 1, w, 0, true);
	g.items[2] = ival(&u32c, 0x41); /* an int where the class has a string */
	assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "value kind"));
	/* the sink refuses to go on, and to commit */
	make_event(&g, 1, w, 0, true);
	assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_ERR_USAGE);
	assert_int_not_equal(tk_sink_close(sink, &err), TK_OK);
	tk_writer_abort(w);
	assert_false(exists(dir));
}

static void test_sequence_length_mismatch(void **state)
{
	(void)state;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/badlen", tmp_root);
	tk_sink *sink;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, NULL, &sink, &err), TK_OK);
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	gen g;
	make_event(&g, 3, w, 0, true);
	g.items[6].v.u = 9;
	assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "length field"));
	tk_sink_abort(sink);
	/* A tag field that does not select the variant's option. */
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, NULL, &sink, &err), TK_OK);
	make_event(&g, 3, w, 0, true);
	g.items[10].v.u = 0; /* tag says "num", variant holds "text" */
	assert_int_equal(tk_sink_write(sink, &g.ev, &err), TK_ERR_FORMAT);
	assert_non_null(strstr(err.message, "tag"));
	tk_writer_abort(w);
	tk_sink_abort(sink);
	assert_false(exists(dir));
}

static void test_existing_output_rejected(void **state)
{
	(void)state;
	char dir[512], file[600];
	snprintf(dir, sizeof dir, "%s/exists", tmp_root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(file, sizeof file, "%s/keep", dir);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	tk_sink *sink = (tk_sink *)1;
	tk_error err;
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, NULL, &sink, &err), TK_ERR_USAGE);
	assert_null(sink);
	assert_true(exists(file));
	tk_sink_options bad = {.byte_order = "middle"};
	snprintf(dir, sizeof dir, "%s/bo", tmp_root);
	assert_int_equal(tk_ctf_sink_open(dir, &trace_info, &bad, &sink, &err), TK_ERR_USAGE);
}

static void test_sigkill_leaves_nothing(void **state)
{
	(void)state;
	char dir[512];
	snprintf(dir, sizeof dir, "%s/killed", tmp_root);
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		tk_sink *sink;
		tk_error err;
		tk_sink_options opt = {.packet_size = 4096};
		if (tk_ctf_sink_open(dir, &trace_info, &opt, &sink, &err) != TK_OK)
			_exit(2);
		tk_writer *w;
		if (tk_writer_open_memory(&w, NULL) != TK_OK)
			_exit(2);
		gen g;
		for (uint64_t i = 0;; i++) {
			if (i == 2000 && write(pfd[1], "x", 1) != 1)
				_exit(2);
			if (i % 1000 == 0) {
				tk_writer_abort(w); /* the expected text is not needed */
				if (tk_writer_open_memory(&w, NULL) != TK_OK)
					_exit(2);
			}
			if (tk_sink_write(sink, make_event(&g, i % N_EVENTS, w, 0, true), &err) !=
			    TK_OK)
				_exit(3);
		}
	}
	close(pfd[1]);
	char c;
	assert_int_equal(read(pfd[0], &c, 1), 1); /* the child is mid-write */
	close(pfd[0]);
	kill(pid, SIGKILL);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_false(exists(dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip_small_packets_le),
	    cmocka_unit_test(test_roundtrip_big_endian_packetized),
	    cmocka_unit_test(test_roundtrip_default_packets),
	    cmocka_unit_test(test_event_larger_than_packet),
	    cmocka_unit_test(test_many_streams),
	    cmocka_unit_test(test_abort_leaves_nothing),
	    cmocka_unit_test(test_bad_value_fails_and_leaves_nothing),
	    cmocka_unit_test(test_sequence_length_mismatch),
	    cmocka_unit_test(test_value_of_other_kind),
	    cmocka_unit_test(test_existing_output_rejected),
	    cmocka_unit_test(test_sigkill_leaves_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
