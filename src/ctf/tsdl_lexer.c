/* TSDL lexer. */
#include "ctf/tsdl_lexer.h"

#include <string.h>

void tsdl_lexer_init(tsdl_lexer *lx, const char *s, size_t len, tk_arena *arena, const char *name)
{
	memset(lx, 0, sizeof *lx);
	lx->s = s;
	lx->len = len;
	lx->line = 1;
	lx->arena = arena;
	lx->name = name;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Skips whitespace and comments; fails on an unterminated comment. */
static tk_status skip_space(tsdl_lexer *lx, tk_error *err)
{
	while (lx->pos < lx->len) {
		char c = lx->s[lx->pos];
		if (c == '\n') {
			lx->line++;
			lx->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->pos++;
		} else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '*') {
			size_t start = lx->pos;
			lx->pos += 2;
			for (;;) {
				if (lx->pos + 1 >= lx->len)
					return tk_error_set(
					    err, TK_ERR_FORMAT, start,
					    "metadata: unterminated comment at line %u", lx->line);
				if (lx->s[lx->pos] == '\n')
					lx->line++;
				if (lx->s[lx->pos] == '*' && lx->s[lx->pos + 1] == '/') {
					lx->pos += 2;
					break;
				}
				lx->pos++;
			}
		} else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '/') {
			while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
				lx->pos++;
		} else if (c == '\0') {
			/* Packetized metadata may leave padding NULs: treat as space. */
			lx->pos++;
		} else {
			break;
		}
	}
	return TK_OK;
}

/* Reads a quoted literal (string or char) decoding C escapes. */
static tk_status lex_quoted(tsdl_lexer *lx, tsdl_token *t, char quote, tk_error *err)
{
	size_t start = lx->pos++;
	/* The decoded text is never longer than the source. */
	size_t end = lx->pos;
	while (end < lx->len && lx->s[end] != quote) {
		if (lx->s[end] == '\\')
			end++;
		end++;
	}
	if (end >= lx->len)
		return tk_error_set(err, TK_ERR_FORMAT, start,
				    "metadata: unterminated %s at line %u",
				    quote == '"' ? "string" : "character literal", lx->line);
	char *out = tk_arena_alloc(lx->arena, end - lx->pos + 1);
	if (!out)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
	size_t n = 0;
	while (lx->pos < end) {
		char c = lx->s[lx->pos++];
		if (c == '\n')
			lx->line++;
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = lx->s[lx->pos++];
		switch (c) {
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'a': out[n++] = '\a'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'v': out[n++] = '\v'; break;
		case '\\':
		case '\'':
		case '"':
		case '?': out[n++] = c; break;
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7': {
			int v = c - '0', k = 1;
			while (k < 3 && lx->pos < end && lx->s[lx->pos] >= '0' &&
			       lx->s[lx->pos] <= '7') {
				v = v * 8 + (lx->s[lx->pos] - '0');
				lx->pos++;
				k++;
			}
			out[n++] = (char)v;
			break;
		}
		case 'x': {
			int v = 0, d, k = 0;
			while (k < 2 && lx->pos < end && (d = hex_val(lx->s[lx->pos])) >= 0) {
				v = v * 16 + d;
				lx->pos++;
				k++;
			}
			out[n++] = (char)v;
			break;
		}
		default:
			return tk_error_set(err, TK_ERR_FORMAT, lx->pos - 2,
					    "metadata: invalid escape sequence '\\%c' at line %u",
					    c, lx->line);
		}
	}
	out[n] = 0;
	lx->pos = end + 1;
	t->kind = quote == '"' ? TSDL_STRING : TSDL_CHAR;
	t->text = out;
	t->u = n > 0 ? (uint8_t)out[0] : 0;
	return TK_OK;
}

