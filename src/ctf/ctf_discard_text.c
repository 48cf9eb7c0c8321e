/* The text of a discarded-items warning, shared by the readers of CTF
 * events as model events (the model source, the lean reader): the words
 * babeltrace2's WARNING lines use. */
#include <stdio.h>

#include "ctf/ctf_reader.h"

void ctf_discard_text(const ctf_discard *d, char *buf, size_t size)
{
	if (d->count == UINT64_MAX)
		snprintf(buf, size, "tracer may have discarded %s in stream %s",
			 d->packets ? "packets" : "events", d->stream->name);
	else
		snprintf(buf, size, "tracer discarded %llu %s in stream %s",
			 (unsigned long long)d->count, d->packets ? "packets" : "events",
			 d->stream->name);
}
