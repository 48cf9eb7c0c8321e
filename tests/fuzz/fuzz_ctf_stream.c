/* Fuzz target: packet and event decoding. The input is either stream bytes
 * for a fixed metadata that uses every kind of field (compact and extended
 * headers, both byte orders, bitfields, enums, variants, sequences, floats,
 * strings), or "metadata text \0 stream bytes" when it starts with the
 * TSDL signature. Every event is also rendered as babeltrace2 text.
 * A second, lean read (what `stats` does: no values built) must see the
 * same events, times and offsets, and end with the same status, offset
 * and message; a partial read (print's lanes: ctf_partial_check.h) must
 * print the same text. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "base/writer.h"
#include "ctf/ctf_columns.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"

#include "ctf_partial_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char metadata[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := "
    "uint27_clock_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := "
    "uint64_clock_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "  uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
    "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; }; };\n"
    "clock { name = c; freq = 1000000000; offset_s = 1300000000; offset = 5; };\n"
    "env { hostname = \"fuzz\"; vpid = 7; procname = \"p\"; };\n"
    "stream { id = 0;\n"
    "  packet.context := struct { uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;\n"
    "    uint64_t content_size; uint64_t packet_size; uint64_t packet_seq_num;\n"
    "    uint32_t events_discarded; uint32_t cpu_id; };\n"
    "  event.header := struct { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "    variant <id> { struct { uint27_clock_t timestamp; } compact;\n"
    "      struct { uint32_t id; uint64_clock_t timestamp; } extended; } v; } align(8);\n"
    "  event.context := struct { integer { size = 3; signed = true; } s3; uint8_t n; };\n"
    "};\n"
    "event { name = a; id = 0; stream_id = 0; fields := struct {\n"
    "  string s; uint8_t len; uint16_t seq[len]; floating_point { exp_dig = 8; mant_dig = 24; } "
    "f;\n"
    "  floating_point { exp_dig = 11; mant_dig = 53; byte_order = be; } d;\n"
    "  integer { size = 13; byte_order = be; base = hex; } be13; integer { size = 7; base = 2; "
    "signed = true; } b7;\n"
    "  integer { size = 8; encoding = UTF8; } text[5]; uint8_t tl; integer { size = 8; encoding = "
    "UTF8; } tseq[tl];\n"
    "}; };\n"
    "event { name = b; id = 1; stream_id = 0; context := struct { uint8_t sel; }; fields := struct "
    "{\n"
    "  enum : uint8_t { X, Y = 3 ... 7, _Z = 200 } e;\n"
    "  variant <e> { uint32_t X; string Y; struct { uint8_t q; } _Z; } v;\n"
    "  struct { uint8_t n; uint8_t arr[n]; } inner[2]; integer { size = 64; signed = true; base = "
    "8; } o;\n"
    "  uint8_t m[stream.event.context.n];\n"
    "}; };\n";

/* What one read saw, event by event, and how it ended. */
typedef struct read_trace {
	uint64_t hash, hash_cols, n, n_timed;
	int64_t first_ns, last_ns;
	tk_status end;
	tk_error err;
} read_trace;

static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 0x100000001b3ULL;
}

/* What ctf_reader_columns() writes for one event, as put_row() does. */
static void mix_row(uint64_t *h, uint64_t id, uint64_t ts, int32_t cpu, uint64_t offset)
{
	mix(h, id);
	mix(h, ts);
	mix(h, (uint64_t)(uint32_t)cpu);
	mix(h, offset);
}

static void mix_event_row(uint64_t *h, const ctf_event_out *ev)
{
	mix_row(h, ev->ec->info.id, ev->has_clock && ev->ns > 0 ? (uint64_t)ev->ns : 0,
		ev->cpu >= 0 && ev->cpu <= INT32_MAX ? (int32_t)ev->cpu : TK_CPU_NONE, ev->offset);
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
	out->hash = out->hash_cols = 0xcbf29ce484222325ULL;
	out->first_ns = INT64_MAX;
	out->last_ns = INT64_MIN;
	while (out->n < 100000 && (out->end = ctf_reader_next(r, &ev, &out->err)) == TK_OK) {
		out->n++;
		if (ev->has_clock) {
			out->n_timed++;
			out->first_ns = ev->ns < out->first_ns ? ev->ns : out->first_ns;
			out->last_ns = ev->ns > out->last_ns ? ev->ns : out->last_ns;
		}
		mix(&out->hash, ev->ec->info.id);
		mix(&out->hash, (uint64_t)ev->ns);
		mix(&out->hash, ev->clock_raw);
		mix(&out->hash, ev->offset);
		mix_event_row(&out->hash_cols, ev);
	}
	ctf_reader_close(r);
}

