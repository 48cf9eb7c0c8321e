/* Base64 (RFC 4648, with padding) straight into a writer: the page's binary
 * columns. Written in blocks so a 100 MB column costs no second copy. */
#include "view/view_internal.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void view_put_base64(tk_writer *w, const uint8_t *p, size_t n)
{
	char out[4096];
	size_t o = 0;
	size_t i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = b64[(v >> 6) & 63];
		out[o++] = b64[v & 63];
		if (o == sizeof out) {
			tk_put_mem(w, out, o);
			o = 0;
		}
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	tk_put_mem(w, out, o);
}
