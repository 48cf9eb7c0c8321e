/* One session per input: the only road from a file to its consumers.
 *
 * A session opens its input once (the format from the content unless
 * given), runs the format's ordered reader and hands every record to a
 * callback table the consumer fills in (perf's `struct perf_tool` and
 * perf_session__process_events). Two kinds of consumer:
 *   - format-native ones (perf script, perf report, info, stats) ask for
 *     the format's own records (TK_SESSION_NATIVE; perf.data records);
 *   - generic ones ask for model events (TK_SESSION_MODEL: the format's
 *     tk_source adapter), whatever the format.
 * Observers (tk_session_add_observer) see every item before the consumer:
 * derived state such as threads, maps and symbols is fed there once and
 * shared by every consumer. In model mode over perf.data, observers also
 * see the native records the events are made from.
 *
 * Two ways to consume a session, with the same reader, order and
 * observers: push (tk_session_run with a callback table) or pull
 * (tk_session_next, one item per call, for consumers driven from outside
 * such as a SQL cursor or a Python iterator). A session is run or pulled,
 * not both.
 *
 * Lifetime: records and events handed to a callback are valid during the
 * call only. A session is not thread-safe; use one per thread. Every
 * function accepts a NULL session where it says so. */
#ifndef TRACEKIT_SESSION_H
#define TRACEKIT_SESSION_H

#include "perf.h"
#include "source.h"
#include "status.h"

typedef struct tk_session tk_session;

typedef enum tk_session_mode {
	TK_SESSION_MODEL = 0, /* model events, any format */
	TK_SESSION_NATIVE,    /* the format's own records (perf.data, CTF) */
} tk_session_mode;

/* What a session hands to observers: one native record or one model event. */
typedef enum tk_session_kind {
	TK_SESSION_PERF_RECORD = 1, /* item->perf: a perf.data record */
	TK_SESSION_EVENT,           /* item->event: a model event */
	TK_SESSION_CTF_EVENT,       /* item->ctf: a CTF event (src/ctf's reader) */
	/* further formats' native records come as item->native; the kind
	 * says which (numbers from 16 up, one per format) */
} tk_session_kind;

/* CTF's native event: opaque here (src/ctf/ctf_reader.h inside the
 * library, reached through src/session/session_ctf.h). */
struct ctf_event_out;

typedef struct tk_session_item {
	tk_session_kind kind;
	const tk_perf_record *perf;
	const tk_event *event;
	/* with perf: the file it was read from (typed parses: tk_perf_parse_*),
	 * in both modes */
	const tk_perf_file *perf_file;
	const struct ctf_event_out *ctf; /* TK_SESSION_CTF_EVENT */
	const void *native;              /* a further format's native record */
} tk_session_item;

/* The consumer's callback table. NULL entries are skipped: a consumer fills
 * in only what it needs. Each returns TK_OK to go on, TK_END to stop the
 * session early (tk_session_run then returns TK_OK), or an error that ends
 * the session and is returned. */
typedef struct tk_session_tool {
	/* native perf.data: PERF_RECORD_SAMPLE records (attr resolved) */
	tk_status (*perf_sample)(tk_session *s, const tk_perf_record *rec, void *user,
				 tk_error *err);
	/* native perf.data: every other record (side band, metadata, user
	 * records), in the session's order */
	tk_status (*perf_other)(tk_session *s, const tk_perf_record *rec, void *user,
				tk_error *err);
	/* model events */
	tk_status (*event)(tk_session *s, const tk_event *ev, void *user, tk_error *err);
	/* native CTF: every event, in the merged time order */
	tk_status (*ctf_event)(tk_session *s, const struct ctf_event_out *ev, void *user,
			       tk_error *err);
	/* any native item no callback above takes (formats added later) */
	tk_status (*record)(tk_session *s, const tk_session_item *item, void *user, tk_error *err);
} tk_session_tool;

/* Opens path ("-" = stdin) for mode. opt: format (0 = detect), order,
 * perf's --all records and --tod clock for the model, warnings; NULL =
 * defaults. TK_ERR_UNSUPPORTED for TK_SESSION_NATIVE on a format whose
 * records are not exposed. */
tk_status tk_session_open(const char *path, const tk_open_options *opt, tk_session_mode mode,
			  tk_session **out, tk_error *err);

/* A model session over a source the caller opened (a seeked CTF source, a
 * source in memory): the same observers, push and pull as any model
 * session. owned: tk_session_close closes src too. path may be NULL. */
tk_status tk_session_open_source(tk_source *src, bool owned, const char *path, tk_session **out,
				 tk_error *err);

/* An observer: a plain callback and its user pointer, called with every
 * item before the tool's callback (in the order observers were added).
 * Its return value means what a tool callback's does. */
typedef tk_status (*tk_session_observer_fn)(void *user, tk_session *s, const tk_session_item *item,
					    tk_error *err);
tk_status tk_session_add_observer(tk_session *s, tk_session_observer_fn fn, void *user,
				  tk_error *err);

/* Reads the input to its end (or until a callback stops it), calling
 * tool's callbacks (tool may be NULL: observers only). A session runs once. */
tk_status tk_session_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err);

/* Pull: the next item (native record or model event, as the mode says),
 * after every observer saw it. TK_OK with *out (the item and what it points
 * to stay valid until the next call or tk_session_close), TK_END at the end
 * (and on every later call), or an error (an observer's too; the session is
 * then done: later calls repeat TK_ERR_USAGE). An observer's TK_END ends the
 * session as at the end of the input. In model mode over perf.data the
 * native records go to the observers only; *out is always an event. */
tk_status tk_session_next(tk_session *s, const tk_session_item **out, tk_error *err);

tk_format tk_session_format(const tk_session *s);
const char *tk_session_path(const tk_session *s);
/* The native perf.data reader (header, attrs, features, typed parses) in
 * TK_SESSION_NATIVE mode on perf.data; NULL otherwise. Owned by the session. */
tk_perf_file *tk_session_perf(tk_session *s);
/* The model adapter in TK_SESSION_MODEL mode (tk_source_info()); owned by
 * the session. */
tk_source *tk_session_source(tk_session *s);

void tk_session_close(tk_session *s); /* NULL is fine */

#endif
