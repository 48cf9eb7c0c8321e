/* The DCPI pass behind `profile`: one row per address with a non-zero
 * count, for every profile of a file or a DCPI database (image, address as
 * the profile states it, event, count), as `tracekit print --format
 * dcpicat` lists them. */
#ifdef TK_HAVE_SQLITE
#include <string.h>

#include "sql/sql_internal.h"

static tk_status one_profile(tk_sql_derived *d, const char *path, tk_error *err)
{
	tk_dcpi_profile *p;
	tk_status st = tk_dcpi_open(path, &p, err);
	if (st != TK_OK)
		return st;
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	const char *img = h->path ? h->path : h->image ? h->image : "";
	const char *image = tk_sql_intern(&d->strings, img, strlen(img));
	const char *event =
	    tk_sql_intern(&d->strings, h->event ? h->event : "", h->event ? strlen(h->event) : 0);
	uint64_t cursor = 0;
	tk_dcpi_chunk c;
	while (st == TK_OK && image && event &&
	       (st = tk_dcpi_next_chunk(p, &cursor, &c, err)) == TK_OK) {
		for (uint32_t i = 0; i < c.n; i++) {
			uint32_t v = tk_dcpi_chunk_count(&c, i);
			if (!v)
				continue;
			tk_sql_profile_row *r = tk_sql_vec_push(&d->profile, sizeof *r);
			if (!r) {
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
				break;
			}
			r->image = image;
			r->event = event;
			r->offset = h->tstart + c.offset + i;
			r->count = v;
		}
	}
	if (st == TK_END)
		st = TK_OK;
	else if (st == TK_OK && (!image || !event))
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_dcpi_close(p);
	return st;
}

tk_status tk_sql_dcpi_pass(tk_sql_input *in, tk_error *err)
{
	char **paths = NULL;
	size_t n = 0;
	tk_status st = tk_dcpi_db_list(in->path, &paths, &n, err);
	for (size_t k = 0; k < n && st == TK_OK; k++)
		st = one_profile(&in->d, paths[k], err);
	tk_dcpi_db_free_list(paths, n);
	return st;
}

#endif /* TK_HAVE_SQLITE */
