/* Data streams: one file per (stream class, stream instance, CPU), written
 * as bounded packets, with an LTTng-style index file per stream.
 *
 * Packet layout (matches ctfw_metadata.c):
 *   header:  u32 magic, u8 uuid[16], u32 stream_id, u64 stream_instance_id
 *   context: [u64 timestamp_begin, u64 timestamp_end,] u64 content_size,
 *            u64 packet_size, u64 packet_seq_num, u64 events_discarded,
 *            [u32 cpu_id,] source packet context members
 *   events:  header (large LTTng layout with a clock, else u32 id), stream
 *            event context, event context, payload.
 * The packet is built in memory and written when it is full or when the
 * source's packet context changes; its size fields are patched then. The
 * buffer starts small and grows to the packet size bound, and past it only
 * for a single event that does not fit an empty packet. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bytes.h"
#include "ctf/writer/ctfw_internal.h"

#define CTFW_INITIAL_BUF      (64 * 1024)
#define CTFW_MAX_PACKET       ((size_t)256 * 1024 * 1024)
#define CTFW_MAX_PC_EXTRA     ((size_t)1024 * 1024)
#define CTFW_INDEX_MAGIC      0xC1F1DCC1u
#define CTFW_INDEX_ENTRY      72                         /* 9 big-endian u64 */
#define CTFW_MAX_OPEN_STREAMS 200                        /* streams whose two files stay open */
#define CTFW_MEMORY_BUDGET    ((size_t)64 * 1024 * 1024) /* packet buffers of all streams */
#define CTFW_MIN_SHARE        ((size_t)64 * 1024)

static tk_status write_fd(int fd, const void *p, size_t n, const ctfw_stream *st, tk_error *err)
{
	const uint8_t *b = p;
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "cannot write stream %s: %s", st->file_name,
					    k < 0 ? strerror(errno) : "no progress");
		b += k;
		n -= (size_t)k;
	}
	return TK_OK;
}

static void compute_layout(ctfw_stream *st)
{
	const ctfw_stream_class *sc = st->sc;
	uint64_t p = 32 * 8; /* packet header */
	ctfw_pc_layout *l = &st->lay;
	memset(l, 0, sizeof *l);
	if (sc->has_clock) {
		l->ts_begin = p;
		l->ts_end = p + 64;
		p += 128;
	}
	l->content_size = p;
	l->packet_size = p + 64;
	l->seq_num = p + 128;
	l->discarded = p + 192;
	p += 256;
	if (sc->has_cpu_field) {
		l->cpu_id = p;
		p += 32;
	}
	l->extra = p;
}

/* The size packets may reach: the packet size option, lowered when there
 * are so many streams that their buffers together would pass the memory
 * budget (packet_size is a bound, not a fixed size). */
static size_t packet_limit(const ctfw_sink *s)
{
	size_t n = s->n_streams ? s->n_streams : 1;
	size_t share = CTFW_MEMORY_BUDGET / n;
	if (share < CTFW_MIN_SHARE)
		share = CTFW_MIN_SHARE;
	return share < s->packet_size ? share : s->packet_size;
}

static bool grow_buf(ctfw_stream *st, size_t want)
{
	uint8_t *b = realloc(st->buf, want);
	if (!b)
		return false;
	memset(b + st->cap, 0, want - st->cap);
	st->buf = b;
	st->cap = want;
	return true;
}

