/* The logger's process-wide state, shared by log_core.c and the dumps. */
#ifndef TK_LOG_CORE_H
#define TK_LOG_CORE_H

#include "log/log_impl.h"

typedef struct tk_lg_local_track {
	char name[LG_TRACK_NAME];
	int id;
} tk_lg_local_track;

typedef struct tk_lg_state {
	uint8_t *base; /* the region; NULL when closed */
	uint64_t size;
	tk_lg_header *h;
	int fd;
	uint64_t trigger_after;
	unsigned gen;  /* 1..255, new at each open: in type keys and thread states */
	bool prefault; /* tk_log_config.prefault */
	tk_lg_local_track local_tracks[LG_MAX_TRACKS];
	unsigned n_local_tracks;
} tk_lg_state;

extern tk_lg_state tk_lg_g;

/* Records the (ticks, clocks) pair of a stop or dump in the header. */
void tk_lg_take_end_pair(void);

#endif
