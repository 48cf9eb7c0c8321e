/* Decode plans: every dynamic scope of a trace class (packet header, packet
 * context, event header, stream event context, event context, payload) is
 * compiled once, after resolution, into a flat array of instructions that
 * the interpreter in ctf_decode.c runs for each packet or event (the way
 * yactfr compiles its "procedures"). What the compiler settles once:
 *
 * - Values: each instruction writes one tk_value at a fixed slot of its
 *   frame. A frame is the root of a scope, one element of an array whose
 *   elements are compound, or the chosen option of a variant; the frame's
 *   own value is slot 0 and every value nested in it through structs has a
 *   static slot after it, so one bump allocation holds them all.
 * - Position: the compiler follows what it knows of the bit position modulo
 *   the alignments met. Fields of fixed size whose alignment is known
 *   statically form a run: one CTF_OP_RUN aligns (when needed) and checks
 *   the run's bits against the packet content once; the covered reads that
 *   follow use a bit offset from the run start, with no alignment or bounds
 *   check of their own, and byte-aligned integers of 8/16/32/64 bits get
 *   specialised readers.
 * - Roles: integers that update the clock or carry a special field
 *   (packet size, event id...) are read by CTF_OP_INT_SPECIAL, which acts
 *   on the value it reads.
 * - References: a sequence length or variant tag is a (frame, slot) pair:
 *   a scope root, or a frame some levels out of the current one.
 *
 * Plans live in the trace class's arena and are immutable once compiled;
 * several decoders may run the same plan. */
#ifndef TK_CTF_PLAN_H
#define TK_CTF_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf/ctf_meta.h"

/* Structs nested at most in one scope (the resolver has the same limit). */
#define CTF_PLAN_STRUCT_DEPTH 64

typedef enum ctf_op_kind {
	/* aligns to `align`, checks that `n` bits fit, moves past them; the
	 * `k` covered instructions that follow read at run start + off */
	CTF_OP_RUN,
	/* a RUN opened by a struct's alignment, which also sets the struct
	 * value (as CTF_OP_STRUCT) */
	CTF_OP_RUN_STRUCT,
	/* covered integers at a byte boundary */
	CTF_OP_U8,
	CTF_OP_S8,
	CTF_OP_U16_LE,
	CTF_OP_U16_BE,
	CTF_OP_S16_LE,
	CTF_OP_S16_BE,
	CTF_OP_U32_LE,
	CTF_OP_U32_BE,
	CTF_OP_S32_LE,
	CTF_OP_S32_BE,
	CTF_OP_U64_LE, /* also signed: same bits */
	CTF_OP_U64_BE,
	/* covered integers of any size at any bit position */
	CTF_OP_BITS_LE,
	CTF_OP_BITS_BE,
	/* covered integer with a role: clock update and/or special field */
	CTF_OP_INT_SPECIAL,
	CTF_OP_U64_LE_SPECIAL, /* the same, byte-aligned 64-bit little-endian */
	CTF_OP_FLOAT,          /* covered, 32 or 64 bits */
	CTF_OP_TEXT_FIXED,     /* covered byte-aligned text array of `n` bytes */
	CTF_OP_STRUCT,         /* points the struct value at its member slots */
	/* instructions that check their own bounds */
	CTF_OP_STRING,
	CTF_OP_TEXT_ARRAY, /* `n` bytes */
	CTF_OP_TEXT_SEQ,   /* length from ref */
	CTF_OP_INT_ARRAY,  /* plain integers, one instruction, no frame */
	CTF_OP_INT_SEQ,
	CTF_OP_ARRAY, /* a frame per element: the body follows, up to LOOP_END */
	CTF_OP_SEQ,
	CTF_OP_LOOP_END,
	CTF_OP_STRING_SKIP, /* lean plans: moves past a string, stores nothing */
	CTF_OP_VARIANT,     /* jumps to the chosen option's body in a new frame */
	CTF_OP_VARIANT_END, /* leaves the option's frame, jumps to `next` */
	/* CTF 2 classes with their own reader, out of line: LEB128 integers,
	 * 16/128-bit floats, UTF-16/32 strings, blobs (`ref` for dynamic ones) */
	CTF_OP_CTF2,
	CTF_OP_END,
} ctf_op_kind;

