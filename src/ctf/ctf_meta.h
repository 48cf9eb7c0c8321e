/* CTF 1.8 trace class: what the TSDL parser produces and the stream decoder
 * consumes. Everything lives in the trace class's arena and is freed with
 * it (ctf_trace_class_free). Field classes are trees: each use of a named
 * type is a deep copy, so that a relative path inside it resolves in the
 * context where it is used. Not thread-safe. */
#ifndef TK_CTF_META_H
#define TK_CTF_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tracekit/tracekit.h"

typedef enum ctf_fc_type {
	CTF_FC_INT,
	CTF_FC_ENUM, /* an int with mappings */
	CTF_FC_FLOAT,
	CTF_FC_STRING,
	CTF_FC_STRUCT,
	CTF_FC_VARIANT,
	CTF_FC_ARRAY,
	CTF_FC_SEQUENCE,
} ctf_fc_type;

/* Dynamic scopes, in decoding order. */
typedef enum ctf_scope {
	CTF_SCOPE_PACKET_HEADER,
	CTF_SCOPE_PACKET_CONTEXT,
	CTF_SCOPE_EVENT_HEADER,
	CTF_SCOPE_EVENT_COMMON_CONTEXT,
	CTF_SCOPE_EVENT_CONTEXT,
	CTF_SCOPE_EVENT_PAYLOAD,
	CTF_SCOPE_COUNT,
} ctf_scope;

/* Roles of special fields (the decoder acts on them). */
typedef enum ctf_meaning {
	CTF_MEANING_NONE = 0,
	CTF_MEANING_MAGIC,
	CTF_MEANING_UUID,
	CTF_MEANING_STREAM_ID,
	CTF_MEANING_STREAM_INSTANCE_ID,
	CTF_MEANING_PACKET_SIZE,
	CTF_MEANING_CONTENT_SIZE,
	CTF_MEANING_TS_BEGIN,
	CTF_MEANING_TS_END,
	CTF_MEANING_EVENTS_DISCARDED,
	CTF_MEANING_PACKET_SEQ_NUM,
	CTF_MEANING_EVENT_ID,
} ctf_meaning;

#define CTF_MAX_PATH 16

/* Where a sequence's length or a variant's tag lives, resolved once. */
typedef struct ctf_field_ref {
	bool relative;              /* true: `up` structs outward from the referring field */
	ctf_scope scope;            /* absolute: the root scope */
	unsigned up;                /* relative: 0 = the innermost enclosing struct */
	unsigned n;                 /* path length */
	uint16_t idx[CTF_MAX_PATH]; /* member indexes from the start struct */
	const struct ctf_fc *target;
} ctf_field_ref;

typedef struct ctf_mapping {
	const char *label;
	int64_t lo, hi; /* compare as unsigned when the container is unsigned */
} ctf_mapping;

typedef struct ctf_member ctf_member;
struct ctf_plan;        /* ctf_plan.h: a scope compiled for the decoder */
struct ctf_fast_header; /* ctf_plan.h: lean fast path */
struct ctf_fast_step;

/* A variant option chosen by a range of tag values. */
typedef struct ctf_var_range {
	int64_t lo, hi;
	size_t option;
} ctf_var_range;
typedef struct ctf_fc ctf_fc;

struct ctf_fc {
	ctf_fc_type type;
	unsigned align; /* bits */
	/* INT / ENUM */
	unsigned size; /* bits */
	bool is_signed;
	bool little_endian;
	uint8_t byte_order;     /* as written: 0 native, 1 le, 2 be (native resolved at finish) */
	uint8_t base;           /* 2, 8, 10, 16 */
	bool encoded;           /* encoding = UTF8/ASCII: a character */
	int clock;              /* index in trace clocks, -1 = none */
	const char *clock_name; /* map = clock.NAME.value, resolved at finish */
	ctf_meaning meaning;
	/* ENUM */
	ctf_mapping *maps;
	size_t n_maps;
	bool maps_unique; /* no label appears twice */
	/* FLOAT */
	unsigned exp_dig, mant_dig;
	/* STRUCT / VARIANT */
	ctf_member *members;
	size_t n_members;
	/* VARIANT: tag; ARRAY: length; SEQUENCE: length ref */
	const char *path; /* unresolved tag / length path text */
	ctf_field_ref ref;
	const ctf_fc *elem;
	uint64_t length;
	ctf_var_range *ranges; /* VARIANT: resolved selection */
	size_t n_ranges;
	bool elem_is_text; /* array/sequence of 8-bit encoded ints: printed as a string */
	/* babeltrace2 keeps only some fields in its IR (see ctf_meta_update_in_ir) */
	bool in_ir;
	bool depended_on;
	uint64_t
	    min_bits; /* smallest encoded size: bounds array lengths (set by the plan compiler) */
	/* model view, built after resolution */
	tk_field_class *model;
	/* CTF 2 (ctf2_metadata.c) */
	bool is_bitmap;             /* INT: maps are flags of bit ranges */
	bool is_bool;               /* INT: a fixed-length boolean */
	bool is_blob;               /* ARRAY/SEQUENCE of bytes */
	bool ranges_given;          /* VARIANT: ranges set by the metadata, no labels */
	bool is_optional;           /* VARIANT: option 0 absent (empty), option 1 present */
	bool bool_selector;         /* optional: a boolean selects (no ranges) */
	uint8_t varint;             /* INT: LEB128, 1 unsigned, 2 signed (size = 64) */
	uint8_t enc_unit;           /* STRING / text: 2 or 4 for UTF-16/32, else 0 */
	bool enc_be;                /* UTF-16/32 big-endian */
	tk_field_class *big_model;  /* INT varint: the bytes class of values > 64 bits */
	uint16_t ctf2_roles;        /* CTF 2 roles (bits of ctf2_fc.c's table) */
	const struct ctf2_loc *loc; /* VARIANT/SEQUENCE: field location, not `path` */
};

