/* Test-only: turns a little-endian file-mode perf.data into the same data
 * written by a big-endian host (2ELIFREP): header, attrs (flag bits
 * reversed within each byte, as perf's swap_bitfield() undoes), ids, the
 * simple feature sections, and every record field per its type and its
 * attr's sample_type. Other features are dropped from the bitmap.
 * Supports the record types of ordinary recordings (MMAP, MMAP2, COMM,
 * FORK, EXIT, LOST, THROTTLE, UNTHROTTLE, SAMPLE without RAW/AUX payload
 * typing, FINISHED_ROUND); anything else makes it fail. */
#ifndef TK_TEST_PERF_BYTESWAP_H
#define TK_TEST_PERF_BYTESWAP_H

#include <stddef.h>
#include <stdint.h>

/* Returns a malloc'd buffer of `size` bytes, or NULL with the reason in why. */
uint8_t *tk_test_perf_byteswap(const uint8_t *in, size_t size, char *why, size_t why_len);

#endif
