/* The DCPI session driver: every profile below the path (one file, or a
 * database in sorted path order), opened one at a time so memory stays
 * flat; per profile a start item, then each address with samples from its
 * chunks. See session_cpel.h. */
#include <stdlib.h>

#include "dcpi/dcpi_cursor.h"
#include "session/session_cpel.h"
#include "session/session_impl.h"

typedef struct dcpi_state {
	char **paths;
	size_t n_paths, next_path;
	tk_dcpi_profile *cur; /* the profile being read */
	bool body;            /* its counts are being read */
	tk_dcpi_cursor cursor;
	tk_dcpi_record rec;
} dcpi_state;

static tk_status dcpi_open(tk_session *s, tk_error *err)
{
	dcpi_state *d = calloc(1, sizeof *d);
	if (!d)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	s->native = d;
	return tk_dcpi_db_list(s->path, &d->paths, &d->n_paths, err);
}

/* The next count of the current profile into d->rec; TK_END when none. */
static tk_status next_count(dcpi_state *d, tk_error *err)
{
	tk_status st = tk_dcpi_cursor_next(&d->cursor, err);
	if (st == TK_OK) {
		d->rec.start = false;
		d->rec.addr = d->cursor.addr;
		d->rec.count = d->cursor.count;
		d->rec.offset = d->cursor.offset;
	}
	return st;
}

static tk_status dcpi_next(tk_session *s, tk_error *err)
{
	dcpi_state *d = s->native;
	s->item.kind = (tk_session_kind)TK_SESSION_DCPI_ITEM;
	s->item.native = &d->rec;
	if (d->cur && d->body) {
		tk_status st = next_count(d, err);
		if (st != TK_END)
			return st;
	}
	if (d->cur) {
		tk_dcpi_close(d->cur);
		d->cur = NULL;
	}
	if (d->next_path >= d->n_paths)
		return TK_END;
	size_t k = d->next_path++;
	tk_status st = tk_dcpi_open(d->paths[k], &d->cur, err);
	if (st != TK_OK)
		return st;
	d->body = true;
	d->cursor = (tk_dcpi_cursor){.p = d->cur};
	d->rec = (tk_dcpi_record){.profile = d->cur,
				  .path = d->paths[k],
				  .index = k,
				  .n_profiles = d->n_paths,
				  .start = true};
	return TK_OK;
}

static void dcpi_close_state(tk_session *s)
{
	dcpi_state *d = s->native;
	if (d) {
		tk_dcpi_close(d->cur);
		tk_dcpi_db_free_list(d->paths, d->n_paths);
	}
	free(d);
	s->native = NULL;
}

const tk_session_driver tk_session_dcpi_driver = {
    .format = TK_FORMAT_DCPI, .open = dcpi_open, .next = dcpi_next, .close = dcpi_close_state};

void tk_session_dcpi_skip(tk_session *s)
{
	if (s && s->driver == &tk_session_dcpi_driver && s->native)
		((dcpi_state *)s->native)->body = false;
}
