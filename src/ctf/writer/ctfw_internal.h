/* CTF writer internals shared by its files: the write plan compiled once
 * per model class, stream classes, data streams and the sink itself.
 *
 * A plan node mirrors one tk_field_class with what the TSDL text and the
 * encoder both need: the escaped TSDL name, the alignment, and for sequences
 * and variants where their length or tag comes from. Plans live in the
 * sink's arena and are built the first time a class is seen, so the per-event
 * path only walks them. */
#ifndef TK_CTFW_INTERNAL_H
#define TK_CTFW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/writer.h"
#include "ctf/writer/ctfw_bits.h"
#include "model/source_impl.h"

/* Where a sequence's length or a variant's tag is written from. */
typedef enum ctfw_ref_mode {
	CTFW_REF_NONE = 0,
	CTFW_REF_SIBLING,   /* an earlier member of the same struct (kept as is) */
	CTFW_REF_SYNTHETIC, /* an extra member written just before this one */
} ctfw_ref_mode;

typedef struct ctfw_node ctfw_node;
struct ctfw_node {
	const tk_field_class *cls;
	tk_type_kind kind; /* cls->kind, kept here for the per-event walk */
	uint8_t int_bytes; /* byte-aligned whole-byte integer: its size, else 0 */
	const char *name;  /* TSDL member/option name (escaped), or NULL */
	unsigned align;    /* bits */
	bool skip;         /* packet context: replaced by the writer's own field */
	/* Sequence (length) or variant (tag) inside a struct. */
	ctfw_ref_mode ref;
	size_t ref_index;     /* CTFW_REF_SIBLING: member index in the parent */
	const char *ref_name; /* TSDL name of the length/tag field */
	unsigned tag_bits;    /* synthetic variant tag width */
	/* Variant with a sibling tag: per option, the tag range that selects it. */
	const uint64_t *opt_lo, *opt_hi;
	/* Struct members, variant options, or the one array/sequence element. */
	ctfw_node *kids;
	size_t n_kids;
};

typedef struct ctfw_stream_class {
	uint64_t id;                            /* written */
	uint64_t model_id;                      /* the model's stream class id it serves */
	const tk_stream_class *src;             /* NULL when the model has none for this id */
	const tk_field_class *pc_cls, *sec_cls; /* context classes its events' values have */
	bool has_clock;
	bool raw_time;              /* write time_raw (source clock kept), else time_ns */
	const char *clock_name;     /* TSDL clock name when has_clock */
	bool has_cpu_field;         /* the writer adds cpu_id to the packet context */
	ctfw_node *pc_extra;        /* source packet context (special members skipped) */
	int64_t pc_discarded_index; /* source member holding events_discarded, or -1 */
	/* Source members describing the source's packet (or -1): its bounds are
	 * kept (same clock only) and its sequence number gaps too. */
	int64_t pc_ts_begin_index, pc_ts_end_index, pc_seq_index;
	ctfw_node *event_context; /* stream event context, or NULL */
	uint64_t next_event_id;
	tk_hashmap used_ids; /* event ids taken in this stream class */
} ctfw_stream_class;

typedef struct ctfw_event_class {
	const tk_event_class *src;
	uint64_t id;
	ctfw_stream_class *sc;
	ctfw_node *context; /* or NULL */
	ctfw_node *payload; /* or NULL */
} ctfw_event_class;

/* Bit offsets of the packet context fields patched when a packet closes. */
typedef struct ctfw_pc_layout {
	uint64_t ts_begin, ts_end, content_size, packet_size, seq_num, discarded, cpu_id;
	uint64_t extra; /* where the source's own fields start */
} ctfw_pc_layout;

typedef struct ctfw_stream {
	ctfw_stream_class *sc;
	uint64_t src_instance;
	int32_t cpu;
	uint64_t instance_id; /* stream_instance_id written in packet headers */
	char file_name[96];
	int fd, idx_fd;
	uint8_t *buf;  /* current packet */
	size_t cap;    /* bytes */
	size_t limit;  /* bytes the current packet may use (the bound, or more for one big event) */
	bool oversize; /* limit raised past the bound for one event */
	uint64_t file_off;  /* bytes written to the data file */
	uint64_t seq;       /* packet_seq_num of the current packet */
	uint64_t n_packets; /* written so far */
	uint64_t last_end;  /* timestamp_end of the last packet written */
	bool packet_open;
	uint64_t n_events; /* in the current packet */
	uint64_t ts_begin, ts_end, prev_ts;
	uint64_t discarded; /* events_discarded of the current packet */
	/* The source packet the current events come from, when it says. */
	uint64_t src_begin, src_end, src_seq;
	bool src_fresh;     /* the next packet opened starts that source packet */
	uint64_t seq_extra; /* packets added by size splits (keeps source seq gaps) */
	ctfw_pc_layout lay;
	uint64_t pos; /* bits used in the current packet */
	/* Encoded source packet context extras of the current packet, to see
	 * when the source moved to a packet with other values. */
	uint8_t *pc_cur, *pc_new;
	size_t pc_cap, pc_cur_len, pc_new_len;
	uint64_t total_events;
} ctfw_stream;

