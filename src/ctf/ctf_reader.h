/* CTF trace reading: discovery of the traces below a path, data streams
 * (packets, events, clocks, discarded-item accounting) and the merge of
 * all streams of all traces by time.
 *
 * ctf_reader_next() returns borrowed events valid until the next call.
 * Errors carry the data file name and byte offset. Not thread-safe. */
#ifndef TK_CTF_READER_H
#define TK_CTF_READER_H

#include "base/arena.h"
#include "base/input.h"
#include "ctf/ctf_decode.h"
#include "ctf/ctf_meta.h"

typedef struct ctf_trace ctf_trace;
typedef struct ctf_stream ctf_stream;

/* A discarded events/packets report (babeltrace2's WARNING lines). */
typedef struct ctf_discard {
	const ctf_stream *stream;
	bool packets;   /* false: events */
	uint64_t count; /* UINT64_MAX: unknown */
	bool has_range;
	int64_t begin_ns, end_ns;
} ctf_discard;

typedef void (*ctf_discard_fn)(void *user, const ctf_discard *d);

typedef struct ctf_event_out {
	ctf_stream *stream;
	const ctf_trace *trace;
	const ctf_stream_class *sc;
	const ctf_event_class *ec;
	bool has_clock;
	uint64_t clock_raw;
	int64_t ns; /* from the clock origin */
	const tk_value *packet_header, *packet_context, *header, *common_context, *context,
	    *payload;
	uint64_t offset; /* byte offset of the event in its file */
	int64_t cpu;     /* packet context cpu_id, -1 when absent */
	/* read lean at its reader's word (ctf_reader.values_wanted): the
	 * value pointers are NULL until ctf_event_fill() */
	bool lean;
} ctf_event_out;

struct ctf_reader;

struct ctf_trace {
	struct ctf_reader *reader;
	char *dir;
	char *name; /* babeltrace2's trace name (relative to the common parent) */
	ctf_trace_class *tc;
	ctf_stream **streams;
	size_t n_streams;
};

enum { CTF_WARN_OVERFLOW, CTF_WARN_BACKWARDS, CTF_WARN_OUTSIDE };

/* One packet of an LTTng index file (index/NAME.idx). */
typedef struct ctf_index_entry {
	uint64_t offset; /* bytes */
	uint64_t packet_bits;
	uint64_t ts_begin, ts_end, discarded, seq; /* seq = UINT64_MAX when absent */
} ctf_index_entry;

struct ctf_stream {
	ctf_trace *trace;
	char **files; /* several with LTTng tracefile rotation */
	size_t n_files, cur_file;
	char *name;         /* data file path as babeltrace2 names the stream */
	const uint8_t *mem; /* in-memory stream (tests, fuzzers), or NULL */
	size_t mem_size;
	tk_input *in;
	const uint8_t *data;
	uint64_t size;
	const ctf_stream_class *sc;
	uint64_t stream_id; /* babeltrace2's stream ID */
	uint64_t order;     /* discovery order, breaks time ties */
	uint64_t pkt_off;   /* current packet's byte offset */
	uint64_t pkt_bytes;
	uint64_t released; /* bytes before this were dropped from memory */
	bool in_packet;
	tk_arena pkt_arena, ev_arena;
	uint8_t *ev_fast; /* bump region for event values */
	ctf_decoder dec;
	tk_value *pkt_header, *pkt_ctx;
	int64_t cpu;
	/* snapshots of the previous and current packet (UINT64_MAX = none) */
	uint64_t prev_disc, prev_seq, prev_begin, prev_end;
	uint64_t cur_disc, cur_seq, cur_begin, cur_end;
	/* LTTng index of a single-file stream (NULL when absent or unusable) */
	ctf_index_entry *index;
	size_t n_index;
	bool seek_done;
	/* discard reports of the packet just begun, delivered in time order */
	ctf_discard pending[2];
	unsigned n_pending;
	/* lookahead */
	bool has_event;
	bool ended;
	bool failed;
	bool uuid_warned;
	unsigned warned; /* CTF_WARN_* bits already reported */
	bool has_last_ns;
	int64_t last_ns;
	/* the clock of the current packet's events (NULL = none); events
	 * with cycles < clk_plain_end convert as clk_base + cycles */
	const ctf_clock *clk;
	int64_t clk_base;
	uint64_t clk_plain_end;
	uint64_t cur_begin_or_0; /* cur_begin, 0 when absent */
	/* the packet's events may go through ctf_stream_run_lean: a lean
	 * reader, a fast event header, every event class fast (ctf_plan.h)
	 * and a clock */
	bool lean_run;
	/* the packet's event headers are read by ctf_read_header_fast (a
	 * fast_header, and a reader that is lean or wants no header value) */
	bool header_fast;
	/* the reader asks before each event whether its values are wanted
	 * (ctf_reader.values_wanted) */
	bool partial;
	uint64_t ev_pos; /* the current event's bit position in the packet */
	tk_error err;
	ctf_event_out ev;
	uint64_t n_events, n_packets, n_skipped;
};

