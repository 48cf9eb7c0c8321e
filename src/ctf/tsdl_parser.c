/* TSDL parser: recursive descent over the lexer's tokens, building field
 * classes and trace/stream/event/clock declarations directly in the trace
 * class arena. Named types (typealias, typedef, struct/variant/enum names)
 * live in lexical scopes: the top level, every block and every struct or
 * variant body. Paths (sequence lengths, variant tags, clock maps) are
 * kept as text and resolved by ctf_trace_class_finish() once the whole
 * metadata is known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_meta.h"
#include "ctf/tsdl_lexer.h"

#define MAX_NESTING 64

typedef enum sym_kind { SYM_ALIAS, SYM_STRUCT, SYM_VARIANT, SYM_ENUM } sym_kind;

typedef struct sym {
	sym_kind kind;
	const char *name;
	const ctf_fc *fc;
	struct sym *next;
} sym;

typedef struct scope {
	sym *syms;
	struct scope *parent;
} scope;

typedef struct parser {
	tsdl_lexer lx;
	ctf_trace_class *tc;
	tk_arena *a;
	scope *sc;
	tk_error *err;
	unsigned depth;
	/* growable lists (malloc'd, moved into the arena at the end) */
	ctf_stream_class **streams;
	size_t n_streams, cap_streams;
	ctf_event_class **events; /* all events, attached to streams at the end */
	size_t n_events, cap_events;
	ctf_clock *clocks;
	size_t n_clocks, cap_clocks;
	tk_env_entry *env;
	size_t n_env, cap_env;
	bool seen_trace;
	/* Every use of a named type is a deep copy, so N nested named structs
	 * of two members each expand 2^N-fold: a budget of copies (more than
	 * real metadata needs: about its text length) makes such a file fail
	 * with a clear error instead of eating the arena's gigabyte. */
	size_t copies_left;
	bool copies_exhausted;
} parser;

#define TOK (&p->lx.tok)

static tk_status nomem(parser *p)
{
	if (p->copies_exhausted)
		return tk_error_set(p->err, TK_ERR_LIMIT, TOK->offset,
				    "metadata: named types at line %u expand to too many field "
				    "classes (over %zu copies)",
				    TOK->line, ((size_t)1 << 15) + p->lx.len);
	return tk_error_set(p->err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
}

static tk_status syntax(parser *p, const char *what)
{
	return tk_error_set(p->err, TK_ERR_FORMAT, TOK->offset,
			    "metadata: syntax error at line %u near '%s': %s", TOK->line,
			    TOK->kind == TSDL_STRING ? "\"...\"" : TOK->text, what);
}

static void warn(parser *p, const char *fmt, const char *a, unsigned line)
{
	if (!p->tc->log)
		return;
	char msg[512];
	snprintf(msg, sizeof msg, fmt, a, line);
	p->tc->log(p->tc->log_user, 0, msg);
}

static tk_status next(parser *p)
{
	return tsdl_next(&p->lx, p->err);
}

static tk_status expect(parser *p, const char *punct)
{
	if (!tsdl_is_punct(TOK, punct)) {
		char what[32];
		snprintf(what, sizeof what, "expected '%s'", punct);
		return syntax(p, what);
	}
	return next(p);
}

static bool is_ident(const tsdl_token *t, const char *s)
{
	return t->kind == TSDL_IDENT && strcmp(t->text, s) == 0;
}

static bool grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t nc = *cap ? *cap * 2 : 8;
	void *na = realloc(*arr, nc * elem);
	if (!na)
		return false;
	*arr = na;
	*cap = nc;
	return true;
}

/* ---- scopes ---- */

static tk_status push_scope(parser *p)
{
	if (++p->depth > MAX_NESTING)
		return tk_error_set(p->err, TK_ERR_LIMIT, TOK->offset,
				    "metadata: nesting deeper than %d at line %u", MAX_NESTING,
				    TOK->line);
	scope *s = tk_arena_calloc(p->a, 1, sizeof *s);
	if (!s)
		return nomem(p);
	s->parent = p->sc;
	p->sc = s;
	return TK_OK;
}

static void pop_scope(parser *p)
{
	p->sc = p->sc->parent;
	p->depth--;
}

static tk_status add_sym(parser *p, sym_kind kind, const char *name, const ctf_fc *fc)
{
	sym *s = tk_arena_calloc(p->a, 1, sizeof *s);
	if (!s)
		return nomem(p);
	s->kind = kind;
	s->name = name;
	s->fc = fc;
	s->next = p->sc->syms;
	p->sc->syms = s;
	return TK_OK;
}

static const ctf_fc *find_sym(const parser *p, sym_kind kind, const char *name)
{
	for (const scope *sc = p->sc; sc; sc = sc->parent)
		for (const sym *s = sc->syms; s; s = s->next)
			if (s->kind == kind && strcmp(s->name, name) == 0)
				return s->fc;
	return NULL;
}

/* ---- field classes ---- */

static ctf_fc *new_fc(parser *p, ctf_fc_type type)
{
	ctf_fc *fc = tk_arena_calloc(p->a, 1, sizeof *fc);
	if (fc) {
		fc->type = type;
		fc->clock = -1;
		fc->base = 10;
		fc->align = 8;
	}
	return fc;
}

/* Deep copy, so that every use of a named type is its own tree. */
static ctf_fc *copy_fc(parser *p, const ctf_fc *src, unsigned depth)
{
	if (depth > MAX_NESTING * 4)
		return NULL;
	if (p->copies_left == 0) {
		p->copies_exhausted = true;
		return NULL;
	}
	p->copies_left--;
	ctf_fc *fc = tk_arena_alloc(p->a, sizeof *fc);
	if (!fc)
		return NULL;
	*fc = *src;
	if (src->n_members) {
		fc->members = tk_arena_alloc(p->a, src->n_members * sizeof *fc->members);
		if (!fc->members)
			return NULL;
		for (size_t i = 0; i < src->n_members; i++) {
			fc->members[i] = src->members[i];
			if (!(fc->members[i].fc = copy_fc(p, src->members[i].fc, depth + 1)))
				return NULL;
		}
	}
	if (src->elem && !(fc->elem = copy_fc(p, src->elem, depth + 1)))
		return NULL;
	return fc;
}

static const char *strip_underscore(const char *name)
{
	return name[0] == '_' ? name + 1 : name;
}

/* ---- values ---- */

typedef struct value {
	enum { VAL_INT, VAL_STRING, VAL_PATH } kind;
	bool negative;
	uint64_t u;
	const char *s; /* string or dotted path */
	size_t offset;
	unsigned line;
} value;

static int64_t value_i64(const value *v)
{
	return v->negative ? (int64_t)(0 - v->u) : (int64_t)v->u;
}

