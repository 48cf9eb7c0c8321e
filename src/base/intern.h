/* Byte-string interning: each distinct key gets a dense index (0, 1, ...)
 * in the order first seen. Used by the profile exporters to number
 * strings, functions, locations, mappings and stacks as pprof wants them
 * (ids are index + 1). Keys are copied into an arena; `limit` bounds the
 * arena so a hostile input cannot make it grow without end. Not
 * thread-safe. */
#ifndef TK_BASE_INTERN_H
#define TK_BASE_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"

typedef struct tk_intern_entry {
	const void *key;
	size_t len;
} tk_intern_entry;

typedef struct tk_intern {
	tk_arena arena;
	tk_hashmap by_hash; /* hash (+ probe) -> index + 1 */
	tk_intern_entry *v;
	size_t n, cap;
	size_t limit; /* arena bytes */
} tk_intern;

void tk_intern_init(tk_intern *t, size_t limit);
void tk_intern_free(tk_intern *t);
/* The key's index; *added tells whether it is new. false: out of memory
 * or over the limit (tk_intern_over_limit tells which). */
bool tk_intern_get(tk_intern *t, const void *key, size_t len, size_t *index, bool *added);
bool tk_intern_over_limit(const tk_intern *t);

#endif
