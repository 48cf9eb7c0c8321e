/* perf script's callchain lines ("\t%16x sym+0xoff (dso)\n"), rendered once
 * per distinct address and then copied.
 *
 * Why: a `perf record -g -a` profile prints the same few thousand kernel
 * and library frames millions of times; resolving and formatting each one
 * again costs more than everything else perf script does. A line depends
 * only on the address space it is looked up in (the kernel's maps, the
 * process's maps, or none for hypervisor/guest frames), that address
 * space's generation (bumped by every MMAP into it) and the ip: the image
 * and symbol found for it never change afterwards (images are loaded once
 * and kept). Each (maps, generation) pair gets a small number, its space
 * id (kept in the maps' tag), so a slot is 16 bytes (ip, space, text
 * offset). The 8192 slots hit last are copied into a small direct-mapped
 * hot table, which answers about 9 lookups in 10 from the CPU caches; a
 * hit is then one probe and one block copy.
 *
 * Memory: an open-addressing table of slots and one text store (each line
 * preceded by its 16-bit length), both growing by doubling; past
 * TK_LINE_CACHE_MAX_TEXT bytes of text, 70% of TK_LINE_CACHE_MAX_SLOTS
 * slots (or 2^32 - 16 space ids) the cache is emptied and starts over: a cache, never a leak. Lines
 * longer than 65535 bytes are written without being cached. Not thread-safe. */
#ifndef TK_OUTPUT_PERF_SCRIPT_LINES_H
#define TK_OUTPUT_PERF_SCRIPT_LINES_H

#include "context/threads_model.h"
#include "base/writer.h"
#include "output/perf_json_frame.h"
#include "output/perf_script_chains.h"

#define TK_LINE_CACHE_MAX_TEXT ((size_t)8 << 20)
/* The table's bound: past 70% of it the cache is emptied instead of grown.
 * A system-wide recording makes new lines for every short-lived process
 * (its own address space), lines that are dead once it exits: an unbounded
 * cache held 48 MB on a 50 MB recording (370 k lines in 20 k spaces), for
 * a hit rate the bounded one keeps (the hot lines come back in one miss
 * each after an emptying). */
#define TK_LINE_CACHE_MAX_SLOTS ((size_t)1 << 18)
/* Entries of the hot table: a direct-mapped copy of the slots hit last,
 * small enough (128 KiB) to stay in the CPU caches, where the big table's
 * hot slots would each drag three cold ones along. */
#define TK_LINE_HOT 8192

typedef struct tk_line_slot {
	uint64_t ip;
	uint32_t space; /* 0 = empty slot; 1 = no address space */
	uint32_t off;   /* in the text store: u16 length, then the line */
} tk_line_slot;

/* A kernel frame left out of buffered output (tk_line_cache_defer_kernel):
 * its line goes at byte off. */
typedef struct tk_line_hole {
	size_t off;
	uint64_t ip;
} tk_line_hole;

typedef struct tk_line_cache {
	tk_line_slot *slots;
	size_t slots_size; /* bytes mapped */
	tk_line_slot *hot; /* TK_LINE_HOT entries, space 0 = empty */
	size_t mask;       /* slot count - 1 (a power of two minus one), 0 before first use */
	size_t n;
	char *text;
	size_t text_len, text_cap;
	uint64_t epoch;       /* bumped when the cache is emptied */
	uint32_t n_spaces;    /* ids given so far (0 and 1 are reserved) */
	uint32_t space_epoch; /* bumped when ids start over */
	/* JSON frames instead of perf script's lines (tk_line_cache_init_json);
	 * scratch renders a frame before it is stored */
	bool json;
	tk_writer *scratch;
	/* kernel frames deferred (tk_line_cache_defer_kernel): holes in the
	 * output written so far, in order */
	bool defer_kernel;
	tk_line_hole *holes;
	size_t n_holes, cap_holes;
	/* whole chains in front of the lines (perf_script_chains.h), keyed
	 * with this cache's space ids */
	tk_chain_cache chains;
} tk_line_cache;

/* Writes "sym+0xoff (dso)" or "[unknown] (dso)" at p, which has room for
 * the symbol name, the dso name and 24 bytes more; returns the end. */
char *tk_script_sym_dso(char *p, const tk_addr_loc *loc);

void tk_line_cache_init(tk_line_cache *c);
/* The same cache rendering each frame as a JSON object followed by a
 * comma (perf data convert --to-json's callchain entry, with tracekit's
 * sym_off and dso_off: see tk_json_frame_render), for print --format json.
 * false when out of memory. */
bool tk_line_cache_init_json(tk_line_cache *c);
void tk_line_cache_free(tk_line_cache *c);

/* Writes s's callchain as perf script prints it below the sample line, one
 * line per frame, callee first, with perf's rules (see perf_callchain.h):
 * context markers switch the cpumode, at most TK_CALLCHAIN_MAX frames, and
 * nothing at all when an unknown marker is met. th may be NULL.
 * lbr_callstack: the event samples LBR call stacks (branch_sample_type
 * CALL_STACK): the user part of the chain comes from the branch stack.
 * unwound (n_unwound entries, may be NULL): the DWARF-unwound user
 * frames (perf_unwind.h), appended after the chain as perf does. */
void tk_line_cache_put_callchain(tk_line_cache *c, tk_threads *t, const tk_thread *th,
				 const tk_perf_sample *s, bool lbr_callstack,
				 const uint64_t *unwound, size_t n_unwound, tk_writer *w);

/* One address resolved in cpumode's address space (a sample without a
 * callchain), cached like a callchain frame. */
void tk_line_cache_put_ip(tk_line_cache *c, tk_threads *t, const tk_thread *th, unsigned cpumode,
			  uint64_t ip, tk_writer *w);

/* Deferring the kernel's frames while its symbol table is still being
 * loaded in the background (kernel_prefetch.h): with on, a kernel frame
 * (callchain or put_ip) writes nothing and is noted as a hole at the
 * writer's position instead (JSON frames: their comma is written), so the
 * caller can go on decoding, resolving
 * and formatting everything else into a memory buffer. The caller then
 * hands that buffer to tk_line_cache_fill_holes(), which writes it to out
 * with every hole's line rendered as it would have been in place: the
 * caller must fill before anything changes the kernel's address space
 * (a kernel MMAP), and before the buffer is written anywhere. */
void tk_line_cache_defer_kernel(tk_line_cache *c, bool on);
/* Whether deferred kernel frames wait in the buffer: a kernel MMAP before
 * the first one need not end the deferral. */
static inline bool tk_line_cache_has_holes(const tk_line_cache *c)
{
	return c->n_holes > 0;
}
/* Writes buf[0..len) to out with the holes' lines in place (resolving them
 * now: this waits for the kernel's table), then forgets the holes. With
 * TRACEKIT_KERNEL_DEFER=always (a test hook) it says on stderr how many
 * frames were deferred. */
void tk_line_cache_fill_holes(tk_line_cache *c, tk_threads *t, const char *buf, size_t len,
			      tk_writer *out);

#endif
