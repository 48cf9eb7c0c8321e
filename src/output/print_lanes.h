/* Two lanes over one input, a perf.data file or a CTF trace: the output
 * split by chunks of samples (events), each lane printing every other
 * chunk on its own core, the chunks written out in input order.
 *
 * Why: on a warm symbol cache, printing a -g profile is CPU-bound on one
 * core, and a third of that is reading and ordering the records, two
 * thirds formatting the samples. The records do not split (every sample
 * is printed in the address spaces that the side-band records before it
 * made), but the formatting does: each lane reads the whole file and
 * keeps its own thread model from every side-band record, and formats
 * only the samples of its chunks. The second reader costs a third of a
 * core; half the formatting moves to the other core. A CTF trace's text
 * is the same: a third reading and merging the streams, two thirds
 * formatting, and a line depends on the one before it only through its
 * time delta (output/ctf_cli.c).
 *
 * The chunks are numbered by sample ordinal, the same in both lanes
 * (chunk c holds samples [c << bits, (c + 1) << bits), and the records
 * between its first sample and the next chunk's); lane c & 1 prints
 * chunk c into its own memory and hands it over here when it enters its
 * next chunk or stops. Chunks go to the writer strictly in order: a
 * hand-over waits for the one before it.
 *
 * A lane that stops (the end, an error, the limit) says at which chunk:
 * nothing after the first stop is written, so an error in one lane's
 * chunk ends the output where the one-lane run would end it.
 *
 * On a cold symbol cache the other core first loads the kernel's table
 * for lane 0, which prints alone meanwhile (late lanes, tk_lanes_agree);
 * once the table is there, lane 0 lends it to lane 1, which reads the
 * records up to a later chunk without printing them and shares the
 * chunks from there. */
#ifndef TK_OUTPUT_PRINT_LANES_H
#define TK_OUTPUT_PRINT_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "model/render.h"
#include "tracekit/status.h"

typedef struct tk_lanes tk_lanes;

/* The lanes' chunk size (log2 of samples) and whether a run uses two
 * lanes: a regular file of 4 MiB or more (a directory: the files below
 * it, its CTF traces' streams), written to a file descriptor.
 * TRACEKIT_LANES=1 (or TRACEKIT_THREADS=0) turns them off, =2 forces them
 * on (tests: small files, with TRACEKIT_LANE_CHUNK=bits for many chunks). */
unsigned tk_lanes_chunk_bits(void);
bool tk_lanes_wanted(const char *path, const tk_writer *out);
/* TRACEKIT_LANES=2: the tests force two lanes (on small inputs too). */
bool tk_lanes_forced(void);

/* Shares out and the caller's log (each message logged once, whichever
 * lane sends it). NULL: out of memory. */
tk_lanes *tk_lanes_new(tk_writer *out, tk_log_fn log, void *log_user);
/* Writes what the lanes left (call once both have ended), then frees. */
void tk_lanes_free(tk_lanes *l);

/* Log functions for the lanes (user: the tk_lanes): the caller's log,
 * never beside a write of the output; _once for the warnings a run gives
 * once (both lanes would give them). */
void tk_lanes_log(void *user, int level, const char *msg);
void tk_lanes_log_once(void *user, int level, const char *msg);

/* An empty buffer for chunk, which lane (chunk & 1) is entering; waits
 * while the lane has TK_LANES_BUFFERS chunks not yet written. NULL: the
 * output ended before chunk (the lane should stop). */
#define TK_LANES_BUFFERS 4
tk_writer *tk_lanes_take(tk_lanes *l, uint64_t chunk);

/* chunk's buffer is complete: it is written once every earlier chunk is
 * (by whichever lane completes the chunk before it, or now). */
void tk_lanes_publish(tk_lanes *l, uint64_t chunk);

/* A lane stopped inside chunk: nothing after chunk is written. A lane
 * that cannot go on (out of memory) passes 0 so the other stops too. */
void tk_lanes_stop(tk_lanes *l, uint64_t chunk);

/* ---- a lane's side ---- */

/* Where one lane is in the stream. */
typedef struct tk_lane_cursor {
	tk_lanes *lanes; /* NULL: one lane (the cursor is unused) */
	unsigned lane, bits;
	uint64_t seen;  /* samples so far: the stream is in chunk seen >> bits */
	uint64_t chunk; /* the chunk of the last record; UINT64_MAX: none yet */
	uint64_t open;  /* this lane's chunk being formatted; UINT64_MAX: none */
	/* the first chunk the lanes share (0: all); before it lane 0 prints
	 * alone to its own writer, lane 1 only reads (UINT64_MAX: late
	 * lanes, lane 1 not joined yet: tk_lanes_join) */
	uint64_t join;
	bool joined;     /* lane 0 has left its writer to the lanes */
	bool lent;       /* lane 0 has let lane 1 join (tk_lanes_wait_lane1) */
	bool no_join;    /* lane 0 will print alone to the end */
	tk_writer *text; /* its buffer (the lanes') */
	tk_writer *sink; /* the other lane's chunks: formatted nowhere */
} tk_lane_cursor;

