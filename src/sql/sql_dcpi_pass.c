/* The DCPI pass behind `profile`: one row per address with a non-zero
 * count, for every profile of a file or a DCPI database (image, address as
 * the profile states it, event, count), as `tracekit print --format
 * dcpicat` lists them. */
#ifdef TK_HAVE_SQLITE
#include <string.h>

#include "sql/sql_internal.h"

typedef struct profile_rows {
	tk_sql_derived *d;
	const char *image, *event;
} profile_rows;

static tk_status add_row(void *user, uint64_t addr, uint32_t count, tk_error *err)
{
	profile_rows *pr = user;
	tk_sql_profile_row *r = tk_sql_vec_push(&pr->d->profile, sizeof *r);
	if (!r)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	r->image = pr->image;
	r->event = pr->event;
	r->offset = addr;
	r->count = count;
	return TK_OK;
}

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
	profile_rows pr = {d, image, event};
	if (!image || !event)
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	else
		st = tk_dcpi_each_count(p, add_row, &pr, err);
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
