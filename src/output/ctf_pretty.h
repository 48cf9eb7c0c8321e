/* babeltrace2's default "pretty" text output for CTF events, byte for byte
 * (src/plugins/text/pretty/print.c, default options): timestamps in local
 * time (TZ honoured) or UTC with clock_gmt, deltas, trace env host/procname/vpid,
 * then packet context, stream event context, event context, payload, keeping
 * only the fields babeltrace2 keeps in its IR. Not thread-safe. */
#ifndef TK_OUTPUT_CTF_PRETTY_H
#define TK_OUTPUT_CTF_PRETTY_H

#include <time.h>

#include "base/writer.h"
#include "ctf/ctf_reader.h"

/* prefix + event name + ": " of one (trace, event class) */
typedef struct ctf_pretty_line {
	const void *trace, *ec;
	char *text;
	size_t len;
	/* the event's scopes babeltrace2 prints (0 packet context, 1 stream
	 * event context, 2 event context, 3 payload) and their structure
	 * templates (NULL: the generic printer) */
	unsigned n_scopes;
	uint8_t scope[4];
	const struct ctf_pretty_struct *tmpl[4];
} ctf_pretty_line;

#define CTF_PRETTY_LINES 64

/* Text of an enumeration member's values below CTF_PRETTY_ENUM_MEMO,
 * each built once (see enum_memo_fill); len 0: not built yet. */
#define CTF_PRETTY_ENUM_MEMO 64
typedef struct ctf_pretty_enum {
	uint32_t off[CTF_PRETTY_ENUM_MEMO], len[CTF_PRETTY_ENUM_MEMO];
	char *text;
	size_t used;
} ctf_pretty_enum;

/* one printed member of a structure class (see struct_tmpl) */
typedef struct ctf_pretty_member {
	uint32_t off, len;   /* its separator "{ name = " or ", name = " in text */
	uint32_t index;      /* its value's index in the structure value */
	uint8_t kind;        /* its printer (MK_* in ctf_pretty.c) */
	bool elem_signed;    /* MK_INTS: the elements are signed */
	const void *fc;      /* its field class */
	ctf_pretty_enum *em; /* MK_ENUM: the memo, or NULL */
} ctf_pretty_member;

/* member separators of one structure class (see struct_tmpl) */
typedef struct ctf_pretty_struct {
	const void *fc;
	char *text;
	ctf_pretty_member *m; /* the members babeltrace2 prints, in order */
	uint32_t n;
} ctf_pretty_struct;

typedef struct ctf_pretty {
	tk_writer *w;
	bool gmt;
	bool have_last;
	int64_t last_ns;
	/* cache of the last broken-down second */
	bool have_tm;
	time_t tm_sec_key;
	char hms[9];
	bool neg_warned;
	tk_log_fn log;
	void *log_user;
	const void *prefix_trace; /* trace whose env prefix is in `prefix` */
	tk_writer *prefix;
	tk_writer *scratch; /* enum_memo_fill's text */
	ctf_pretty_line lines[CTF_PRETTY_LINES];
	ctf_pretty_struct **structs; /* by structure class, see struct_tmpl */
	size_t struct_cap, n_structs;
} ctf_pretty;

/* Local times (gmt false) follow TZ as the caller's last tzset() read it:
 * called once before any lane starts (tzset frees and copies its TZ on
 * every call). */
void ctf_pretty_init(ctf_pretty *p, tk_writer *w, bool gmt);
void ctf_pretty_event(ctf_pretty *p, const ctf_event_out *ev);
/* An event another lane prints (output/print_lanes.h): only what the next
 * line depends on, its time for the "(+delta)". */
void ctf_pretty_skip(ctf_pretty *p, const ctf_event_out *ev);
/* Frees what ctf_pretty_init/ctf_pretty_event allocated. */
void ctf_pretty_fini(ctf_pretty *p);
/* printf("%g") of v, byte for byte, mostly without printf. */
void ctf_put_double_g(tk_writer *w, double v);
/* u in decimal, the printer's fast path (exported for its test). */
void ctf_put_dec(tk_writer *w, uint64_t u);
/* A string as babeltrace2's print_escape_string shows it: quoted, C
 * escapes, \xNN for other control bytes, cut at the first NUL. */
void ctf_put_escaped(tk_writer *w, const char *s, size_t n);
/* babeltrace2's "Tracer discarded ..." warning text (after its "WARNING: "
 * prefix, without newline) into w. */
void ctf_pretty_discard(ctf_pretty *p, tk_writer *w, const ctf_discard *d);

#endif
