/* The neutral event model every format reads into and writes from.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * Classes (tk_trace_info, tk_event_class, tk_field_class) are owned by the
 * source that produced them and live until the source is closed.
 * Events and their values (tk_event, tk_value) live in the source's scratch
 * arena: they stay valid until the next tk_source_next() on that source.
 * Nothing here is thread-safe; use one source per thread. */
#ifndef TRACEKIT_MODEL_H
#define TRACEKIT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tk_format {
	TK_FORMAT_UNKNOWN = 0,
	TK_FORMAT_PERF,
	TK_FORMAT_CTF,
	TK_FORMAT_CPEL,
	TK_FORMAT_ELOG,
	TK_FORMAT_DCPI,
	TK_FORMAT_CHROME,
	TK_FORMAT_JSON,
	TK_FORMAT_FOLDED,
	TK_FORMAT_TKLOG,      /* tracekit logger file (include/tracekit/log.h) */
	TK_FORMAT_PPROF,      /* google/pprof profile.proto, gzip (output only) */
	TK_FORMAT_SPEEDSCOPE, /* speedscope JSON (output only) */
	TK_FORMAT_SVG,        /* flame graph SVG (output only) */
} tk_format;

typedef enum tk_type_kind {
	TK_TYPE_INT,
	TK_TYPE_FLOAT,
	TK_TYPE_STRING,
	TK_TYPE_BYTES,
	TK_TYPE_ARRAY,    /* fixed length */
	TK_TYPE_SEQUENCE, /* length known only per event */
	TK_TYPE_STRUCT,
	TK_TYPE_VARIANT,
} tk_type_kind;

/* What a field means, so sinks can map fields without guessing from names. */
typedef enum tk_semantic {
	TK_SEM_NONE = 0,
	TK_SEM_IP,
	TK_SEM_ADDR,
	TK_SEM_PID,
	TK_SEM_TID,
	TK_SEM_CPU,
	TK_SEM_TIMESTAMP,
	TK_SEM_PERIOD,
	TK_SEM_ID,
	TK_SEM_CALLCHAIN,
	TK_SEM_COMM,
} tk_semantic;

typedef struct tk_enum_mapping {
	const char *label;
	uint64_t lo, hi; /* inclusive; compare as int64 when the int is signed */
} tk_enum_mapping;

typedef struct tk_field_class tk_field_class;

typedef struct tk_member {
	const char *name;
	const tk_field_class *cls;
} tk_member;

struct tk_field_class {
	tk_type_kind kind;
	tk_semantic semantic;
	/* TK_TYPE_INT */
	uint8_t bits; /* 1..64 */
	bool is_signed;
	uint8_t base;                    /* display base: 2, 8, 10, 16 */
	bool is_char;                    /* int with a character encoding (CTF encoding=UTF8) */
	const char *clock;               /* clock name when mapped to a clock, else NULL */
	const tk_enum_mapping *mappings; /* enum labels, NULL for a plain int */
	size_t n_mappings;
	/* TK_TYPE_FLOAT: bits is 32 or 64 */
	/* TK_TYPE_ARRAY / TK_TYPE_SEQUENCE */
	const tk_field_class *element;
	uint64_t length; /* arrays */
	/* TK_TYPE_STRUCT / TK_TYPE_VARIANT (options) */
	const tk_member *members;
	size_t n_members;
	/* TK_TYPE_INT: a boolean (0 false, else true; CTF 2 fixed-length boolean) */
	bool is_bool;
};

/* A decoded value. For structs, items[i] belongs to cls->members[i].
 * For a variant, items points to the one selected option's value and
 * `index` says which option. Strings and bytes point into the input
 * (zero-copy) or the scratch arena; strings are not NUL-terminated. */
typedef struct tk_value tk_value;
struct tk_value {
	const tk_field_class *cls;
	union {
		uint64_t u; /* unsigned ints (and the raw bits of signed ones) */
		int64_t i;  /* signed ints */
		double f;
		struct {
			const char *ptr;
			size_t len;
		} str;
		struct {
			const tk_value *items;
			size_t n;
			size_t index; /* variant: selected option */
		} list;
	} v;
};

typedef struct tk_clock_info {
	const char *name;
	const char *description;
	const char *uuid; /* "xxxxxxxx-...." or NULL */
	uint64_t freq;    /* Hz */
	uint64_t precision;
	int64_t offset_s; /* seconds from the epoch when absolute */
	int64_t offset_cycles;
	bool absolute;
} tk_clock_info;

typedef struct tk_env_entry {
	const char *key;
	bool is_int;
	int64_t i;
	const char *str;
} tk_env_entry;

typedef struct tk_event_class {
	uint64_t id;
	const char *name;
	uint64_t stream_class_id;
	int64_t loglevel;              /* -1 when absent */
	const char *emf_uri;           /* NULL when absent */
	const tk_field_class *context; /* event context struct, or NULL */
	const tk_field_class *payload; /* payload struct, or NULL */
	const char *format;            /* printf-like format (CPEL/elog), or NULL */
} tk_event_class;

typedef struct tk_stream_class {
	uint64_t id;
	const tk_field_class *packet_context; /* or NULL */
	const tk_field_class *event_header;   /* or NULL */
	const tk_field_class *event_context;  /* stream event context, or NULL */
	const tk_clock_info *clock;           /* or NULL */
} tk_stream_class;

typedef struct tk_trace_info {
	tk_format format;
	const char *name; /* input name */
	const tk_env_entry *env;
	size_t n_env;
	const tk_clock_info *clocks;
	size_t n_clocks;
	const tk_stream_class *stream_classes;
	size_t n_stream_classes;
	const tk_event_class *const *event_classes; /* may grow while reading */
	size_t n_event_classes;
} tk_trace_info;

#define TK_CPU_NONE (-1)
#define TK_PID_NONE (-1)

typedef struct tk_event {
	const tk_event_class *cls;
	uint64_t stream_id;       /* stream (class) id */
	uint64_t stream_instance; /* which stream of that class (e.g. a file) */
	int32_t cpu;              /* TK_CPU_NONE when unknown */
	int32_t pid, tid;         /* TK_PID_NONE when unknown */
	bool has_time;
	uint64_t time_ns;               /* ns in the trace's clock domain */
	uint64_t time_raw;              /* clock value as stored */
	const tk_value *packet_context; /* struct value or NULL */
	const tk_value *header;         /* event header or NULL */
	const tk_value *stream_context; /* stream event context or NULL */
	const tk_value *context;        /* event context or NULL */
	const tk_value *payload;        /* struct value or NULL */
	uint64_t offset;                /* byte offset of the event in its input */
	/* The model context of the event's input (context.h), set by
	 * tk_source_next(); NULL when none is attached. */
	struct tk_context *model_ctx;
} tk_event;

/* Looks a member up by name in a struct value; NULL when absent. Not for
 * the per-event path of a converter (resolve indexes once instead). */
const tk_value *tk_value_member(const tk_value *s, const char *name);

const char *tk_format_name(tk_format fmt);
tk_format tk_format_from_name(const char *name); /* TK_FORMAT_UNKNOWN if none */

#endif
