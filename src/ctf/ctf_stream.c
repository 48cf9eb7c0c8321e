/* One data stream: its packets one after the other (over several files
 * with tracefile rotation), each event decoded with the stream class's
 * field classes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ctf/ctf_decode_inline.h"
#include "ctf/ctf_reader.h"
#include "ctf/ctf_stream.h"

#define NS_PER_S         1000000000LL
#define CTF_EV_FAST_SIZE (64 * 1024)

static uint64_t ns_from_value(uint64_t freq, uint64_t cycles)
{
	if (freq == 1000000000ULL)
		return cycles;
	double d = (1e9 * (double)cycles) / (double)freq;
	return d >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

bool ctf_clock_ns(const ctf_clock *c, uint64_t cycles, int64_t *ns)
{
	uint64_t freq = c->info.freq;
	if (freq == 1000000000ULL && cycles <= INT64_MAX && c->offset_s > -9000000000LL &&
	    c->offset_s < 9000000000LL) {
		/* common case: no conversion, same result as below */
		int64_t base = c->offset_s * NS_PER_S + (int64_t)c->offset_cycles;
		return !__builtin_add_overflow(base, (int64_t)cycles, ns);
	}
	int64_t v;
	if (__builtin_mul_overflow(c->offset_s, NS_PER_S, &v))
		return false;
	uint64_t off_ns = ns_from_value(freq, c->offset_cycles);
	if (off_ns > INT64_MAX || __builtin_add_overflow(v, (int64_t)off_ns, &v))
		return false;
	uint64_t secs = cycles / freq;
	int64_t secs_ns;
	if (secs > INT64_MAX || __builtin_mul_overflow((int64_t)secs, NS_PER_S, &secs_ns) ||
	    __builtin_add_overflow(v, secs_ns, &v))
		return false;
	uint64_t rem_ns = ns_from_value(freq, cycles % freq);
	if (rem_ns > INT64_MAX || __builtin_add_overflow(v, (int64_t)rem_ns, &v))
		return false;
	*ns = v;
	return true;
}

static tk_status open_file(ctf_stream *s, size_t idx, tk_error *err)
{
	tk_input_close(s->in);
	s->in = NULL;
	s->cur_file = idx;
	tk_error_set_file(err, s->files[idx]);
	tk_status st = s->mem
			   ? tk_input_open_memory(s->mem, s->mem_size, s->files[idx], &s->in, err)
			   : tk_input_open(s->files[idx], &s->in, err);
	if (st != TK_OK)
		return st;
	s->size = tk_input_size(s->in);
	s->data = tk_input_data(s->in);
	if (idx > 0 || !s->seek_done || !s->index)
		s->pkt_off = 0; /* a seek done before opening keeps its offset */
	s->released = s->pkt_off;
	s->in_packet = false;
	return TK_OK;
}