/* false: out of memory. */
bool tk_lane_cursor_init(tk_lane_cursor *c, tk_lanes *lanes, unsigned lane);
void tk_lane_cursor_free(tk_lane_cursor *c);

/* Before each record (sample: whether it is a sample): *w becomes where
 * its output goes, the lane's buffer or the sink (*w == c->sink: not
 * this lane's; a sample is then not printed, only its effects on later
 * records kept). TK_END: the output ended before this record. */
tk_status tk_lane_step(tk_lane_cursor *c, bool sample, tk_writer **w, tk_error *err);

/* After the lane's last record (st: how its run ended): publishes its
 * last chunk and says where it stopped. The run's status. */
tk_status tk_lane_end(tk_lane_cursor *c, tk_status st, tk_error *err);

/* One lane's run, as tk_lanes_run starts it. */
typedef struct tk_lane_run {
	void (*run)(struct tk_lane_run *r); /* sets st, err and stop */
	void *user;
	unsigned lane;
	tk_lanes *lanes;
	tk_status st;
	uint64_t stop; /* the chunk of its last record (tk_lane_cursor.chunk) */
	tk_error err;
} tk_lane_run;

/* Runs lane 1 on a thread of its own and lane 0 here, then writes the
 * rest of the output and frees l. The error of the lane that stopped
 * first, if any (a sample's error is seen by its chunk's lane only);
 * *err filled. Without the thread, lane 0 runs as the one lane. */
tk_status tk_lanes_run(tk_lanes *l, tk_lane_run *r0, tk_lane_run *r1, tk_error *err);

/* The two lanes agree, once each has its file open, how they go on:
 * lane 0 says whether the kernel's symbols were in the persistent cache.
 * Warm: two lanes from the first chunk. Cold: the kernel's table loads on
 * the other core, and two lanes would load it twice, so lane 0 prints
 * alone (to its own writer, with the kernel frames held back as with one
 * lane) until the table is there, then lends it to lane 1, which joins
 * from a later chunk (late). Returns the verdict (lane 1 waits for it).
 * TK_LANES_ONE: lane 0 goes on as the one lane (lanes NULL), lane 1 ends
 * at once (a cold run on a file too small for lane 1 to join). */
typedef enum tk_lanes_mode { TK_LANES_ONE, TK_LANES_TWO, TK_LANES_LATE } tk_lanes_mode;
tk_lanes_mode tk_lanes_agree(tk_lanes *l, unsigned lane, bool warm);

/* Late lanes. Lane 0, alone (cursor c), at offset in the input, may let
 * lane 1 join now: its output no longer held back for the kernel's table
 * (held false) and enough of the input left. At the test hook
 * TRACEKIT_LANE_JOIN=k: from chunk k on, held or not (lane 0 then puts
 * its held output out first, waiting for the table). */
struct tk_symtab;
bool tk_lanes_may_join(tk_lane_cursor *c, uint64_t offset, bool held);
/* Lane 0 lets lane 1 join, lending it kernel (its kernel table, NULL:
 * none; kept until tk_lanes_wait_lane1): lane 1 reads up to lane 0's
 * chunk and joins from the next one lane 0 enters; lane 0's writer is
 * left to the lanes there. */
void tk_lanes_join(tk_lane_cursor *c, const struct tk_symtab *kernel);
/* Lane 1 waits to be let in; *kernel: the table lent. false: lane 0
 * ended first (lane 1 ends). */
bool tk_lanes_await_join(tk_lanes *l, const struct tk_symtab **kernel);
/* A run's start in the lanes, once its file is open: tk_lanes_agree
 * (warm: the kernel's symbols are there), then, for lane 1 of late
 * lanes, the wait to be let in. r->lanes becomes NULL when r goes on as
 * the one lane. false: r is lane 1 with nothing to print (it ends, its
 * status TK_OK). *lent: the kernel table lane 0 lent (lane 1 of late
 * lanes; else NULL); *late: the lanes are late ones. */
bool tk_lane_begin(tk_lane_run *r, bool warm, bool *late, const struct tk_symtab **lent);

/* Lane 0, before it frees what it lent: waits until lane 1 has ended. */
void tk_lanes_wait_lane1(tk_lanes *l);

/* ---- what both printers (perf_script.c, perf_print.c) share ---- */

/* A lane's options (its reader's log) and the log for the warnings its
 * samples give once a run. With one lane: opt and its log as they are. */
void tk_lane_logs(const tk_lane_run *r, const tk_render_options *opt, tk_render_options *lane_opt,
		  tk_log_fn *sample_log, void **sample_user);

/* A print run: two lanes of run when tk_lanes_wanted (and no --limit),
 * else run once as the one lane (its lanes NULL); *err filled on error. */
tk_status tk_lanes_print(const char *path, const tk_render_options *opt, tk_writer *w,
			 void (*run)(tk_lane_run *r), void *user, tk_error *err);

#endif
