/* Where `tracekit record` sends its perf.data stream besides a file:
 *  - --to FORMAT: a `tracekit convert - --to FORMAT -o OUT` child fed
 *    through a pipe in perf's pipe mode, so the existing writers (CTF one
 *    stream per CPU with bounded packets, CPEL, ...) stream the recording;
 *  - --profile-db DIR: one perf.data per epoch beside the database, folded
 *    into DCPI profiles (DIR/EPOCH/HOST/) by a child at each boundary. */
#ifndef TK_RECORD_SINKS_H
#define TK_RECORD_SINKS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "tracekit/tracekit.h"

typedef struct rec_converter {
	pid_t pid;
	int saved_stdout; /* the recorder's stdout while fd 1 is the pipe */
} rec_converter;

/* Starts the converter and points fd 1 at its pipe (the recorder then
 * writes pipe-mode perf.data to "-"). The child has its own process
 * group: a terminal's ^C stops the recorder, which closes the pipe, and
 * the converter finishes the output from what it got. 0 or -1 (printed). */
int rec_converter_start(rec_converter *cv, const char *format, const char *out, bool quiet);
/* Closes the pipe (EOF for the child), restores stdout and waits: the
 * child's exit status, or -1. */
int rec_converter_finish(rec_converter *cv);

/* Folds a finished epoch recording into the database and removes it.
 * async: in a child (returns its pid, or -1), so the rings keep being
 * drained; else here (returns 0 or 1 with the error printed). An epoch
 * without samples writes nothing. */
pid_t rec_epoch_fold(const char *data, const char *db, const char *epoch, bool async);

#endif
