/* The DCPI profile header: `key value` lines ended by `samples`.
 *
 * Grammar (dcpiformat(4)): required lines exactly once, optional lines at
 * most once, any other `word value` line is kept in order (tools that
 * rewrite a profile must write such lines back unchanged). A known key
 * whose value does not match its grammar is an error rather than silently
 * becoming an "unknown" line, so a typo in tstart cannot go unnoticed. */
#include <stdlib.h>
#include <string.h>

#include "dcpi/dcpi_internal.h"

enum {
	K_VERSION,
	K_IMAGE,
	K_EPOCH,
	K_PLATFORM,
	K_EVENT,
	K_PERIOD,
	K_TSTART,
	K_TSIZE,
	K_CPUSPEED,
	K_CPUAMASK,
	K_CPUIMPLV,
	K_CPUCOUNT,
	K_PATH,
	N_KEYS
};

static const struct {
	const char *name;
	tk_dcpi_kind kind;
	bool required;
} keys[N_KEYS] = {
    [K_VERSION] = {"version", TK_DCPI_VERSION, true},
    [K_IMAGE] = {"image", TK_DCPI_HEXID, true},
    [K_EPOCH] = {"epoch", TK_DCPI_TIME, true},
    [K_PLATFORM] = {"platform", TK_DCPI_TEXT, true},
    [K_EVENT] = {"event", TK_DCPI_TEXT, true},
    /* period is listed both as required and optional in the grammar;
     * "required" wins: exactly once. */
    [K_PERIOD] = {"period", TK_DCPI_DEC, true},
    [K_TSTART] = {"tstart", TK_DCPI_HEX, true},
    [K_TSIZE] = {"tsize", TK_DCPI_DEC, true},
    [K_CPUSPEED] = {"cpuspeed", TK_DCPI_DEC, true},
    [K_CPUAMASK] = {"cpuamask", TK_DCPI_HEX, false},
    [K_CPUIMPLV] = {"cpuimplv", TK_DCPI_DEC, false},
    [K_CPUCOUNT] = {"cpucount", TK_DCPI_DEC, false},
    [K_PATH] = {"path", TK_DCPI_TEXT, false},
};

static int key_index(const char *key, size_t len)
{
	for (int i = 0; i < N_KEYS; i++)
		if (strlen(keys[i].name) == len && memcmp(keys[i].name, key, len) == 0)
			return i;
	return -1;
}

bool tk_dcpi_known_key(const char *key, size_t len, tk_dcpi_kind *kind, bool *required)
{
	int i = key_index(key, len);
	if (i < 0)
		return false;
	*kind = keys[i].kind;
	*required = keys[i].required;
	return true;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_dec(char c)
{
	return c >= '0' && c <= '9';
}

/* Numeric values may carry trailing blanks (the spec pads the last header
 * line with whitespace; some writers padded other lines too). */
static size_t trim_blanks(const char *v, size_t len)
{
	while (len > 0 && tk_dcpi_is_blank(v[len - 1]))
		len--;
	return len;
}

static bool parse_u64(const char *v, size_t len, unsigned base, uint64_t *out)
{
	len = trim_blanks(v, len);
	if (len == 0)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < len; i++) {
		char c = v[i];
		unsigned d;
		if (base == 10) {
			if (!is_dec(c))
				return false;
			d = (unsigned)(c - '0');
		} else {
			if (!is_hex(c))
				return false;
			d = is_dec(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
		}
		if (x > (UINT64_MAX - d) / base)
			return false; /* overflow */
		x = x * base + d;
	}
	*out = x;
	return true;
}

static bool parse_version(const char *v, size_t len, unsigned *major, unsigned *minor)
{
	len = trim_blanks(v, len);
	if (len < 7 || memcmp(v, "pdb-", 4) != 0)
		return false;
	size_t i = 4;
	unsigned parts[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		size_t start = i;
		while (i < len && is_dec(v[i]) && i - start < 9)
			parts[k] = parts[k] * 10 + (unsigned)(v[i++] - '0');
		if (i == start)
			return false;
		if (k == 0) {
			if (i >= len || v[i] != '.')
				return false;
			i++;
		}
	}
	if (i != len)
		return false;
	*major = parts[0];
	*minor = parts[1];
	return true;
}

bool tk_dcpi_value_ok(const char *key, const char *value, size_t len)
{
	tk_dcpi_kind kind = TK_DCPI_TEXT;
	bool required;
	if (!tk_dcpi_known_key(key, strlen(key), &kind, &required))
		kind = TK_DCPI_TEXT;
	if (len == 0 || tk_dcpi_is_blank(value[0]))
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)value[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return false;
	}
	uint64_t x;
	unsigned a, b;
	switch (kind) {
	case TK_DCPI_HEX: return parse_u64(value, len, 16, &x);
	case TK_DCPI_DEC: return parse_u64(value, len, 10, &x);
	case TK_DCPI_HEXID: {
		size_t n = trim_blanks(value, len);
		for (size_t i = 0; i < n; i++)
			if (!is_hex(value[i]))
				return false;
		return n > 0;
	}
	case TK_DCPI_VERSION: return parse_version(value, len, &a, &b);
	case TK_DCPI_TIME: {
		size_t n = trim_blanks(value, len);
		if (n != 10 && n != 14)
			return false;
		for (size_t i = 0; i < n; i++)
			if (!is_dec(value[i]))
				return false;
		return true;
	}
	case TK_DCPI_TEXT: return true;
	}
	return false;
}

