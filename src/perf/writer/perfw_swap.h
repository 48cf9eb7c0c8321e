/* Byte-order conversion of perf.data pieces, in place, for writing a copy
 * in the other byte order. Every function is an involution driven by the
 * source order: `foreign` says the bytes are currently NOT in host order, so
 * counts and sizes are read through a swap before the bytes are flipped.
 *
 * The target is what perf itself reads back from a cross-endian file
 * (tools/perf/util/session.c swap ops, evsel__parse_sample, header.c):
 *  - scalar fields are swapped at their own width;
 *  - sample fields perf reads as u64 words (stack, aux, weight_struct) are
 *    swapped as u64 words, as perf undoes them;
 *  - RAW tracepoint payloads, AUXTRACE payloads and tracing data are left as
 *    they are: their readers handle byte order themselves;
 *  - bitfields (attr flags, branch flags) are mirrored the way perf's
 *    swap_bitfield / evsel__bitfield_swap_branch_flags expect.
 * Parts whose layout is unknown (unknown record types or features, a sample
 * without an attr) are left byte for byte; the functions then return false
 * so the caller can warn. Every read is bounded by `size`. */
#ifndef TK_PERFW_SWAP_H
#define TK_PERFW_SWAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

/* perf_event_attr of `size` bytes (flags bit-reversed per byte). */
void perfw_swap_attr(uint8_t *p, size_t size);

/* One record (header included). attr: the record's attr (sample layout,
 * sample_id trailer) or NULL when unknown; nr_cpus_avail as below, for
 * pipe-mode HEADER_FEATURE records. */
bool perfw_swap_record(uint8_t *rec, size_t size, const tk_perf_attr *attr, uint32_t nr_cpus_avail,
		       bool foreign);

/* One feature section's payload. nr_cpus_avail: from NRCPUS, needed by
 * CPU_TOPOLOGY's per-cpu arrays. */
bool perfw_swap_feature(unsigned id, uint8_t *p, size_t size, uint32_t nr_cpus_avail, bool foreign);

/* perf's branch entry flags bitfield between little- and big-endian
 * layouts. src_le: the value is laid out as on a little-endian machine. */
uint64_t perfw_branch_flags_mirror(uint64_t v, bool src_le);

#endif
