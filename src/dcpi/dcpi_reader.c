/* DCPI profile reader: opens a file (mmapped) or memory, parses the header
 * (dcpi_header.c) and validates the major-version-0 body once, so that
 * chunk iteration afterwards needs no checks beyond bounds. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "dcpi/dcpi_cursor.h"
#include "dcpi/dcpi_internal.h"

/* One pass over the chunks: sorted, non-overlapping, inside the file, and
 * totals equal to the footer's. */
static tk_status validate_body(tk_dcpi_profile *p, tk_error *err)
{
	const uint8_t *d = p->data;
	uint64_t off = p->hdr.header_size;
	if (p->size - off < 8)
		return tk_error_set(err, TK_ERR_TRUNCATED, off,
				    "body of %llu bytes is too short for the 8-byte footer",
				    (unsigned long long)(p->size - off));
	uint64_t footer = p->size - 8;
	p->body_off = off;
	p->footer_off = footer;
	uint64_t nonzero = 0, sum = 0, chunks = 0;
	uint64_t prev_off = 0, prev_end = 0;
	while (off < footer) {
		if (footer - off < 8)
			return tk_error_set(
			    err, TK_ERR_TRUNCATED, off,
			    "%llu bytes before the footer at 0x%llx are too few for a "
			    "chunk header (truncated file?)",
			    (unsigned long long)(footer - off), (unsigned long long)footer);
		uint32_t coff = tk_load_le32(d + off);
		uint32_t n = tk_load_le32(d + off + 4);
		if (n == 0)
			return tk_error_set(err, TK_ERR_FORMAT, off + 4,
					    "chunk at offset 0x%x has no counts", coff);
		if ((footer - off - 8) / 4 < n)
			return tk_error_set(
			    err, TK_ERR_TRUNCATED, off + 4,
			    "chunk of %u counts (%llu bytes) runs past the footer at "
			    "0x%llx (truncated file?)",
			    n, (unsigned long long)n * 4, (unsigned long long)footer);
		if (chunks > 0 && coff <= prev_off)
			return tk_error_set(
			    err, TK_ERR_FORMAT, off,
			    "chunk offset 0x%x is not above the previous chunk's 0x%llx "
			    "(chunks must be sorted by offset)",
			    coff, (unsigned long long)prev_off);
		if (chunks > 0 && coff < prev_end)
			return tk_error_set(
			    err, TK_ERR_FORMAT, off,
			    "chunk [0x%x, 0x%llx) overlaps the previous chunk [0x%llx, "
			    "0x%llx)",
			    coff, (unsigned long long)coff + n, (unsigned long long)prev_off,
			    (unsigned long long)prev_end);
		const uint8_t *c = d + off + 8;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t v = tk_load_le32(c + 4 * (size_t)i);
			nonzero += v != 0;
			sum += v;
		}
		prev_off = coff;
		prev_end = (uint64_t)coff + n;
		chunks++;
		off += 8 + 4 * (uint64_t)n;
	}
	uint32_t f_offsets = tk_load_le32(d + footer);
	uint32_t f_samples = tk_load_le32(d + footer + 4);
	if (f_offsets != nonzero)
		return tk_error_set(err, TK_ERR_FORMAT, footer,
				    "footer says %u addresses have samples, the chunks have %llu",
				    f_offsets, (unsigned long long)nonzero);
	/* The footer field is 32 bits: a larger sum is stored modulo 2^32. */
	if (f_samples != (uint32_t)sum)
		return tk_error_set(err, TK_ERR_FORMAT, footer + 4,
				    "footer says %u samples, the chunks hold %llu", f_samples,
				    (unsigned long long)sum);
	p->total_offsets = nonzero;
	p->total_samples = sum;
	p->n_chunks = chunks;
	return TK_OK;
}

static tk_status open_common(tk_dcpi_profile *p, tk_error *err)
{
	tk_status st = tk_dcpi_parse_header(p, err);
	if (st != TK_OK)
		return st;
	p->body_supported = p->hdr.major == 0;
	if (!p->body_supported)
		return TK_OK; /* pdb-1.x: the header is all we can read */
	return validate_body(p, err);
}