tk_status ctfw_stream_get(ctfw_sink *s, ctfw_stream_class *sc, const tk_event *ev,
			  ctfw_stream **out, tk_error *err)
{
	ctfw_stream *last = s->last_stream;
	if (last && last->sc == sc && last->src_instance == ev->stream_instance &&
	    last->cpu == ev->cpu) {
		*out = last;
		return TK_OK;
	}
	uint64_t key = sc->id * UINT64_C(0x9E3779B97F4A7C15) ^
		       ev->stream_instance * UINT64_C(0xC2B2AE3D27D4EB4F) ^
		       (uint64_t)(uint32_t)ev->cpu;
	for (;; key++) {
		uint64_t *slot = tk_hashmap_get(&s->stream_map, key);
		if (!slot)
			break;
		ctfw_stream *c = s->streams[*slot];
		if (c->sc == sc && c->src_instance == ev->stream_instance && c->cpu == ev->cpu) {
			s->last_stream = c;
			*out = c;
			return TK_OK;
		}
	}
	/* A new stream. Its instance id must be unique in its class, since
	 * readers join files of one class and instance id into one stream. */
	uint64_t instance = ev->stream_instance, max_used = 0;
	bool clash = false;
	for (size_t i = 0; i < s->n_streams; i++) {
		if (s->streams[i]->sc != sc)
			continue;
		if (s->streams[i]->instance_id == instance)
			clash = true;
		if (s->streams[i]->instance_id >= max_used)
			max_used = s->streams[i]->instance_id + 1;
	}
	if (clash)
		instance = max_used;
	if (s->n_streams == s->cap_streams) {
		size_t ncap = s->cap_streams ? s->cap_streams * 2 : 16;
		ctfw_stream **p = realloc(s->streams, ncap * sizeof *p);
		if (!p)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
		s->streams = p;
		s->cap_streams = ncap;
	}
	ctfw_stream *st = calloc(1, sizeof *st);
	if (!st)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	st->sc = sc;
	st->src_instance = ev->stream_instance;
	st->cpu = ev->cpu;
	st->instance_id = instance;
	st->fd = st->idx_fd = -1;
	compute_layout(st);
	snprintf(st->file_name, sizeof st->file_name, "stream_%llu_%llu",
		 (unsigned long long)sc->id, (unsigned long long)instance);
	s->streams[s->n_streams] = st; /* owned by the sink from here on */
	if (!tk_hashmap_put(&s->stream_map, key, s->n_streams))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	s->n_streams++;

	st->limit = packet_limit(s);
	size_t cap = s->packet_size < CTFW_INITIAL_BUF ? s->packet_size : CTFW_INITIAL_BUF;
	if (!grow_buf(st, cap))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	st->fd = openat(s->dir_fd, st->file_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->fd < 0)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot create %s/%s: %s",
				    s->tmp_dir, st->file_name, strerror(errno));
	char idx_name[sizeof st->file_name + 16];
	snprintf(idx_name, sizeof idx_name, "index/%s.idx", st->file_name);
	st->idx_fd = openat(s->dir_fd, idx_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->idx_fd < 0)
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot create %s/%s: %s",
				    s->tmp_dir, idx_name, strerror(errno));
	uint8_t hdr[16];
	tk_store_u32(hdr, CTFW_INDEX_MAGIC, tk_host_is_le());
	tk_store_u32(hdr + 4, 1, tk_host_is_le());
	tk_store_u32(hdr + 8, 1, tk_host_is_le());
	tk_store_u32(hdr + 12, CTFW_INDEX_ENTRY, tk_host_is_le());
	tk_status rc = write_fd(st->idx_fd, hdr, sizeof hdr, st, err);
	if (rc != TK_OK)
		return rc;
	/* Past a number of streams, files are opened per packet instead, so
	 * that traces with very many streams stay under the fd limit. */
	if (s->n_open_streams >= CTFW_MAX_OPEN_STREAMS) {
		if (close(st->fd) != 0 || close(st->idx_fd) != 0) {
			st->fd = st->idx_fd = -1;
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "cannot write stream %s: %s", st->file_name,
					    strerror(errno));
		}
		st->fd = st->idx_fd = -1;
	} else {
		s->n_open_streams++;
	}
	s->last_stream = st;
	*out = st;
	return TK_OK;
}

static ctfw_bits bits_at(const ctfw_sink *s, ctfw_stream *st, uint64_t pos)
{
	(void)s;
	size_t room = st->cap < st->limit ? st->cap : st->limit;
	ctfw_bits b = {.buf = st->buf,
		       .pos = pos,
		       .cap_bits = (uint64_t)room * 8,
		       .big_endian = s->big_endian};
	return b;
}

static tk_status grow_pc(ctfw_stream *st, size_t ncap, const tk_event *ev, tk_error *err)
{
	if (ncap > CTFW_MAX_PC_EXTRA)
		return tk_error_set(err, TK_ERR_LIMIT, ev->offset,
				    "ctf writer: packet context larger than %zu bytes",
				    CTFW_MAX_PC_EXTRA);
	uint8_t *a = realloc(st->pc_new, ncap);
	if (!a)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	st->pc_new = a;
	uint8_t *c = realloc(st->pc_cur, ncap);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	if (ncap > st->pc_cap)
		memset(c + st->pc_cap, 0, ncap - st->pc_cap);
	st->pc_cur = c;
	st->pc_cap = ncap;
	return TK_OK;
}

/* Encodes the source packet context members this writer keeps into pc_new
 * (at the same bit offset as in the packet); pc_new_len = their bit length. */
