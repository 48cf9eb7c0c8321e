/* TSDL lexer: turns metadata text into tokens. Comments (C and C++),
 * whitespace and CR are skipped. Strings keep their escapes decoded into
 * the arena. Not thread-safe; one lexer per text. */
#ifndef TK_CTF_TSDL_LEXER_H
#define TK_CTF_TSDL_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tracekit/status.h"

typedef enum tsdl_tok_kind {
	TSDL_EOF,
	TSDL_IDENT,
	TSDL_INT,    /* integer literal; `u` holds the magnitude */
	TSDL_STRING, /* "..." */
	TSDL_CHAR,   /* '...' */
	TSDL_PUNCT,  /* text holds the punctuator: { } ( ) [ ] ; : , = := . -> ... < > + - * */
} tsdl_tok_kind;

typedef struct tsdl_token {
	tsdl_tok_kind kind;
	const char *text; /* NUL-terminated (arena) */
	uint64_t u;
	size_t offset; /* byte offset in the text */
	unsigned line;
} tsdl_token;

typedef struct tsdl_lexer {
	const char *s;
	size_t len, pos;
	unsigned line;
	tk_arena *arena;
	tsdl_token tok;  /* current token */
	tsdl_token peek; /* lookahead when has_peek */
	bool has_peek;
	const char *name;
} tsdl_lexer;

void tsdl_lexer_init(tsdl_lexer *lx, const char *s, size_t len, tk_arena *arena, const char *name);
/* Advances to the next token (lx->tok). */
tk_status tsdl_next(tsdl_lexer *lx, tk_error *err);
/* Looks one token past the current one. */
tk_status tsdl_peek(tsdl_lexer *lx, const tsdl_token **out, tk_error *err);

static inline bool tsdl_is_punct(const tsdl_token *t, const char *p)
{
	return t->kind == TSDL_PUNCT && t->text[0] == p[0] &&
	       (p[1] == 0 ? t->text[1] == 0 : (t->text[1] == p[1] && t->text[2] == p[2]));
}

#endif
