/* Internal stream operations shared by the stream reader and the muxer. */
#ifndef TK_CTF_STREAM_H
#define TK_CTF_STREAM_H

#include "ctf/ctf_reader.h"

/* Decodes the stream's next event into s->ev (s->has_event). TK_END at the
 * end of the stream; an error is sticky (returned again on later calls). */
tk_status ctf_stream_advance(ctf_stream *s, tk_error *err);

/* Where the merge lets the top stream run: while its events come before
 * (ns, order), or to the end of the packet when !bounded. */
typedef struct ctf_run_bound {
	bool bounded;
	int64_t ns;
	uint64_t order;
} ctf_run_bound;

enum {
	CTF_RUN_STOP,   /* the stream's next event needs ctf_stream_advance */
	CTF_RUN_REORDER /* s->ev holds an event past the bound: the merge reorders */
};

/* ctf_reader_span's inner loop for a stream with lean_run whose current
 * event was counted: decodes the next events of the packet by the lean
 * fast path (the same state, counts and warnings as ctf_stream_advance)
 * and adds those that stay first to acc. Stops, with nothing changed, at
 * the packet end or at an event that needs the interpreter. */
int ctf_stream_run_lean(ctf_stream *s, const ctf_run_bound *b, ctf_span *acc);

/* What the first packet of a data file says about its stream. */
typedef struct ctf_stream_head {
	bool valid;
	uint64_t stream_class;
	bool has_instance;
	uint64_t instance;
	uint64_t ts_begin; /* UINT64_MAX when absent */
} ctf_stream_head;

/* Reads the first packet's header and context, then rewinds the stream. */
tk_status ctf_stream_peek(ctf_stream *s, ctf_stream_head *head, tk_error *err);

/* Emits discarded events/packets reports for the packet just begun. */
void ctf_stream_report_discards(ctf_stream *s);

#endif
