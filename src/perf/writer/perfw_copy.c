/* perf -> perf copies: every record and feature, in file or pipe mode,
 * either byte order, optionally compressed and filtered.
 *
 * Records are read in file order (tk_perf_open raw_order) with COMPRESSED
 * records expanded, converted to the output order when it differs, and
 * written through perfw_out. Metadata moves between the two modes:
 *  - file -> pipe: attrs become HEADER_ATTR records, features HEADER_FEATURE
 *    records, tracing data a TRACING_DATA record and build ids
 *    HEADER_BUILD_ID records, all before the data;
 *  - pipe -> file: those records are dropped from the data and their content
 *    (as the reader gathered it) is written as attrs and feature sections.
 * Features are copied as stored (tk_perf_features.raw), converted to the
 * output order, except: COMPRESSED (rewritten only with --compress),
 * DIR_FORMAT (the copy is one file), AUXTRACE (its index holds file offsets:
 * moved with the data when the layout is unchanged, else dropped so perf
 * scans for AUXTRACE records itself). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "model/filter.h"
#include "perf/writer/perfw_copy.h"
#include "perf/writer/perfw_out.h"
#include "perf/writer/perfw_swap.h"

typedef struct copier {
	tk_perf_file *f;
	const tk_perf_header *hdr;
	perfw_out o;
	bool conv; /* output order differs from the input's */
	const tk_filter *filter;
	tk_log_fn log;
	void *log_user;
	uint8_t *buf; /* one record being converted */
	size_t cap;
	uint8_t *tracing; /* pipe input: TRACING_DATA payload (input order) */
	size_t tracing_size;
	uint8_t *bids; /* pipe input: HEADER_BUILD_ID records (input order) */
	size_t bids_len, bids_cap;
	bool layout_changed; /* records dropped, added or resized */
	/* the attr whose sample_id trailer every kernel record carries, when
	 * all attrs agree on it (recomputed when attrs arrive) */
	const tk_perf_attr *trailer;
	size_t trailer_n;
	bool warned_type[128];
	bool warned_other;
} copier;

static void warn(copier *c, const char *msg)
{
	if (c->log)
		c->log(c->log_user, 0, msg);
}

static void warn_unknown_record(copier *c, uint32_t type)
{
	bool *flag = type < 128 ? &c->warned_type[type] : &c->warned_other;
	if (*flag)
		return;
	*flag = true;
	char msg[160];
	const char *name = tk_perf_record_type_name(type);
	snprintf(msg, sizeof msg,
		 "record type %u (%s): layout not fully known, parts kept byte for byte in the "
		 "byte-swapped copy",
		 type, name ? name : "unknown");
	warn(c, msg);
}

static uint32_t nr_cpus(const copier *c)
{
	return tk_perf_get_features(c->f)->nr_cpus_avail;
}

static tk_status grow(uint8_t **p, size_t *cap, size_t need, tk_error *err)
{
	if (need <= *cap)
		return TK_OK;
	size_t ncap = *cap ? *cap : 4096;
	while (ncap < need)
		ncap *= 2;
	uint8_t *np = realloc(*p, ncap);
	if (!np)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	*p = np;
	*cap = ncap;
	return TK_OK;
}

/* A feature payload in the output order (malloc'd), or NULL for none. */
static uint8_t *convert_feature(copier *c, unsigned id, const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);
	if (!p)
		return NULL;
	if (size)
		memcpy(p, data, size);
	if (c->conv && !perfw_swap_feature(id, p, size, nr_cpus(c), c->hdr->swap)) {
		char msg[160];
		const char *name = tk_perf_feature_name(id);
		snprintf(msg, sizeof msg,
			 "feature %u (%s): layout not fully known, kept byte for byte in the "
			 "byte-swapped copy",
			 id, name ? name : "unknown");
		warn(c, msg);
	}
	return p;
}

/* Features a copy never carries over as stored. */
static bool feature_rewritten(unsigned id)
{
	return id == TK_PERF_FEAT_COMPRESSED || id == TK_PERF_FEAT_DIR_FORMAT;
}

/* ---- pipe output from a file: metadata first ---- */