static tk_status encode_pc_extra(const ctfw_sink *s, ctfw_stream *st, const tk_event *ev,
				 tk_error *err)
{
	size_t start = (size_t)(st->lay.extra / 8);
	tk_status rc;
	if (st->pc_cap < start + 64 && (rc = grow_pc(st, start + 256, ev, err)) != TK_OK)
		return rc;
	for (;;) {
		memset(st->pc_new, 0, st->pc_cap);
		ctfw_bits b = {.buf = st->pc_new,
			       .pos = st->lay.extra,
			       .cap_bits = (uint64_t)st->pc_cap * 8,
			       .big_endian = s->big_endian};
		const char *why = NULL;
		if (!ctfw_encode_scope(&b, st->sc->pc_extra, ev->packet_context, &why))
			return tk_error_set(err, TK_ERR_FORMAT, ev->offset,
					    "ctf writer: packet context of event '%s': %s",
					    ev->cls->name ? ev->cls->name : "?", why);
		if (!b.overflow) {
			st->pc_new_len = (size_t)(b.pos - st->lay.extra);
			return TK_OK;
		}
		if ((rc = grow_pc(st, st->pc_cap * 2, ev, err)) != TK_OK)
			return rc;
	}
}

/* source_end: the source packet ends here too, so its end time is kept. */
static tk_status close_packet(ctfw_sink *s, ctfw_stream *st, bool source_end, tk_error *err)
{
	uint64_t content = st->pos;
	if (source_end && st->sc->raw_time && st->sc->pc_ts_end_index >= 0 &&
	    st->src_end > st->ts_end)
		st->ts_end = st->src_end;
	size_t bytes = (size_t)((content + 7) / 8);
	/* Bits past the content in the last byte may hold a rolled-back event. */
	if (content & 7) {
		unsigned used = (unsigned)(content & 7);
		uint8_t *byte = &st->buf[content >> 3];
		*byte = s->big_endian ? (uint8_t)(*byte & (0xFF00u >> used))
				      : (uint8_t)(*byte & ((1u << used) - 1));
	}
	uint64_t psize = (uint64_t)bytes * 8;
	ctfw_bits b = bits_at(s, st, 0);
	if (st->sc->has_clock) {
		b.pos = st->lay.ts_begin;
		ctfw_bits_put(&b, st->ts_begin, 64, 8);
		b.pos = st->lay.ts_end;
		ctfw_bits_put(&b, st->ts_end, 64, 8);
	}
	b.pos = st->lay.content_size;
	ctfw_bits_put(&b, content, 64, 8);
	b.pos = st->lay.packet_size;
	ctfw_bits_put(&b, psize, 64, 8);
	int fd = st->fd, idx_fd = st->idx_fd;
	bool transient = fd < 0;
	if (transient) {
		char idx_name[sizeof st->file_name + 16];
		snprintf(idx_name, sizeof idx_name, "index/%s.idx", st->file_name);
		fd = openat(s->dir_fd, st->file_name, O_WRONLY | O_APPEND | O_CLOEXEC);
		idx_fd = fd < 0 ? -1 : openat(s->dir_fd, idx_name, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (idx_fd < 0) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "cannot reopen stream %s: %s", st->file_name,
					    strerror(e));
		}
	}
	tk_status rc = write_fd(fd, st->buf, bytes, st, err);
	uint8_t ent[CTFW_INDEX_ENTRY];
	const uint64_t vals[9] = {st->file_off,
				  psize,
				  content,
				  st->sc->has_clock ? st->ts_begin : 0,
				  st->sc->has_clock ? st->ts_end : 0,
				  st->discarded,
				  st->sc->id,
				  st->instance_id,
				  st->seq};
	for (int i = 0; i < 9; i++)
		tk_store_u64(ent + 8 * i, vals[i], tk_host_is_le());
	if (rc == TK_OK)
		rc = write_fd(idx_fd, ent, sizeof ent, st, err);
	if (transient) {
		bool closed = close(fd) == 0;
		closed &= close(idx_fd) == 0;
		if (!closed && rc == TK_OK)
			rc =
			    tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write stream %s: %s",
					 st->file_name, strerror(errno));
	}
	if (rc != TK_OK)
		return rc;
	st->last_end = st->ts_end;
	st->file_off += bytes;
	st->seq++;
	st->n_packets++;
	st->packet_open = false;
	st->n_events = 0;
	st->limit = packet_limit(s); /* a packet grown for one big event was the exception */
	st->oversize = false;
	return TK_OK;
}

