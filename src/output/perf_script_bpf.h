/* perf script's dump of a bpf-output sample's RAW data (builtin-script.c
 * perf_sample__fprintf_bpf_output): 8 bytes per line as hex and as
 * characters, and a "BPF string:" line when the data is one NUL-terminated
 * printable string. */
#ifndef TK_OUTPUT_PERF_SCRIPT_BPF_H
#define TK_OUTPUT_PERF_SCRIPT_BPF_H

#include <stdbool.h>
#include <stdint.h>

#include "base/writer.h"
#include "tracekit/perf.h"

/* perf's evsel__is_bpf_output: the software event bpf-output. */
bool tk_script_is_bpf_output(const tk_perf_attr *a);

/* Writes the dump, starting with the newline that ends the sample line
 * (as perf's does) when n > 0; nothing when n == 0. */
void tk_script_bpf_output(tk_writer *w, const uint8_t *raw, uint32_t n);

#endif