static tk_status lex_number(tsdl_lexer *lx, tsdl_token *t, tk_error *err)
{
	size_t start = lx->pos;
	unsigned base = 10;
	if (lx->s[lx->pos] == '0' && lx->pos + 1 < lx->len &&
	    (lx->s[lx->pos + 1] == 'x' || lx->s[lx->pos + 1] == 'X')) {
		base = 16;
		lx->pos += 2;
	} else if (lx->s[lx->pos] == '0') {
		base = 8;
	}
	uint64_t v = 0;
	bool overflow = false;
	size_t digits = 0;
	while (lx->pos < lx->len) {
		int d = hex_val(lx->s[lx->pos]);
		if (d < 0 || (unsigned)d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		v = v * base + (uint64_t)d;
		lx->pos++;
		digits++;
	}
	if (base == 16 && digits == 0)
		return tk_error_set(err, TK_ERR_FORMAT, start,
				    "metadata: bad hexadecimal literal at line %u", lx->line);
	if (overflow)
		return tk_error_set(err, TK_ERR_FORMAT, start,
				    "metadata: integer literal too large at line %u", lx->line);
	/* C suffixes: u, l, ul, ull, ... */
	while (lx->pos < lx->len && strchr("uUlL", lx->s[lx->pos]) && lx->s[lx->pos])
		lx->pos++;
	if (lx->pos < lx->len && is_ident_char(lx->s[lx->pos]))
		return tk_error_set(err, TK_ERR_FORMAT, start,
				    "metadata: bad integer literal at line %u", lx->line);
	t->kind = TSDL_INT;
	t->u = v;
	t->text = tk_arena_strndup(lx->arena, lx->s + start, lx->pos - start);
	if (!t->text)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
	return TK_OK;
}

static tk_status lex_one(tsdl_lexer *lx, tsdl_token *t, tk_error *err)
{
	tk_status st = skip_space(lx, err);
	if (st != TK_OK)
		return st;
	memset(t, 0, sizeof *t);
	t->offset = lx->pos;
	t->line = lx->line;
	if (lx->pos >= lx->len) {
		t->kind = TSDL_EOF;
		t->text = "end of metadata";
		return TK_OK;
	}
	char c = lx->s[lx->pos];
	if (is_ident_start(c)) {
		size_t start = lx->pos;
		while (lx->pos < lx->len && is_ident_char(lx->s[lx->pos]))
			lx->pos++;
		t->kind = TSDL_IDENT;
		t->text = tk_arena_strndup(lx->arena, lx->s + start, lx->pos - start);
		return t->text ? TK_OK
			       : tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					      "metadata: out of memory");
	}
	if (c >= '0' && c <= '9')
		return lex_number(lx, t, err);
	if (c == '"' || c == '\'')
		return lex_quoted(lx, t, c, err);
	static const char *const puncts[] = {"...", ":=", "->", "{", "}", "(", ")", "[", "]",
					     ";",   ":",  ",",  "=", ".", "<", ">", "+", "-",
					     "*",   "&",  "|",  "~", "!", "/", "%", "^", "?"};
	for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
		size_t n = strlen(puncts[i]);
		if (lx->pos + n <= lx->len && memcmp(lx->s + lx->pos, puncts[i], n) == 0) {
			t->kind = TSDL_PUNCT;
			t->text = puncts[i];
			lx->pos += n;
			return TK_OK;
		}
	}
	return tk_error_set(err, TK_ERR_FORMAT, lx->pos,
			    "metadata: unexpected character 0x%02x at line %u", (unsigned char)c,
			    lx->line);
}

tk_status tsdl_next(tsdl_lexer *lx, tk_error *err)
{
	if (lx->has_peek) {
		lx->tok = lx->peek;
		lx->has_peek = false;
		return TK_OK;
	}
	return lex_one(lx, &lx->tok, err);
}

tk_status tsdl_peek(tsdl_lexer *lx, const tsdl_token **out, tk_error *err)
{
	if (!lx->has_peek) {
		tk_status st = lex_one(lx, &lx->peek, err);
		if (st != TK_OK)
			return st;
		lx->has_peek = true;
	}
	*out = &lx->peek;
	return TK_OK;
}