/* Reads the packet header and context at s->pkt_off; TK_END at the end. */
static tk_status begin_packet(ctf_stream *s, tk_error *err)
{
	tk_status st;
	for (;;) {
		if (!s->in) {
			if ((st = open_file(s, 0, err)) != TK_OK)
				return st;
		}
		if (s->pkt_off < s->size)
			break;
		if (s->cur_file + 1 >= s->n_files)
			return TK_END;
		if ((st = open_file(s, s->cur_file + 1, err)) != TK_OK)
			return st;
	}
	tk_error_set_file(err, s->files[s->cur_file]);
	const ctf_trace_class *tc = s->trace->tc;
	tk_arena_reset(&s->pkt_arena);
	ctf_decoder *d = &s->dec;
	d->fast = NULL; /* packet values live in the packet arena */
	d->buf = s->data + s->pkt_off;
	d->limit_bits = (s->size - s->pkt_off) * 8;
	d->pos = 0;
	d->file_off = s->pkt_off;
	d->arena = &s->pkt_arena;
	memset(d->roots, 0, sizeof d->roots);
	memset(d->meaning_set, 0, sizeof d->meaning_set);
	s->pkt_header = NULL;
	s->pkt_ctx = NULL;
	if (tc->packet_header) {
		d->what = "packet header";
		if ((st = ctf_decode_plan(d, tc->packet_header_plan, CTF_SCOPE_PACKET_HEADER,
					  &s->pkt_header, err)) != TK_OK)
			return st;
		if (d->meaning_set[CTF_MEANING_MAGIC] &&
		    d->meaning_val[CTF_MEANING_MAGIC] != 0xC1FC1FC1u)
			return tk_error_set(err, TK_ERR_FORMAT, s->pkt_off,
					    "bad packet magic 0x%08llx (expected 0xc1fc1fc1)",
					    (unsigned long long)d->meaning_val[CTF_MEANING_MAGIC]);
		const ctf_fc *ph = tc->packet_header;
		for (size_t i = 0; i < ph->n_members; i++) {
			const ctf_fc *m = ph->members[i].fc;
			if (m->meaning != CTF_MEANING_UUID || !tc->has_uuid)
				continue;
			const tk_value *a = &s->pkt_header->v.list.items[i];
			/* a CTF 2 blob comes as bytes, a CTF 1.8 array as integers */
			size_t n = m->is_blob ? a->v.str.len : a->v.list.n;
			/* babeltrace2 reads such packets: warn once per stream and go on */
			for (size_t k = 0; k < 16 && k < n && !s->uuid_warned; k++)
				if ((m->is_blob ? (uint8_t)a->v.str.ptr[k]
						: (uint8_t)a->v.list.items[k].v.u) != tc->uuid[k]) {
					s->uuid_warned = true;
					if (tc->log) {
						char msg[600];
						snprintf(msg, sizeof msg,
							 "%s: offset 0x%llx: packet UUID differs "
							 "from the metadata's trace UUID",
							 s->files[s->cur_file],
							 (unsigned long long)s->pkt_off);
						tc->log(tc->log_user, 0, msg);
					}
				}
		}
	}
	const ctf_stream_class *sc;
	if (d->meaning_set[CTF_MEANING_STREAM_ID]) {
		uint64_t id = d->meaning_val[CTF_MEANING_STREAM_ID];
		sc = ctf_trace_class_stream(tc, id);
		if (!sc)
			return tk_error_set(err, TK_ERR_FORMAT, s->pkt_off,
					    "packet refers to unknown stream class %llu",
					    (unsigned long long)id);
	} else if (tc->n_streams == 1) {
		sc = tc->streams[0];
	} else {
		return tk_error_set(
		    err, TK_ERR_FORMAT, s->pkt_off,
		    tc->n_streams
			? "packet without a stream_id in a trace with several stream classes"
			: "data stream in a trace whose metadata declares no stream");
	}
	if (s->sc && s->sc != sc)
		return tk_error_set(err, TK_ERR_FORMAT, s->pkt_off,
				    "stream class changes from %llu to %llu within a stream",
				    (unsigned long long)s->sc->id, (unsigned long long)sc->id);
	s->sc = sc;
	if (sc->packet_context) {
		d->what = "packet context";
		if ((st = ctf_decode_plan(d, sc->packet_context_plan, CTF_SCOPE_PACKET_CONTEXT,
					  &s->pkt_ctx, err)) != TK_OK)
			return st;
	}
	uint64_t avail_bits = (s->size - s->pkt_off) * 8;
	uint64_t psize = d->meaning_set[CTF_MEANING_PACKET_SIZE]
			     ? d->meaning_val[CTF_MEANING_PACKET_SIZE]
			     : UINT64_MAX;
	uint64_t csize = d->meaning_set[CTF_MEANING_CONTENT_SIZE]
			     ? d->meaning_val[CTF_MEANING_CONTENT_SIZE]
			     : UINT64_MAX;
	if (psize == UINT64_MAX)
		psize = csize != UINT64_MAX ? (csize + 7) & ~(uint64_t)7 : avail_bits;
	if (csize == UINT64_MAX)
		csize = psize;
	if (psize % 8 || psize > avail_bits || csize > psize || csize < d->pos || psize == 0)
		return tk_error_set(err, TK_ERR_FORMAT, s->pkt_off,
				    "bad packet size: packet_size=%llu bits, content_size=%llu "
				    "bits, %llu bits left in "
				    "the file, headers take %llu bits",
				    (unsigned long long)psize, (unsigned long long)csize,
				    (unsigned long long)avail_bits, (unsigned long long)d->pos);
	d->limit_bits = csize;
	s->pkt_bytes = psize / 8;
	s->in_packet = true;
	s->n_packets++;
	/* snapshots for discarded-item accounting */
	s->cur_disc = d->meaning_set[CTF_MEANING_EVENTS_DISCARDED]
			  ? d->meaning_val[CTF_MEANING_EVENTS_DISCARDED]
			  : UINT64_MAX;
	s->cur_seq = d->meaning_set[CTF_MEANING_PACKET_SEQ_NUM]
			 ? d->meaning_val[CTF_MEANING_PACKET_SEQ_NUM]
			 : UINT64_MAX;
	s->cur_begin = d->meaning_set[CTF_MEANING_TS_BEGIN] ? d->meaning_val[CTF_MEANING_TS_BEGIN]
							    : UINT64_MAX;
	s->cur_end =
	    d->meaning_set[CTF_MEANING_TS_END] ? d->meaning_val[CTF_MEANING_TS_END] : UINT64_MAX;
	if (s->cur_begin != UINT64_MAX)
		ctf_decoder_set_clock(d, s->cur_begin);
	s->cpu = -1;
	if (sc->packet_context && s->pkt_ctx)
		for (size_t i = 0; i < sc->packet_context->n_members; i++)
			if (!strcmp(sc->packet_context->members[i].name, "cpu_id") &&
			    (sc->packet_context->members[i].fc->type == CTF_FC_INT ||
			     sc->packet_context->members[i].fc->type == CTF_FC_ENUM))
				s->cpu = (int64_t)s->pkt_ctx->v.list.items[i].v.u;
	return TK_OK;
}

