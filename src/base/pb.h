/* A minimal protocol-buffers encoder: varints, and length-delimited
 * fields built in a nested buffer (see docs/ARCHITECTURE.md, "pprof
 * export", for why not protobuf-c). Errors (out of memory) are sticky:
 * check tk_pb.failed once at the end. */
#ifndef TK_BASE_PB_H
#define TK_BASE_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tk_pb {
	uint8_t *buf;
	size_t len, cap;
	bool failed;
} tk_pb;

void tk_pb_free(tk_pb *b);
void tk_pb_reset(tk_pb *b); /* len = 0, memory kept */
void tk_pb_bytes(tk_pb *b, const void *p, size_t n);
void tk_pb_varint(tk_pb *b, uint64_t v);
/* Field `field` as a varint (wire type 0); zero is skipped (proto3 default). */
void tk_pb_uint(tk_pb *b, unsigned field, uint64_t v);
/* Field `field` as length-delimited (wire type 2) holding p[0..n). */
void tk_pb_lenfield(tk_pb *b, unsigned field, const void *p, size_t n);
/* A nested message or packed array built in `sub`. */
void tk_pb_sub(tk_pb *b, unsigned field, const tk_pb *sub);

#endif