/* value := ['-'|'+'] INT | STRING | CHAR | IDENT ('.' IDENT)* */
static tk_status parse_value(parser *p, value *v)
{
	tk_status st;
	memset(v, 0, sizeof *v);
	v->offset = TOK->offset;
	v->line = TOK->line;
	if (tsdl_is_punct(TOK, "-") || tsdl_is_punct(TOK, "+")) {
		v->negative = tsdl_is_punct(TOK, "-");
		if ((st = next(p)) != TK_OK)
			return st;
		if (TOK->kind != TSDL_INT)
			return syntax(p, "expected an integer after the sign");
	}
	if (TOK->kind == TSDL_INT || TOK->kind == TSDL_CHAR) {
		v->kind = VAL_INT;
		v->u = TOK->u;
		if (v->negative && v->u > (uint64_t)INT64_MAX + 1)
			return tk_error_set(p->err, TK_ERR_FORMAT, TOK->offset,
					    "metadata: negative integer out of range at line %u",
					    TOK->line);
		if (v->u == 0)
			v->negative = false;
		return next(p);
	}
	if (TOK->kind == TSDL_STRING) {
		v->kind = VAL_STRING;
		v->s = TOK->text;
		return next(p);
	}
	if (TOK->kind == TSDL_IDENT) {
		v->kind = VAL_PATH;
		char buf[1024];
		size_t n = 0;
		for (;;) {
			size_t l = strlen(TOK->text);
			if (n + l + 2 > sizeof buf)
				return syntax(p, "path too long");
			memcpy(buf + n, TOK->text, l);
			n += l;
			if ((st = next(p)) != TK_OK)
				return st;
			if (!tsdl_is_punct(TOK, ".") && !tsdl_is_punct(TOK, "->"))
				break;
			buf[n++] = '.';
			if ((st = next(p)) != TK_OK)
				return st;
			if (TOK->kind != TSDL_IDENT)
				return syntax(p, "expected a name after '.'");
		}
		v->s = tk_arena_strndup(p->a, buf, n);
		return v->s ? TK_OK : nomem(p);
	}
	return syntax(p, "expected a value");
}

static bool value_bool(const value *v, bool *out)
{
	if (v->kind == VAL_INT) {
		*out = v->u != 0;
		return true;
	}
	if (v->kind == VAL_PATH) {
		if (!strcmp(v->s, "true") || !strcmp(v->s, "TRUE")) {
			*out = true;
			return true;
		}
		if (!strcmp(v->s, "false") || !strcmp(v->s, "FALSE")) {
			*out = false;
			return true;
		}
	}
	return false;
}

static tk_status bad_value(parser *p, const value *v, const char *attr)
{
	return tk_error_set(p->err, TK_ERR_FORMAT, v->offset,
			    "metadata: invalid value for '%s' at line %u", attr, v->line);
}

/* byte_order value -> 0 native, 1 le, 2 be, -1 invalid */
static int byte_order_of(const value *v)
{
	if (v->kind != VAL_PATH)
		return -1;
	if (!strcmp(v->s, "native"))
		return 0;
	if (!strcmp(v->s, "le") || !strcmp(v->s, "little"))
		return 1;
	if (!strcmp(v->s, "be") || !strcmp(v->s, "big") || !strcmp(v->s, "network"))
		return 2;
	return -1;
}

/* Parses `name = value;` pairs of a type body up to '}' and hands each to fn. */
typedef tk_status (*attr_fn)(parser *p, ctf_fc *fc, const char *name, const value *v);

static tk_status parse_attrs(parser *p, ctf_fc *fc, attr_fn fn)
{
	tk_status st;
	if ((st = expect(p, "{")) != TK_OK)
		return st;
	while (!tsdl_is_punct(TOK, "}")) {
		if (TOK->kind != TSDL_IDENT)
			return syntax(p, "expected an attribute name");
		const char *name = TOK->text;
		if ((st = next(p)) != TK_OK || (st = expect(p, "=")) != TK_OK)
			return st;
		value v;
		if ((st = parse_value(p, &v)) != TK_OK)
			return st;
		if ((st = fn(p, fc, name, &v)) != TK_OK)
			return st;
		if ((st = expect(p, ";")) != TK_OK)
			return st;
	}
	return next(p);
}

static tk_status int_attr(parser *p, ctf_fc *fc, const char *name, const value *v)
{
	if (!strcmp(name, "size")) {
		if (v->kind != VAL_INT || v->u == 0 || v->u > 64)
			return tk_error_set(p->err, TK_ERR_FORMAT, v->offset,
					    "metadata: integer size must be 1..64 bits at line %u",
					    v->line);
		fc->size = (unsigned)v->u;
	} else if (!strcmp(name, "align")) {
		if (v->kind != VAL_INT || v->u == 0 || (v->u & (v->u - 1)) || v->u > 1 << 20)
			return tk_error_set(p->err, TK_ERR_FORMAT, v->offset,
					    "metadata: alignment must be a power of two at line %u",
					    v->line);
		fc->align = (unsigned)v->u;
	} else if (!strcmp(name, "signed")) {
		if (!value_bool(v, &fc->is_signed))
			return bad_value(p, v, name);
	} else if (!strcmp(name, "byte_order")) {
		int bo = byte_order_of(v);
		if (bo < 0)
			return bad_value(p, v, name);
		fc->byte_order = (uint8_t)bo;
	} else if (!strcmp(name, "base")) {
		if (v->kind == VAL_INT) {
			if (v->u != 2 && v->u != 8 && v->u != 10 && v->u != 16)
				return bad_value(p, v, name);
			fc->base = (uint8_t)v->u;
		} else if (v->kind == VAL_PATH) {
			const char *s = v->s;
			if (!strcmp(s, "decimal") || !strcmp(s, "dec") || !strcmp(s, "d") ||
			    !strcmp(s, "i") || !strcmp(s, "u"))
				fc->base = 10;
			else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") ||
				 !strcmp(s, "x") || !strcmp(s, "X") || !strcmp(s, "p"))
				fc->base = 16;
			else if (!strcmp(s, "octal") || !strcmp(s, "oct") || !strcmp(s, "o"))
				fc->base = 8;
			else if (!strcmp(s, "binary") || !strcmp(s, "bin") || !strcmp(s, "b"))
				fc->base = 2;
			else
				return bad_value(p, v, name);
		} else {
			return bad_value(p, v, name);
		}
	} else if (!strcmp(name, "encoding")) {
		if (v->kind != VAL_PATH)
			return bad_value(p, v, name);
		fc->encoded = strcmp(v->s, "none") != 0;
	} else if (!strcmp(name, "map")) {
		/* clock.NAME.value */
		if (v->kind != VAL_PATH || strncmp(v->s, "clock.", 6) != 0)
			return bad_value(p, v, name);
		const char *cn = v->s + 6;
		const char *dot = strchr(cn, '.');
		fc->clock_name = dot ? tk_arena_strndup(p->a, cn, (size_t)(dot - cn)) : cn;
		if (!fc->clock_name)
			return nomem(p);
	} else {
		warn(p, "metadata: unknown integer attribute '%s' at line %u (ignored)", name,
		     v->line);
	}
	return TK_OK;
}

