/* Clock reads and calibration for the logger (async-signal-safe:
 * clock_gettime and rdtsc only). */
#ifndef TK_LOG_CLOCK_H
#define TK_LOG_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "log/log_impl.h"

bool tk_lg_have_tsc(void);
/* Sets the clock TK_LOG's slow path reads (tk_log__now) to the log's. */
void tk_lg_use_clock(unsigned clock);
/* A (ticks, CLOCK_MONOTONIC ns, CLOCK_REALTIME ns) triple read together. */
void tk_lg_pair(unsigned clock, uint64_t *ticks, uint64_t *mono, uint64_t *real);
/* A pair for the log's start and the ticks per second measured after it. */
double tk_lg_calibrate(unsigned clock, uint64_t *ticks, uint64_t *mono, uint64_t *real);

#endif
