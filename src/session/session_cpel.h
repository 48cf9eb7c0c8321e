/* Native sessions of the VPP formats, for their format-native renderers
 * (cpeldump, elog text, info, stats, DCPI listings): each format's records
 * behind a TK_SESSION_NATIVE session, handed out as item->native with the
 * kind below (tool->record receives them).
 *   - CPEL: every event record, EVENT sections in file order
 *     (tk_cpel_record; the validated file: tk_session_cpel());
 *   - elog and tracekit logger files (read as elog): every event in log
 *     order (tk_elog_record; the log: tk_session_elog());
 *   - DCPI profiles and databases: per profile (sorted paths), a start
 *     item, then every address with samples in address order
 *     (tk_dcpi_record). tk_session_dcpi_skip() moves on to the next
 *     profile without reading the rest of this one.
 * Records are valid during the callback (push) or until the next call
 * (pull). */
#ifndef TK_SESSION_SESSION_CPEL_H
#define TK_SESSION_SESSION_CPEL_H

#include "cpel/cpel_reader.h"
#include "cpel/elog_reader.h"
#include "tracekit/tracekit.h"

enum {
	TK_SESSION_CPEL_EVENT = 16, /* item->native: a tk_cpel_record */
	TK_SESSION_ELOG_EVENT = 17, /* item->native: a tk_elog_record */
	TK_SESSION_DCPI_ITEM = 18,  /* item->native: a tk_dcpi_record */
};

/* The validated CPEL file of a native CPEL session (NULL otherwise). */
const tk_cpel_file *tk_session_cpel(const tk_session *s);

/* A native CPEL session over a file already opened (elog's cpeldump
 * renders the CPEL c2cpel would write, built in memory). name is the
 * session's path; f is closed with the session when own is true. */
tk_status tk_session_open_cpel(tk_cpel_file *f, bool own, const char *name, tk_session **out,
			       tk_error *err);

typedef struct tk_elog_record {
	uint32_t index;
	const tk_elog_event *event;
} tk_elog_record;

/* The log of a native elog or tklog session (NULL otherwise). */
const tk_elog_file *tk_session_elog(const tk_session *s);

typedef struct tk_dcpi_record {
	const tk_dcpi_profile *profile;
	const char *path;         /* of the profile */
	size_t index, n_profiles; /* which profile of how many below the path */
	bool start;               /* the profile begins: no address */
	uint64_t addr;            /* tstart + offset */
	uint32_t count;
	uint64_t offset; /* of the count in the file */
} tk_dcpi_record;

/* Skips what is left of the current profile of a native DCPI session: the
 * next item is the next profile's start. No effect elsewhere. */
void tk_session_dcpi_skip(tk_session *s);

#endif