static const char *kind_text(tk_dcpi_kind kind)
{
	switch (kind) {
	case TK_DCPI_HEX: return "a 64-bit hexadecimal number";
	case TK_DCPI_HEXID: return "hexadecimal digits";
	case TK_DCPI_DEC: return "a 64-bit decimal number";
	case TK_DCPI_TIME: return "a UTC time YYMMDDHHMM or YYYYMMDDHHMMSS";
	case TK_DCPI_VERSION: return "pdb-<major>.<minor>";
	case TK_DCPI_TEXT: return "text";
	}
	return "?";
}

/* Shown in messages: a line clipped to a readable length. */
#define CLIP(len) ((int)((len) > 60 ? 60 : (len)))

static tk_status add_line(tk_dcpi_profile *p, size_t *cap, const tk_dcpi_line *line, tk_error *err)
{
	if (p->hdr.n_lines == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		tk_dcpi_line *n = realloc(p->lines, ncap * sizeof *n);
		if (!n)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "out of memory for header lines");
		p->lines = n;
		*cap = ncap;
	}
	p->lines[p->hdr.n_lines++] = *line;
	return TK_OK;
}

/* Copies the known values into one block of NUL-terminated strings. */
static tk_status copy_strings(tk_dcpi_profile *p, const int *where, tk_error *err)
{
	size_t total = 0;
	for (int k = 0; k < N_KEYS; k++)
		if (where[k] >= 0)
			total += p->lines[where[k]].value_len + 1;
	p->strings = malloc(total ? total : 1);
	if (!p->strings)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "out of memory for header values");
	char *s = p->strings;
	const char **dest[N_KEYS] = {
	    [K_VERSION] = &p->hdr.version,   [K_IMAGE] = &p->hdr.image, [K_EPOCH] = &p->hdr.epoch,
	    [K_PLATFORM] = &p->hdr.platform, [K_EVENT] = &p->hdr.event, [K_PATH] = &p->hdr.path,
	};
	for (int k = 0; k < N_KEYS; k++) {
		if (where[k] < 0 || !dest[k])
			continue;
		const tk_dcpi_line *l = &p->lines[where[k]];
		size_t n = keys[k].kind == TK_DCPI_TEXT ? l->value_len
							: trim_blanks(l->value, l->value_len);
		memcpy(s, l->value, n);
		s[n] = '\0';
		*dest[k] = s;
		s += n + 1;
	}
	return TK_OK;
}

static tk_status store_number(tk_dcpi_profile *p, int k, const tk_dcpi_line *l)
{
	uint64_t v = 0;
	parse_u64(l->value, l->value_len, keys[k].kind == TK_DCPI_HEX ? 16 : 10, &v);
	switch (k) {
	case K_PERIOD: p->hdr.period = v; break;
	case K_TSTART: p->hdr.tstart = v; break;
	case K_TSIZE: p->hdr.tsize = v; break;
	case K_CPUSPEED: p->hdr.cpuspeed = v; break;
	case K_CPUAMASK:
		p->hdr.cpuamask = v;
		p->hdr.has_cpuamask = true;
		break;
	case K_CPUIMPLV:
		p->hdr.cpuimplv = v;
		p->hdr.has_cpuimplv = true;
		break;
	case K_CPUCOUNT:
		p->hdr.cpucount = v;
		p->hdr.has_cpucount = true;
		break;
	default: break;
	}
	return TK_OK;
}

