/* Interned strings of the SQL tables (see sql_internal.h), and the growable
 * vectors the tables are made of. Names repeat
 * millions of times (event names, images, symbols), so each is stored once
 * and handed to SQLite without a copy. */
#ifdef TK_HAVE_SQLITE
#include <stdlib.h>
#include <string.h>

#include "sql/sql_internal.h"

void tk_sql_strings_init(tk_sql_strings *s)
{
	memset(s, 0, sizeof *s);
	tk_arena_init(&s->arena, 64 * 1024);
	tk_hashmap_init(&s->by_hash);
}

void tk_sql_strings_free(tk_sql_strings *s)
{
	tk_arena_free(&s->arena);
	tk_hashmap_free(&s->by_hash);
	free(s->list.v);
	memset(s, 0, sizeof *s);
}

const char *tk_sql_intern(tk_sql_strings *s, const char *str, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)str[i]) * 1099511628211ull;
	/* Linear probing over hash values: a clash moves to h + 1. */
	for (;; h++) {
		uint64_t *idx = tk_hashmap_get(&s->by_hash, h);
		if (!idx)
			break;
		const char *have = *TK_SQL_AT(s->list, const char *, *idx - 1);
		if (strncmp(have, str, len) == 0 && have[len] == '\0')
			return have;
	}
	const char *copy = tk_arena_strndup(&s->arena, str, len);
	const char **slot = copy ? tk_sql_vec_push(&s->list, sizeof *slot) : NULL;
	if (!slot)
		return NULL;
	*slot = copy;
	if (!tk_hashmap_put(&s->by_hash, h, s->list.n))
		return NULL;
	return copy;
}

void *tk_sql_vec_push(tk_sql_vec *vec, size_t elem)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap * 2 : 64;
		void *n = realloc(vec->v, cap * elem);
		if (!n)
			return NULL;
		vec->v = n;
		vec->cap = cap;
	}
	char *p = (char *)vec->v + vec->n * elem;
	memset(p, 0, elem);
	vec->n++;
	return p;
}
#endif /* TK_HAVE_SQLITE */
