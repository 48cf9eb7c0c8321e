/* Thread and process ids of CTF events: LTTng keeps them in contexts (tid
 * and pid for the kernel and host ids, vtid and vpid for user space), not
 * in a field the model knows. Found once per context struct class, then
 * read per event by index, so --pid/--tid filters and the sinks (Chrome
 * threads, perf pid/tid) see them. */
#ifndef TK_CTF_IDS_H
#define TK_CTF_IDS_H

#include <stdint.h>

#include "base/hashmap.h"
#include "tracekit/model.h"

typedef struct ctf_id_slots {
	const tk_field_class *cls; /* the context struct these are for */
	int tid, pid;              /* member indexes, -1 when absent */
} ctf_id_slots;

typedef struct ctf_ids {
	tk_hashmap by_cls; /* class pointer -> index + 1 in slots */
	ctf_id_slots *slots;
	size_t n, cap;
	const ctf_id_slots *last[2]; /* one-entry caches per scope */
} ctf_ids;

void ctf_ids_init(ctf_ids *c);
void ctf_ids_free(ctf_ids *c);

/* *tid and *pid from the event context, else the stream event context
 * (the more specific scope wins); left as they are when neither has them.
 * Out of memory only loses the ids. */
void ctf_ids_fill(ctf_ids *c, const tk_value *stream_context, const tk_value *context, int32_t *pid,
		  int32_t *tid);

#endif
