/* A small, strict, bounded JSON reader for CTF 2 metadata fragments
 * (RFC 8259 values; the RFC 7464 record separators are split off by the
 * caller, ctf2_metadata.c).
 *
 * Strict: no comments, no trailing commas, no leading zeros, no duplicate
 * object keys, no control characters or invalid UTF-8 in strings, no lone
 * surrogates. Bounded: nesting depth at most CTF2_JSON_MAX_DEPTH, every
 * node and string lives in the caller's arena (whose limit bounds the
 * memory), and the parser recurses only as deep as the nesting cap.
 *
 * Nodes are owned by the arena and live until it is reset or freed.
 * Offsets are byte offsets in the text given to ctf2_json_parse plus
 * `base`. Not thread-safe (one parse per arena at a time). */
#ifndef TK_CTF2_JSON_H
#define TK_CTF2_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tracekit/tracekit.h"

#define CTF2_JSON_MAX_DEPTH 64

typedef enum ctf2_json_kind {
	CTF2_JSON_NULL,
	CTF2_JSON_BOOL,
	CTF2_JSON_NUMBER,
	CTF2_JSON_STRING,
	CTF2_JSON_ARRAY,
	CTF2_JSON_OBJECT,
} ctf2_json_kind;

typedef struct ctf2_json ctf2_json;
struct ctf2_json {
	ctf2_json_kind kind;
	uint64_t offset; /* of the value's first byte */
	bool b;          /* BOOL */
	/* NUMBER: is_int when written without fraction or exponent and it
	 * fits: the value is -u when neg (u <= 2^63), else u */
	bool is_int, neg;
	uint64_t u;
	double d; /* NUMBER, always set (rounded for big integers) */
	/* STRING: UTF-8, NUL-terminated copy (len excludes the NUL; a \u0000
	 * escape is refused so len == strlen) */
	const char *s;
	size_t len;
	/* ARRAY: items; OBJECT: keys[i] -> items[i], in document order */
	ctf2_json **items;
	const char **keys;
	size_t n;
};

/* Parses exactly one JSON value (surrounding whitespace allowed) from
 * text[0..len). base is added to every offset (errors and nodes). */
tk_status ctf2_json_parse(tk_arena *a, const char *text, size_t len, uint64_t base, ctf2_json **out,
			  tk_error *err);

/* The member `key` of an object, or NULL (also when obj is not an object). */
const ctf2_json *ctf2_json_get(const ctf2_json *obj, const char *key);

#endif