static tk_status float_attr(parser *p, ctf_fc *fc, const char *name, const value *v)
{
	if (!strcmp(name, "exp_dig") || !strcmp(name, "mant_dig")) {
		if (v->kind != VAL_INT || v->u == 0 || v->u > 64)
			return bad_value(p, v, name);
		if (name[0] == 'e')
			fc->exp_dig = (unsigned)v->u;
		else
			fc->mant_dig = (unsigned)v->u;
	} else if (!strcmp(name, "align") || !strcmp(name, "byte_order")) {
		return int_attr(p, fc, name, v);
	} else {
		warn(p, "metadata: unknown floating_point attribute '%s' at line %u (ignored)",
		     name, v->line);
	}
	return TK_OK;
}

static tk_status string_attr(parser *p, ctf_fc *fc, const char *name, const value *v)
{
	(void)fc;
	if (strcmp(name, "encoding") != 0)
		warn(p, "metadata: unknown string attribute '%s' at line %u (ignored)", name,
		     v->line);
	return TK_OK;
}

static tk_status parse_type_spec(parser *p, ctf_fc **out, const char **pending);
static tk_status parse_fields(parser *p, ctf_fc *agg);

static tk_status parse_integer(parser *p, ctf_fc **out)
{
	size_t off = TOK->offset;
	unsigned line = TOK->line;
	ctf_fc *fc = new_fc(p, CTF_FC_INT);
	if (!fc)
		return nomem(p);
	fc->align = 0;
	tk_status st = parse_attrs(p, fc, int_attr);
	if (st != TK_OK)
		return st;
	if (!fc->size)
		return tk_error_set(p->err, TK_ERR_FORMAT, off,
				    "metadata: integer without a size at line %u", line);
	if (!fc->align)
		fc->align = fc->size % 8 ? 1 : 8;
	*out = fc;
	return TK_OK;
}

static tk_status parse_float(parser *p, ctf_fc **out)
{
	size_t off = TOK->offset;
	unsigned line = TOK->line;
	ctf_fc *fc = new_fc(p, CTF_FC_FLOAT);
	if (!fc)
		return nomem(p);
	fc->align = 0;
	tk_status st = parse_attrs(p, fc, float_attr);
	if (st != TK_OK)
		return st;
	fc->size = fc->exp_dig + fc->mant_dig;
	if (fc->size != 32 && fc->size != 64)
		return tk_error_set(
		    p->err, TK_ERR_UNSUPPORTED, off,
		    "metadata: floating point of %u bits at line %u (only 32 and 64 are supported)",
		    fc->size, line);
	if (!fc->align)
		fc->align = 8;
	*out = fc;
	return TK_OK;
}

static tk_status parse_string(parser *p, ctf_fc **out)
{
	ctf_fc *fc = new_fc(p, CTF_FC_STRING);
	if (!fc)
		return nomem(p);
	if (tsdl_is_punct(TOK, "{")) {
		tk_status st = parse_attrs(p, fc, string_attr);
		if (st != TK_OK)
			return st;
	}
	*out = fc;
	return TK_OK;
}

static tk_status parse_enum(parser *p, ctf_fc **out)
{
	tk_status st;
	const char *name = NULL;
	size_t off = TOK->offset;
	unsigned line = TOK->line;
	if (TOK->kind == TSDL_IDENT) {
		name = TOK->text;
		if ((st = next(p)) != TK_OK)
			return st;
	}
	ctf_fc *container = NULL;
	if (tsdl_is_punct(TOK, ":")) {
		if ((st = next(p)) != TK_OK)
			return st;
		const char *pending = NULL;
		if ((st = parse_type_spec(p, &container, &pending)) != TK_OK)
			return st;
		if (pending)
			return syntax(p, "unexpected name after the enum container type");
	}
	if (!tsdl_is_punct(TOK, "{")) {
		if (!name)
			return syntax(p, "expected '{' after enum");
		const ctf_fc *fc = find_sym(p, SYM_ENUM, name);
		if (!fc)
			return tk_error_set(p->err, TK_ERR_FORMAT, off,
					    "metadata: unknown enum '%s' at line %u", name, line);
		*out = copy_fc(p, fc, 0);
		return *out ? TK_OK : nomem(p);
	}
	if (!container) {
		const ctf_fc *intfc = find_sym(p, SYM_ALIAS, "int");
		if (!intfc)
			return tk_error_set(
			    p->err, TK_ERR_FORMAT, off,
			    "metadata: enum without a container type and no 'int' alias at line %u",
			    line);
		if (!(container = copy_fc(p, intfc, 0)))
			return nomem(p);
	}
	if (container->type != CTF_FC_INT)
		return tk_error_set(p->err, TK_ERR_FORMAT, off,
				    "metadata: enum container type is not an integer at line %u",
				    line);
	ctf_fc *fc = container;
	fc->type = CTF_FC_ENUM;
	if ((st = next(p)) != TK_OK)
		return st;
	ctf_mapping *maps = NULL;
	size_t n = 0, cap = 0;
	int64_t next_val = 0;
	while (!tsdl_is_punct(TOK, "}")) {
		if (TOK->kind != TSDL_IDENT && TOK->kind != TSDL_STRING) {
			st = syntax(p, "expected an enumerator");
			goto fail;
		}
		ctf_mapping m = {.label = TOK->text};
		if ((st = next(p)) != TK_OK)
			goto fail;
		if (tsdl_is_punct(TOK, "=")) {
			value lo, hi;
			if ((st = next(p)) != TK_OK || (st = parse_value(p, &lo)) != TK_OK)
				goto fail;
			if (lo.kind != VAL_INT) {
				st = bad_value(p, &lo, "enumerator");
				goto fail;
			}
			m.lo = m.hi = value_i64(&lo);
			if (tsdl_is_punct(TOK, "...")) {
				if ((st = next(p)) != TK_OK || (st = parse_value(p, &hi)) != TK_OK)
					goto fail;
				if (hi.kind != VAL_INT) {
					st = bad_value(p, &hi, "enumerator");
					goto fail;
				}
				m.hi = value_i64(&hi);
			}
		} else {
			m.lo = m.hi = next_val;
		}
		next_val = m.hi + 1;
		if (!grow((void **)&maps, &cap, n, sizeof *maps)) {
			st = nomem(p);
			goto fail;
		}
		maps[n++] = m;
		if (tsdl_is_punct(TOK, ","))
			if ((st = next(p)) != TK_OK)
				goto fail;
	}
	if ((st = next(p)) != TK_OK)
		goto fail;
	fc->n_maps = n;
	if (n) {
		fc->maps = tk_arena_alloc(p->a, n * sizeof *maps);
		if (!fc->maps) {
			st = nomem(p);
			goto fail;
		}
		memcpy(fc->maps, maps, n * sizeof *maps);
	}
	free(maps);
	fc->maps_unique = true;
	for (size_t i = 0; i < n && fc->maps_unique; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(fc->maps[i].label, fc->maps[j].label)) {
				fc->maps_unique = false;
				break;
			}
	if (name && (st = add_sym(p, SYM_ENUM, name, fc)) != TK_OK)
		return st;
	*out = fc;
	return TK_OK;
fail:
	free(maps);
	return st;
}