static tk_status emit_build_id_records(copier *c, const uint8_t *p, size_t n, tk_error *err)
{
	size_t pos = 0;
	tk_status st = TK_OK;
	while (st == TK_OK && n - pos >= 8) {
		uint16_t sz = tk_load_u16(p + pos + 6, c->hdr->swap);
		if (sz < 8 || sz > n - pos)
			break;
		if ((st = grow(&c->buf, &c->cap, sz, err)) != TK_OK)
			return st;
		memcpy(c->buf, p + pos, sz);
		tk_store_u32(c->buf, TK_PERF_RECORD_HEADER_BUILD_ID, c->hdr->swap);
		if (c->conv)
			perfw_swap_record(c->buf, sz, NULL, 0, c->hdr->swap);
		st = perfw_out_record(&c->o, c->buf, sz, NULL, 0, err);
		pos += sz;
	}
	return st;
}

static tk_status emit_pipe_metadata(copier *c, tk_error *err)
{
	size_t n = tk_perf_attr_count(c->f);
	const tk_perf_attr **attrs = malloc((n ? n : 1) * sizeof *attrs);
	if (!attrs)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < n; i++)
		attrs[i] = tk_perf_attr_at(c->f, i);
	uint32_t asz = perfw_attr_size(attrs, n);
	tk_status st = TK_OK;
	for (size_t i = 0; i < n && st == TK_OK; i++)
		st = perfw_out_pipe_attr(&c->o, attrs[i], asz, err);
	free(attrs);

	const tk_perf_features *ft = tk_perf_get_features(c->f);
	const tk_perf_raw_feature *tracing = NULL, *bids = NULL;
	for (size_t i = 0; i < ft->n_raw && st == TK_OK; i++) {
		const tk_perf_raw_feature *r = &ft->raw[i];
		if (r->id == TK_PERF_FEAT_TRACING_DATA) {
			tracing = r;
			continue;
		}
		if (r->id == TK_PERF_FEAT_BUILD_ID) {
			bids = r;
			continue;
		}
		/* perf does not send these in pipe mode either */
		if (feature_rewritten(r->id) || r->id == TK_PERF_FEAT_AUXTRACE)
			continue;
		uint8_t *p = convert_feature(c, r->id, r->data, (size_t)r->size);
		if (!p)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		tk_error ferr;
		tk_error_clear(&ferr);
		st = perfw_out_pipe_feature(&c->o, r->id, p, (size_t)r->size, &ferr);
		free(p);
		if (st == TK_ERR_LIMIT) {
			warn(c, ferr.message); /* too big for a record: perf drops it too */
			st = TK_OK;
		} else if (st != TK_OK && err) {
			*err = ferr;
		}
	}
	if (st == TK_OK && tracing)
		st = perfw_out_pipe_tracing(&c->o, tracing->data, (size_t)tracing->size, err);
	if (st == TK_OK && bids)
		st = emit_build_id_records(c, bids->data, (size_t)bids->size, err);
	return st;
}

/* ---- file output: features and attrs at the end ---- */

static tk_status add_feature_copy(copier *c, unsigned id, const uint8_t *data, size_t size,
				  tk_error *err)
{
	uint8_t *p = convert_feature(c, id, data, size);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return perfw_out_add_feature(&c->o, id, p, size, err);
}

/* AUXTRACE index entries {file offset, size}: moved by the data's shift. */
static tk_status add_auxtrace_index(copier *c, const tk_perf_raw_feature *r, tk_error *err)
{
	if (c->layout_changed || c->hdr->pipe_mode) {
		warn(c, "AUXTRACE index dropped: record offsets changed (perf rebuilds it by "
			"scanning)");
		return TK_OK;
	}
	size_t size = (size_t)r->size;
	uint8_t *p = malloc(size ? size : 1);
	if (!p)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (size)
		memcpy(p, r->data, size);
	int64_t delta = (int64_t)c->o.data_offset - (int64_t)c->hdr->data_offset;
	bool sw = c->hdr->swap;
	uint64_t nr = size >= 8 ? tk_load_u64(p, sw) : 0;
	if (nr > (size - 8) / 16)
		nr = (size - 8) / 16;
	for (uint64_t i = 0; i < nr; i++) {
		uint8_t *e = p + 8 + 16 * i;
		tk_store_u64(e, tk_load_u64(e, sw) + (uint64_t)delta, sw);
	}
	if (c->conv)
		perfw_swap_feature(TK_PERF_FEAT_AUXTRACE, p, size, 0, sw);
	return perfw_out_add_feature(&c->o, TK_PERF_FEAT_AUXTRACE, p, size, err);
}

