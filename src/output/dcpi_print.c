/* DCPI profile renderers: listing, dcpicat text, info. */
#include <string.h>

#include "output/dcpi_print.h"

static void put_line(tk_writer *out, const char *s, size_t n)
{
	tk_put_mem(out, s, n);
	tk_put_char(out, '\n');
}

static void put_header_lines(const tk_dcpi_header *h, tk_writer *out)
{
	for (size_t i = 0; i < h->n_lines; i++)
		put_line(out, h->lines[i].text, h->lines[i].len);
}

static tk_status put_count(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	(void)err;
	tk_writer *out = user;
	tk_put_str(out, "0x");
	tk_put_hex(out, addr);
	tk_put_char(out, ' ');
	tk_put_u64(out, count);
	tk_put_char(out, '\n');
	return TK_OK;
}

/* dcpicat pads addresses to 12 digits */
static tk_status put_count_padded(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	(void)err;
	tk_writer *out = user;
	tk_put_str(out, "0x");
	tk_put_hex_pad(out, addr, 12);
	tk_put_char(out, ' ');
	tk_put_u64(out, count);
	tk_put_char(out, '\n');
	return TK_OK;
}

tk_status tk_dcpi_print_listing(const tk_dcpi_profile *p, tk_writer *out, tk_error *err)
{
	tk_dcpi_print_head(p, false, out);
	return tk_dcpi_each_count(p, put_count, out, err);
}

void tk_dcpi_print_count(tk_writer *out, bool dcpicat, uint64_t addr, uint32_t count)
{
	(void)(dcpicat ? put_count_padded : put_count)(out, addr, count, NULL);
}

/* The line of the first unknown header key `key`, or NULL. */
static const tk_dcpi_line *find_line(const tk_dcpi_header *h, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < h->n_lines; i++)
		if (h->lines[i].key_len == n && memcmp(h->lines[i].text, key, n) == 0)
			return &h->lines[i];
	return NULL;
}

static void kv(tk_writer *out, const char *key, const char *value)
{
	tk_put_str(out, key);
	tk_put_char(out, ' ');
	tk_put_str(out, value);
	tk_put_char(out, '\n');
}

tk_status tk_dcpi_print_dcpicat(const tk_dcpi_profile *p, tk_writer *out, tk_error *err)
{
	tk_dcpi_print_head(p, true, out);
	return tk_dcpi_each_count(p, put_count_padded, out, err);
}

/* dcpicat's lines before the counts. */
static void put_dcpicat_head(const tk_dcpi_profile *p, tk_writer *out)
{
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	/* name: the image's file name when the path is known, else its id. */
	const char *name = h->image;
	if (h->path) {
		const char *slash = strrchr(h->path, '/');
		name = slash && slash[1] ? slash + 1 : h->path;
	}
	kv(out, "name", name);
	kv(out, "image", h->image);
	const tk_dcpi_line *label = find_line(h, "label");
	if (label) {
		tk_put_str(out, "label ");
		put_line(out, label->value, label->value_len);
	}
	if (h->path)
		kv(out, "path", h->path);
	kv(out, "epoch", h->epoch);
	kv(out, "platform", h->platform);
	tk_put_str(out, "text_start 0x");
	tk_put_hex(out, h->tstart);
	tk_put_str(out, "\ntext_size 0x");
	tk_put_hex(out, h->tsize);
	/* One event per profile: column 1 of the rows below. */
	tk_put_str(out, "\nevent 1 ");
	tk_put_str(out, h->event);
	tk_put_char(out, ':');
	tk_put_u64(out, h->period);
	tk_put_str(out, ":0\n");
}

void tk_dcpi_print_head(const tk_dcpi_profile *p, bool dcpicat, tk_writer *out)
{
	if (dcpicat)
		put_dcpicat_head(p, out);
	else
		put_header_lines(tk_dcpi_profile_header(p), out);
}