/* A CTF 2 field location: origin scope (or relative), then member names;
 * a NULL name goes up one structure (relative locations). */
typedef struct ctf2_loc {
	bool relative;
	ctf_scope origin;
	size_t n;
	const char **names;
	const char *text; /* for messages */
} ctf2_loc;

struct ctf_member {
	const char *name;      /* one leading underscore already stripped */
	const char *orig_name; /* as written (variant options match enum labels with it) */
	size_t name_len;
	ctf_fc *fc;
};

typedef struct ctf_clock {
	tk_clock_info info; /* name, uuid, description, freq, ... */
	bool has_uuid;
	uint8_t uuid[16];
	/* normalised: offset_cycles < freq */
	int64_t offset_s;
	uint64_t offset_cycles;
} ctf_clock;

typedef struct ctf_event_class {
	tk_event_class info;
	ctf_fc *context; /* or NULL */
	ctf_fc *payload; /* or NULL */
	const struct ctf_plan *context_plan, *payload_plan;
	bool has_id;
	bool has_stream_id;
	uint64_t n_seen; /* events read so far (stats) */
	/* lean fast path (ctf_plan.h): the steps after the event header, when
	 * the event class qualifies (fast) */
	bool fast;
	uint32_t n_fast_steps;
	const struct ctf_fast_step *fast_steps;
} ctf_event_class;

typedef struct ctf_stream_class {
	uint64_t id;
	bool has_id;
	ctf_fc *packet_context;
	ctf_fc *event_header;
	ctf_fc *event_context;
	const struct ctf_plan *packet_context_plan, *event_header_plan, *event_context_plan;
	int clock;                /* default clock, -1 = none */
	ctf_event_class **events; /* by position */
	size_t n_events;
	/* event id -> position: dense table for small ids, else linear search */
	int32_t *by_id;
	size_t by_id_len;
	bool ts_begin_end; /* packet context has timestamp_begin and _end */
	bool has_discarded;
	bool has_seq_num;
	tk_stream_class info;
	/* lean fast path (ctf_plan.h): the event header, or NULL */
	const struct ctf_fast_header *fast_header;
	bool all_fast; /* every event class qualifies (fast) */
} ctf_stream_class;

typedef struct ctf_trace_class {
	tk_arena arena;
	unsigned major, minor;
	bool ctf2; /* JSON metadata: roles, not member names, give meanings */
	bool has_uuid;
	uint8_t uuid[16];
	bool little_endian; /* trace byte order */
	bool has_byte_order;
	ctf_fc *packet_header;
	const struct ctf_plan *packet_header_plan;
	uint32_t max_frames; /* decoder frames the deepest plan needs */
	tk_env_entry *env;
	size_t n_env;
	ctf_clock *clocks;
	size_t n_clocks;
	ctf_stream_class **streams;
	size_t n_streams;
	tk_log_fn log;
	void *log_user;
	char *text; /* TSDL text (NUL-terminated), owned */
	size_t text_len;
	tk_trace_info info;
} ctf_trace_class;

/* Parses TSDL text into a trace class. name is used in error messages.
 * Warnings (unknown attributes...) go to log. */
tk_status ctf_trace_class_parse(const char *text, size_t len, const char *name, tk_log_fn log,
				void *log_user, ctf_trace_class **out, tk_error *err);
/* Reads `metadata` (text or packetized) from a file. */
tk_status ctf_metadata_read_file(const char *path, char **text, size_t *len, bool *packetized,
				 tk_error *err);
/* Unpacks packetized metadata in memory into text (malloc'd). */
tk_status ctf_metadata_unpack(const uint8_t *data, size_t size, char **text, size_t *len,
			      tk_error *err);
void ctf_trace_class_free(ctf_trace_class *tc);
/* CTF 2: parses the JSON text sequence tc->text into tc (ctf2_metadata.c);
 * ctf_trace_class_parse calls it when the text starts with 0x1E. */
tk_status ctf2_metadata_parse(ctf_trace_class *tc, const char *name, tk_error *err);

ctf_stream_class *ctf_trace_class_stream(const ctf_trace_class *tc, uint64_t id);
ctf_event_class *ctf_stream_class_event_slow(const ctf_stream_class *sc, uint64_t id);
static inline ctf_event_class *ctf_stream_class_event(const ctf_stream_class *sc, uint64_t id)
{
	if (id < sc->by_id_len) {
		int32_t k = sc->by_id[id];
		return k >= 0 ? sc->events[k] : NULL;
	}
	return ctf_stream_class_event_slow(sc, id);
}

/* Resolves paths, in-IR flags, model classes, special fields.
 * Called by the parser at the end. */
tk_status ctf_trace_class_finish(ctf_trace_class *tc, tk_error *err);

#endif
