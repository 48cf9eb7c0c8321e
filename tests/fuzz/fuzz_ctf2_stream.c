/* Fuzz target: CTF 2 packet and event decoding. The input is either
 * stream bytes for a fixed CTF 2 metadata that uses the classes CTF 1.8
 * lacks (LEB128 integers with roles, booleans, bit maps, blobs, optionals,
 * UTF-16/32 strings, 16/128-bit floats, integer-range variants, relative
 * and absolute field locations), or "metadata \\0 stream bytes" when it
 * starts with 0x1E. Every event is also rendered as babeltrace2 text, and
 * a lean read (what `stats` does) must see the same events and end, and a
 * partial read (print's lanes: ctf_partial_check.h) print the same text. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"

#include "ctf_partial_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char metadata[] =
    "\x1e{\"type\":\"preamble\",\"version\":2,\"uuid\":[42,100,34,208,108,238,17,224,140,8,203,"
    "7,215,179,165,100]}\n\x1e{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"fuzz\","
    "\"vpid\":7},\"packet-header-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"n"
    "ame\":\"magic\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
    "\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-magic-number\"]}},{\""
    "name\":\"uuid\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":16,\"roles\":["
    "\"metadata-stream-uuid\"]}},{\"name\":\"stream_id\",\"field-class\":{\"type\":\"fixed-leng"
    "th-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8,\"role"
    "s\":[\"data-stream-class-id\"]}}]}}\n\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequenc"
    "y\":1000000000,\"offset-from-origin\":{\"seconds\":1300000000,\"cycles\":5},\"origin\":\"u"
    "nix-epoch\"}\n\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\",\"packe"
    "t-context-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"timestamp_"
    "begin\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-o"
    "rder\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}},{\"name"
    "\":\"timestamp_end\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length"
    "\":64,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"packet-end-default-clo"
    "ck-timestamp\"]}},{\"name\":\"content_size\",\"field-class\":{\"type\":\"variable-length-u"
    "nsigned-integer\",\"roles\":[\"packet-content-length\"]}},{\"name\":\"packet_size\",\"fiel"
    "d-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"littl"
    "e-endian\",\"alignment\":8,\"roles\":[\"packet-total-length\"]}},{\"name\":\"seq\",\"field"
    "-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"little"
    "-endian\",\"alignment\":8,\"roles\":[\"packet-sequence-number\"]}},{\"name\":\"disc\",\"fi"
    "eld-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"lit"
    "tle-endian\",\"alignment\":8,\"roles\":[\"discarded-event-record-counter-snapshot\"]}},{\""
    "name\":\"cpu_id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8"
    ",\"byte-order\":\"little-endian\",\"alignment\":8}}]},\"event-record-header-field-class\":"
    "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"id\",\"field-class\":{\"type\":\"f"
    "ixed-length-unsigned-integer\",\"length\":5,\"byte-order\":\"little-endian\",\"roles\":[\""
    "event-record-class-id\"],\"mappings\":{\"compact\":[[0,30]],\"extended\":[[31,31]]}}},{\"n"
    "ame\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":{\"origin\":"
    "\"event-record-header\",\"path\":[\"id\"]},\"options\":[{\"name\":\"compact\",\"selector-f"
    "ield-ranges\":[[0,30]],\"field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name"
    "\":\"timestamp\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":27"
    ",\"byte-order\":\"little-endian\",\"roles\":[\"default-clock-timestamp\"]}}]}},{\"name\":"
    "\"extended\",\"selector-field-ranges\":[[31,31]],\"field-class\":{\"type\":\"structure\","
    "\"member-classes\":[{\"name\":\"id\",\"field-class\":{\"type\":\"variable-length-unsigned-"
    "integer\",\"roles\":[\"event-record-class-id\"]}},{\"name\":\"timestamp\",\"field-class\":"
    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"little-endian\""
    ",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}}]}}]},\"event-record-common-c"
    "ontext-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"s3\",\"field-"
    "class\":{\"type\":\"fixed-length-signed-integer\",\"length\":3,\"byte-order\":\"big-endian"
    "\"}},{\"name\":\"n\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length"
    "\":8,\"byte-order\":\"little-endian\",\"alignment\":8}}]}}\n\x1e{\"type\":\"field-class-al"
    "ias\",\"name\":\"u8\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length"
    "\":8,\"byte-order\":\"little-endian\",\"alignment\":8}}\n\x1e{\"type\":\"event-record-clas"
    "s\",\"id\":0,\"name\":\"a\",\"payload-field-class\":{\"type\":\"structure\",\"member-class"
    "es\":[{\"name\":\"u\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\",\"pre"
    "ferred-display-base\":16}},{\"name\":\"s\",\"field-class\":{\"type\":\"variable-length-sig"
    "ned-integer\",\"mappings\":{\"neg\":[[-9,-1]],\"pos\":[[1,9]]}}},{\"name\":\"b\",\"field-c"
    "lass\":{\"type\":\"fixed-length-boolean\",\"length\":1,\"byte-order\":\"little-endian\"}},"
    "{\"name\":\"bm\",\"field-class\":{\"type\":\"fixed-length-bit-map\",\"length\":7,\"byte-or"
    "der\":\"little-endian\",\"flags\":{\"x\":[[0,1]],\"y\":[[6,6]]}}},{\"name\":\"len\",\"fiel"
    "d-class\":\"u8\"},{\"name\":\"blob\",\"field-class\":{\"type\":\"dynamic-length-blob\",\"l"
    "ength-field-location\":{\"path\":[\"len\"]}}},{\"name\":\"s16\",\"field-class\":{\"type\":"
    "\"null-terminated-string\",\"encoding\":\"utf-16le\"}},{\"name\":\"s32\",\"field-class\":{"
    "\"type\":\"dynamic-length-string\",\"encoding\":\"utf-32be\",\"length-field-location\":{\""
    "path\":[\"len\"]}}},{\"name\":\"h\",\"field-class\":{\"type\":\"fixed-length-floating-poin"
    "t-number\",\"length\":16,\"byte-order\":\"big-endian\"}},{\"name\":\"q\",\"field-class\":{"
    "\"type\":\"fixed-length-floating-point-number\",\"length\":128,\"byte-order\":\"little-end"
    "ian\",\"alignment\":8}},{\"name\":\"o\",\"field-class\":{\"type\":\"optional\",\"selector-"
    "field-location\":{\"path\":[\"b\"]},\"field-class\":{\"type\":\"null-terminated-string\"}}"
    "},{\"name\":\"arr\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-loca"
    "tion\":{\"origin\":\"event-record-common-context\",\"path\":[\"n\"]},\"element-field-class"
    "\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"k\",\"field-class\":\"u8\"},{\""
    "name\":\"oo\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":{\"path\""
    ":[\"k\"]},\"selector-field-ranges\":[[1,3]],\"field-class\":{\"type\":\"variable-length-si"
    "gned-integer\"}}}]}}}]}}\n\x1e{\"type\":\"event-record-class\",\"id\":1,\"name\":\"b\",\"s"
    "pecific-context-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"sel"
    "\",\"field-class\":\"u8\"}]},\"payload-field-class\":{\"type\":\"structure\",\"member-clas"
    "ses\":[{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":{"
    "\"origin\":\"event-record-specific-context\",\"path\":[\"sel\"]},\"options\":[{\"selector-"
    "field-ranges\":[[0,0]],\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"lengt"
    "h\":32,\"byte-order\":\"little-endian\",\"alignment\":8}},{\"selector-field-ranges\":[[1,5"
    "],[200,255]],\"field-class\":{\"type\":\"static-length-string\",\"length\":4}},{\"selector"
    "-field-ranges\":[[6,6]],\"field-class\":{\"type\":\"static-length-array\",\"length\":2,\"e"
    "lement-field-class\":{\"type\":\"fixed-length-floating-point-number\",\"length\":32,\"byte"
    "-order\":\"little-endian\"}}}]}},{\"name\":\"fb\",\"field-class\":{\"type\":\"static-lengt"
    "h-blob\",\"length\":3,\"media-type\":\"text/plain\"}}]}}\n";

/* What one read saw, event by event, and how it ended. */
typedef struct read_trace {
	uint64_t hash, n;
	tk_status end;
	tk_error err;
} read_trace;