/* --begin with an LTTng index: jump straight to the first packet that
 * ends at or after the start time; the previous entry stands in for the
 * packets skipped (clock, discarded-events and sequence snapshots). */
static void seek_with_index(ctf_stream *s)
{
	const ctf_reader *r = s->trace->reader;
	if (!r || !r->has_begin || !s->n_index || s->n_files != 1 || s->trace->tc->n_streams != 1)
		return;
	const ctf_stream_class *sc = s->trace->tc->streams[0];
	if (sc->clock < 0)
		return;
	const ctf_clock *clk = &s->trace->tc->clocks[sc->clock];
	size_t k = 0;
	int64_t ns;
	while (k < s->n_index && ctf_clock_ns(clk, s->index[k].ts_end, &ns) && ns < r->begin_ns)
		k++;
	if (k == 0 || k >= s->n_index)
		return; /* nothing to skip, or everything: the packet scan handles it */
	const ctf_index_entry *prev = &s->index[k - 1];
	s->pkt_off = s->index[k].offset;
	s->prev_disc = sc->has_discarded ? prev->discarded : UINT64_MAX;
	s->prev_seq = sc->has_seq_num ? prev->seq : UINT64_MAX;
	s->prev_begin = prev->ts_begin;
	s->prev_end = prev->ts_end;
	ctf_decoder_set_clock(&s->dec, prev->ts_end);
	s->n_skipped += k;
}

/* --begin: a whole packet that ends before the start time is skipped
 * without decoding its events (its end still moves the clock). */
static bool packet_before_begin(const ctf_stream *s)
{
	const ctf_reader *r = s->trace->reader;
	int64_t end_ns;
	if (!r || !r->has_begin || s->cur_end == UINT64_MAX || s->sc->clock < 0)
		return false;
	if (!ctf_clock_ns(&s->trace->tc->clocks[s->sc->clock], s->cur_end, &end_ns))
		return false;
	return end_ns < r->begin_ns;
}

/* Real traces break rules: each kind of leniency is reported once per stream. */
static void warn_once(ctf_stream *s, unsigned kind, uint64_t off, const char *what)
{
	if (s->warned & (1u << kind))
		return;
	s->warned |= 1u << kind;
	const ctf_trace_class *tc = s->trace->tc;
	if (!tc->log)
		return;
	char msg[768];
	snprintf(msg, sizeof msg, "%s: offset 0x%llx: %s (reported once per stream)",
		 s->files[s->cur_file], (unsigned long long)off, what);
	tc->log(tc->log_user, 0, msg);
}

/* Memory stays flat on big traces: pages of packets already read are
 * dropped from the mapping (the file stays in the page cache). */
static void release_consumed(ctf_stream *s)
{
	if (s->mem || !s->data || s->pkt_off - s->released < ((uint64_t)8 << 20))
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)(s->data + s->released) + page - 1) & ~(page - 1);
	uintptr_t to = (uintptr_t)(s->data + s->pkt_off) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	s->released = s->pkt_off;
}

