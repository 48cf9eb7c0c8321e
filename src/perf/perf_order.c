/* Time ordering with perf's rules (tools/perf/util/ordered-events.c and
 * session.c), so the sample order equals `perf script`'s:
 * - user records (type >= 64) are handled at once, in file order;
 * - kernel records whose time is 0 or unknown (no TIME, no sample_id_all)
 *   are delivered at once, ahead of queued ones (ordered_events__queue
 *   returns -ETIME for them);
 * - other records are queued; at each FINISHED_ROUND the queued records
 *   with time <= the limit set by the previous round are delivered, and the
 *   limit becomes the largest time queued so far (a round with nothing
 *   queued changes nothing); at the end everything is delivered;
 * - equal times keep file order (stable).
 * Queue entries are 24 bytes and point into the mmap; only records from
 * pipes and compressed data are copied, into chunks freed as they drain.
 * When the queue grows past its bounds, the older half (by time) is
 * delivered early, as perf does with OE_FLUSH__HALF. */
#include <stdlib.h>
#include <string.h>

#include "perf/perf_internal.h"

#define Q_MAX_ENTRIES    ((size_t)1 << 20) /* 24 MiB of entries + as much merge space */
#define Q_MAX_COPY_BYTES ((uint64_t)64 << 20)
#define COPY_CHUNK_SIZE  ((size_t)1 << 20)

struct perf_copy_chunk {
	size_t live; /* copies not yet released */
	size_t used, cap;
	uint8_t data[];
};

static const uint8_t *copy_record(tk_perf_file *f, const uint8_t *p, uint32_t size)
{
	perf_copy_chunk *c = f->copy_cur;
	size_t need = 8 + (((size_t)size + 7) & ~(size_t)7);
	if (!c || c->cap - c->used < need) {
		if (c && c->live == 0 && c->cap >= need) {
			c->used = 0; /* every copy in it is gone: reuse */
		} else {
			size_t cap = need > COPY_CHUNK_SIZE ? need : COPY_CHUNK_SIZE;
			perf_copy_chunk *nc = malloc(sizeof *nc + cap);
			if (!nc)
				return NULL;
			nc->live = 0;
			nc->used = 0;
			nc->cap = cap;
			if (c && c->live == 0)
				free(c); /* retired chunks are freed by their last release */
			f->copy_cur = c = nc;
		}
	}
	uint8_t *dst = c->data + c->used;
	memcpy(dst, &c, sizeof c);
	memcpy(dst + 8, p, size);
	c->used += need;
	c->live++;
	f->q_copy_bytes += need;
	return dst + 8;
}

static void release_copy(tk_perf_file *f, const uint8_t *rec)
{
	perf_copy_chunk *c;
	memcpy(&c, rec - 8, sizeof c);
	uint32_t size = tk_load_u16(rec + 6, f->swap);
	f->q_copy_bytes -= 8 + (((size_t)size + 7) & ~(size_t)7);
	if (--c->live == 0 && c != f->copy_cur)
		free(c);
}

/* Stable merge of two sorted runs into dst. */
static void merge(const perf_qentry *a, size_t na, const perf_qentry *b, size_t nb,
		  perf_qentry *dst)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		dst[k++] = b[j].time < a[i].time ? b[j++] : a[i++];
	while (i < na)
		dst[k++] = a[i++];
	while (j < nb)
		dst[k++] = b[j++];
}

/* Stable natural merge sort of v[0..n) by time, using tmp[0..n) and
 * runs[0..n]. Records arrive as a few sorted runs (one per CPU buffer
 * perf drained in the round), so finding the runs and merging them costs
 * n * log2(runs), not n * log2(n). */
