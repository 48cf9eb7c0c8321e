/* CTF 2 metadata -> the trace class IR of ctf_meta.h: what the fragment
 * reader (ctf2_metadata.c) and the field-class builder (ctf2_fc.c) share.
 * Internal to src/ctf; not thread-safe. */
#ifndef TK_CTF2_BUILD_H
#define TK_CTF2_BUILD_H

#include "base/hashmap.h"
#include "ctf/ctf2_json.h"
#include "ctf/ctf_meta.h"

/* Caps that keep hostile metadata bounded (each refused with a message). */
#define CTF2_MAX_FRAGMENTS    (1u << 20)
#define CTF2_MAX_EVENTS       100000u
#define CTF2_MAX_STREAMS      4096u
#define CTF2_MAX_CLOCKS       1024u
#define CTF2_MAX_ALIASES      65536u
#define CTF2_MAX_MEMBERS      65536u
#define CTF2_MAX_FRAGMENT_MEM ((size_t)64 << 20) /* JSON tree of one fragment */

typedef struct ctf2_alias {
	const char *name;
	const ctf_fc *fc;
} ctf2_alias;

typedef struct ctf2_builder {
	ctf_trace_class *tc;
	tk_arena *a; /* tc->arena: the IR */
	tk_error *err;
	size_t frag;           /* current fragment, 1-based (messages) */
	const char *frag_type; /* its type (messages) */
	ctf2_alias *aliases;   /* malloc'd */
	size_t n_aliases, cap_aliases;
	ctf_clock *clocks; /* malloc'd; copied into the arena at the end */
	const char **clock_ids;
	size_t n_clocks, cap_clocks;
	ctf_stream_class **streams; /* malloc'd */
	tk_hashmap *event_ids;      /* per stream: event id -> 1 */
	size_t n_streams, cap_streams;
	size_t n_events;
	bool seen_trace;
	size_t copies_left; /* alias uses: deep copies allowed in all */
	/* while building a scope's field classes */
	ctf_scope scope;
	int def_clock; /* the data stream class's default clock, -1 = none */
	bool in_alias; /* a field class alias: roles are applied where it is used */
} ctf2_builder;

/* Error in the current fragment at the node's offset. */
tk_status ctf2_fail(ctf2_builder *b, const ctf2_json *at, tk_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A scope's field class (a structure) from its JSON. */
tk_status ctf2_scope_fc(ctf2_builder *b, const ctf2_json *j, ctf_scope scope, ctf_fc **out);
/* Any field class (fragment `field-class-alias`). */
tk_status ctf2_field_class(ctf2_builder *b, const ctf2_json *j, unsigned depth, ctf_fc **out);

/* Integers of a JSON node: false when absent or not an integer in range. */
bool ctf2_get_u64(const ctf2_json *j, uint64_t *out);
bool ctf2_get_i64(const ctf2_json *j, int64_t *out);

#endif
