/* Output for the dumps: a buffered file descriptor (async-signal-safe:
 * write and pwrite only, offsets relative to where the fd stood) or
 * growable memory (the recovery reader). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/log_impl.h"

void tk_lg_out_fd(tk_lg_out *o, int fd)
{
	memset(o, 0, offsetof(tk_lg_out, buf));
	o->fd = fd;
	off_t at = lseek(fd, 0, SEEK_CUR);
	o->mem_cap = at > 0 ? (size_t)at : 0; /* fd mode: where offset 0 is */
}

void tk_lg_out_mem(tk_lg_out *o)
{
	memset(o, 0, offsetof(tk_lg_out, buf));
	o->fd = -1;
}

static void flush(tk_lg_out *o)
{
	size_t done = 0;
	while (done < o->n && !o->failed) {
		ssize_t k = write(o->fd, o->buf + done, o->n - done);
		if (k <= 0)
			o->failed = true;
		else
			done += (size_t)k;
	}
	o->flushed += o->n;
	o->n = 0;
}

void tk_lg_out_bytes(tk_lg_out *o, const void *p, size_t n)
{
	const uint8_t *s = p;
	o->pos += n;
	if (o->fd < 0) {
		if (o->failed)
			return;
		if (o->pos > o->mem_cap) {
			size_t cap = o->mem_cap ? o->mem_cap : 65536;
			while (cap < o->pos)
				cap *= 2;
			uint8_t *m = realloc(o->mem, cap);
			if (!m) {
				o->failed = true;
				return;
			}
			o->mem = m;
			o->mem_cap = cap;
		}
		memcpy(o->mem + o->pos - n, s, n);
		return;
	}
	while (n) {
		if (o->n == sizeof o->buf)
			flush(o);
		size_t k = sizeof o->buf - o->n;
		k = k < n ? k : n;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}

void tk_lg_out_u8(tk_lg_out *o, uint8_t v)
{
	tk_lg_out_bytes(o, &v, 1);
}

void tk_lg_out_be16(tk_lg_out *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
	tk_lg_out_bytes(o, b, 2);
}

void tk_lg_out_be32(tk_lg_out *o, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
	tk_lg_out_bytes(o, b, 4);
}

void tk_lg_out_le32(tk_lg_out *o, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	tk_lg_out_bytes(o, b, 4);
}

void tk_lg_out_le64(tk_lg_out *o, uint64_t v)
{
	tk_lg_out_le32(o, (uint32_t)v);
	tk_lg_out_le32(o, (uint32_t)(v >> 32));
}

void tk_lg_out_str(tk_lg_out *o, const char *s)
{
	tk_lg_out_bytes(o, s, strlen(s));
}

void tk_lg_out_dec(tk_lg_out *o, uint64_t v)
{
	char d[24];
	size_t n = 0;
	do
		d[sizeof d - ++n] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	tk_lg_out_bytes(o, d + sizeof d - n, n);
}

void tk_lg_out_patch(tk_lg_out *o, uint64_t off, const void *p, size_t n)
{
	const uint8_t *s = p;
	if (o->fd < 0) {
		if (!o->failed && off + n <= o->pos)
			memcpy(o->mem + off, s, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t x = off + i;
		if (x >= o->flushed)
			o->buf[x - o->flushed] = s[i];
		else if (pwrite(o->fd, s + i, 1, (off_t)(o->mem_cap + x)) != 1)
			o->failed = true;
	}
}

bool tk_lg_out_finish(tk_lg_out *o)
{
	if (o->fd >= 0)
		flush(o);
	return !o->failed;
}