/* Where a sequence length or a variant tag is read. */
typedef struct ctf_plan_ref {
	bool available; /* false: the target is decoded after the field needing it */
	bool root;      /* true: in the root frame of `scope`; false: `up` frames out */
	bool is_signed; /* the target integer is signed */
	uint8_t scope;
	uint32_t up;
	uint32_t slot;
} ctf_plan_ref;

typedef struct ctf_plan_option {
	uint32_t pc;       /* first instruction of the option's body */
	uint32_t n_values; /* values of its frame */
} ctf_plan_option;

/* Variant selection: tag values below n_dense index `dense` (-1 = no
 * option); others go through the class's ranges, first match wins. */
typedef struct ctf_plan_variant {
	const ctf_plan_option *options;
	const int32_t *dense;
	uint32_t n_dense;
} ctf_plan_variant;

typedef struct ctf_op {
	uint8_t kind;   /* ctf_op_kind */
	uint8_t size;   /* scalars: bits (1..64) */
	bool is_signed; /* BITS, INT_SPECIAL, int arrays: sign-extend */
	bool little_endian;
	uint32_t dst;   /* value slot in the current frame */
	uint32_t off;   /* covered: bits from the run start */
	uint32_t align; /* bits */
	const tk_field_class *cls;
	uint64_t n;    /* RUN: bits; arrays: length; TEXT_FIXED: bytes */
	uint32_t next; /* loops: instruction after LOOP_END; VARIANT_END: after the variant */
	uint32_t k;    /* RUN: covered instructions; loops: values per element frame */
	/* STRUCT, RUN_STRUCT: slot of the first member, number of members */
	uint32_t members, n_members;
	/* INT_SPECIAL */
	bool clock;       /* update the decoder's clock */
	uint8_t meaning;  /* ctf_meaning */
	const ctf_fc *fc; /* the class (cold paths: errors, slow element readers) */
	ctf_plan_ref ref;
	const ctf_plan_variant *var;
	/* lean plans, RUN: the full plan's RUN (errors replay its fields) */
	const struct ctf_op *full;
} ctf_op;

typedef struct ctf_plan {
	const ctf_op *ops;
	uint32_t n_ops;
	uint32_t n_values;   /* root frame: the scope's value and its static slots */
	uint32_t max_frames; /* frames nested at most, the root included */
	/* The same scope for readers that never look at the values (`stats`):
	 * fields of the root frame that nothing refers to and that have no
	 * role are moved past without being stored, struct values are not
	 * set, strings are skipped. Positions, roles (clock, event id...),
	 * lengths and tags, and every error, are those of the full plan.
	 * Event scopes only; NULL elsewhere. */
	const struct ctf_plan *lean;
	/* compile time: slots of the root frame some length or tag refers to
	 * (n_values flags), or every slot when `all_targets` */
	uint8_t *targets;
	bool all_targets;
} ctf_plan;

/* Lean fast path (ctf_decode_event_fast): events whose lean plans are
 * only fixed-size runs and skipped strings are decoded without the
 * interpreter. A stream class's event header qualifies when its lean plan
 * is one run whose fields all have a role (clock and/or event id); an
 * event class when the lean plans of the stream event context, its
 * context and its payload are runs with no field read and skipped
 * strings. Anything else, and any event that does not fit its packet,
 * goes through the interpreter (which reports the errors). */
#define CTF_FAST_STEPS 16

typedef struct ctf_fast_field {
	uint32_t off; /* bits from the run start */
	uint8_t size;
	bool u64le; /* byte-aligned 64-bit little-endian: a plain load */
	bool little_endian, is_signed;
} ctf_fast_field;

/* One run with at most one event id field and one clock field (maybe
 * the same field); other fields of the header have no role and are not
 * read. */
typedef struct ctf_fast_header {
	uint64_t bits;
	uint32_t align;
	bool has_id, has_clock;
	ctf_fast_field id, clock;
} ctf_fast_header;

/* align, then move past `bits` bits, or past a NUL-terminated string */
typedef struct ctf_fast_step {
	uint64_t bits;
	uint32_t align;
	bool string;
} ctf_fast_step;

/* Compiles every scope of a resolved trace class into tc, its stream
 * classes and event classes (the *_plan fields). Called once by
 * ctf_trace_class_finish, after resolution. */
tk_status ctf_plan_compile_all(ctf_trace_class *tc, tk_error *err);

/* Human-readable dump of a plan (tests, debugging); returns bytes written
 * (without the NUL), like snprintf. */
size_t ctf_plan_dump(const ctf_plan *plan, char *buf, size_t size);

#endif