/* An optional `align(N)` after a struct: raises fc's alignment to N. */
static tk_status parse_struct_align(parser *p, ctf_fc *fc)
{
	if (!is_ident(TOK, "align"))
		return TK_OK;
	tk_status st;
	if ((st = next(p)) != TK_OK || (st = expect(p, "(")) != TK_OK)
		return st;
	value v;
	if ((st = parse_value(p, &v)) != TK_OK)
		return st;
	if (v.kind != VAL_INT || v.u == 0 || (v.u & (v.u - 1)) || v.u > 1 << 20)
		return tk_error_set(p->err, TK_ERR_FORMAT, v.offset,
				    "metadata: alignment must be a power of two at line %u",
				    v.line);
	if (v.u > fc->align)
		fc->align = (unsigned)v.u;
	return expect(p, ")");
}

/* struct [name] [{ fields }] [align(N)]  /  variant [name] [<tag>] [{ fields }] */
static tk_status parse_compound(parser *p, bool is_variant, ctf_fc **out)
{
	tk_status st;
	const char *name = NULL;
	const char *tag = NULL;
	size_t off = TOK->offset;
	unsigned line = TOK->line;
	if (TOK->kind == TSDL_IDENT) {
		name = TOK->text;
		if ((st = next(p)) != TK_OK)
			return st;
	}
	if (is_variant && tsdl_is_punct(TOK, "<")) {
		if ((st = next(p)) != TK_OK)
			return st;
		value v;
		if ((st = parse_value(p, &v)) != TK_OK)
			return st;
		if (v.kind != VAL_PATH)
			return syntax(p, "expected a tag path");
		tag = v.s;
		if ((st = expect(p, ">")) != TK_OK)
			return st;
	}
	ctf_fc *fc;
	if (tsdl_is_punct(TOK, "{")) {
		fc = new_fc(p, is_variant ? CTF_FC_VARIANT : CTF_FC_STRUCT);
		if (!fc)
			return nomem(p);
		fc->align = 1;
		if ((st = next(p)) != TK_OK || (st = push_scope(p)) != TK_OK)
			return st;
		st = parse_fields(p, fc);
		pop_scope(p);
		if (st != TK_OK)
			return st;
		/* `struct name { ... } align(N)`: the alignment belongs to the
		 * declared type, so it is read before the name is registered
		 * (every later `struct name` keeps it, as babeltrace2 does) */
		if (!is_variant && (st = parse_struct_align(p, fc)) != TK_OK)
			return st;
		if (name &&
		    (st = add_sym(p, is_variant ? SYM_VARIANT : SYM_STRUCT, name, fc)) != TK_OK)
			return st;
		/* the declared named type stays untouched; this use gets a copy */
		if (name && !(fc = copy_fc(p, fc, 0)))
			return nomem(p);
	} else {
		if (!name)
			return syntax(p, is_variant ? "expected a variant body"
						    : "expected a struct body");
		const ctf_fc *named = find_sym(p, is_variant ? SYM_VARIANT : SYM_STRUCT, name);
		if (!named)
			return tk_error_set(p->err, TK_ERR_FORMAT, off,
					    "metadata: unknown %s '%s' at line %u",
					    is_variant ? "variant" : "struct", name, line);
		if (!(fc = copy_fc(p, named, 0)))
			return nomem(p);
	}
	/* `struct name align(N)` (no body): this use only */
	if (!is_variant && (st = parse_struct_align(p, fc)) != TK_OK)
		return st;
	if (tag)
		fc->path = tag;
	*out = fc;
	return TK_OK;
}

static bool is_c_type_word(const char *s)
{
	static const char *const words[] = {"const",      "signed", "unsigned", "int",   "long",
					    "short",      "char",   "void",     "_Bool", "_Complex",
					    "_Imaginary", "double", "float"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* A type name made of identifiers ("uint32_t", "unsigned long"). The last
 * identifier may instead be the declarator's name: it is handed back in
 * *pending when the name without it is a known type. */
static tk_status parse_named_type(parser *p, ctf_fc **out, const char **pending)
{
	tk_status st;
	const char *words[8];
	size_t n = 0, off = TOK->offset;
	unsigned line = TOK->line;
	while (TOK->kind == TSDL_IDENT && n < 8) {
		words[n++] = TOK->text;
		if ((st = next(p)) != TK_OK)
			return st;
		/* a known type followed by a non-type identifier: stop */
		if (TOK->kind != TSDL_IDENT || is_c_type_word(TOK->text))
			continue;
		char buf[256];
		size_t l = 0;
		for (size_t i = 0; i < n; i++) {
			if (!strcmp(words[i], "const"))
				continue;
			l += (size_t)snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "",
					      words[i]);
			if (l >= sizeof buf)
				return syntax(p, "type name too long");
		}
		if (find_sym(p, SYM_ALIAS, buf))
			break;
	}
	for (size_t take = n; take > 0; take--) {
		char buf[256];
		size_t l = 0;
		for (size_t i = 0; i < take; i++) {
			if (!strcmp(words[i], "const"))
				continue;
			l += (size_t)snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "",
					      words[i]);
			if (l >= sizeof buf)
				return syntax(p, "type name too long");
		}
		const ctf_fc *fc = find_sym(p, SYM_ALIAS, buf);
		if (fc && n - take <= 1) {
			if (n - take == 1)
				*pending = words[n - 1];
			*out = copy_fc(p, fc, 0);
			return *out ? TK_OK : nomem(p);
		}
	}
	return tk_error_set(p->err, TK_ERR_FORMAT, off, "metadata: unknown type '%s' at line %u",
			    words[0], line);
}

static tk_status parse_type_spec(parser *p, ctf_fc **out, const char **pending)
{
	tk_status st;
	*pending = NULL;
	while (is_ident(TOK, "const"))
		if ((st = next(p)) != TK_OK)
			return st;
	if (TOK->kind != TSDL_IDENT)
		return syntax(p, "expected a type");
	const char *kw = TOK->text;
	if (!strcmp(kw, "integer")) {
		if ((st = next(p)) != TK_OK)
			return st;
		return parse_integer(p, out);
	}
	if (!strcmp(kw, "floating_point")) {
		if ((st = next(p)) != TK_OK)
			return st;
		return parse_float(p, out);
	}
	if (!strcmp(kw, "string")) {
		if ((st = next(p)) != TK_OK)
			return st;
		return parse_string(p, out);
	}
	if (!strcmp(kw, "struct") || !strcmp(kw, "variant")) {
		if ((st = next(p)) != TK_OK)
			return st;
		return parse_compound(p, kw[0] == 'v', out);
	}
	if (!strcmp(kw, "enum")) {
		if ((st = next(p)) != TK_OK)
			return st;
		return parse_enum(p, out);
	}
	return parse_named_type(p, out, pending);
}

