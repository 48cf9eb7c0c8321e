/* Where `tracekit record` sends its perf.data stream besides a file:
 *  - --to FORMAT: a `tracekit convert - --to FORMAT -o OUT` child fed
 *    through a pipe in perf's pipe mode, so the existing writers (CTF one
 *    stream per CPU with bounded packets, CPEL, ...) stream the recording;
 *  - --profile-db DIR: each epoch's stream piped into a child that folds
 *    it into DCPI profiles (DIR/EPOCH/HOST/) when the epoch ends. */
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

/* --profile-db: an epoch's fold. A child (forked, not exec'd) reads the
 * epoch's pipe-mode perf.data on a pipe and folds it in memory with
 * tk_perf_to_dcpi("-") into db/epoch/HOST/ when the pipe ends: memory
 * bounded by the (image, offset) pairs and the process maps, nothing on
 * disk but the profiles. fd 1 points at the pipe until rec_fold_end().
 * The child ignores SIGINT/SIGTERM: a ^C to the process group stops the
 * recorder, whose end of the pipe closing makes the child write the
 * epoch, and a recorder that crashes still leaves the epoch folded from
 * what reached the pipe. Returns the child's pid, or -1 (printed). */
pid_t rec_fold_start(const char *db, const char *epoch, int *saved_stdout);
/* Ends the epoch's stream (EOF for its child) and restores stdout. */
void rec_fold_end(int *saved_stdout);

#endif
