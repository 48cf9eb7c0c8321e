/* Lossless CPEL paths: elog -> CPEL as c2cpel does it, and CPEL -> CPEL
 * copies (byte-identical, or re-encoded in the other byte order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytes.h"
#include "base/writer.h"
#include "cpel/cpel_convert.h"
#include "cpel/cpel_reader.h"
#include "cpel/cpel_writer.h"
#include "cpel/elog_reader.h"

static tk_status want_little(const tk_sink_options *opt, bool file_le, bool *le, tk_error *err)
{
	const char *bo = opt ? opt->byte_order : NULL;
	*le = file_le;
	if (!bo)
		return TK_OK;
	if (strcmp(bo, "little") == 0)
		*le = true;
	else if (strcmp(bo, "big") == 0)
		*le = false;
	else if (strcmp(bo, "native") == 0)
		*le = tk_host_is_le();
	else
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown byte order '%s' (big, little, native)", bo);
	return TK_OK;
}

/* c2cpel's seconds -> ns: (u64)(delta * 1e9), as x86-64 converts. */
static uint64_t seconds_to_ns(double delta)
{
	double ns = delta * 1e9;
	if (!(ns == ns))
		return 0;
	if (ns < 0)
		return ns > -9.2e18 ? (uint64_t)(int64_t)ns : 0;
	if (ns >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)ns;
}

typedef struct track_slot {
	uint32_t strtab_off;
	uint32_t original;
} track_slot;

/* c2cpel's alpha_compare_tracks: compares only up to the shorter name. */
static int track_cmp(const char *tab, const track_slot *a, const track_slot *b)
{
	const unsigned char *s1 = (const unsigned char *)tab + a->strtab_off;
	const unsigned char *s2 = (const unsigned char *)tab + b->strtab_off;
	for (size_t i = 0; s1[i] && s2[i]; i++) {
		if (s1[i] < s2[i])
			return -1;
		if (s1[i] > s2[i])
			return 1;
	}
	return 0;
}