static void set_name(tk_dcpi_profile *p, const char *name)
{
	size_t n = strlen(name);
	if (n >= sizeof p->name)
		n = sizeof p->name - 1;
	memcpy(p->name, name, n);
	p->name[n] = '\0';
}

tk_status tk_dcpi_open(const char *path, tk_dcpi_profile **out, tk_error *err)
{
	*out = NULL;
	tk_error_set_file(err, path);
	tk_dcpi_profile *p = calloc(1, sizeof *p);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	set_name(p, path);
	tk_status st = tk_input_open(path, &p->in, err);
	if (st != TK_OK)
		goto fail;
	p->data = tk_input_data(p->in);
	if (!p->data) {
		/* A pipe: DCPI profiles are small and need random access. */
		st = tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				  "DCPI profiles must be regular files, not pipes");
		goto fail;
	}
	p->size = (size_t)tk_input_size(p->in);
	if ((st = open_common(p, err)) != TK_OK)
		goto fail;
	*out = p;
	return TK_OK;
fail:
	tk_dcpi_close(p);
	return st;
}

tk_status tk_dcpi_open_memory(const void *data, size_t size, const char *name,
			      tk_dcpi_profile **out, tk_error *err)
{
	*out = NULL;
	if (name)
		tk_error_set_file(err, name);
	tk_dcpi_profile *p = calloc(1, sizeof *p);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	set_name(p, name ? name : "");
	p->data = size ? data : (const uint8_t *)"";
	p->size = size;
	tk_status st = open_common(p, err);
	if (st != TK_OK) {
		tk_dcpi_close(p);
		return st;
	}
	*out = p;
	return TK_OK;
}

void tk_dcpi_close(tk_dcpi_profile *p)
{
	if (!p)
		return;
	tk_input_close(p->in);
	free(p->lines);
	free(p->strings);
	free(p);
}

const tk_dcpi_header *tk_dcpi_profile_header(const tk_dcpi_profile *p)
{
	return &p->hdr;
}

const uint8_t *tk_dcpi_profile_bytes(const tk_dcpi_profile *p, size_t *size)
{
	*size = p->size;
	return p->data;
}

const char *tk_dcpi_profile_name(const tk_dcpi_profile *p)
{
	return p->name;
}
bool tk_dcpi_body_supported(const tk_dcpi_profile *p)
{
	return p->body_supported;
}
uint64_t tk_dcpi_total_offsets(const tk_dcpi_profile *p)
{
	return p->total_offsets;
}
uint64_t tk_dcpi_total_samples(const tk_dcpi_profile *p)
{
	return p->total_samples;
}
uint64_t tk_dcpi_chunk_total(const tk_dcpi_profile *p)
{
	return p->n_chunks;
}

tk_status tk_dcpi_next_chunk(const tk_dcpi_profile *p, uint64_t *cursor, tk_dcpi_chunk *out,
			     tk_error *err)
{
	if (!p->body_supported) {
		tk_error_set_file(err, p->name);
		return tk_error_set(
		    err, TK_ERR_UNSUPPORTED, p->hdr.header_size,
		    "the body of %s profiles is not documented; only the header can be "
		    "read",
		    p->hdr.version);
	}
	uint64_t off = *cursor ? *cursor : p->body_off;
	/* The body was validated at open: only the end needs checking. */
	if (off + 8 > p->footer_off)
		return TK_END;
	out->offset = tk_load_le32(p->data + off);
	out->n = tk_load_le32(p->data + off + 4);
	out->counts = p->data + off + 8;
	out->file_offset = off;
	*cursor = off + 8 + 4 * (uint64_t)out->n;
	return TK_OK;
}

tk_status tk_dcpi_each_count(const tk_dcpi_profile *p, tk_dcpi_count_fn fn, void *user,
			     tk_error *err)
{
	tk_dcpi_cursor c = {.p = p};
	tk_status st;
	while ((st = tk_dcpi_cursor_next(&c, err)) == TK_OK)
		if ((st = fn(user, c.addr, c.count, err)) != TK_OK)
			return st;
	return st == TK_END ? TK_OK : st;
}