/* "9805191724" -> "1998-05-19 17:24 UTC"; other forms are shown as is. */
static void put_epoch(tk_writer *out, const char *e)
{
	tk_put_str(out, e);
	size_t n = strlen(e);
	if (n != 10 && n != 14)
		return;
	const char *r = e;
	tk_put_str(out, " (");
	if (n == 10) {
		/* Two-digit years: DCPI dates from 1996 on; 69..99 are 19xx. */
		tk_put_str(out, (r[0] - '0') * 10 + (r[1] - '0') >= 69 ? "19" : "20");
		tk_put_mem(out, r, 2);
		r += 2;
	} else {
		tk_put_mem(out, r, 4);
		r += 4;
	}
	tk_put_char(out, '-');
	tk_put_mem(out, r, 2);
	tk_put_char(out, '-');
	tk_put_mem(out, r + 2, 2);
	tk_put_char(out, ' ');
	tk_put_mem(out, r + 4, 2);
	tk_put_char(out, ':');
	tk_put_mem(out, r + 6, 2);
	if (n == 14) {
		tk_put_char(out, ':');
		tk_put_mem(out, r + 8, 2);
	}
	tk_put_str(out, " UTC)");
}

static void field(tk_writer *out, const char *name, const char *value)
{
	tk_put_str(out, name);
	tk_put_str(out, ": ");
	tk_put_str(out, value);
	tk_put_char(out, '\n');
}

static void field_u64(tk_writer *out, const char *name, uint64_t v)
{
	tk_put_str(out, name);
	tk_put_str(out, ": ");
	tk_put_u64(out, v);
	tk_put_char(out, '\n');
}

tk_status tk_dcpi_print_info(const tk_dcpi_profile *p, tk_writer *out, tk_error *err)
{
	(void)err;
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	field(out, "format", "dcpi profile");
	field(out, "version", h->version);
	field(out, "image", h->image);
	if (h->path)
		field(out, "path", h->path);
	tk_put_str(out, "epoch: ");
	put_epoch(out, h->epoch);
	tk_put_char(out, '\n');
	field(out, "platform", h->platform);
	field(out, "event", h->event);
	field_u64(out, "period", h->period);
	tk_put_str(out, "text: 0x");
	tk_put_hex(out, h->tstart);
	tk_put_str(out, " .. 0x");
	tk_put_hex(out, h->tstart + h->tsize);
	tk_put_str(out, " (");
	tk_put_u64(out, h->tsize);
	tk_put_str(out, " bytes)\n");
	tk_put_str(out, "cpuspeed: ");
	tk_put_u64(out, h->cpuspeed);
	tk_put_str(out, " MHz\n");
	if (h->has_cpucount)
		field_u64(out, "cpucount", h->cpucount);
	if (h->has_cpuamask) {
		tk_put_str(out, "cpuamask: 0x");
		tk_put_hex(out, h->cpuamask);
		tk_put_char(out, '\n');
	}
	if (h->has_cpuimplv)
		field_u64(out, "cpuimplv", h->cpuimplv);
	size_t unknown = 0;
	for (size_t i = 0; i < h->n_lines; i++)
		unknown += !h->lines[i].known;
	if (unknown) {
		tk_put_str(out, "other header lines:\n");
		for (size_t i = 0; i < h->n_lines; i++)
			if (!h->lines[i].known) {
				tk_put_str(out, "  ");
				put_line(out, h->lines[i].text, h->lines[i].len);
			}
	}
	tk_put_str(out, "header size: ");
	tk_put_u64(out, h->header_size);
	tk_put_str(out, " bytes\n");
	if (!tk_dcpi_body_supported(p)) {
		tk_put_str(out, "body: not readable (the ");
		tk_put_str(out, h->version);
		tk_put_str(out, " body format is undocumented)\n");
		return TK_OK;
	}
	field_u64(out, "chunks", tk_dcpi_chunk_total(p));
	field_u64(out, "addresses with samples", tk_dcpi_total_offsets(p));
	field_u64(out, "samples", tk_dcpi_total_samples(p));
	return TK_OK;
}