static void end_packet(ctf_stream *s)
{
	s->prev_disc = s->cur_disc;
	s->prev_seq = s->cur_seq;
	s->prev_begin = s->cur_begin;
	s->prev_end = s->cur_end;
	/* the packet end moves the stream's clock (babeltrace2 does this with
	 * its packet end message): events of a next packet without
	 * timestamp_begin or own timestamps are at least that late */
	if (s->cur_end != UINT64_MAX)
		ctf_decoder_set_clock(&s->dec, s->cur_end);
	s->pkt_off += s->pkt_bytes;
	s->in_packet = false;
	release_consumed(s);
}

/* The stream's clock for the events of the packet just begun: 1 GHz
 * clocks whose offset fits convert by one addition (clk_plain_end bounds
 * the cycles for which that addition cannot overflow; 0: never, every
 * value goes through ctf_clock_ns). */
static void setup_clock(ctf_stream *s)
{
	const ctf_stream_class *sc = s->sc;
	s->clk = sc->clock >= 0 ? &s->trace->tc->clocks[sc->clock] : NULL;
	s->clk_plain_end = 0;
	s->clk_base = 0;
	s->cur_begin_or_0 = s->cur_begin == UINT64_MAX ? 0 : s->cur_begin;
	if (!s->clk)
		return;
	const ctf_clock *c = s->clk;
	if (c->info.freq == 1000000000ULL && c->offset_s > -9000000000LL &&
	    c->offset_s < 9000000000LL) {
		/* the same sum as ctf_clock_ns's common case */
		int64_t base = c->offset_s * NS_PER_S + (int64_t)c->offset_cycles;
		s->clk_base = base;
		s->clk_plain_end =
		    (base > 0 ? (uint64_t)(INT64_MAX - base) : (uint64_t)INT64_MAX) + 1;
	}
}

/* Conversions the addition does not cover, and the overflow leniency. */
static __attribute__((noinline)) void clock_ns_slow(ctf_stream *s, uint64_t cycles, uint64_t ev_off)
{
	ctf_event_out *ev = &s->ev;
	if (ctf_clock_ns(s->clk, cycles, &ev->ns))
		return;
	/* babeltrace2 gives up on the trace here; we keep the event with its
	 * time counted from the clock's own zero */
	ctf_clock bare = *s->clk;
	bare.offset_s = 0;
	bare.offset_cycles = 0;
	if (!ctf_clock_ns(&bare, cycles, &ev->ns))
		ev->ns = INT64_MAX;
	warn_once(s, CTF_WARN_OVERFLOW, ev_off,
		  "clock value plus the clock offset overflows 64-bit ns; times of "
		  "this stream ignore the offset");
}

/* What stays the same for all events of the packet just begun: where
 * their values go, the clock conversion, the event fields that come from
 * the stream and the packet. */
static void start_events(ctf_stream *s)
{
	ctf_decoder *d = &s->dec;
	if (!s->ev_fast)
		s->ev_fast = malloc(CTF_EV_FAST_SIZE);
	d->arena = &s->ev_arena;
	d->fast = s->ev_fast;
	d->fast_cap = s->ev_fast ? CTF_EV_FAST_SIZE : 0;
	d->fast_used = 0;
	d->lean = s->trace->reader && s->trace->reader->lean;
	setup_clock(s);
	ctf_event_out *ev = &s->ev;
	ev->stream = s;
	ev->trace = s->trace;
	ev->sc = s->sc;
	ev->packet_header = s->pkt_header;
	ev->packet_context = s->pkt_ctx;
	ev->cpu = s->cpu;
	ev->has_clock = s->clk != NULL;
	ev->clock_raw = 0;
	ev->ns = 0;
	s->lean_run = d->lean && s->sc->all_fast && s->clk;
	s->header_fast = s->sc->fast_header &&
			 (d->lean || (s->trace->reader && s->trace->reader->no_header_values));
	s->partial = !d->lean && s->trace->reader && s->trace->reader->values_wanted;
	ev->lean = false;
}

/* A reader that wants the values of some events only (print's lanes):
 * asks it about this one; true when the lean fast path has read it (else
 * the interpreter reads it, lean or not as d->lean now says). */