typedef struct ctf_reader {
	ctf_trace **traces;
	size_t n_traces;
	ctf_stream **heap;
	size_t heap_n;
	bool started;
	tk_log_fn log;
	void *log_user;
	ctf_discard_fn on_discard;
	void *discard_user;
	/* set before the first ctf_reader_next(): packets ending before
	 * begin_ns are skipped whole (events before it still need filtering) */
	bool has_begin;
	int64_t begin_ns;
	/* set before the first ctf_reader_next() by readers that use only the
	 * event's stream, classes and time (info, stats): the value pointers
	 * of ctf_event_out (header, contexts, payload) then point to values
	 * that are not filled in, or are NULL. Errors and warnings stay the same. */
	bool lean;
	/* set before the first ctf_reader_next() by readers that never look
	 * at ctf_event_out.header (babeltrace2's text does not print it): a
	 * header whose fields are only the event id and the clock
	 * (ctf_plan.h's fast_header) is then read without the interpreter and
	 * `header` is NULL. The other values, errors and warnings stay the same. */
	bool no_header_values;
	/* set before the first ctf_reader_next() by readers that look at the
	 * values of some events only (print's two lanes: each formats every
	 * other chunk of events): asked before an event is read, with the
	 * events before it all delivered (the next one delivered is that
	 * event or, when another stream's come first, a later one). False:
	 * the event is read as `lean` reads it, its ctf_event_out.lean set;
	 * ctf_event_fill() reads its values when it turns out they are
	 * wanted. Errors and warnings stay the same. May also be set later
	 * (once): it then takes effect at each stream's next packet. */
	bool (*values_wanted)(void *user);
	void *values_user;
} ctf_reader;

/* Finds every trace below path (a trace dir, a metadata file, or a dir
 * holding traces) and opens their metadata and data streams. */
tk_status ctf_reader_open(const char *path, tk_log_fn log, void *log_user, ctf_reader **out,
			  tk_error *err);
/* One trace from memory: TSDL text plus one data stream (fuzzers, tests).
 * Neither buffer is copied; both must outlive the reader. */
tk_status ctf_reader_open_memory(const char *metadata, size_t mlen, const uint8_t *stream,
				 size_t size, tk_log_fn log, void *log_user, ctf_reader **out,
				 tk_error *err);
void ctf_reader_close(ctf_reader *r);
/* TK_OK with *out, TK_END, or an error (err has file and offset). */
tk_status ctf_reader_next(ctf_reader *r, const ctf_event_out **out, tk_error *err);

/* Hands every event to fn in ctf_reader_next()'s order, with its
 * warnings, errors and interrupt check, but the merge inlined: no call
 * per event but fn's. Stops at the first status other than TK_OK that fn
 * returns and returns it; TK_END at the end of the events. */
typedef tk_status (*ctf_event_fn)(void *user, const ctf_event_out *ev, tk_error *err);
tk_status ctf_reader_each(ctf_reader *r, ctf_event_fn fn, void *user, tk_error *err);

/* The values of an event read lean (ev->lean; else nothing to do): read
 * again from its bit position, as a full read would have read them. Only
 * for the event just delivered, before the next ctf_reader_next(). */
tk_status ctf_event_fill(const ctf_event_out *ev, tk_error *err);

/* What ctf_reader_span() counts: events, events with a time, and the
 * smallest and largest of those times (ns from the clock origin). */
typedef struct ctf_span {
	uint64_t n_events, n_timed;
	int64_t first_ns, last_ns;
} ctf_span;
/* Reads every event to the end without handing them out (info, stats:
 * the streams and event classes count their events as they go, discard
 * reports go to on_discard); the same order, warnings and errors as
 * ctf_reader_next(), without a call per event. TK_OK at the end. */
tk_status ctf_reader_span(ctf_reader *r, ctf_span *span, tk_error *err);

/* ns from the clock origin the way babeltrace2 computes it; false on overflow. */
bool ctf_clock_ns(const ctf_clock *c, uint64_t cycles, int64_t *ns);
/* True when path is a CTF trace directory, a metadata file, or a
 * directory with CTF traces below it. */
bool ctf_path_is_ctf(const char *path);

/* Shared by the readers of CTF events as model events (the model source,
 * the lean reader): the header fields of ev from e (cls, stream, cpu,
 * time, offset; pid and tid TK_PID_NONE; values untouched), inline for
 * their per-event loops, and a discard report's warning text
 * (ctf_discard_text.c). */
static inline void ctf_event_header(const ctf_event_out *e, tk_event *ev)
{
	ev->cls = &e->ec->info;
	ev->stream_id = e->sc->id;
	ev->stream_instance = e->stream->stream_id;
	ev->cpu = e->cpu >= 0 && e->cpu <= INT32_MAX ? (int32_t)e->cpu : TK_CPU_NONE;
	ev->pid = TK_PID_NONE;
	ev->tid = TK_PID_NONE;
	ev->has_time = e->has_clock;
	ev->time_ns = e->has_clock && e->ns > 0 ? (uint64_t)e->ns : 0;
	ev->time_raw = e->clock_raw;
	ev->offset = e->offset;
}
void ctf_discard_text(const ctf_discard *d, char *buf, size_t size);

#endif
