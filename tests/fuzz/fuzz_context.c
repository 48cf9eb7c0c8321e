/* Fuzz target: the model context (src/context) on hostile input.
 * First byte even: the rest is a perf.data file whose every record is fed
 * (tk_context_feed_perf) with every derivation on, sample addresses
 * symbolized against the maps the file declares (symbol files looked up
 * under a root that does not exist, so no file is read). First byte odd: the
 * rest is a stream of 8-byte crafted model events (sched_switch, wakeup,
 * fork, statedump, syscalls, NAME_entry/_exit, CPEL tracks, a counter) with
 * ids, states and times from the input. Spans are drained and the tables
 * queried throughout; the caps are small so they are hit. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static const tk_symcache_options nowhere = {.debug_dir = "/nonexistent/tk-fuzz",
					    .root = "/nonexistent/tk-fuzz",
					    .kallsyms = "/nonexistent/tk-fuzz",
					    .perf_map_dir = "/nonexistent/tk-fuzz",
					    .no_debug_cache = true};

static void drain(tk_context *c)
{
	const tk_span *s;
	while ((s = tk_context_next_span(c)) != NULL)
		sink += s->end_ns - s->begin_ns + strlen(s->name);
}

static void perf_mode(tk_context *c, const uint8_t *data, size_t size)
{
	tk_perf_file *f;
	tk_error err;
	tk_perf_open_options po = {0};
	if (tk_perf_open_memory(data, size, "fuzz", &po, &f, &err) != TK_OK)
		return;
	const tk_perf_record *r;
	while (tk_perf_next(f, &r, &err) == TK_OK) {
		if (tk_context_feed_perf(c, f, r, &err) != TK_OK)
			break;
		if (r->type == TK_PERF_RECORD_SAMPLE) {
			tk_perf_sample s;
			tk_frame fr;
			if (tk_perf_parse_sample(f, r, &s, &err) == TK_OK &&
			    tk_context_symbolize(c, (int32_t)s.pid, (int32_t)s.tid, r->misc & 7u,
						 s.ip, &fr))
				sink += fr.sym_len;
		}
		drain(c);
	}
	tk_perf_close(f);
}

/* ---- crafted model events ---- */

static const tk_field_class c_int = {.kind = TK_TYPE_INT, .bits = 32, .is_signed = true};
static const tk_field_class c_str = {.kind = TK_TYPE_STRING};

enum { N_CLASSES = 9, N_MEMBERS = 5 };
static const char *const class_names[N_CLASSES] = {
    "sched_switch", "sched_wakeup", "sched_process_fork", "syscall_entry_read", "syscall_exit_read",
    "app:f_entry",  "app:f_exit",   "CPEL/STATE",         "app:gauge"};
static const char *const member_names[N_CLASSES][N_MEMBERS] = {
    {"prev_comm", "prev_tid", "prev_state", "next_comm", "next_tid"},
    {"comm", "tid"},
    {"child_comm", "child_tid", "child_pid"},
    {"ret"},
    {"ret"},
    {"addr"},
    {"addr"},
    {"track", "code"},
    {"value"}};

typedef struct crafted {
	tk_event_class cls[N_CLASSES];
	tk_field_class payload[N_CLASSES];
	tk_member members[N_CLASSES][N_MEMBERS];
} crafted;

static void craft_init(crafted *k)
{
	memset(k, 0, sizeof *k);
	for (size_t i = 0; i < N_CLASSES; i++) {
		size_t n = 0;
		while (n < N_MEMBERS && member_names[i][n]) {
			const char *m = member_names[i][n];
			k->members[i][n].name = m;
			k->members[i][n].cls =
			    strstr(m, "comm") || strcmp(m, "track") == 0 ? &c_str : &c_int;
			n++;
		}
		k->payload[i] = (tk_field_class){
		    .kind = TK_TYPE_STRUCT, .members = k->members[i], .n_members = n};
		k->cls[i] =
		    (tk_event_class){.id = i, .name = class_names[i], .payload = &k->payload[i]};
	}
}

static void model_mode(tk_context *c, const crafted *kp, const uint8_t *p, size_t size)
{
	static const char *const strs[4] = {"a", "bb", "", "a-much-longer-name-than-comm-holds"};
	uint64_t t = 0;
	for (size_t at = 0; at + 8 <= size; at += 8) {
		const uint8_t *b = p + at;
		size_t ci = b[0] % N_CLASSES;
		tk_value items[N_MEMBERS];
		tk_value payload = {.cls = &kp->payload[ci]};
		payload.v.list.items = items;
		payload.v.list.n = kp->payload[ci].n_members;
		for (size_t m = 0; m < payload.v.list.n; m++) {
			items[m].cls = kp->members[ci][m].cls;
			if (items[m].cls->kind == TK_TYPE_STRING) {
				items[m].v.str.ptr = strs[b[2 + m] & 3];
				items[m].v.str.len = strlen(strs[b[2 + m] & 3]);
			} else {
				/* small ids collide on purpose; 0xff: negative */
				items[m].v.i = b[2 + m] == 0xff ? -1 : (int64_t)(b[2 + m] & 0x3f);
			}
		}
		t += b[1] & 0x80 ? 0 : b[1]; /* equal times and, rarely, none */
		tk_event ev = {.cls = &kp->cls[ci],
			       .cpu = (int32_t)(b[7] & 7) - 1,
			       .pid = TK_PID_NONE,
			       .tid = b[6] & 0x80 ? TK_PID_NONE : (int32_t)(b[6] & 0x3f),
			       .has_time = (b[1] & 0xc0) != 0xc0,
			       .time_ns = t,
			       .payload = &payload};
		if (tk_context_feed_event(c, &ev, NULL) != TK_OK)
			return;
		tk_ctx_thread th;
		if (tk_context_event_thread(c, &ev, &th))
			sink += th.comm_len;
		tk_counter cn;
		if (tk_context_counter(c, &ev, &cn))
			sink += cn.u;
		sink += (uint64_t)tk_context_event_track(c, &ev);
		if (b[7] & 0x80)
			drain(c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	tk_context_options o = {
	    .flags = TK_CTX_ALL, .symbols = &nowhere, .max_threads = 64, .max_open_spans = 128};
	tk_context *c;
	if (tk_context_new(&o, &c, NULL) != TK_OK)
		return 0;
	/* the classes outlive the context's use of them, as a source's do */
	static crafted k;
	static bool k_ready;
	if (!k_ready) {
		craft_init(&k);
		k_ready = true;
	}
	if (data[0] & 1)
		model_mode(c, &k, data + 1, size - 1);
	else
		perf_mode(c, data + 1, size - 1);
	tk_context_finish(c, 0);
	drain(c);
	for (size_t i = 0; i < tk_context_n_threads(c); i++) {
		tk_ctx_thread th;
		if (tk_context_thread_at(c, i, &th))
			sink += th.comm_len + strlen(tk_context_process_name(c, th.pid));
	}
	tk_context_free(c);
	return 0;
}
