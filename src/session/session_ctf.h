/* CTF's native session, for the library's CTF consumers (babeltrace2's
 * pretty text, info, stats, SQL counts): the reader (src/ctf/ctf_reader.h)
 * behind a TK_SESSION_NATIVE session, its events handed out as
 * TK_SESSION_CTF_EVENT items (item->ctf is a ctf_event_out). */
#ifndef TK_SESSION_SESSION_CTF_H
#define TK_SESSION_SESSION_CTF_H

#include "ctf/ctf_reader.h"
#include "tracekit/tracekit.h"

/* The reader of a native CTF session, NULL otherwise. A consumer sets its
 * reading options there before the first event (on_discard, has_begin and
 * begin_ns, lean). Owned by the session. */
ctf_reader *tk_session_ctf(tk_session *s);

/* Reads a native CTF session to its end without handing events out
 * (ctf_reader_span: the streams and event classes count their events, the
 * discard reports go to on_discard), for consumers that need counts and
 * times only. The session must not have run and must have no observers
 * (TK_ERR_USAGE): observers see every event. */
tk_status tk_session_ctf_span(tk_session *s, ctf_span *span, tk_error *err);

#endif
