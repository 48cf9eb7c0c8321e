/* Internals shared by the DCPI reader, writer and database files. */
#ifndef TK_DCPI_INTERNAL_H
#define TK_DCPI_INTERNAL_H

#include "base/input.h"
#include "tracekit/tracekit.h"

struct tk_dcpi_profile {
	tk_input *in; /* NULL for tk_dcpi_open_memory */
	const uint8_t *data;
	size_t size;
	tk_dcpi_header hdr;
	tk_dcpi_line *lines;
	char *strings; /* NUL-terminated copies of the header values */
	bool body_supported;
	uint64_t body_off;   /* first chunk */
	uint64_t footer_off; /* the 8-byte footer */
	uint64_t total_offsets, total_samples, n_chunks;
	char name[256];
};

/* Parses the ASCII header of p->data into p->hdr (dcpi_header.c). */
tk_status tk_dcpi_parse_header(tk_dcpi_profile *p, tk_error *err);

/* The value kinds of the grammar. */
typedef enum tk_dcpi_kind {
	TK_DCPI_TEXT,
	TK_DCPI_HEX,   /* a number in hex (fits 64 bits) */
	TK_DCPI_HEXID, /* hex digits of any length (image ids) */
	TK_DCPI_DEC,
	TK_DCPI_TIME,
	TK_DCPI_VERSION,
} tk_dcpi_kind;

/* The grammar's kind for a known key; returns false for unknown keys. */
bool tk_dcpi_known_key(const char *key, size_t len, tk_dcpi_kind *kind, bool *required);

static inline bool tk_dcpi_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

#endif
