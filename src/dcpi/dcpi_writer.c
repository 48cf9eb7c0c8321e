/* DCPI profile writer (major version 0): header with the spec's padding,
 * chunks built from sorted (offset, count) pairs, footer totals. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/hashmap.h"
#include "base/writer.h"
#include "dcpi/dcpi_internal.h"

/* Appends to buf while counting the full length (snprintf-like). */
typedef struct hbuf {
	char *buf;
	size_t cap, len;
} hbuf;

static void hb_mem(hbuf *b, const char *s, size_t n)
{
	if (b->len < b->cap) {
		size_t room = b->cap - b->len;
		memcpy(b->buf + b->len, s, n < room ? n : room);
	}
	b->len += n;
}

static void hb_str(hbuf *b, const char *s)
{
	hb_mem(b, s, strlen(s));
}

static void hb_num(hbuf *b, uint64_t v, unsigned base)
{
	char tmp[24];
	size_t n = 0;
	do {
		unsigned d = (unsigned)(v % base);
		tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v /= base;
	} while (v);
	for (size_t i = 0; i < n / 2; i++) {
		char c = tmp[i];
		tmp[i] = tmp[n - 1 - i];
		tmp[n - 1 - i] = c;
	}
	hb_mem(b, tmp, n);
}

static bool check_value(const char *key, const char *value, tk_error *err)
{
	if (!value)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "DCPI header field '%s' is missing", key),
		       false;
	if (!tk_dcpi_value_ok(key, value, strlen(value)))
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "DCPI header field '%s' has an invalid value '%.60s'", key,
				    value),
		       false;
	return true;
}

static void line_str(hbuf *b, const char *key, const char *value)
{
	hb_str(b, key);
	hb_mem(b, " ", 1);
	hb_str(b, value);
	hb_mem(b, "\n", 1);
}

static void line_num(hbuf *b, const char *key, uint64_t v, unsigned base)
{
	hb_str(b, key);
	hb_mem(b, " ", 1);
	hb_num(b, v, base);
	hb_mem(b, "\n", 1);
}

/* An extra line must parse as an unknown line: `word blanks value`, and
 * its key must not collide with a field the writer emits itself. */
static bool check_extra(const char *line, tk_error *err)
{
	size_t len = strlen(line), k = 0;
	while (k < len && !tk_dcpi_is_blank(line[k]))
		k++;
	size_t v = k;
	while (v < len && tk_dcpi_is_blank(line[v]))
		v++;
	tk_dcpi_kind kind;
	bool req;
	bool bad = k == 0 || v == k || v == len || memchr(line, '\n', len) ||
		   tk_dcpi_known_key(line, k, &kind, &req) ||
		   (k == 7 && memcmp(line, "samples", 7) == 0);
	for (size_t i = 0; !bad && i < len; i++)
		bad = (unsigned char)line[i] < 0x20 && line[i] != '\t';
	if (bad)
		tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
			     "invalid extra DCPI header line '%.60s'", line);
	return !bad;
}

size_t tk_dcpi_format_header(const tk_dcpi_fields *f, char *buf, size_t cap, tk_error *err)
{
	const char *version = f->version ? f->version : "pdb-0.07";
	if (!check_value("version", version, err) || !check_value("image", f->image, err) ||
	    !check_value("epoch", f->epoch, err) || !check_value("platform", f->platform, err) ||
	    !check_value("event", f->event, err) || (f->path && !check_value("path", f->path, err)))
		return 0;
	if (strncmp(version, "pdb-0.", 6) != 0) {
		tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			     "only pdb-0.x bodies can be written, not %s", version);
		return 0;
	}
	for (size_t i = 0; i < f->n_extra; i++)
		if (!check_extra(f->extra_lines[i], err))
			return 0;
	hbuf b = {buf, cap, 0};
	line_str(&b, "version", version);
	line_str(&b, "image", f->image);
	line_str(&b, "epoch", f->epoch);
	line_str(&b, "platform", f->platform);
	line_str(&b, "event", f->event);
	line_num(&b, "period", f->period, 10);
	line_num(&b, "tstart", f->tstart, 16);
	line_num(&b, "tsize", f->tsize, 10);
	line_num(&b, "cpuspeed", f->cpuspeed, 10);
	if (f->has_cpucount)
		line_num(&b, "cpucount", f->cpucount, 10);
	if (f->path)
		line_str(&b, "path", f->path);
	for (size_t i = 0; i < f->n_extra; i++) {
		hb_str(&b, f->extra_lines[i]);
		hb_mem(&b, "\n", 1);
	}
	/* Pad so the binary body starts 4-byte aligned (dcpiformat(4)). */
	hb_str(&b, "samples");
	size_t pad = (4 - (b.len + 1) % 4) % 4;
	hb_mem(&b, "   ", pad);
	hb_mem(&b, "\n", 1);
	return b.len;
}