/* Starts a packet whose first event has time t. Returns false when the
 * buffer is too small for the packet header and context. */
static bool open_packet(const ctfw_sink *s, ctfw_stream *st, uint64_t t)
{
	ctfw_bits b = bits_at(s, st, 0);
	ctfw_bits_put(&b, CTFW_PACKET_MAGIC, 32, 8);
	ctfw_bits_put_bytes(&b, s->uuid, 16);
	ctfw_bits_put(&b, st->sc->id, 32, 8);
	ctfw_bits_put(&b, st->instance_id, 64, 8);
	uint64_t seq = st->seq, extra = st->seq_extra;
	if (st->src_fresh) {
		/* The first packet of a source packet: its begin time and, past
		 * the packets this writer added, its sequence number (so that
		 * packets the source lost still show as a gap). */
		if (st->sc->raw_time && st->sc->pc_ts_begin_index >= 0 && st->src_begin < t &&
		    st->src_begin >= st->last_end) /* never before the previous packet's end */
			t = st->src_begin;
		if (st->sc->pc_seq_index >= 0 && st->src_seq + extra > seq)
			seq = st->src_seq + extra;
	} else if (st->n_packets > 0) {
		extra++; /* a packet this writer added to a source packet */
	}
	b.pos = st->lay.seq_num;
	ctfw_bits_put(&b, seq, 64, 8);
	ctfw_bits_put(&b, st->discarded, 64, 8);
	if (st->sc->has_cpu_field)
		ctfw_bits_put(&b, (uint64_t)(uint32_t)(st->cpu < 0 ? 0 : st->cpu), 32, 8);
	b.pos = st->lay.extra;
	if (st->sc->pc_extra && st->pc_cur_len) {
		size_t n = (size_t)((st->pc_cur_len + 7) / 8);
		size_t start = (size_t)(st->lay.extra / 8);
		if (start + n > (st->cap < st->limit ? st->cap : st->limit))
			return false;
		memcpy(st->buf + start, st->pc_cur + start, n);
		b.pos += st->pc_cur_len;
	}
	if (b.overflow || b.pos > b.cap_bits)
		return false;
	st->pos = b.pos;
	st->seq = seq;
	st->seq_extra = extra;
	st->src_fresh = false;
	st->ts_begin = st->ts_end = st->prev_ts = t;
	st->n_events = 0;
	st->packet_open = true;
	return true;
}

/* An event did not fit: grow the buffer towards the packet's size limit,
 * else close the packet, else (a lone event larger than the bound) let
 * this one packet grow past the bound. */
static tk_status make_room(const ctfw_sink *s, ctfw_stream *st, tk_error *err, bool *closed)
{
	*closed = false;
	if (st->cap < st->limit) {
		size_t want = st->cap * 2 < st->limit ? st->cap * 2 : st->limit;
		if (!grow_buf(st, want))
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "ctf writer: out of memory");
		return TK_OK;
	}
	if (st->packet_open && st->n_events > 0) {
		*closed = true;
		return TK_OK;
	}
	size_t hard = s->packet_size > CTFW_MAX_PACKET ? s->packet_size : CTFW_MAX_PACKET;
	if (st->limit >= hard)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "ctf writer: an event does not fit a %zu-byte packet", hard);
	st->limit = st->limit * 2 < hard ? st->limit * 2 : hard;
	st->oversize = true;
	if (st->cap < st->limit && !grow_buf(st, st->limit))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "ctf writer: out of memory");
	return TK_OK;
}

