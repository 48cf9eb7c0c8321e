/* The logger's process-wide state, shared by log_core.c and the dumps. */
#ifndef TK_LOG_CORE_H
#define TK_LOG_CORE_H

#include "log/log_impl.h"

typedef struct lg_local_track {
	char name[LG_TRACK_NAME];
	int id;
} lg_local_track;

typedef struct lg_state {
	uint8_t *base; /* the region; NULL when closed */
	uint64_t size;
	lg_header *h;
	int fd;
	uint64_t trigger_after;
	lg_local_track local_tracks[LG_MAX_TRACKS];
	unsigned n_local_tracks;
} lg_state;

extern lg_state lg_g;

/* Records the (ticks, clocks) pair of a stop or dump in the header. */
void lg_take_end_pair(void);

#endif