tk_status tk_dcpi_parse_header(tk_dcpi_profile *p, tk_error *err)
{
	const char *d = (const char *)p->data;
	size_t size = p->size, pos = 0, cap = 0;
	int where[N_KEYS];
	for (int k = 0; k < N_KEYS; k++)
		where[k] = -1;
	uint64_t terminator_off = 0;
	tk_status st;

	for (;;) {
		if (pos >= size)
			return tk_error_set(err, TK_ERR_TRUNCATED, pos,
					    "header ends without its 'samples' terminator line");
		const char *nl = memchr(d + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - d) : size;
		/* Text only: a binary byte here means the terminator was
		 * missed and we are reading the body. */
		for (size_t i = pos; i < end; i++) {
			unsigned char c = (unsigned char)d[i];
			if (c == '\r' && i + 1 == end)
				return tk_error_set(
				    err, TK_ERR_FORMAT, i,
				    "header line ends in a carriage return (DOS line "
				    "endings are not allowed)");
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return tk_error_set(
				    err, TK_ERR_FORMAT, i,
				    "binary byte 0x%02x in the header: no 'samples' "
				    "terminator line before the binary data",
				    c);
		}
		if (!nl)
			return tk_error_set(err, TK_ERR_TRUNCATED, pos,
					    "header ends without its 'samples' terminator line");
		size_t len = end - pos;
		const char *text = d + pos;
		size_t key_len = 0;
		while (key_len < len && !tk_dcpi_is_blank(text[key_len]))
			key_len++;
		/* "samples" <space>* "\n" */
		if (key_len == 7 && memcmp(text, "samples", 7) == 0 &&
		    trim_blanks(text, len) == 7) {
			terminator_off = pos;
			pos = end + 1;
			break;
		}
		if (len == 0)
			return tk_error_set(err, TK_ERR_FORMAT, pos, "empty header line");
		if (key_len == 0)
			return tk_error_set(err, TK_ERR_FORMAT, pos,
					    "header line '%.*s' starts with a blank", CLIP(len),
					    text);
		size_t v = key_len;
		while (v < len && tk_dcpi_is_blank(text[v]))
			v++;
		if (v == key_len || v == len)
			return tk_error_set(
			    err, TK_ERR_FORMAT, pos,
			    "header line '%.*s' has no value (and is not the 'samples' "
			    "terminator)",
			    CLIP(len), text);
		tk_dcpi_line line = {
		    .text = text,
		    .len = len,
		    .key_len = key_len,
		    .value = text + v,
		    .value_len = len - v,
		    .offset = pos,
		};
		int k = key_index(text, key_len);
		if (k >= 0) {
			line.known = true;
			if (where[k] >= 0)
				return tk_error_set(
				    err, TK_ERR_FORMAT, pos,
				    "duplicate '%s' header line (first at offset 0x%llx)",
				    keys[k].name, (unsigned long long)p->lines[where[k]].offset);
			char key[16];
			memcpy(key, keys[k].name, strlen(keys[k].name) + 1);
			if (!tk_dcpi_value_ok(key, line.value, line.value_len))
				return tk_error_set(err, TK_ERR_FORMAT, pos + v,
						    "'%s' value '%.*s' is not %s", keys[k].name,
						    CLIP(line.value_len), line.value,
						    kind_text(keys[k].kind));
			where[k] = (int)p->hdr.n_lines;
		}
		if ((st = add_line(p, &cap, &line, err)) != TK_OK)
			return st;
		pos = end + 1;
	}

	for (int k = 0; k < N_KEYS; k++)
		if (keys[k].required && where[k] < 0)
			return tk_error_set(err, TK_ERR_FORMAT, terminator_off,
					    "required header line '%s' is missing", keys[k].name);
	for (int k = 0; k < N_KEYS; k++)
		if (where[k] >= 0 && (keys[k].kind == TK_DCPI_HEX || keys[k].kind == TK_DCPI_DEC))
			store_number(p, k, &p->lines[where[k]]);
	const tk_dcpi_line *ver = &p->lines[where[K_VERSION]];
	parse_version(ver->value, ver->value_len, &p->hdr.major, &p->hdr.minor);
	if ((st = copy_strings(p, where, err)) != TK_OK)
		return st;
	p->hdr.lines = p->lines;
	p->hdr.header_size = pos;
	if (p->hdr.major > 1)
		return tk_error_set(
		    err, TK_ERR_UNSUPPORTED, ver->value - d,
		    "unsupported profile version %s: tracekit reads pdb-0.x profiles "
		    "and pdb-1.x headers",
		    p->hdr.version);
	return TK_OK;
}
