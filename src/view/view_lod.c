/* Levels of detail, folded in while a row is read (entries arrive in time
 * order). Level l buckets entries by (start - base) >> (VIEW_LOD_SHIFT0 +
 * 2 l); each bucket becomes a summary entry: the first start, the last end,
 * the count and the name of the longest entry in it. The page draws the
 * level whose buckets are about a pixel wide, so it never draws more
 * primitives than pixels, whatever the zoom.
 *
 * Buckets nest (a level-l bucket is four of level l-1), so an entry only
 * touches level 0 until its bucket changes; a closed bucket is folded into
 * the level above, whose bucket is then checked, and so on. Most entries
 * cost one level, not all of them.
 *
 * A level that gets more entries than a quarter of the row's (plus a
 * floor) is dropped while reading: it would cost more bytes than it saves
 * draws, and the page aggregates raw entries per pixel at those zooms. */
#include <string.h>

#include "view/view_internal.h"

#define LOD_FLOOR 4096 /* entries a level may always have */

static void level_drop(view_lod_level *lv)
{
	view_col_free(&lv->t);
	view_col_free(&lv->tovf);
	view_col_free(&lv->dur);
	view_col_free(&lv->durovf);
	view_col_free(&lv->count);
	view_col_free(&lv->name);
	lv->dropped = true;
}

/* Writes level l's open entry and folds it into level l + 1's. */
static void level_close(view_lod *lod, int l, uint64_t total)
{
	view_lod_level *lv = &lod->lv[l];
	if (!lv->open)
		return;
	if (!lv->dropped) {
		uint64_t prev = lv->n ? lv->last_start : lv->start;
		bool ok = view_put_time(&lv->t, &lv->tovf, prev, lv->start) &&
			  view_put_u32e(&lv->dur, &lv->durovf, lv->end - lv->start) &&
			  view_col_u32(&lv->count,
				       lv->cnt > UINT32_MAX ? UINT32_MAX : (uint32_t)lv->cnt) &&
			  view_col_u32(&lv->name, lv->best_name);
		lv->last_start = lv->start;
		lv->n++;
		if (!ok || (lv->n > LOD_FLOOR && lv->n * 4 > total)) {
			level_drop(lv);
			/* finer levels have more entries, so they went first:
			 * from now on entries go straight to the level above */
			if (l == lod->live)
				lod->live = l + 1;
		}
	}
	if (l + 1 < VIEW_LOD_LEVELS) {
		view_lod_level *up = &lod->lv[l + 1];
		up->cnt += lv->cnt;
		if (lv->end > up->end)
			up->end = lv->end;
		if (lv->best_dur > up->best_dur) {
			up->best_dur = lv->best_dur;
			up->best_name = lv->best_name;
		}
	}
	lv->open = false;
}

void view_lod_add(view_lod *lod, uint64_t base, uint64_t start, uint64_t end, uint32_t name,
		  uint64_t total)
{
	if (lod->invalid || start < base)
		return;
	uint64_t rel = start - base;
	int live = lod->live, l = live;
	if (live >= VIEW_LOD_LEVELS)
		return;
	/* close the levels whose bucket this entry leaves, finest first */
	for (; l < VIEW_LOD_LEVELS; l++) {
		view_lod_level *lv = &lod->lv[l];
		uint64_t bucket = rel >> (VIEW_LOD_SHIFT0 + 2 * l);
		if (lv->open && bucket == lv->bucket)
			break;
		level_close(lod, l, total);
	}
	/* open new buckets below, starting with this entry (a level dropped
	 * on the way is not reopened) */
	live = lod->live;
	for (int k = live; k < l; k++) {
		view_lod_level *lv = &lod->lv[k];
		lv->open = true;
		lv->bucket = rel >> (VIEW_LOD_SHIFT0 + 2 * k);
		lv->start = start;
		lv->end = start;
		lv->cnt = 0;
		lv->best_dur = 0;
		lv->best_name = name;
	}
	if (live >= VIEW_LOD_LEVELS)
		return;
	view_lod_level *lv = &lod->lv[live];
	lv->cnt++;
	if (end > lv->end)
		lv->end = end;
	if (end - start > lv->best_dur || lv->cnt == 1) {
		lv->best_dur = end - start;
		lv->best_name = name;
	}
}

void view_lod_finish(view_lod *lod, uint64_t base, uint64_t n_entries)
{
	(void)base;
	for (int l = 0; l < VIEW_LOD_LEVELS; l++)
		level_close(lod, l, UINT64_MAX / 8);
	for (int l = 0; l < VIEW_LOD_LEVELS; l++) {
		view_lod_level *lv = &lod->lv[l];
		/* worth writing only when it is much smaller than the row */
		if (!lv->dropped && (lod->invalid || n_entries < 256 || lv->n * 8 > n_entries))
			level_drop(lv);
	}
}

void view_lod_free(view_lod *lod)
{
	for (int l = 0; l < VIEW_LOD_LEVELS; l++)
		level_drop(&lod->lv[l]);
}