/* Stable merge sort (glibc's qsort is a merge sort for such arrays). */
static void sort_tracks(const char *tab, track_slot *v, track_slot *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_tracks(tab, v, tmp, h);
	sort_tracks(tab, v + h, tmp, n - h);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = track_cmp(tab, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

static tk_status nomem(tk_error *err)
{
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
}

static tk_status convert(const tk_elog_file *f, tk_cpel_writer *cw, tk_writer *text, tk_error *err)
{
	if (f->n_tracks > UINT32_MAX / 2)
		return nomem(err);
	/* event name -> event code, track index -> writer track slot */
	tk_hashmap event_by_name; /* strtab offset of the name -> code */
	tk_hashmap slot_by_name;  /* strtab offset of a track name -> slot + 1 */
	tk_hashmap_init(&event_by_name);
	tk_hashmap_init(&slot_by_name);
	uint32_t *slot_of_track = calloc(f->n_tracks ? f->n_tracks : 1, sizeof *slot_of_track);
	track_slot *slots = calloc(f->n_tracks ? f->n_tracks : 1, sizeof *slots);
	track_slot *tmp = calloc(f->n_tracks ? f->n_tracks : 1, sizeof *tmp);
	tk_status st = TK_OK;
	uint32_t n_slots = 0, n_codes = 0, fmt_s = 0;
	bool have_fmt_s = false;
	if (!slot_of_track || !slots || !tmp) {
		st = nomem(err);
		goto out;
	}
	double start = f->n_events ? f->events[0].time : 0;
	for (uint32_t i = 0; i < f->n_events && st == TK_OK; i++) {
		const tk_elog_event *e = &f->events[i];
		const tk_elog_type *t = &f->types[e->type];
		text->pos = 0;
		tk_elog_event_text(text, f, e);
		if (text->error) {
			st = nomem(err);
			break;
		}
		size_t tlen = text->pos;
		const char *tx = text->buf;
		const char *nul = memchr(tx, 0, tlen);
		if (nul)
			tlen = (size_t)(nul - tx); /* c2cpel treats the text as a C string */
		size_t j = strcspn(t->format.s, " %(");
		/* the name: the format up to j; the datum: the text after j+1 */
		uint32_t name_off, datum_off;
		if (!tk_cpel_writer_string(cw, t->format.s, j, &name_off)) {
			st = nomem(err);
			break;
		}
		uint64_t *code = tk_hashmap_get(&event_by_name, name_off);
		uint32_t this_code;
		if (code) {
			this_code = (uint32_t)*code;
		} else {
			if (!have_fmt_s) {
				if (!tk_cpel_writer_string(cw, "%s", 2, &fmt_s)) {
					st = nomem(err);
					break;
				}
				have_fmt_s = true;
			}
			this_code = n_codes++;
			if (!tk_hashmap_put(&event_by_name, name_off, this_code) ||
			    !tk_cpel_writer_event_def(cw, this_code, name_off, fmt_s)) {
				st = nomem(err);
				break;
			}
		}
		uint32_t *slot = &slot_of_track[e->track];
		if (*slot == 0) {
			const tk_elog_str *tn = &f->tracks[e->track];
			uint32_t off;
			if (!tk_cpel_writer_string(cw, tn->s, tn->len, &off)) {
				st = nomem(err);
				break;
			}
			/* tracks with equal names share one slot, as c2cpel's hash does;
			 * equal names have equal string offsets */
			uint64_t *known = tk_hashmap_get(&slot_by_name, off);
			uint32_t found;
			if (known) {
				found = (uint32_t)*known;
			} else {
				slots[n_slots].strtab_off = off;
				slots[n_slots].original = n_slots;
				found = ++n_slots;
				if (!tk_hashmap_put(&slot_by_name, off, found)) {
					st = nomem(err);
					break;
				}
			}
			*slot = found;
		}
		size_t skip = j + 1 <= tlen + 1 ? j + 1 : tlen + 1;
		const char *datum = skip <= tlen ? tx + skip : "";
		size_t dlen = skip <= tlen ? tlen - skip : 0;
		if (!tk_cpel_writer_string(cw, datum, dlen, &datum_off) ||
		    !tk_cpel_writer_event(cw, seconds_to_ns(e->time - start), *slot - 1, this_code,
					  datum_off)) {
			st = nomem(err);
			break;
		}
	}
	if (st != TK_OK)
		goto out;
	size_t tab_size;
	const char *tab = tk_cpel_writer_strtab(cw, &tab_size);
	sort_tracks(tab, slots, tmp, n_slots);
	uint32_t *alpha = (uint32_t *)tmp; /* original slot -> sorted index */
	for (uint32_t k = 0; k < n_slots; k++)
		alpha[slots[k].original] = k;
	for (size_t k = 0; k < tk_cpel_writer_n_events(cw); k++) {
		uint32_t *tr = tk_cpel_writer_event_track(cw, k);
		*tr = alpha[*tr];
	}
	for (uint32_t k = 0; k < n_slots; k++)
		if (!tk_cpel_writer_track_def(cw, k, slots[k].strtab_off)) {
			st = nomem(err);
			break;
		}
out:
	tk_hashmap_free(&event_by_name);
	tk_hashmap_free(&slot_by_name);
	free(slot_of_track);
	free(slots);
	free(tmp);
	return st;
}

tk_status tk_cpel_build_from_elog(const tk_elog_file *f, tk_cpel_writer *cw, tk_error *err)
{
	tk_writer *text;
	tk_status st = tk_writer_open_memory(&text, err);
	if (st != TK_OK)
		return st;
	st = convert(f, cw, text, err);
	tk_writer_abort(text);
	return st;
}

tk_status tk_cpel_convert_elog(const char *in, const char *out, const tk_sink_options *opt,
			       tk_error *err)
{
	bool le;
	tk_status st = want_little(opt, false, &le, err);
	if (st != TK_OK)
		return st;
	tk_elog_file *f;
	if ((st = tk_elog_open(in, &f, err)) != TK_OK)
		return st;
	tk_cpel_writer *cw = tk_cpel_writer_new();
	if (!cw) {
		st = nomem(err);
		goto out;
	}
	if ((st = tk_cpel_build_from_elog(f, cw, err)) != TK_OK)
		goto out;
	tk_error_set_file(err, out);
	st = tk_cpel_writer_commit(cw, out, le, (uint32_t)time(NULL), 1000000000u, err);
out:
	tk_cpel_writer_free(cw);
	tk_elog_close(f);
	return st;
}

/* Writes the file with every 32-bit field swapped: headers, counts, entries
 * and events; strings, table names and unknown sections are copied. */
static void put_swapped(tk_writer *o, const tk_cpel_file *f, bool swap_out)
{
	uint8_t hdr[8];
	memcpy(hdr, f->data, 8);
	hdr[0] ^= TK_CPEL_LITTLE_ENDIAN;
	tk_store_u16(hdr + 2, f->nsections, swap_out);
	tk_store_u32(hdr + 4, f->file_date, swap_out);
	tk_put_mem(o, hdr, 8);
	for (size_t i = 0; i < f->n_sections; i++) {
		const tk_cpel_section *s = &f->sections[i];
		uint8_t sh[8];
		tk_store_u32(sh, s->type, swap_out);
		tk_store_u32(sh + 4, s->length, swap_out);
		tk_put_mem(o, sh, 8);
		bool words = s->type >= TK_CPEL_SECTION_SYMTAB && s->type <= TK_CPEL_SECTION_EVENT;
		if (!words) {
			tk_put_mem(o, s->data, s->length);
			continue;
		}
		tk_put_mem(o, s->data, TK_CPEL_TABLE_NAME); /* validated: length >= 68 */
		uint32_t k = TK_CPEL_TABLE_NAME;
		for (; k + 4 <= s->length; k += 4) {
			uint32_t v;
			memcpy(&v, s->data + k, 4);
			v = __builtin_bswap32(v);
			tk_put_mem(o, &v, 4);
		}
		tk_put_mem(o, s->data + k, s->length - k);
	}
	if (f->size > 0) {
		uint64_t end = f->sections && f->n_sections
				   ? f->sections[f->n_sections - 1].offset +
					 TK_CPEL_SECTION_HEADER +
					 f->sections[f->n_sections - 1].length
				   : TK_CPEL_FILE_HEADER;
		if (end < f->size)
			tk_put_mem(o, f->data + end, (size_t)(f->size - end));
	}
}

tk_status tk_cpel_copy(const char *in, const char *out, const tk_sink_options *opt, tk_error *err)
{
	tk_cpel_file *f;
	tk_status st = tk_cpel_open(in, opt ? opt->log : NULL, opt ? opt->log_user : NULL, &f, err);
	if (st != TK_OK)
		return st;
	bool le;
	if ((st = want_little(opt, f->little_endian, &le, err)) != TK_OK)
		goto out;
	tk_writer *o;
	tk_error_set_file(err, out);
	if ((st = tk_writer_open_atomic(out, &o, err)) != TK_OK)
		goto out;
	if (le == f->little_endian)
		tk_put_mem(o, f->data, (size_t)f->size);
	else
		put_swapped(o, f, le != tk_host_is_le());
	st = tk_writer_commit(o, err);
out:
	tk_cpel_close(f);
	return st;
}
