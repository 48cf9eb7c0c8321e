/* Writes the seed corpus of fuzz_log_recover: small logger files (tables of
 * 4 types, 4 tracks, 2 rings of 8 events) in the layout of
 * src/log/log_impl.h, so a fuzzer can mutate whole files.
 *
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude -Isrc tests/fuzz/gen_log_recover_corpus.c \
 *      -o /tmp/gen && /tmp/gen tests/fuzz/corpus/log_recover
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log_impl.h"

#define TYPES  4
#define TRACKS 4
#define STRTAB 64
#define RINGS  2
#define SLOTS  8

static uint8_t *make(uint64_t *size, unsigned mode, unsigned clock)
{
	uint64_t types_off = LG_HEADER_SIZE, tracks_off = types_off + TYPES * LG_TYPE_SIZE;
	uint64_t strtab_off = tracks_off + TRACKS * LG_TRACK_SIZE, dir_off = strtab_off + STRTAB;
	uint64_t rings_off = dir_off + RINGS * LG_RING_SIZE;
	*size = rings_off + RINGS * SLOTS * LG_SLOT_SIZE;
	uint8_t *b = calloc(1, *size);
	tk_lg_header *h = (tk_lg_header *)b;
	memcpy(h->magic, LG_MAGIC, 8);
	h->endian = LG_ENDIAN;
	h->header_size = LG_HEADER_SIZE;
	h->file_size = *size;
	h->slot_size = LG_SLOT_SIZE;
	h->max_types = TYPES;
	h->max_tracks = TRACKS;
	h->max_rings = RINGS;
	h->types_off = types_off;
	h->tracks_off = tracks_off;
	h->strtab_off = strtab_off;
	h->strtab_cap = STRTAB;
	h->rings_dir_off = dir_off;
	h->rings_off = rings_off;
	h->ring_slots = SLOTS;
	h->mode = mode;
	h->clock = clock;
	h->init_ticks = 1000;
	h->init_real_ns = 1700000000000000000ull;
	h->init_tps = clock != LG_CLOCK_TSC ? 1e9 : 2.5e9;
	static const char *const fmts[3] = {"rx %u pkts %lx", "load %.3f of %s", "name %s %ld"};
	static const char *const kinds[3] = {"uU", "fT", "si"};
	for (unsigned i = 0; i < 3; i++) {
		tk_lg_type_entry *e = (tk_lg_type_entry *)(b + types_off + i * LG_TYPE_SIZE);
		strcpy(e->format, fmts[i]);
		strcpy(e->kinds, kinds[i]);
		e->n_args = (uint8_t)strlen(kinds[i]);
		e->commit = 1;
	}
	h->n_types = 3;
	static const char *const tracks[2] = {"main thread", "worker 1"};
	for (unsigned i = 0; i < 2; i++) {
		tk_lg_track_entry *e = (tk_lg_track_entry *)(b + tracks_off + i * LG_TRACK_SIZE);
		strcpy(e->name, tracks[i]);
		e->commit = 1;
	}
	h->n_tracks = 2;
	memcpy(b + strtab_off, "budget\0other", 13);
	h->strtab_len = 13;
	uint64_t counts[RINGS] = {5, mode == TK_LOG_FLIGHT ? 12 : 8};
	for (unsigned r = 0; r < RINGS; r++) {
		tk_lg_ring_dir *d = (tk_lg_ring_dir *)(b + dir_off + r * LG_RING_SIZE);
		d->pid = 100;
		d->tid = 100 + r;
		d->track = r;
		d->slots_off = rings_off + r * SLOTS * LG_SLOT_SIZE;
		d->commit = 1;
		tk_log__slot *s = (tk_log__slot *)(b + d->slots_off);
		for (uint64_t q = 0; q < counts[r]; q++) {
			tk_log__slot *x = &s[q & (SLOTS - 1)];
			memset(x, 0, sizeof *x);
			x->time = 1000 + q * 250 + r * 100;
			x->type = (uint16_t)(q % 3);
			x->track = (uint16_t)r;
			double f = q * 0.5;
			switch (x->type) {
			case 0:
				x->w[0] = q;
				x->w[1] = q << 40;
				break;
			case 1:
				memcpy(&x->w[0], &f, 8);
				x->w[1] = q % 2 ? 7 : 0;
				break;
			default:
				memcpy(&x->w[0], "short str", 10);
				x->w[3] = (uint64_t) - (int64_t)q;
				break;
			}
			x->commit = (uint32_t)(q + 1);
		}
		d->head = counts[r];
		if (mode == TK_LOG_STOP_WHEN_FULL)
			d->dropped = 3;
	}
	h->n_rings = RINGS;
	return b;
}

static void put(const char *dir, const char *name, const uint8_t *b, uint64_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b, 1, n, f) != n)
		exit(1);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	uint64_t n;
	uint8_t *b = make(&n, TK_LOG_STOP_WHEN_FULL, LG_CLOCK_TSC);
	put(argv[1], "stop_tsc", b, n);
	/* killed while writing event 4 of ring 0: commit cleared */
	tk_lg_ring_dir *d = (tk_lg_ring_dir *)(b + ((tk_lg_header *)b)->rings_dir_off);
	((tk_log__slot *)(b + d->slots_off))[4].commit = 0;
	put(argv[1], "torn_last", b, n);
	free(b);
	b = make(&n, TK_LOG_FLIGHT, LG_CLOCK_MONO);
	put(argv[1], "flight_mono", b, n);
	free(b);
	b = make(&n, TK_LOG_STOP_WHEN_FULL, LG_CLOCK_COARSE);
	put(argv[1], "stop_coarse", b, n);
	free(b);
	return 0;
}