/* declarator := '*'* [NAME] ('[' len ']')* [':' bits] ; wraps base into
 * arrays/sequences. name may come from the type parser (pending). */
static tk_status parse_declarator(parser *p, const ctf_fc *base, const char *pending,
				  bool need_name, const char **name_out, ctf_fc **out)
{
	tk_status st;
	while (tsdl_is_punct(TOK, "*"))
		if ((st = next(p)) != TK_OK)
			return st;
	const char *name = pending;
	if (!name && TOK->kind == TSDL_IDENT) {
		name = TOK->text;
		if ((st = next(p)) != TK_OK)
			return st;
	}
	if (!name && need_name)
		return syntax(p, "expected a field name");
	/* dimensions, outermost first */
	struct {
		bool is_seq;
		uint64_t len;
		const char *path;
	} dims[8];
	size_t nd = 0;
	while (tsdl_is_punct(TOK, "[")) {
		if (nd == 8)
			return syntax(p, "too many array dimensions");
		if ((st = next(p)) != TK_OK)
			return st;
		value v;
		if ((st = parse_value(p, &v)) != TK_OK)
			return st;
		if (v.kind == VAL_INT && !v.negative) {
			dims[nd].is_seq = false;
			dims[nd].len = v.u;
		} else if (v.kind == VAL_PATH) {
			dims[nd].is_seq = true;
			dims[nd].path = v.s;
		} else {
			return bad_value(p, &v, "array length");
		}
		nd++;
		if ((st = expect(p, "]")) != TK_OK)
			return st;
	}
	ctf_fc *fc = copy_fc(p, base, 0);
	if (!fc)
		return nomem(p);
	if (tsdl_is_punct(TOK, ":")) {
		/* GNU bitfield: the integer with another size */
		if ((st = next(p)) != TK_OK)
			return st;
		value v;
		if ((st = parse_value(p, &v)) != TK_OK)
			return st;
		if (v.kind != VAL_INT || v.u == 0 || v.u > 64 ||
		    (fc->type != CTF_FC_INT && fc->type != CTF_FC_ENUM))
			return bad_value(p, &v, "bitfield");
		fc->size = (unsigned)v.u;
		fc->align = 1;
	}
	for (size_t i = nd; i-- > 0;) {
		ctf_fc *arr = new_fc(p, dims[i].is_seq ? CTF_FC_SEQUENCE : CTF_FC_ARRAY);
		if (!arr)
			return nomem(p);
		arr->elem = fc;
		arr->align = fc->align;
		arr->length = dims[i].len;
		arr->path = dims[i].path;
		arr->elem_is_text =
		    fc->type == CTF_FC_INT && fc->encoded && fc->size == 8 && fc->align == 8;
		fc = arr;
	}
	*name_out = name;
	*out = fc;
	return TK_OK;
}

static tk_status add_member(parser *p, ctf_fc *agg, const char *name, ctf_fc *fc, size_t off,
			    unsigned line)
{
	const char *stripped = strip_underscore(name);
	for (size_t i = 0; i < agg->n_members; i++)
		if (!strcmp(agg->members[i].name, stripped))
			return tk_error_set(p->err, TK_ERR_FORMAT, off,
					    "metadata: duplicate field '%s' at line %u", name,
					    line);
	if ((agg->n_members & (agg->n_members - 1)) == 0) {
		/* capacities are powers of two */
		size_t cap = agg->n_members ? agg->n_members * 2 : 4;
		ctf_member *m = tk_arena_alloc(p->a, cap * sizeof *m);
		if (!m)
			return nomem(p);
		if (agg->n_members)
			memcpy(m, agg->members, agg->n_members * sizeof *m);
		agg->members = m;
	}
	agg->members[agg->n_members].name = stripped;
	agg->members[agg->n_members].name_len = strlen(stripped);
	agg->members[agg->n_members].orig_name = name;
	agg->members[agg->n_members].fc = fc;
	agg->n_members++;
	if (agg->type == CTF_FC_STRUCT && fc->align > agg->align)
		agg->align = fc->align;
	return TK_OK;
}

static tk_status parse_typealias(parser *p)
{
	tk_status st;
	const char *pending = NULL;
	ctf_fc *fc;
	if ((st = parse_type_spec(p, &fc, &pending)) != TK_OK)
		return st;
	const char *dname = NULL;
	ctf_fc *target;
	if ((st = parse_declarator(p, fc, pending, false, &dname, &target)) != TK_OK)
		return st;
	if ((st = expect(p, ":=")) != TK_OK)
		return st;
	char buf[256];
	size_t l = 0;
	while (TOK->kind == TSDL_IDENT) {
		if (strcmp(TOK->text, "const") != 0)
			l += (size_t)snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "",
					      TOK->text);
		if (l >= sizeof buf)
			return syntax(p, "alias name too long");
		if ((st = next(p)) != TK_OK)
			return st;
	}
	while (tsdl_is_punct(TOK, "*"))
		if ((st = next(p)) != TK_OK)
			return st;
	if (l == 0)
		return syntax(p, "expected an alias name");
	const char *alias = tk_arena_strndup(p->a, buf, l);
	if (!alias)
		return nomem(p);
	return add_sym(p, SYM_ALIAS, alias, target);
}

static tk_status parse_typedef(parser *p)
{
	tk_status st;
	const char *pending = NULL;
	ctf_fc *fc;
	if ((st = parse_type_spec(p, &fc, &pending)) != TK_OK)
		return st;
	for (;;) {
		const char *name;
		ctf_fc *target;
		if ((st = parse_declarator(p, fc, pending, true, &name, &target)) != TK_OK)
			return st;
		pending = NULL;
		if ((st = add_sym(p, SYM_ALIAS, name, target)) != TK_OK)
			return st;
		if (!tsdl_is_punct(TOK, ","))
			break;
		if ((st = next(p)) != TK_OK)
			return st;
	}
	return TK_OK;
}

/* Declarations of a struct or variant body, up to and including '}'. */
static tk_status parse_fields(parser *p, ctf_fc *agg)
{
	tk_status st;
	while (!tsdl_is_punct(TOK, "}")) {
		if (TOK->kind == TSDL_EOF)
			return syntax(p, "unterminated struct or variant");
		if (is_ident(TOK, "typealias")) {
			if ((st = next(p)) != TK_OK || (st = parse_typealias(p)) != TK_OK)
				return st;
		} else if (is_ident(TOK, "typedef")) {
			if ((st = next(p)) != TK_OK || (st = parse_typedef(p)) != TK_OK)
				return st;
		} else {
			const char *pending = NULL;
			ctf_fc *fc;
			if ((st = parse_type_spec(p, &fc, &pending)) != TK_OK)
				return st;
			while (!tsdl_is_punct(TOK, ";")) {
				size_t off = TOK->offset;
				unsigned line = TOK->line;
				const char *name;
				ctf_fc *mfc;
				if ((st = parse_declarator(p, fc, pending, true, &name, &mfc)) !=
				    TK_OK)
					return st;
				pending = NULL;
				if ((st = add_member(p, agg, name, mfc, off, line)) != TK_OK)
					return st;
				if (!tsdl_is_punct(TOK, ","))
					break;
				if ((st = next(p)) != TK_OK)
					return st;
			}
		}
		if ((st = expect(p, ";")) != TK_OK)
			return st;
	}
	return next(p);
}

