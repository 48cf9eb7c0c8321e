/* Internal stream operations shared by the stream reader and the muxer. */
#ifndef TK_CTF_STREAM_H
#define TK_CTF_STREAM_H

#include "ctf/ctf_reader.h"

/* Decodes the stream's next event into s->ev (s->has_event). TK_END at the
 * end of the stream; an error is sticky (returned again on later calls). */
tk_status ctf_stream_advance(ctf_stream *s, tk_error *err);

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
