/* For the CTF stream fuzz targets (CTF 1.8 and CTF 2): a partial read, as
 * print's two lanes read a trace (a pseudo-random half of the events read
 * lean through ctf_reader.values_wanted, their values read again by
 * ctf_event_fill), must print what a whole read prints, event for event,
 * and end the same way with the same error. Included by one .c each. */
#ifndef TK_FUZZ_CTF_PARTIAL_CHECK_H
#define TK_FUZZ_CTF_PARTIAL_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"

typedef struct partial_read {
	uint64_t hash, n;
	tk_status end;
	tk_error err;
} partial_read;

/* values_wanted: a fixed pseudo-random half */
static bool partial_some_wanted(void *user)
{
	uint64_t *k = user;
	return ((++*k * 0x9E3779B97F4A7C15ULL) >> 63) != 0;
}

/* The events as babeltrace2's text prints them (hashed), read whole or
 * partial. */
static void partial_print_read(const char *meta, size_t mlen, const uint8_t *data, size_t size,
			       bool partial, partial_read *out)
{
	memset(out, 0, sizeof *out);
	tk_error_clear(&out->err);
	ctf_reader *r;
	out->end = ctf_reader_open_memory(meta, mlen, data, size, NULL, NULL, &r, &out->err);
	if (out->end != TK_OK)
		return;
	uint64_t k = 0;
	r->no_header_values = true;
	if (partial) {
		r->values_wanted = partial_some_wanted;
		r->values_user = &k;
	}
	tk_writer *w;
	if (tk_writer_open_memory(&w, NULL) != TK_OK) {
		ctf_reader_close(r);
		return;
	}
	ctf_pretty p;
	ctf_pretty_init(&p, w, true);
	out->hash = 0xcbf29ce484222325ULL;
	const ctf_event_out *ev;
	while (out->n < 100000 && (out->end = ctf_reader_next(r, &ev, &out->err)) == TK_OK) {
		if (partial && (out->end = ctf_event_fill(ev, &out->err)) != TK_OK)
			break;
		w->pos = 0;
		ctf_pretty_event(&p, ev);
		for (size_t i = 0; i < w->pos; i++)
			out->hash = (out->hash ^ (unsigned char)w->buf[i]) * 0x100000001b3ULL;
		out->n++;
	}
	ctf_pretty_fini(&p);
	tk_writer_abort(w);
	ctf_reader_close(r);
}

static void partial_agrees(const char *meta, size_t mlen, const uint8_t *data, size_t size)
{
	partial_read whole, part;
	partial_print_read(meta, mlen, data, size, false, &whole);
	partial_print_read(meta, mlen, data, size, true, &part);
	if (whole.n != part.n || whole.hash != part.hash || whole.end != part.end ||
	    whole.err.offset != part.err.offset ||
	    strcmp(whole.err.message, part.err.message) != 0) {
		fprintf(stderr,
			"partial read differs: %llu/%llu events, status %d/%d, '%s' / '%s'\n",
			(unsigned long long)whole.n, (unsigned long long)part.n, (int)whole.end,
			(int)part.end, whole.err.message, part.err.message);
		abort();
	}
}

#endif