static __attribute__((noinline)) bool read_lean(ctf_stream *s, const ctf_event_class **ec)
{
	ctf_decoder *d = &s->dec;
	const ctf_reader *r = s->trace->reader;
	s->ev_pos = d->pos;
	d->lean = s->ev.lean = !r->values_wanted(r->values_user);
	return d->lean && s->header_fast && ctf_decode_event_fast(d, s->sc, ec);
}

tk_status ctf_stream_advance(ctf_stream *s, tk_error *err)
{
	tk_status st;
	s->has_event = false;
	if (s->ended)
		return TK_END;
	if (s->failed) {
		*err = s->err;
		return err->status;
	}
	ctf_decoder *d = &s->dec;
	if (!s->seek_done) {
		s->seek_done = true;
		seek_with_index(s);
	}
	for (;;) {
		if (!s->in_packet) {
			st = begin_packet(s, err);
			if (st == TK_END) {
				s->ended = true;
				return TK_END;
			}
			if (st != TK_OK)
				goto failed;
			if (packet_before_begin(s)) {
				s->n_skipped++;
				end_packet(s);
				continue;
			}
			ctf_stream_report_discards(s);
			start_events(s);
		}
		if (d->pos < d->limit_bits)
			break;
		end_packet(s);
	}
	const ctf_stream_class *sc = s->sc;
	if (UNLIKELY(s->ev_arena.total > s->ev_arena.chunk_size))
		tk_arena_reset(&s->ev_arena);
	d->fast_used = 0;
	uint64_t ev_pos = d->pos;
	uint64_t ev_off = s->pkt_off + ev_pos / 8;
	d->roots[CTF_SCOPE_EVENT_HEADER] = NULL;
	d->roots[CTF_SCOPE_EVENT_COMMON_CONTEXT] = NULL;
	d->roots[CTF_SCOPE_EVENT_CONTEXT] = NULL;
	d->roots[CTF_SCOPE_EVENT_PAYLOAD] = NULL;
	d->meaning_set[CTF_MEANING_EVENT_ID] = false;
	ctf_event_out *ev = &s->ev;
	const ctf_event_class *ec = NULL;
	/* the bytes of the events to come: the hardware prefetcher stops at
	 * page boundaries (a hint, never a fault) */
	__builtin_prefetch(d->buf + ev_pos / 8 + 1024);
	if (UNLIKELY(s->partial) && read_lean(s, &ec))
		goto decoded;
	if (s->header_fast) {
		/* the header without the interpreter; one that does not fit or
		 * names no class goes through it, which reports the error */
		ctf_fast_hdr fh;
		if (LIKELY(ctf_read_header_fast(d, sc, &fh))) {
			ctf_commit_header_fast(d, sc, &fh);
			ec = fh.ec;
		}
	}
	if ((st = ctf_decode_event(d, sc, ev_off, &ec, err)) != TK_OK)
		goto failed;
decoded:
	if (UNLIKELY(d->pos == ev_pos && (d->pos & 7) == 0)) {
		/* an event of zero bits would loop forever */
		st = tk_error_set(err, TK_ERR_FORMAT, ev_off,
				  "event of size zero in packet content");
		goto failed;
	}
	/* field by field: a memset here costs more than the whole header decode */
	ev->header = d->roots[CTF_SCOPE_EVENT_HEADER];
	ev->common_context = d->roots[CTF_SCOPE_EVENT_COMMON_CONTEXT];
	ev->context = d->roots[CTF_SCOPE_EVENT_CONTEXT];
	ev->payload = d->roots[CTF_SCOPE_EVENT_PAYLOAD];
	ev->ec = ec;
	ev->offset = ev_off;
	if (s->clk) {
		uint64_t cyc = d->clock;
		ev->clock_raw = cyc;
		if (LIKELY(cyc < s->clk_plain_end))
			ev->ns = s->clk_base + (int64_t)cyc;
		else
			clock_ns_slow(s, cyc, ev_off);
		if (UNLIKELY(ev->ns < s->last_ns && s->has_last_ns))
			warn_once(s, CTF_WARN_BACKWARDS, ev_off,
				  "event timestamps go backwards; events are kept in stream order");
		if (UNLIKELY(cyc < s->cur_begin_or_0 || cyc > s->cur_end))
			warn_once(s, CTF_WARN_OUTSIDE, ev_off,
				  "event time outside its packet's time range");
		s->last_ns = ev->ns;
		s->has_last_ns = true;
	}
	s->has_event = true;
	s->n_events++;
	((ctf_event_class *)ec)->n_seen++;
	return TK_OK;
failed:
	tk_error_set_file(err, s->files[s->cur_file]);
	s->failed = true;
	s->err = *err;
	return st;
}