void tk_dcpi_format_epoch(time_t t, char buf[11])
{
	struct tm tm;
	gmtime_r(&t, &tm);
	unsigned v[5] = {(unsigned)(tm.tm_year % 100), (unsigned)tm.tm_mon + 1,
			 (unsigned)tm.tm_mday, (unsigned)tm.tm_hour, (unsigned)tm.tm_min};
	for (int i = 0; i < 5; i++) {
		buf[2 * i] = (char)('0' + v[i] / 10);
		buf[2 * i + 1] = (char)('0' + v[i] % 10);
	}
	buf[10] = '\0';
}

static int cmp_sample(const void *a, const void *b)
{
	uint64_t x = ((const tk_dcpi_sample *)a)->offset, y = ((const tk_dcpi_sample *)b)->offset;
	return x < y ? -1 : x > y;
}

/* Sorts, sums repeated offsets, drops zeros; returns the new length. */
static size_t normalise(tk_dcpi_sample *s, size_t n)
{
	qsort(s, n, sizeof *s, cmp_sample);
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].count == 0)
			continue;
		if (out > 0 && s[out - 1].offset == s[i].offset)
			s[out - 1].count += s[i].count;
		else
			s[out++] = s[i];
	}
	return out;
}

static void put_le32(tk_writer *w, uint32_t v)
{
	uint8_t b[4];
	tk_store_u32(b, v, !tk_host_is_le());
	tk_put_mem(w, b, 4);
}

/* A gap of up to this many empty addresses is cheaper filled with zero
 * counts (4 bytes each) than closed by a new chunk header (8 bytes). */
#define MAX_ZERO_FILL 2

static tk_status write_body(tk_writer *w, const tk_dcpi_sample *s, size_t n, tk_error *err)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i].offset > UINT32_MAX)
			return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "offset 0x%llx does not fit a DCPI profile (32 bits)",
					    (unsigned long long)s[i].offset);
		if (s[i].count > UINT32_MAX || total + s[i].count > UINT32_MAX)
			return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
					    "more than 2^32-1 samples do not fit a DCPI profile");
		total += s[i].count;
	}
	size_t i = 0;
	while (i < n) {
		/* Extend the chunk while the next offset is close enough. */
		size_t j = i + 1;
		while (j < n && s[j].offset - s[j - 1].offset <= MAX_ZERO_FILL + 1)
			j++;
		uint64_t first = s[i].offset, last = s[j - 1].offset;
		put_le32(w, (uint32_t)first);
		put_le32(w, (uint32_t)(last - first + 1));
		for (size_t k = i; k < j; k++) {
			if (k > i)
				for (uint64_t z = s[k - 1].offset + 1; z < s[k].offset; z++)
					put_le32(w, 0);
			put_le32(w, (uint32_t)s[k].count);
		}
		i = j;
	}
	put_le32(w, (uint32_t)n);
	put_le32(w, (uint32_t)total);
	return TK_OK;
}

tk_status tk_dcpi_write(const char *path, const tk_dcpi_fields *f, tk_dcpi_sample *samples,
			size_t n, tk_error *err)
{
	tk_error_set_file(err, path);
	size_t hlen = tk_dcpi_format_header(f, NULL, 0, err);
	if (hlen == 0)
		return err ? err->status : TK_ERR_USAGE;
	char *hdr = malloc(hlen);
	if (!hdr)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_dcpi_format_header(f, hdr, hlen, err);
	n = normalise(samples, n);
	tk_writer *w = NULL;
	tk_status st = tk_writer_open_atomic(path, &w, err);
	if (st == TK_OK) {
		tk_put_mem(w, hdr, hlen);
		st = write_body(w, samples, n, err);
	}
	free(hdr);
	if (st != TK_OK) {
		tk_writer_abort(w);
		return st;
	}
	return tk_writer_commit(w, err);
}

struct tk_dcpi_builder {
	tk_hashmap counts; /* offset -> count */
	uint64_t samples;
};

tk_dcpi_builder *tk_dcpi_builder_new(void)
{
	tk_dcpi_builder *b = calloc(1, sizeof *b);
	if (b)
		tk_hashmap_init(&b->counts);
	return b;
}

bool tk_dcpi_builder_add(tk_dcpi_builder *b, uint64_t offset, uint64_t count)
{
	uint64_t *v = tk_hashmap_get(&b->counts, offset);
	if (v)
		*v += count;
	else if (!tk_hashmap_put(&b->counts, offset, count))
		return false;
	b->samples += count;
	return true;
}

uint64_t tk_dcpi_builder_samples(const tk_dcpi_builder *b)
{
	return b->samples;
}

tk_status tk_dcpi_builder_write(tk_dcpi_builder *b, const char *path, const tk_dcpi_fields *f,
				tk_error *err)
{
	size_t n = b->counts.n;
	tk_dcpi_sample *s = malloc((n ? n : 1) * sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < b->counts.cap; i++)
		if (b->counts.used[i])
			s[k++] = (tk_dcpi_sample){b->counts.keys[i], b->counts.vals[i]};
	tk_status st = tk_dcpi_write(path, f, s, k, err);
	free(s);
	return st;
}

void tk_dcpi_builder_free(tk_dcpi_builder *b)
{
	if (!b)
		return;
	tk_hashmap_free(&b->counts);
	free(b);
}
