/* The session object and its per-format drivers (session.c: the generic
 * part, push and pull, and the model driver; session_perf.c: perf.data's
 * record loop; session_ctf.c: CTF's merged events). A native driver opens
 * its reader and hands out one record per call; the generic part calls the
 * observers and the tool, so each format's reader is iterated in one place. */
#ifndef TK_SESSION_SESSION_IMPL_H
#define TK_SESSION_SESSION_IMPL_H

#include "tracekit/tracekit.h"

enum { TK_SESSION_MAX_OBSERVERS = 8 };

struct ctf_reader;

/* A format's native driver. next fills s->item's kind and record and
 * returns TK_OK, TK_END or an error (observers are called by the caller). */
typedef struct tk_session_driver {
	tk_format format;
	tk_status (*open)(tk_session *s, tk_error *err);
	tk_status (*next)(tk_session *s, tk_error *err);
	void (*close)(tk_session *s);
	/* optional: the push loop specialised for the format (a reader whose
	 * records are small, where a call per record through next and the
	 * generic dispatch would cost a few % of the reading); same
	 * observers, callbacks and end as the generic loop */
	tk_status (*run)(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err);
} tk_session_driver;

struct tk_session {
	char *path;
	tk_format format;
	tk_session_mode mode;
	tk_open_options opt;
	const tk_session_driver *driver; /* native mode */
	tk_perf_file *perf;              /* native perf.data */
	struct ctf_reader *ctf;          /* native CTF */
	void *native;                    /* further drivers' state */
	tk_source *source;               /* model */
	bool borrowed;                   /* source is the caller's */
	bool ran;                        /* run or pulled */
	bool pulling;                    /* by tk_session_next */
	bool pull_ok;                    /* pulling, not ended: the short path */
	tk_status done;                  /* pull: TK_OK while going, else the end */
	tk_session_item item;            /* the current item */
	size_t n_obs;
	struct {
		tk_session_observer_fn fn;
		void *user;
	} obs[TK_SESSION_MAX_OBSERVERS];
};

/* Hands item to every observer; TK_OK or what one returned. */
static inline tk_status tk_session_notify(tk_session *s, const tk_session_item *item, tk_error *err)
{
	for (size_t i = 0; i < s->n_obs; i++) {
		tk_status st = s->obs[i].fn(s->obs[i].user, s, item, err);
		if (st != TK_OK)
			return st;
	}
	return TK_OK;
}

/* The native drivers (session_perf.c, session_ctf.c); the last line of
 * tk_session_drivers[] in session.c lists them. */
extern const tk_session_driver tk_session_perf_driver;
extern const tk_session_driver tk_session_ctf_driver;
/* the VPP formats' (session_cpel.c, session_elog.c, session_dcpi.c) */
extern const tk_session_driver tk_session_cpel_driver;
extern const tk_session_driver tk_session_elog_driver;
extern const tk_session_driver tk_session_tklog_driver;
extern const tk_session_driver tk_session_dcpi_driver;

#endif