tk_status ctf_event_fill(const ctf_event_out *ev, tk_error *err)
{
	if (!ev->lean)
		return TK_OK;
	ctf_stream *s = ev->stream;
	ctf_decoder *d = &s->dec;
	const ctf_stream_class *sc = s->sc;
	/* the decoder is where the lean read left it (the stream reads on
	 * only after this event is consumed): read the event again from its
	 * start, with values. The clock a header sets is the one it set then
	 * (a compact timestamp's wrap is against the clock's low bits, now
	 * equal to it). */
	uint64_t end = d->pos, clock = d->clock;
	d->pos = s->ev_pos;
	d->lean = false;
	d->fast_used = 0;
	d->roots[CTF_SCOPE_EVENT_HEADER] = NULL;
	d->roots[CTF_SCOPE_EVENT_COMMON_CONTEXT] = NULL;
	d->roots[CTF_SCOPE_EVENT_CONTEXT] = NULL;
	d->roots[CTF_SCOPE_EVENT_PAYLOAD] = NULL;
	d->meaning_set[CTF_MEANING_EVENT_ID] = false;
	const ctf_event_class *ec = NULL;
	if (s->header_fast) {
		ctf_fast_hdr fh;
		if (LIKELY(ctf_read_header_fast(d, sc, &fh))) {
			ctf_commit_header_fast(d, sc, &fh);
			ec = fh.ec;
		}
	}
	tk_status st = ctf_decode_event(d, sc, ev->offset, &ec, err);
	if (st == TK_OK && (d->pos != end || d->clock != clock || ec != ev->ec))
		st = tk_error_set(err, TK_ERR_FORMAT, ev->offset,
				  "event read again differs from its first read");
	if (st != TK_OK) {
		tk_error_set_file(err, s->files[s->cur_file]);
		return st;
	}
	ctf_event_out *out = &s->ev;
	out->header = d->roots[CTF_SCOPE_EVENT_HEADER];
	out->common_context = d->roots[CTF_SCOPE_EVENT_COMMON_CONTEXT];
	out->context = d->roots[CTF_SCOPE_EVENT_CONTEXT];
	out->payload = d->roots[CTF_SCOPE_EVENT_PAYLOAD];
	out->lean = false;
	return TK_OK;
}

int ctf_stream_run_lean(ctf_stream *s, const ctf_run_bound *b, ctf_span *acc)
{
	if (!s->lean_run || !s->in_packet || s->failed || s->ended || s->n_pending || !s->has_event)
		return CTF_RUN_STOP;
	ctf_decoder *d = &s->dec;
	const ctf_stream_class *sc = s->sc;
	ctf_event_out *ev = &s->ev;
	uint64_t n = 0;
	int64_t first = acc->first_ns, last = acc->last_ns;
	int rc = CTF_RUN_STOP;
	ev->header = ev->common_context = ev->context = ev->payload = NULL;
	while (d->pos < d->limit_bits) {
		uint64_t ev_pos = d->pos;
		const ctf_event_class *ec;
		d->meaning_set[CTF_MEANING_EVENT_ID] = false;
		__builtin_prefetch(d->buf + ev_pos / 8 + 1024);
		if (UNLIKELY(!ctf_decode_event_fast(d, sc, &ec)))
			break;
		if (UNLIKELY(d->pos == ev_pos))
			break; /* an event of zero bits: ctf_stream_advance reports it */
		/* from here on, what ctf_stream_advance does after its decode */
		uint64_t ev_off = s->pkt_off + ev_pos / 8;
		uint64_t cyc = d->clock;
		ev->ec = ec;
		ev->offset = ev_off;
		ev->clock_raw = cyc;
		if (LIKELY(cyc < s->clk_plain_end))
			ev->ns = s->clk_base + (int64_t)cyc;
		else
			clock_ns_slow(s, cyc, ev_off);
		int64_t ns = ev->ns;
		if (UNLIKELY(ns < s->last_ns && s->has_last_ns))
			warn_once(s, CTF_WARN_BACKWARDS, ev_off,
				  "event timestamps go backwards; events are kept in stream order");
		if (UNLIKELY(cyc < s->cur_begin_or_0 || cyc > s->cur_end))
			warn_once(s, CTF_WARN_OUTSIDE, ev_off,
				  "event time outside its packet's time range");
		s->last_ns = ns;
		s->has_last_ns = true;
		s->n_events++;
		((ctf_event_class *)ec)->n_seen++;
		if (b->bounded && !(ns < b->ns || (ns == b->ns && s->order < b->order))) {
			rc = CTF_RUN_REORDER;
			break;
		}
		n++;
		first = ns < first ? ns : first;
		last = ns > last ? ns : last;
	}
	acc->n_events += n;
	acc->n_timed += n;
	acc->first_ns = first;
	acc->last_ns = last;
	return rc;
}