static void sort_entries(perf_qentry *v, size_t n, perf_qentry *tmp, size_t *runs)
{
	size_t nr = 0;
	runs[nr++] = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i].time < v[i - 1].time)
			runs[nr++] = i;
	runs[nr] = n;
	perf_qentry *src = v, *dst = tmp;
	while (nr > 1) {
		size_t out = 0;
		for (size_t k = 0; k < nr; k += 2) {
			size_t s0 = runs[k], m = runs[k + 1], e = k + 2 <= nr ? runs[k + 2] : m;
			if (k + 1 == nr) /* odd run out: copy */
				memcpy(dst + s0, src + s0, (m - s0) * sizeof *v);
			else
				merge(src + s0, m - s0, src + m, e - m, dst + s0);
			runs[out++] = s0;
		}
		runs[out] = n;
		nr = out;
		perf_qentry *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

/* Makes q[q_head, q_len) one sorted run. */
static tk_status sort_queue(tk_perf_file *f, tk_error *err)
{
	size_t n_new = f->q_len - f->q_sorted, n_old = f->q_sorted - f->q_head;
	if (n_new == 0)
		return TK_OK;
	if (f->q_tmp_cap < f->q_len - f->q_head) {
		size_t cap = f->q_cap;
		perf_qentry *t = realloc(f->q_tmp, cap * sizeof *t);
		if (t)
			f->q_tmp = t;
		size_t *rn = t ? realloc(f->q_runs, (cap + 1) * sizeof *rn) : NULL;
		if (!t || !rn)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "out of memory for ordering");
		f->q_runs = rn;
		f->q_tmp_cap = cap;
	}
	perf_qentry *tail = f->q + f->q_sorted;
	sort_entries(tail, n_new, f->q_tmp, f->q_runs);
	if (n_old && tail[0].time < tail[-1].time) {
		merge(f->q + f->q_head, n_old, tail, n_new, f->q_tmp);
		memcpy(f->q + f->q_head, f->q_tmp, (n_old + n_new) * sizeof *f->q);
	}
	f->q_sorted = f->q_len;
	return TK_OK;
}