/* The same trace read by ctf_reader_columns() in batches of 7 (batch
 * ends fall inside the runs it decodes on its own). */
static void read_columns(const char *meta, size_t mlen, const uint8_t *data, size_t size,
			 read_trace *out)
{
	memset(out, 0, sizeof *out);
	tk_error_clear(&out->err);
	ctf_reader *r;
	out->end = ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &out->err);
	if (out->end != TK_OK)
		return;
	r->lean = true;
	out->hash_cols = 0xcbf29ce484222325ULL;
	uint64_t ts[7], offset[7];
	int32_t cpu[7];
	const tk_event_class *cls[7];
	const ctf_columns c = {.ts = ts, .offset = offset, .cpu = cpu, .cls = cls};
	while (out->n < 100000) {
		size_t max = 100000 - out->n < 7 ? (size_t)(100000 - out->n) : 7, n = 0;
		out->end = ctf_reader_columns(r, &c, max, &n, &out->err);
		for (size_t i = 0; i < n; i++)
			mix_row(&out->hash_cols, cls[i]->id, ts[i], cpu[i], offset[i]);
		out->n += n;
		if (out->end != TK_OK)
			break;
	}
	ctf_reader_close(r);
}

/* ctf_reader_each()'s callback: the events as read_events() hashes them */
static tk_status each_event(void *user, const ctf_event_out *ev, tk_error *err)
{
	(void)err;
	read_trace *t = user;
	t->n++;
	mix(&t->hash, ev->ec->info.id);
	mix(&t->hash, (uint64_t)ev->ns);
	mix(&t->hash, ev->clock_raw);
	mix(&t->hash, ev->offset);
	return TK_OK;
}

static void read_each(const char *meta, size_t mlen, const uint8_t *data, size_t size,
		      read_trace *out)
{
	memset(out, 0, sizeof *out);
	tk_error_clear(&out->err);
	ctf_reader *r;
	out->end = ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &out->err);
	if (out->end != TK_OK)
		return;
	out->hash = 0xcbf29ce484222325ULL;
	out->end = ctf_reader_each(r, each_event, out, &out->err);
	ctf_reader_close(r);
}

static void same_read(const char *what, const read_trace *want, const read_trace *got,
		      uint64_t want_hash, uint64_t got_hash)
{
	if (want->n != got->n || want_hash != got_hash || want->end != got->end ||
	    want->err.offset != got->err.offset ||
	    strcmp(want->err.message, got->err.message) != 0) {
		fprintf(stderr, "%s read differs: %llu/%llu events, status %d/%d, '%s' / '%s'\n",
			what, (unsigned long long)want->n, (unsigned long long)got->n,
			(int)want->end, (int)got->end, want->err.message, got->err.message);
		abort();
	}
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
	/* Python's columns() and the printers' ctf_reader_each() run the
	 * merge themselves: the same rows, end and error */
	read_trace cols;
	read_columns(meta, mlen, data, size, &cols);
	same_read("columns", &full, &cols, full.hash_cols, cols.hash_cols);
	/* ctf_reader_span (stats) runs the lean fast path in a loop of its
	 * own: the same counts, times and end */
	if (full.n >= 100000)
		return;
	read_trace each;
	read_each(meta, mlen, data, size, &each);
	same_read("each", &full, &each, full.hash, each.hash);
	ctf_reader *r;
	tk_error err;
	tk_error_clear(&err);
	if (ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &err) != TK_OK)
		return;
	r->lean = true;
	ctf_span sp;
	tk_status st = ctf_reader_span(r, &sp, &err);
	ctf_reader_close(r);
	tk_status full_st = full.end == TK_END ? TK_OK : full.end;
	if (st != full_st || sp.n_events != full.n || sp.n_timed != full.n_timed ||
	    (sp.n_timed && (sp.first_ns != full.first_ns || sp.last_ns != full.last_ns)) ||
	    (st != TK_OK &&
	     (err.offset != full.err.offset || strcmp(err.message, full.err.message) != 0))) {
		fprintf(stderr, "span read differs: %llu/%llu events, status %d/%d, '%s' / '%s'\n",
			(unsigned long long)full.n, (unsigned long long)sp.n_events, (int)full.end,
			(int)st, full.err.message, err.message);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *meta = metadata;
	size_t mlen = sizeof metadata - 1;
	if (size >= 6 && memcmp(data, "/* CTF", 6) == 0) {
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