static tk_status add_file_features(copier *c, tk_error *err)
{
	const tk_perf_features *ft = tk_perf_get_features(c->f);
	tk_status st = TK_OK;
	for (size_t i = 0; i < ft->n_raw && st == TK_OK; i++) {
		const tk_perf_raw_feature *r = &ft->raw[i];
		if (feature_rewritten(r->id))
			continue;
		if (r->id == TK_PERF_FEAT_AUXTRACE)
			st = add_auxtrace_index(c, r, err);
		else
			st = add_feature_copy(c, r->id, r->data, (size_t)r->size, err);
	}
	if (st == TK_OK && c->tracing && !perfw_out_has_feature(&c->o, TK_PERF_FEAT_TRACING_DATA))
		st = add_feature_copy(c, TK_PERF_FEAT_TRACING_DATA, c->tracing, c->tracing_size,
				      err);
	if (st == TK_OK && c->bids_len && !perfw_out_has_feature(&c->o, TK_PERF_FEAT_BUILD_ID))
		st = add_feature_copy(c, TK_PERF_FEAT_BUILD_ID, c->bids, c->bids_len, err);
	if (st == TK_OK && c->o.compress) {
		uint8_t *p = malloc(20);
		if (!p)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		perfw_out_compressed_feature(&c->o, p);
		st = perfw_out_add_feature(&c->o, TK_PERF_FEAT_COMPRESSED, p, 20, err);
	}
	/* perf reading a file of the other byte order trusts the feature
	 * bitmap only when HOSTNAME is set: give it one if the input had none */
	if (st == TK_OK && c->conv && !perfw_out_has_feature(&c->o, TK_PERF_FEAT_HOSTNAME)) {
		uint8_t *p = calloc(1, 4 + 64);
		if (!p)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		perfw_put32(&c->o, p, 64);
		memcpy(p + 4, "unknown", 7);
		st = perfw_out_add_feature(&c->o, TK_PERF_FEAT_HOSTNAME, p, 68, err);
	}
	return st;
}

static tk_status finish_file(copier *c, tk_error *err)
{
	tk_status st = add_file_features(c, err);
	if (st != TK_OK)
		return st;
	size_t n = tk_perf_attr_count(c->f);
	const tk_perf_attr **attrs = malloc((n ? n : 1) * sizeof *attrs);
	if (!attrs)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < n; i++)
		attrs[i] = tk_perf_attr_at(c->f, i);
	st = perfw_out_finish(&c->o, attrs, n, perfw_attr_size(attrs, n), err);
	free(attrs);
	return st;
}

/* ---- records ---- */

static bool keep_sample(const copier *c, const tk_perf_record *r)
{
	const tk_filter *f = c->filter;
	const tk_perf_sample_id *s = &r->sid;
	if (f->has_begin && (!r->has_time || s->time < f->begin_ns))
		return false;
	if (f->has_end && (!r->has_time || s->time > f->end_ns))
		return false;
	if (!tk_id_set_any(&f->pid) &&
	    (!(s->present & TK_PERF_SAMPLE_TID) || !tk_id_set_has(&f->pid, (int64_t)s->pid)))
		return false;
	if (!tk_id_set_any(&f->tid) &&
	    (!(s->present & TK_PERF_SAMPLE_TID) || !tk_id_set_has(&f->tid, (int64_t)s->tid)))
		return false;
	if (!tk_id_set_any(&f->cpu) &&
	    (!(s->present & TK_PERF_SAMPLE_CPU) || !tk_id_set_has(&f->cpu, (int64_t)s->cpu)))
		return false;
	if (f->events &&
	    !(r->attr && r->attr->name && tk_filter_name_matches(f->events, r->attr->name)))
		return false;
	return true;
}