/* ---- blocks ---- */

/* lhs := IDENT ('.' IDENT)* */
static tk_status parse_lhs(parser *p, char *buf, size_t size)
{
	tk_status st;
	size_t n = 0;
	for (;;) {
		if (TOK->kind != TSDL_IDENT)
			return syntax(p, "expected an attribute name");
		int w = snprintf(buf + n, size - n, "%s%s", n ? "." : "", TOK->text);
		if (w < 0 || (size_t)w >= size - n)
			return syntax(p, "attribute name too long");
		n += (size_t)w;
		if ((st = next(p)) != TK_OK)
			return st;
		if (!tsdl_is_punct(TOK, "."))
			return TK_OK;
		if ((st = next(p)) != TK_OK)
			return st;
	}
}

static tk_status parse_uuid(parser *p, const value *v, uint8_t out[16])
{
	if (v->kind != VAL_STRING)
		return bad_value(p, v, "uuid");
	const char *s = v->s;
	size_t k = 0;
	for (size_t i = 0; s[i] && k < 32; i++) {
		if (s[i] == '-')
			continue;
		int hi;
		char c = s[i];
		if (c >= '0' && c <= '9')
			hi = c - '0';
		else if (c >= 'a' && c <= 'f')
			hi = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			hi = c - 'A' + 10;
		else
			return bad_value(p, v, "uuid");
		if (k % 2 == 0)
			out[k / 2] = (uint8_t)(hi << 4);
		else
			out[k / 2] |= (uint8_t)hi;
		k++;
	}
	if (k != 32 || strlen(s) != 36)
		return bad_value(p, v, "uuid");
	return TK_OK;
}

typedef enum block_kind {
	BLK_TRACE,
	BLK_ENV,
	BLK_CLOCK,
	BLK_STREAM,
	BLK_EVENT,
	BLK_CALLSITE
} block_kind;

typedef struct block_ctx {
	block_kind kind;
	ctf_clock *clock;
	ctf_stream_class *stream;
	ctf_event_class *event;
} block_ctx;

static tk_status block_value(parser *p, block_ctx *b, const char *lhs, const value *v)
{
	ctf_trace_class *tc = p->tc;
	switch (b->kind) {
	case BLK_TRACE:
		if (!strcmp(lhs, "major") || !strcmp(lhs, "minor")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			if (lhs[1] == 'a')
				tc->major = (unsigned)v->u;
			else
				tc->minor = (unsigned)v->u;
		} else if (!strcmp(lhs, "uuid")) {
			tk_status st = parse_uuid(p, v, tc->uuid);
			if (st != TK_OK)
				return st;
			tc->has_uuid = true;
		} else if (!strcmp(lhs, "byte_order")) {
			int bo = byte_order_of(v);
			if (bo <= 0)
				return bad_value(p, v, lhs);
			tc->little_endian = bo == 1;
			tc->has_byte_order = true;
		} else {
			warn(p, "metadata: unknown trace attribute '%s' at line %u (ignored)", lhs,
			     v->line);
		}
		return TK_OK;
	case BLK_ENV: {
		if (!grow((void **)&p->env, &p->cap_env, p->n_env, sizeof *p->env))
			return nomem(p);
		tk_env_entry *e = &p->env[p->n_env];
		memset(e, 0, sizeof *e);
		e->key = tk_arena_strdup(p->a, lhs);
		if (!e->key)
			return nomem(p);
		if (v->kind == VAL_INT) {
			e->is_int = true;
			e->i = value_i64(v);
		} else {
			e->str = v->s;
		}
		/* a later duplicate replaces the earlier value */
		for (size_t i = 0; i < p->n_env; i++)
			if (!strcmp(p->env[i].key, lhs)) {
				p->env[i] = *e;
				return TK_OK;
			}
		p->n_env++;
		return TK_OK;
	}
	case BLK_CLOCK: {
		ctf_clock *c = b->clock;
		if (!strcmp(lhs, "name")) {
			if (v->kind == VAL_INT)
				return bad_value(p, v, lhs);
			c->info.name = v->s;
		} else if (!strcmp(lhs, "uuid")) {
			tk_status st = parse_uuid(p, v, c->uuid);
			if (st != TK_OK)
				return st;
			c->has_uuid = true;
			c->info.uuid = v->s;
		} else if (!strcmp(lhs, "description")) {
			if (v->kind != VAL_STRING)
				return bad_value(p, v, lhs);
			c->info.description = v->s;
		} else if (!strcmp(lhs, "freq")) {
			if (v->kind != VAL_INT || v->u == 0 || v->negative)
				return bad_value(p, v, lhs);
			c->info.freq = v->u;
		} else if (!strcmp(lhs, "precision")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			c->info.precision = v->u;
		} else if (!strcmp(lhs, "offset_s")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			c->info.offset_s = value_i64(v);
		} else if (!strcmp(lhs, "offset")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			c->info.offset_cycles = value_i64(v);
		} else if (!strcmp(lhs, "absolute")) {
			if (!value_bool(v, &c->info.absolute))
				return bad_value(p, v, lhs);
		} else {
			warn(p, "metadata: unknown clock attribute '%s' at line %u (ignored)", lhs,
			     v->line);
		}
		return TK_OK;
	}
	case BLK_STREAM:
		if (!strcmp(lhs, "id")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			b->stream->id = v->u;
			b->stream->has_id = true;
		} else {
			warn(p, "metadata: unknown stream attribute '%s' at line %u (ignored)", lhs,
			     v->line);
		}
		return TK_OK;
	case BLK_EVENT: {
		tk_event_class *e = &b->event->info;
		if (!strcmp(lhs, "name")) {
			e->name = v->s;
			if (v->kind == VAL_INT)
				return bad_value(p, v, lhs);
		} else if (!strcmp(lhs, "id")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			e->id = v->u;
			b->event->has_id = true;
		} else if (!strcmp(lhs, "stream_id")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			e->stream_class_id = v->u;
			b->event->has_stream_id = true;
		} else if (!strcmp(lhs, "loglevel")) {
			if (v->kind != VAL_INT)
				return bad_value(p, v, lhs);
			e->loglevel = value_i64(v);
		} else if (!strcmp(lhs, "model.emf.uri")) {
			if (v->kind != VAL_STRING)
				return bad_value(p, v, lhs);
			e->emf_uri = v->s;
		} else {
			warn(p, "metadata: unknown event attribute '%s' at line %u (ignored)", lhs,
			     v->line);
		}
		return TK_OK;
	}
	case BLK_CALLSITE: return TK_OK;
	}
	return TK_OK;
}