static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 0x100000001b3ULL;
}

static void read_events(const char *meta, size_t mlen, const uint8_t *data, size_t size, bool lean,
			read_trace *out)
{
	memset(out, 0, sizeof *out);
	tk_error_clear(&out->err);
	ctf_reader *r;
	out->end = ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &out->err);
	if (out->end != TK_OK)
		return;
	r->lean = lean;
	const ctf_event_out *ev;
	out->hash = 0xcbf29ce484222325ULL;
	while (out->n < 100000 && (out->end = ctf_reader_next(r, &ev, &out->err)) == TK_OK) {
		out->n++;
		mix(&out->hash, ev->ec->info.id);
		mix(&out->hash, (uint64_t)ev->ns);
		mix(&out->hash, ev->clock_raw);
		mix(&out->hash, ev->offset);
	}
	ctf_reader_close(r);
}

static void lean_agrees(const char *meta, size_t mlen, const uint8_t *data, size_t size)
{
	read_trace full, lean;
	read_events(meta, mlen, data, size, false, &full);
	read_events(meta, mlen, data, size, true, &lean);
	if (full.n != lean.n || full.hash != lean.hash || full.end != lean.end ||
	    full.err.offset != lean.err.offset || strcmp(full.err.message, lean.err.message) != 0) {
		fprintf(stderr, "lean read differs: %llu/%llu events, status %d/%d, '%s' / '%s'\n",
			(unsigned long long)full.n, (unsigned long long)lean.n, (int)full.end,
			(int)lean.end, full.err.message, lean.err.message);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *meta = metadata;
	size_t mlen = sizeof metadata - 1;
	if (size >= 1 && data[0] == 0x1E) {
		const uint8_t *nul = memchr(data, 0, size);
		if (!nul)
			return 0;
		meta = (const char *)data;
		mlen = (size_t)(nul - data);
		size -= mlen + 1;
		data = nul + 1;
	}
	tk_error err;
	tk_error_clear(&err);
	ctf_reader *r;
	if (ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &err) != TK_OK)
		return 0;
	tk_writer *w;
	if (tk_writer_open_memory(&w, &err) == TK_OK) {
		ctf_pretty p;
		ctf_pretty_init(&p, w, true);
		const ctf_event_out *ev;
		unsigned n = 0;
		while (n++ < 100000 && ctf_reader_next(r, &ev, &err) == TK_OK) {
			w->pos = 0;
			ctf_pretty_event(&p, ev);
		}
		ctf_pretty_fini(&p);
		tk_writer_abort(w);
	}
	ctf_reader_close(r);
	lean_agrees(meta, mlen, data, size);
	partial_agrees(meta, mlen, data, size);
	return 0;
}