/* Marks queued records with time <= limit as ready (do_flush()). */
static tk_status flush_upto(tk_perf_file *f, uint64_t limit, tk_error *err)
{
	tk_status st = sort_queue(f, err);
	if (st != TK_OK)
		return st;
	size_t lo = f->q_head, hi = f->q_len;
	while (lo < hi) { /* first entry with time > limit */
		size_t mid = lo + (hi - lo) / 2;
		if (f->q[mid].time <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->q_ready = lo;
	if (lo > f->q_head)
		f->q_last_flush = f->q[lo - 1].time;
	return TK_OK;
}

/* Queues r (a kernel record of attr a, may be NULL) at time t. */
static tk_status queue_record(tk_perf_file *f, const tk_perf_record *r, const tk_perf_attr *a,
			      uint64_t t, tk_error *err)
{
	if (f->q_head == f->q_len) {
		f->q_head = f->q_sorted = f->q_ready = f->q_len = 0;
	} else if (f->q_head > 0 && f->q_len == f->q_cap) {
		memmove(f->q, f->q + f->q_head, (f->q_len - f->q_head) * sizeof *f->q);
		f->q_len -= f->q_head;
		f->q_sorted -= f->q_head;
		f->q_ready = f->q_head = 0;
	}
	if (f->q_len == f->q_cap) {
		size_t cap = f->q_cap ? f->q_cap * 2 : 4096;
		perf_qentry *nq = realloc(f->q, cap * sizeof *nq);
		if (!nq)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset,
					    "out of memory for ordering");
		f->q = nq;
		f->q_cap = cap;
	}
	bool stable = f->inputs[0].map != NULL && !r->from_compressed;
	const uint8_t *rec = r->data;
	uint64_t meta = r->offset & PERF_Q_OFFSET_MASK;
	if (!stable) {
		if (!(rec = copy_record(f, r->data, r->size)))
			return tk_error_set(err, TK_ERR_NOMEM, r->offset,
					    "out of memory for ordering");
		meta |= PERF_Q_COPIED;
	}
	if (r->from_compressed)
		meta |= PERF_Q_COMPRESSED;
	if (a && a->index <= PERF_Q_ATTR_MAX)
		meta |= (uint64_t)(a->index + 1) << PERF_Q_ATTR_SHIFT;
	if (t < f->q_last_flush && !f->warned_unordered) {
		f->warned_unordered = true;
		tk_perf_warn(f, "record at 0x%llx is older than records already delivered",
			     (unsigned long long)r->offset);
	}
	/* perf's max_timestamp restarts when the queue is empty */
	if (f->q_head == f->q_len || t > f->q_max_time)
		f->q_max_time = t;
	f->q[f->q_len++] = (perf_qentry){t, rec, meta};
	f->q_last_time = t;
	return TK_OK;
}

static tk_status check_bounds(tk_perf_file *f, tk_error *err)
{
	size_t pending = f->q_len - f->q_head;
	if (pending < Q_MAX_ENTRIES && f->q_copy_bytes < Q_MAX_COPY_BYTES)
		return TK_OK;
	if (!f->warned_queue) {
		f->warned_queue = true;
		tk_perf_warn(
		    f, "ordering queue is full (%zu records); delivering the older half early",
		    pending);
	}
	tk_status st = sort_queue(f, err);
	if (st != TK_OK)
		return st;
	uint64_t first = f->q[f->q_head].time, last = f->q_last_time;
	f->q_next_flush = first + (last > first ? (last - first) / 2 : 0);
	st = flush_upto(f, f->q_next_flush, err);
	if (st == TK_OK && f->q_ready == f->q_head)
		st = flush_upto(f, first, err); /* always make progress */
	return st;
}

static void emit_entry(tk_perf_file *f, const perf_qentry *e)
{
	tk_perf_record *r = &f->cur;
	r->data = e->rec;
	r->type = tk_load_u32(e->rec, f->swap);
	r->misc = tk_load_u16(e->rec + 4, f->swap);
	r->size = tk_load_u16(e->rec + 6, f->swap);
	r->offset = e->meta & PERF_Q_OFFSET_MASK;
	r->from_compressed = (e->meta & PERF_Q_COMPRESSED) != 0;
	r->extra = NULL;
	r->extra_size = 0;
	size_t attr1 = (size_t)((e->meta >> PERF_Q_ATTR_SHIFT) & PERF_Q_ATTR_BITS);
	if (attr1 && !f->q_attrs_changed)
		tk_perf_classify_with(f, r, f->attrs[attr1 - 1]); /* as found when queued */
	else
		tk_perf_classify(f, r);
	if (e->meta & PERF_Q_COPIED)
		f->release_copy = e->rec;
}

/* A record type tk does not know: counted and warned about once; it still
 * comes back raw (print --all and stats show it as UNKNOWN(type)). */
static void note_unknown_type(tk_perf_file *f, const tk_perf_record *r)
{
	bool invalid = tk_perf_type_invalid(r->type);
	if (invalid && f->n_invalid++ == 0) {
		f->first_invalid_off = r->offset;
		f->first_invalid_type = r->type;
	}
	if (f->warned_unknown_type)
		return;
	f->warned_unknown_type = true;
	if (invalid)
		tk_perf_warn(f,
			     "record at 0x%llx has an invalid type %u (0x%x), shown as "
			     "UNKNOWN(%u); the file is damaged (perf stops there): the reading "
			     "goes on and ends with an error",
			     (unsigned long long)r->offset, r->type, r->type, r->type);
	else
		tk_perf_warn(f,
			     "record at 0x%llx has an unknown type %u, shown as UNKNOWN(%u) "
			     "(perf counts these as unknown events)",
			     (unsigned long long)r->offset, r->type, r->type);
}

tk_status tk_perf_order_next(tk_perf_file *f, const tk_perf_record **out, tk_error *err)
{
	if (f->release_copy) {
		release_copy(f, f->release_copy);
		f->release_copy = NULL;
	}
	for (;;) {
		if (f->q_head < f->q_ready) {
			emit_entry(f, &f->q[f->q_head++]);
			if (f->q_head == f->q_len)
				f->q_attrs_changed = false;
			*out = &f->cur;
			return TK_OK;
		}
		if (f->deferred_valid) {
			f->deferred_valid = false;
			f->cur = f->deferred;
			*out = &f->cur;
			return TK_OK;
		}
		if (f->eof) {
			if (f->q_head < f->q_len) {
				tk_status st = flush_upto(f, UINT64_MAX, err);
				if (st != TK_OK)
					return st;
				continue;
			}
			if (f->pending_st != TK_OK) {
				if (err)
					*err = f->pending_err;
				return f->pending_st;
			}
			if (f->n_invalid)
				return tk_error_set(err, TK_ERR_FORMAT, f->first_invalid_off,
						    "%llu record(s) of invalid type (the first, "
						    "type %u, at 0x%llx): the file is damaged",
						    (unsigned long long)f->n_invalid,
						    f->first_invalid_type,
						    (unsigned long long)f->first_invalid_off);
			return TK_END;
		}
		/* raw order reads straight into cur: nothing is kept back */
		tk_perf_record local, *rp = f->opt.raw_order ? &f->cur : &local;
		tk_status st = tk_perf_read_raw(f, rp, err);
		if (st == TK_END) {
			f->eof = true;
			tk_perf_name_attrs(f, true);
			continue;
		}
		if (st < 0 && st != TK_ERR_NOMEM && f->q_head < f->q_len) {
			/* the queued records are complete: deliver them, then the error */
			f->pending_st = st;
			if (err)
				f->pending_err = *err;
			f->eof = true;
			continue;
		}
		if (st != TK_OK)
			return st;
		if (!tk_perf_record_type_name(rp->type))
			note_unknown_type(f, rp);
		size_t n_attrs = f->n_attrs;
		if ((st = tk_perf_apply_meta(f, rp, err)) != TK_OK)
			return st;
		if (f->n_attrs != n_attrs && f->q_head < f->q_len)
			f->q_attrs_changed = true;
		if (f->opt.raw_order) {
			tk_perf_classify(f, rp);
			*out = &f->cur;
			return TK_OK;
		}
		/* A sample only needs its attr and time to be queued: the rest of
		 * its head is parsed when it is emitted. */
		const tk_perf_attr *a = tk_perf_find_attr(f, rp);
		uint64_t t;
		if (a && rp->type == TK_PERF_RECORD_SAMPLE) {
			if (!a->name)
				tk_perf_name_attrs(f, true); /* as tk_perf_classify_with */
			if (tk_perf_sample_time(rp->data, rp->size, a->sample_type, f->swap, &t) &&
			    t != 0 && t != UINT64_MAX) {
				if ((st = queue_record(f, rp, a, t, err)) != TK_OK ||
				    (st = check_bounds(f, err)) != TK_OK)
					return st;
				continue;
			}
		}
		if (a)
			tk_perf_classify_with(f, rp, a);
		else
			tk_perf_classify(f, rp);
		const tk_perf_record *r = &local;
		if (r->type == TK_PERF_RECORD_FINISHED_ROUND) {
			/* The record stays valid: nothing is fetched before it is emitted. */
			if (f->q_head < f->q_len) {
				if (f->q_next_flush &&
				    (st = flush_upto(f, f->q_next_flush, err)) != TK_OK)
					return st;
				f->q_next_flush = f->q_max_time;
			}
			f->deferred = *r;
			f->deferred_valid = true;
			continue;
		}
		if (r->type >= TK_PERF_RECORD_HEADER_ATTR || !r->has_time || r->sid.time == 0 ||
		    r->sid.time == UINT64_MAX) {
			f->cur = *r;
			*out = &f->cur;
			return TK_OK;
		}
		if ((st = queue_record(f, r, r->attr, r->sid.time, err)) != TK_OK ||
		    (st = check_bounds(f, err)) != TK_OK)
			return st;
	}
}

void tk_perf_order_free(tk_perf_file *f)
{
	if (f->release_copy)
		release_copy(f, f->release_copy);
	f->release_copy = NULL;
	for (size_t i = f->q_head; i < f->q_len; i++)
		if (f->q[i].meta & PERF_Q_COPIED)
			release_copy(f, f->q[i].rec);
	free(f->copy_cur);
	free(f->q);
	free(f->q_tmp);
	free(f->q_runs);
}