static tk_status block_type(parser *p, block_ctx *b, const char *lhs, ctf_fc *fc, size_t off,
			    unsigned line)
{
	ctf_fc **slot = NULL;
	if (b->kind == BLK_TRACE && !strcmp(lhs, "packet.header"))
		slot = &p->tc->packet_header;
	else if (b->kind == BLK_STREAM && !strcmp(lhs, "packet.context"))
		slot = &b->stream->packet_context;
	else if (b->kind == BLK_STREAM && !strcmp(lhs, "event.header"))
		slot = &b->stream->event_header;
	else if (b->kind == BLK_STREAM && !strcmp(lhs, "event.context"))
		slot = &b->stream->event_context;
	else if (b->kind == BLK_EVENT && !strcmp(lhs, "context"))
		slot = &b->event->context;
	else if (b->kind == BLK_EVENT && !strcmp(lhs, "fields"))
		slot = &b->event->payload;
	if (!slot) {
		warn(p, "metadata: unknown type assignment '%s' at line %u (ignored)", lhs, line);
		return TK_OK;
	}
	if (fc->type != CTF_FC_STRUCT)
		return tk_error_set(p->err, TK_ERR_FORMAT, off,
				    "metadata: '%s' must be a struct at line %u", lhs, line);
	*slot = fc;
	return TK_OK;
}

static tk_status parse_block(parser *p, block_kind kind)
{
	tk_status st;
	block_ctx b = {.kind = kind};
	size_t off = TOK->offset;
	unsigned line = TOK->line;
	if (kind == BLK_CLOCK) {
		if (!grow((void **)&p->clocks, &p->cap_clocks, p->n_clocks, sizeof *p->clocks))
			return nomem(p);
		b.clock = &p->clocks[p->n_clocks];
		memset(b.clock, 0, sizeof *b.clock);
		b.clock->info.freq = 1000000000;
		b.clock->info.absolute = false;
	} else if (kind == BLK_STREAM) {
		b.stream = tk_arena_calloc(p->a, 1, sizeof *b.stream);
		if (!b.stream)
			return nomem(p);
		b.stream->clock = -1;
	} else if (kind == BLK_EVENT) {
		b.event = tk_arena_calloc(p->a, 1, sizeof *b.event);
		if (!b.event)
			return nomem(p);
		b.event->info.loglevel = -1;
	} else if (kind == BLK_TRACE) {
		if (p->seen_trace)
			return tk_error_set(p->err, TK_ERR_FORMAT, off,
					    "metadata: second trace block at line %u", line);
		p->seen_trace = true;
	}
	if ((st = expect(p, "{")) != TK_OK || (st = push_scope(p)) != TK_OK)
		return st;
	while (!tsdl_is_punct(TOK, "}")) {
		if (TOK->kind == TSDL_EOF) {
			st = syntax(p, "unterminated block");
			goto out;
		}
		if (is_ident(TOK, "typealias")) {
			if ((st = next(p)) != TK_OK || (st = parse_typealias(p)) != TK_OK)
				goto out;
		} else if (is_ident(TOK, "typedef")) {
			if ((st = next(p)) != TK_OK || (st = parse_typedef(p)) != TK_OK)
				goto out;
		} else if (is_ident(TOK, "struct") || is_ident(TOK, "variant") ||
			   is_ident(TOK, "enum")) {
			const char *pending;
			ctf_fc *fc;
			if ((st = parse_type_spec(p, &fc, &pending)) != TK_OK)
				goto out;
		} else {
			char lhs[256];
			size_t loff = TOK->offset;
			unsigned lline = TOK->line;
			if ((st = parse_lhs(p, lhs, sizeof lhs)) != TK_OK)
				goto out;
			if (tsdl_is_punct(TOK, "=")) {
				value v;
				if ((st = next(p)) != TK_OK || (st = parse_value(p, &v)) != TK_OK)
					goto out;
				if ((st = block_value(p, &b, lhs, &v)) != TK_OK)
					goto out;
			} else if (tsdl_is_punct(TOK, ":=")) {
				const char *pending;
				ctf_fc *fc;
				if ((st = next(p)) != TK_OK ||
				    (st = parse_type_spec(p, &fc, &pending)) != TK_OK)
					goto out;
				if (pending) {
					st = syntax(p, "unexpected name after the type");
					goto out;
				}
				if ((st = block_type(p, &b, lhs, fc, loff, lline)) != TK_OK)
					goto out;
			} else {
				st = syntax(p, "expected '=' or ':='");
				goto out;
			}
		}
		if ((st = expect(p, ";")) != TK_OK)
			goto out;
	}
	st = next(p);
out:
	pop_scope(p);
	if (st != TK_OK)
		return st;
	if (kind == BLK_CLOCK) {
		if (!b.clock->info.name)
			return tk_error_set(p->err, TK_ERR_FORMAT, off,
					    "metadata: clock without a name at line %u", line);
		for (size_t i = 0; i < p->n_clocks; i++)
			if (!strcmp(p->clocks[i].info.name, b.clock->info.name))
				return tk_error_set(p->err, TK_ERR_FORMAT, off,
						    "metadata: duplicate clock '%s' at line %u",
						    b.clock->info.name, line);
		p->n_clocks++;
	} else if (kind == BLK_STREAM) {
		for (size_t i = 0; i < p->n_streams; i++)
			if (p->streams[i]->id == b.stream->id)
				return tk_error_set(p->err, TK_ERR_FORMAT, off,
						    "metadata: duplicate stream id %llu at line %u",
						    (unsigned long long)b.stream->id, line);
		if (!grow((void **)&p->streams, &p->cap_streams, p->n_streams, sizeof *p->streams))
			return nomem(p);
		p->streams[p->n_streams++] = b.stream;
	} else if (kind == BLK_EVENT) {
		if (!b.event->info.name)
			b.event->info.name = "";
		if (!grow((void **)&p->events, &p->cap_events, p->n_events, sizeof *p->events))
			return nomem(p);
		p->events[p->n_events++] = b.event;
	}
	return TK_OK;
}

static tk_status parse_top(parser *p)
{
	tk_status st;
	if ((st = next(p)) != TK_OK)
		return st;
	while (TOK->kind != TSDL_EOF) {
		if (TOK->kind != TSDL_IDENT)
			return syntax(p, "expected a declaration");
		const char *kw = TOK->text;
		block_kind bk;
		bool is_block = true;
		if (!strcmp(kw, "trace"))
			bk = BLK_TRACE;
		else if (!strcmp(kw, "env"))
			bk = BLK_ENV;
		else if (!strcmp(kw, "clock"))
			bk = BLK_CLOCK;
		else if (!strcmp(kw, "stream"))
			bk = BLK_STREAM;
		else if (!strcmp(kw, "event"))
			bk = BLK_EVENT;
		else if (!strcmp(kw, "callsite"))
			bk = BLK_CALLSITE;
		else
			is_block = false, bk = BLK_TRACE;
		if (is_block) {
			const tsdl_token *pk;
			if ((st = tsdl_peek(&p->lx, &pk, p->err)) != TK_OK)
				return st;
			is_block = tsdl_is_punct(pk, "{");
		}
		if (is_block) {
			if ((st = next(p)) != TK_OK || (st = parse_block(p, bk)) != TK_OK)
				return st;
		} else if (!strcmp(kw, "typealias")) {
			if ((st = next(p)) != TK_OK || (st = parse_typealias(p)) != TK_OK)
				return st;
		} else if (!strcmp(kw, "typedef")) {
			if ((st = next(p)) != TK_OK || (st = parse_typedef(p)) != TK_OK)
				return st;
		} else {
			const char *pending;
			ctf_fc *fc;
			if ((st = parse_type_spec(p, &fc, &pending)) != TK_OK)
				return st;
		}
		if ((st = expect(p, ";")) != TK_OK)
			return st;
	}
	return TK_OK;
}