/* Input metadata records: kept in a pipe-to-pipe copy, else gathered. */
static tk_status take_metadata(copier *c, const tk_perf_record *r, bool *skip, tk_error *err)
{
	*skip = false;
	switch (r->type) {
	case TK_PERF_RECORD_HEADER_FEATURE: {
		uint64_t id = r->size >= 16 ? tk_load_u64(r->data + 8, c->hdr->swap) : 0;
		*skip =
		    !c->o.pipe || id == TK_PERF_FEAT_COMPRESSED || id == TK_PERF_FEAT_DIR_FORMAT;
		return TK_OK;
	}
	case TK_PERF_RECORD_HEADER_ATTR:
	case TK_PERF_RECORD_HEADER_EVENT_TYPE: *skip = !c->o.pipe; return TK_OK;
	case TK_PERF_RECORD_HEADER_TRACING_DATA:
		if (c->o.pipe)
			return TK_OK;
		*skip = true;
		if (!c->tracing && r->extra) {
			c->tracing = malloc(r->extra_size ? (size_t)r->extra_size : 1);
			if (!c->tracing)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "out of memory");
			if (r->extra_size)
				memcpy(c->tracing, r->extra, (size_t)r->extra_size);
			c->tracing_size = (size_t)r->extra_size;
		}
		return TK_OK;
	case TK_PERF_RECORD_HEADER_BUILD_ID: {
		if (c->o.pipe)
			return TK_OK;
		*skip = true;
		tk_status st = grow(&c->bids, &c->bids_cap, c->bids_len + r->size, err);
		if (st != TK_OK)
			return st;
		memcpy(c->bids + c->bids_len, r->data, r->size);
		c->bids_len += r->size;
		return TK_OK;
	}
	case TK_PERF_RECORD_COMPRESSED:
	case TK_PERF_RECORD_COMPRESSED2:
		*skip = true; /* the reader hands out what they hold */
		return TK_OK;
	case TK_PERF_RECORD_FINISHED_ROUND:
		/* a --threads directory becomes one file: its files' rounds do
		 * not order the merged stream, so perf must sort it as a whole */
		*skip = c->hdr->is_directory;
		return TK_OK;
	default: return TK_OK;
	}
}

/* The attr that lays out a record for byte-order conversion. Samples:
 * their own. Kernel records: the attrs' common trailer when they all agree
 * on it, so the conversion does not hang on the reader's per-record guess
 * (which reads trailer bytes the conversion changes); else the record's. */
static const tk_perf_attr *layout_attr(copier *c, const tk_perf_record *r)
{
	if (r->type == TK_PERF_RECORD_SAMPLE || r->type >= TK_PERF_RECORD_HEADER_ATTR)
		return r->attr;
	size_t n = tk_perf_attr_count(c->f);
	if (n != c->trailer_n) {
		c->trailer_n = n;
		c->trailer = n ? tk_perf_attr_at(c->f, 0) : NULL;
		const uint64_t bits = TK_PERF_SAMPLE_TID | TK_PERF_SAMPLE_TIME | TK_PERF_SAMPLE_ID |
				      TK_PERF_SAMPLE_STREAM_ID | TK_PERF_SAMPLE_CPU |
				      TK_PERF_SAMPLE_IDENTIFIER;
		for (size_t i = 1; i < n && c->trailer; i++) {
			const tk_perf_attr *a = tk_perf_attr_at(c->f, i);
			if ((a->sample_type & bits) != (c->trailer->sample_type & bits) ||
			    tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL) !=
				tk_perf_attr_flag(c->trailer, TK_PERF_ATTR_SAMPLE_ID_ALL))
				c->trailer = NULL;
		}
	}
	return c->trailer ? c->trailer : r->attr;
}