tk_status ctf_stream_peek(ctf_stream *s, ctf_stream_head *head, tk_error *err)
{
	memset(head, 0, sizeof *head);
	tk_status st = begin_packet(s, err);
	if (st == TK_OK) {
		const ctf_decoder *d = &s->dec;
		head->valid = true;
		head->stream_class = s->sc->id;
		head->has_instance = d->meaning_set[CTF_MEANING_STREAM_INSTANCE_ID];
		head->instance = d->meaning_val[CTF_MEANING_STREAM_INSTANCE_ID];
		head->ts_begin = s->cur_begin;
	}
	/* back to the start: the real read begins from scratch */
	tk_input_close(s->in);
	s->in = NULL;
	s->data = NULL;
	s->size = 0;
	s->cur_file = 0;
	s->pkt_off = 0;
	s->in_packet = false;
	s->sc = NULL;
	s->n_packets = 0;
	s->prev_disc = s->prev_seq = s->prev_begin = s->prev_end = UINT64_MAX;
	tk_arena_reset(&s->pkt_arena);
	return st == TK_END ? TK_OK : st;
}

/* ---- discarded items ---- */

static void queue_discard(ctf_stream *s, const ctf_discard *d)
{
	if (s->n_pending < sizeof s->pending / sizeof s->pending[0])
		s->pending[s->n_pending++] = *d;
}

void ctf_stream_report_discards(ctf_stream *s)
{
	ctf_reader *r = s->trace->reader;
	if (!r || !r->on_discard)
		return;
	const ctf_trace_class *tc = s->trace->tc;
	const ctf_clock *clk = s->sc->clock >= 0 ? &tc->clocks[s->sc->clock] : NULL;
	ctf_discard d;
	/* events: the counter is free-running, report the difference */
	if (s->cur_disc != UINT64_MAX &&
	    ((s->prev_disc == UINT64_MAX && s->cur_disc != 0) ||
	     (s->prev_disc != UINT64_MAX && s->cur_disc != s->prev_disc))) {
		memset(&d, 0, sizeof d);
		d.stream = s;
		uint64_t b, e;
		if (s->prev_disc == UINT64_MAX) {
			d.count = UINT64_MAX;
			b = s->cur_begin;
			e = s->cur_end;
		} else {
			d.count = s->cur_disc - s->prev_disc;
			b = s->prev_end;
			e = s->cur_end;
		}
		d.has_range = clk && s->sc->ts_begin_end && b != UINT64_MAX && e != UINT64_MAX &&
			      ctf_clock_ns(clk, b, &d.begin_ns) && ctf_clock_ns(clk, e, &d.end_ns);
		queue_discard(s, &d);
	}
	/* packets: a gap in packet_seq_num */
	if (s->cur_seq != UINT64_MAX && s->prev_seq != UINT64_MAX && s->cur_seq > s->prev_seq + 1) {
		memset(&d, 0, sizeof d);
		d.stream = s;
		d.packets = true;
		d.count = s->cur_seq - s->prev_seq - 1;
		d.has_range = clk && s->sc->ts_begin_end && s->prev_end != UINT64_MAX &&
			      s->cur_begin != UINT64_MAX &&
			      ctf_clock_ns(clk, s->prev_end, &d.begin_ns) &&
			      ctf_clock_ns(clk, s->cur_begin, &d.end_ns);
		queue_discard(s, &d);
	}
}