static tk_status attach_events(parser *p)
{
	ctf_trace_class *tc = p->tc;
	/* A trace with events but no stream block has one implicit stream. */
	if (p->n_streams == 0 && p->n_events > 0) {
		ctf_stream_class *sc = tk_arena_calloc(p->a, 1, sizeof *sc);
		if (!sc || !grow((void **)&p->streams, &p->cap_streams, 0, sizeof *p->streams))
			return nomem(p);
		sc->clock = -1;
		p->streams[p->n_streams++] = sc;
	}
	tc->n_streams = p->n_streams;
	tc->streams = tk_arena_alloc(p->a, (p->n_streams + 1) * sizeof *tc->streams);
	if (!tc->streams)
		return nomem(p);
	if (p->n_streams)
		memcpy(tc->streams, p->streams, p->n_streams * sizeof *tc->streams);
	for (size_t i = 0; i < p->n_events; i++) {
		ctf_event_class *ec = p->events[i];
		ctf_stream_class *sc = NULL;
		if (ec->has_stream_id) {
			sc = ctf_trace_class_stream(tc, ec->info.stream_class_id);
		} else if (tc->n_streams == 1) {
			sc = tc->streams[0];
			ec->info.stream_class_id = sc->id;
		} else {
			return tk_error_set(
			    p->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: event '%s' has no stream_id and the trace has %zu streams",
			    ec->info.name, tc->n_streams);
		}
		if (!sc)
			return tk_error_set(p->err, TK_ERR_FORMAT, TK_NO_OFFSET,
					    "metadata: event '%s' refers to unknown stream %llu",
					    ec->info.name,
					    (unsigned long long)ec->info.stream_class_id);
		if (!ec->has_id && sc->n_events > 0)
			return tk_error_set(
			    p->err, TK_ERR_FORMAT, TK_NO_OFFSET,
			    "metadata: event '%s' has no id in a stream with several events",
			    ec->info.name);
		for (size_t j = 0; j < sc->n_events; j++)
			if (sc->events[j]->info.id == ec->info.id)
				return tk_error_set(
				    p->err, TK_ERR_FORMAT, TK_NO_OFFSET,
				    "metadata: duplicate event id %llu in stream %llu",
				    (unsigned long long)ec->info.id, (unsigned long long)sc->id);
		if ((sc->n_events & (sc->n_events + 1)) == 0 || sc->n_events == 0) {
			size_t cap = (sc->n_events + 1) * 2;
			ctf_event_class **ne = tk_arena_alloc(p->a, cap * sizeof *ne);
			if (!ne)
				return nomem(p);
			if (sc->n_events)
				memcpy(ne, sc->events, sc->n_events * sizeof *ne);
			sc->events = ne;
		}
		sc->events[sc->n_events++] = ec;
	}
	tc->n_clocks = p->n_clocks;
	if (p->n_clocks) {
		tc->clocks = tk_arena_alloc(p->a, p->n_clocks * sizeof *tc->clocks);
		if (!tc->clocks)
			return nomem(p);
		memcpy(tc->clocks, p->clocks, p->n_clocks * sizeof *tc->clocks);
	}
	tc->n_env = p->n_env;
	if (p->n_env) {
		tc->env = tk_arena_alloc(p->a, p->n_env * sizeof *tc->env);
		if (!tc->env)
			return nomem(p);
		memcpy(tc->env, p->env, p->n_env * sizeof *tc->env);
	}
	return TK_OK;
}

tk_status ctf_trace_class_parse(const char *text, size_t len, const char *name, tk_log_fn log,
				void *log_user, ctf_trace_class **out, tk_error *err)
{
	*out = NULL;
	ctf_trace_class *tc = calloc(1, sizeof *tc);
	if (!tc)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
	tk_arena_init(&tc->arena, 64 * 1024);
	tc->arena.limit = (size_t)1 << 30;
	tc->log = log;
	tc->log_user = log_user;
	tc->major = 1;
	tc->minor = 8;
	tc->little_endian = true;
	tc->text = malloc(len + 1);
	if (!tc->text) {
		ctf_trace_class_free(tc);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
	}
	memcpy(tc->text, text, len);
	tc->text[len] = 0;
	tc->text_len = len;
	if (len && (unsigned char)text[0] == 0x1E) {
		/* CTF 2: a JSON text sequence, each fragment after 0x1E */
		tk_status st2 = ctf2_metadata_parse(tc, name, err);
		if (st2 == TK_OK)
			st2 = ctf_trace_class_finish(tc, err);
		if (st2 != TK_OK) {
			ctf_trace_class_free(tc);
			return st2;
		}
		*out = tc;
		return TK_OK;
	}
	parser p;
	memset(&p, 0, sizeof p);
	p.tc = tc;
	p.a = &tc->arena;
	p.err = err;
	p.copies_left = ((size_t)1 << 15) + len;
	tsdl_lexer_init(&p.lx, tc->text, len, &tc->arena, name);
	tk_status st = push_scope(&p);
	if (st == TK_OK)
		st = parse_top(&p);
	if (st == TK_OK)
		st = attach_events(&p);
	free(p.streams);
	free(p.events);
	free(p.clocks);
	free(p.env);
	if (st == TK_OK)
		st = ctf_trace_class_finish(tc, err);
	if (st != TK_OK) {
		ctf_trace_class_free(tc);
		return st;
	}
	*out = tc;
	return TK_OK;
}

void ctf_trace_class_free(ctf_trace_class *tc)
{
	if (!tc)
		return;
	for (size_t i = 0; i < tc->n_streams; i++)
		free(tc->streams[i]->by_id);
	tk_arena_free(&tc->arena);
	free(tc->text);
	free(tc);
}

ctf_stream_class *ctf_trace_class_stream(const ctf_trace_class *tc, uint64_t id)
{
	for (size_t i = 0; i < tc->n_streams; i++)
		if (tc->streams[i]->id == id)
			return tc->streams[i];
	return NULL;
}

ctf_event_class *ctf_stream_class_event_slow(const ctf_stream_class *sc, uint64_t id)
{
	for (size_t i = 0; i < sc->n_events; i++)
		if (sc->events[i]->info.id == id)
			return sc->events[i];
	return NULL;
}