tk_status ctfw_stream_write(ctfw_sink *s, ctfw_stream *st, const ctfw_event_class *ec,
			    const tk_event *ev, tk_error *err)
{
	const ctfw_stream_class *sc = st->sc;
	tk_status rc;
	uint64_t discarded = 0;
	if (sc->pc_extra) {
		rc = encode_pc_extra(s, st, ev, err);
		if (rc != TK_OK)
			return rc;
		const tk_value *items = ev->packet_context->v.list.items;
		uint64_t begin = 0, end = 0, seq = 0;
		if (sc->pc_discarded_index >= 0)
			discarded = items[sc->pc_discarded_index].v.u;
		if (sc->pc_ts_begin_index >= 0)
			begin = items[sc->pc_ts_begin_index].v.u;
		if (sc->pc_ts_end_index >= 0)
			end = items[sc->pc_ts_end_index].v.u;
		if (sc->pc_seq_index >= 0)
			seq = items[sc->pc_seq_index].v.u;
		/* Another source packet: a packet of its own, so that its bounds,
		 * discarded-event count and sequence number carry over. */
		bool same = st->n_packets + st->packet_open > 0 &&
			    st->pc_new_len == st->pc_cur_len && discarded == st->discarded &&
			    begin == st->src_begin && end == st->src_end && seq == st->src_seq &&
			    memcmp(st->pc_new + st->lay.extra / 8, st->pc_cur + st->lay.extra / 8,
				   (st->pc_new_len + 7) / 8) == 0;
		if (!same) {
			if (st->packet_open) {
				rc = close_packet(s, st, true, err);
				if (rc != TK_OK)
					return rc;
			}
			uint8_t *tmp = st->pc_cur;
			st->pc_cur = st->pc_new;
			st->pc_new = tmp;
			st->pc_cur_len = st->pc_new_len;
			st->discarded = discarded;
			st->src_begin = begin;
			st->src_end = end;
			st->src_seq = seq;
			st->src_fresh = true;
		}
	}
	uint64_t t = 0;
	if (sc->has_clock) {
		if (ev->has_time)
			t = sc->raw_time ? ev->time_raw : ev->time_ns;
		else
			t = st->prev_ts;
	}
	for (;;) {
		if (!st->packet_open && !open_packet(s, st, t)) {
			bool closed;
			rc = make_room(s, st, err, &closed);
			if (rc != TK_OK)
				return rc;
			continue;
		}
		ctfw_bits b = bits_at(s, st, st->pos);
		if (sc->has_clock) {
			uint64_t prev = st->prev_ts;
			if (ec->id < CTFW_EXTENDED_ID && t >= prev && t - prev <= UINT32_MAX) {
				ctfw_bits_put(&b, ec->id, 16, 8);
				ctfw_bits_put(&b, t, 32, 8);
			} else {
				ctfw_bits_put(&b, CTFW_EXTENDED_ID, 16, 8);
				ctfw_bits_put(&b, ec->id, 32, 8);
				ctfw_bits_put(&b, t, 64, 8);
			}
		} else {
			ctfw_bits_put(&b, ec->id, 32, 8);
		}
		const char *why = NULL;
		const char *scope = "stream event context";
		bool ok = !sc->event_context ||
			  ctfw_encode_scope(&b, sc->event_context, ev->stream_context, &why);
		if (ok && ec->context && !b.overflow) {
			scope = "event context";
			ok = ctfw_encode_scope(&b, ec->context, ev->context, &why);
		}
		if (ok && ec->payload && !b.overflow) {
			scope = "payload";
			ok = ctfw_encode_scope(&b, ec->payload, ev->payload, &why);
		}
		if (!ok)
			return tk_error_set(err, TK_ERR_FORMAT, ev->offset,
					    "ctf writer: %s of event '%s': %s", scope,
					    ec->src->name ? ec->src->name : "?", why);
		if (!b.overflow) {
			st->pos = b.pos;
			st->n_events++;
			st->total_events++;
			if (t > st->ts_end)
				st->ts_end = t;
			st->prev_ts = t;
			/* A packet grown past the bound holds that one event only. */
			if (st->oversize)
				return close_packet(s, st, false, err);
			return TK_OK;
		}
		bool closed;
		rc = make_room(s, st, err, &closed);
		if (rc != TK_OK)
			return rc;
		if (closed) {
			rc = close_packet(s, st, false, err);
			if (rc != TK_OK)
				return rc;
		}
	}
}

tk_status ctfw_stream_finish(ctfw_sink *s, ctfw_stream *st, tk_error *err)
{
	tk_status rc = TK_OK;
	if (st->packet_open && st->n_events > 0)
		rc = close_packet(s, st, true, err);
	if (st->fd >= 0 && close(st->fd) != 0 && rc == TK_OK)
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write stream %s: %s",
				  st->file_name, strerror(errno));
	st->fd = -1;
	if (st->idx_fd >= 0 && close(st->idx_fd) != 0 && rc == TK_OK)
		rc = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write index of %s: %s",
				  st->file_name, strerror(errno));
	st->idx_fd = -1;
	return rc;
}

void ctfw_stream_free(ctfw_stream *st)
{
	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	if (st->idx_fd >= 0)
		close(st->idx_fd);
	free(st->buf);
	free(st->pc_cur);
	free(st->pc_new);
	free(st);
}
