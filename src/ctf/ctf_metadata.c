/* Reading the `metadata` file: plain TSDL text, or packetized metadata
 * (37-byte headers with magic 0x75D11D57, the text concatenated). */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/input.h"
#include "ctf/ctf_meta.h"

#define CTF_METADATA_MAGIC  0x75D11D57u
#define CTF_METADATA_HEADER 37

tk_status ctf_metadata_unpack(const uint8_t *data, size_t size, char **text, size_t *len,
			      tk_error *err)
{
	*text = NULL;
	*len = 0;
	if (size < 4)
		return tk_error_set(err, TK_ERR_FORMAT, 0, "metadata: file too small");
	bool swap;
	if (tk_load_le32(data) == CTF_METADATA_MAGIC)
		swap = !tk_host_is_le();
	else if (tk_load_be32(data) == CTF_METADATA_MAGIC)
		swap = tk_host_is_le();
	else
		return tk_error_set(err, TK_ERR_FORMAT, 0, "metadata: bad packet magic");
	char *out = malloc(size + 1);
	if (!out)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
	size_t n = 0;
	size_t off = 0;
	const uint8_t *uuid0 = NULL;
	while (off < size) {
		if (size - off < CTF_METADATA_HEADER) {
			free(out);
			return tk_error_set(err, TK_ERR_TRUNCATED, off,
					    "metadata: truncated packet header (%zu bytes left)",
					    size - off);
		}
		const uint8_t *h = data + off;
		if (tk_load_u32(h, swap) != CTF_METADATA_MAGIC) {
			free(out);
			return tk_error_set(err, TK_ERR_FORMAT, off,
					    "metadata: bad packet magic 0x%08x",
					    tk_load_u32(h, swap));
		}
		if (uuid0 && memcmp(uuid0, h + 4, 16) != 0) {
			free(out);
			return tk_error_set(
			    err, TK_ERR_FORMAT, off + 4,
			    "metadata: packet UUID differs from the first packet's");
		}
		uuid0 = h + 4;
		uint32_t content = tk_load_u32(h + 24, swap);
		uint32_t psize = tk_load_u32(h + 28, swap);
		uint8_t compression = h[32], encryption = h[33], checksum = h[34];
		if (compression || encryption || checksum) {
			free(out);
			return tk_error_set(err, TK_ERR_UNSUPPORTED, off + 32,
					    "metadata: compressed, encrypted or checksummed "
					    "packets are not supported");
		}
		if (content % 8 || psize % 8 || content < CTF_METADATA_HEADER * 8 ||
		    content > psize || psize / 8 > size - off) {
			free(out);
			return tk_error_set(err, TK_ERR_FORMAT, off + 24,
					    "metadata: bad packet sizes (content %u bits, packet "
					    "%u bits, %zu bytes left)",
					    content, psize, size - off);
		}
		size_t tl = content / 8 - CTF_METADATA_HEADER;
		memcpy(out + n, h + CTF_METADATA_HEADER, tl);
		n += tl;
		off += psize / 8;
	}
	/* text may hold padding NULs: stop at the first one */
	out[n] = 0;
	*len = strlen(out);
	*text = out;
	return TK_OK;
}

tk_status ctf_metadata_read_file(const char *path, char **text, size_t *len, bool *packetized,
				 tk_error *err)
{
	tk_input *in;
	*text = NULL;
	*len = 0;
	*packetized = false;
	tk_status st = tk_input_open(path, &in, err);
	if (st != TK_OK)
		return st;
	uint64_t size = tk_input_size(in);
	const uint8_t *data = NULL;
	if (size > (uint64_t)256 << 20) {
		tk_input_close(in);
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: file larger than 256 MiB");
	}
	if (size > 0 && (st = tk_input_fetch(in, 0, (size_t)size, &data, err)) != TK_OK) {
		tk_input_close(in);
		return st;
	}
	if (size >= 4 && (tk_load_le32(data) == CTF_METADATA_MAGIC ||
			  tk_load_be32(data) == CTF_METADATA_MAGIC)) {
		*packetized = true;
		st = ctf_metadata_unpack(data, (size_t)size, text, len, err);
	} else {
		char *t = malloc((size_t)size + 1);
		if (!t) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					  "metadata: out of memory");
		} else {
			if (size)
				memcpy(t, data, (size_t)size);
			t[size] = 0;
			*text = t;
			*len = (size_t)size;
		}
	}
	tk_input_close(in);
	return st;
}