static tk_status copy_records(copier *c, tk_error *err)
{
	const tk_perf_record *r;
	tk_status st;
	bool filtering = c->filter && !tk_filter_is_empty(c->filter);
	while ((st = tk_perf_next(c->f, &r, err)) == TK_OK) {
		if (r->from_compressed)
			c->layout_changed = true;
		bool skip;
		if ((st = take_metadata(c, r, &skip, err)) != TK_OK)
			return st;
		if (!skip && filtering && r->type == TK_PERF_RECORD_SAMPLE)
			skip = !keep_sample(c, r);
		if (skip) {
			c->layout_changed = true;
			continue;
		}
		const uint8_t *out = r->data;
		if (c->conv) {
			if ((st = grow(&c->buf, &c->cap, r->size, err)) != TK_OK)
				return st;
			memcpy(c->buf, r->data, r->size);
			if (!perfw_swap_record(c->buf, r->size, layout_attr(c, r), nr_cpus(c),
					       c->hdr->swap))
				warn_unknown_record(c, r->type);
			out = c->buf;
		}
		size_t extra = r->extra ? (size_t)r->extra_size : 0;
		if ((st = perfw_out_record(&c->o, out, r->size, r->extra, extra, err)) != TK_OK)
			return st;
	}
	return st == TK_END ? TK_OK : st;
}

static tk_status parse_order(const char *s, bool input_big, bool *big, tk_error *err)
{
	if (!s || strcmp(s, "native") == 0)
		*big = input_big;
	else if (strcmp(s, "big") == 0)
		*big = true;
	else if (strcmp(s, "little") == 0)
		*big = false;
	else
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "byte order '%s': expected big, little or native", s);
	return TK_OK;
}

/* The copy proper, from an open reader to `out` (NULL: memory). */
static tk_status copy_from(copier *c, const char *out, const tk_sink_options *opt, tk_writer **mem,
			   tk_error *err)
{
	c->hdr = tk_perf_get_header(c->f);
	bool big = false;
	tk_status st = parse_order(opt ? opt->byte_order : NULL, c->hdr->big_endian, &big, err);
	if (st != TK_OK)
		return st;
	c->conv = big != c->hdr->big_endian;
	if ((st = perfw_out_open(&c->o, out, big, opt && opt->compress, err)) != TK_OK)
		return st;
	if (c->o.pipe && !c->hdr->pipe_mode)
		st = emit_pipe_metadata(c, err);
	if (st == TK_OK)
		st = copy_records(c, err);
	if (st == TK_OK) {
		/* perfw_out_finish releases the output whatever happens */
		st = c->o.pipe ? perfw_out_finish(&c->o, NULL, 0, 0, err) : finish_file(c, err);
		if (mem)
			*mem = c->o.result;
		else
			tk_writer_abort(c->o.result);
	} else if (c->o.w) {
		perfw_out_abort(&c->o);
	}
	return st;
}

static void copier_free(copier *c)
{
	tk_perf_close(c->f);
	free(c->buf);
	free(c->tracing);
	free(c->bids);
}

tk_status tk_perf_copy_filtered(const char *in, const char *out, const tk_sink_options *opt,
				const struct tk_filter *f, tk_error *err)
{
	copier c;
	memset(&c, 0, sizeof c);
	c.filter = f;
	tk_perf_open_options oo = {.raw_order = true};
	if (opt) {
		oo.log = c.log = opt->log;
		oo.log_user = c.log_user = opt->log_user;
	}
	tk_status st = tk_perf_open(in, &oo, &c.f, err);
	if (st == TK_OK)
		st = copy_from(&c, out, opt, NULL, err);
	copier_free(&c);
	return st;
}

tk_status perfw_copy_memory(const void *data, size_t size, const tk_sink_options *opt,
			    tk_writer **out, tk_error *err)
{
	*out = NULL;
	copier c;
	memset(&c, 0, sizeof c);
	tk_perf_open_options oo = {.raw_order = true};
	if (opt) {
		oo.log = c.log = opt->log;
		oo.log_user = c.log_user = opt->log_user;
	}
	tk_status st = tk_perf_open_memory(data, size, "memory", &oo, &c.f, err);
	if (st == TK_OK)
		st = copy_from(&c, NULL, opt, out, err);
	copier_free(&c);
	return st;
}

tk_status tk_perf_copy(const char *in, const char *out, const tk_sink_options *opt, tk_error *err)
{
	return tk_perf_copy_filtered(in, out, opt, NULL, err);
}
