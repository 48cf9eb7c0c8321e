/* Protocol-buffers encoding primitives (see pb.h). */
#include <stdlib.h>
#include <string.h>

#include "base/pb.h"

void tk_pb_free(tk_pb *b)
{
	free(b->buf);
	memset(b, 0, sizeof *b);
}

void tk_pb_reset(tk_pb *b)
{
	b->len = 0;
}

void tk_pb_bytes(tk_pb *b, const void *p, size_t n)
{
	if (b->failed || n == 0)
		return;
	if (n > b->cap - b->len) {
		size_t ncap = b->cap ? b->cap : 256;
		while (ncap - b->len < n) {
			if (ncap > SIZE_MAX / 2) {
				b->failed = true;
				return;
			}
			ncap *= 2;
		}
		uint8_t *nb = realloc(b->buf, ncap);
		if (!nb) {
			b->failed = true;
			return;
		}
		b->buf = nb;
		b->cap = ncap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

void tk_pb_varint(tk_pb *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		tmp[n++] = byte | (v ? 0x80 : 0);
	} while (v);
	tk_pb_bytes(b, tmp, n);
}

void tk_pb_uint(tk_pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	tk_pb_varint(b, (uint64_t)field << 3);
	tk_pb_varint(b, v);
}

void tk_pb_lenfield(tk_pb *b, unsigned field, const void *p, size_t n)
{
	tk_pb_varint(b, (uint64_t)field << 3 | 2);
	tk_pb_varint(b, n);
	tk_pb_bytes(b, p, n);
}

void tk_pb_sub(tk_pb *b, unsigned field, const tk_pb *sub)
{
	if (sub->failed)
		b->failed = true;
	tk_pb_lenfield(b, field, sub->buf, sub->len);
}