typedef struct ctfw_sink {
	tk_sink base;
	const tk_trace_info *info;
	tk_sink_options opt;
	char *final_dir;
	char *tmp_dir;
	int dir_fd;
	bool replace; /* --force: final_dir exists, not empty, replaced at close */
	bool big_endian;
	uint8_t uuid[16];
	size_t packet_size; /* bytes: the bound a packet grows to */
	tk_arena arena;     /* plans and names */
	tk_hashmap ec_map;  /* tk_event_class* -> index in ecs */
	ctfw_event_class **ecs;
	size_t n_ecs, cap_ecs;
	ctfw_stream_class **scs;
	size_t n_scs, cap_scs;
	tk_hashmap stream_map; /* key hash -> index + 1 in streams (chained by probing) */
	ctfw_stream **streams;
	size_t n_streams, cap_streams;
	ctfw_stream *last_stream;
	const tk_event_class *last_cls; /* one-entry cache of the class lookups */
	ctfw_event_class *last_ec;
	size_t n_open_streams;  /* streams holding their files open */
	bool need_ns_clock;     /* a stream class uses the writer's own 1 GHz clock */
	size_t n_alias_classes; /* stream classes planned from values, not the model */
	bool failed;
} ctfw_sink;

#define CTFW_NS_CLOCK_NAME "tracekit_ns"
#define CTFW_PACKET_MAGIC  0xC1FC1FC1u
#define CTFW_EXTENDED_ID   65535u

/* ctfw_plan.c: compile model classes into plan nodes. */
tk_status ctfw_plan_scope(ctfw_sink *s, const tk_field_class *cls, const char *what,
			  ctfw_node **out, tk_error *err);
/* sc_hint: the stream class the event's values fit, or NULL to look it up
 * by the class's stream_class_id. */
tk_status ctfw_event_class_get(ctfw_sink *s, const tk_event_class *cls, ctfw_stream_class *sc_hint,
			       ctfw_event_class **out, tk_error *err);
tk_status ctfw_stream_class_get(ctfw_sink *s, uint64_t id, const tk_event *first,
				ctfw_stream_class **out, tk_error *err);
/* Do the event's packet and stream event context values have the classes
 * this stream class was planned for? */
bool ctfw_stream_class_fits(const ctfw_stream_class *sc, const tk_event *ev);
/* TSDL name for a model name: a leading '_' or a TSDL keyword gets one more
 * '_' (babeltrace2 strips one); other characters than [A-Za-z0-9_] become '_'. */
const char *ctfw_tsdl_name(ctfw_sink *s, const char *name);
/* Identifier for a clock/env key (no underscore escaping). */
const char *ctfw_ident(ctfw_sink *s, const char *name);

/* ctfw_encode.c: values -> bits. */
/* Encodes a scope's struct value; false with *why set when the value does
 * not fit its class (b->overflow is not an error: the caller makes room). */
bool ctfw_encode_scope(ctfw_bits *b, const ctfw_node *n, const tk_value *v, const char **why);

/* ctfw_metadata.c */
tk_status ctfw_metadata_write(ctfw_sink *s, tk_error *err);

/* ctfw_stream.c */
tk_status ctfw_stream_get(ctfw_sink *s, ctfw_stream_class *sc, const tk_event *ev,
			  ctfw_stream **out, tk_error *err);
tk_status ctfw_stream_write(ctfw_sink *s, ctfw_stream *st, const ctfw_event_class *ec,
			    const tk_event *ev, tk_error *err);
tk_status ctfw_stream_finish(ctfw_sink *s, ctfw_stream *st, tk_error *err);
void ctfw_stream_free(ctfw_stream *st);

#endif
