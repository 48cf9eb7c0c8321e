/* Plan interpreter: runs a scope's compiled plan (ctf_plan.h) over packet
 * bytes, writing tk_value trees into a per-event bump region (or the arena
 * when the region is full or absent). Bit positions are relative to the
 * packet start (CTF alignment is relative to the packet). Integer fields
 * mapped to a clock update `clock` with babeltrace's one-wrap rule; fields
 * with a meaning store their value in `meaning_val`. No allocation outside
 * the bump region and the arena, except the frame stack, which grows once
 * to what the deepest plan of the trace needs. Not thread-safe: one
 * decoder per stream. */
#ifndef TK_CTF_DECODE_H
#define TK_CTF_DECODE_H

#include "base/arena.h"
#include "ctf/ctf_meta.h"
#include "ctf/ctf_plan.h"

/* One level of the interpreter's stack: the scope root, an array element
 * being decoded, or a variant's chosen option. */
typedef struct ctf_frame {
	tk_value *base;     /* values of the frame: its own at [0], nested after */
	tk_value *items;    /* loop: the array's elements */
	tk_value *nest;     /* loop with compound elements: k values per element */
	uint64_t i, n;      /* loop: element index and count */
	const ctf_op *body; /* loop: first instruction of the element body */
	uint32_t k;         /* loop: values per element frame, 0 = the element alone */
} ctf_frame;

typedef struct ctf_decoder {
	const uint8_t *buf;  /* packet start */
	uint64_t limit_bits; /* content end, in bits from buf */
	uint64_t pos;        /* bit position */
	uint64_t file_off;   /* byte offset of buf in the file (errors) */
	tk_arena *arena;
	/* bump region for event values (reset per event): no call per
	 * allocation; the arena takes over when it is full. NULL = arena only */
	uint8_t *fast;
	size_t fast_used, fast_cap;
	tk_value *roots[CTF_SCOPE_COUNT]; /* root frames of the scopes decoded */
	ctf_frame *frames;                /* malloc'd, frames_cap entries */
	uint32_t frames_cap;
	uint64_t clock; /* current default clock value (cycles) */
	bool clock_set;
	uint64_t meaning_val[CTF_MEANING_EVENT_ID + 1];
	bool meaning_set[CTF_MEANING_EVENT_ID + 1];
	const char *what; /* scope being decoded, for errors */
	/* ctf_decode_event runs the lean plans (ctf_plan.h): the values of
	 * the event scopes are not built, only positions and roles */
	bool lean;
} ctf_decoder;

/* Runs plan at the current position; *out is the scope's value (bump
 * region or arena), also kept in d->roots[scope] for references. Errors
 * name d->what and the byte offset in the file. */
tk_status ctf_decode_plan(ctf_decoder *d, const ctf_plan *plan, ctf_scope scope, tk_value **out,
			  tk_error *err);

/* Decodes one event at the current position: the stream class's event
 * header, then the event class it names (*ec), the stream event context,
 * the event context and the payload, in one interpreter run. Each scope's
 * value is left in d->roots[scope] (the caller clears the event scopes'
 * roots before). Errors as ctf_decode_plan's; an unknown or missing event
 * id is reported at ev_off, the event's byte offset in the file.
 * *ec NULL on entry: from the event header. Not NULL: the caller has read
 * the header already (ctf_read_header_fast, no header value) and named
 * the event class; decoding starts with the scope after the header. */
tk_status ctf_decode_event(ctf_decoder *d, const ctf_stream_class *sc, uint64_t ev_off,
			   const ctf_event_class **ec, tk_error *err);

/* Frees the frame stack (the rest belongs to the caller). */
void ctf_decoder_fini(ctf_decoder *d);

/* Sets the clock to a raw value read elsewhere (packet timestamp_begin). */
static inline void ctf_decoder_set_clock(ctf_decoder *d, uint64_t v)
{
	d->clock = v;
	d->clock_set = true;
}

#endif
