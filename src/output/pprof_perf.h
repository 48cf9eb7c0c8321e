/* pprof profiles (google/pprof proto/profile.proto, gzip-compressed) from
 * perf.data, as `go tool pprof` reads them.
 *
 * Sample types, per event met (in the order met, the --event globs
 * choosing which): "samples"/"count", then the period: "cpu"/"nanoseconds"
 * for cpu-clock and task-clock, else "<event>"/"count". The first event's
 * period is the default sample type. One sample per distinct (event,
 * stack); its values are the sample count and the summed period (the
 * attr's fixed period when samples carry none, as report and folded).
 *
 * Symbolization is report's (report_perf.c): the leaf is the sample IP
 * resolved with the sample's cpumode; callers come from the call chain
 * (perf_callchain.h). A function is one (image, symbol start) with the
 * symbol's demangled name, or per unresolved address "0x%016llx" as
 * report names it, so `pprof -top` shows report's rows. Locations carry
 * the absolute address and a mapping (image path, build id, range, file
 * offset); mappings say has_functions so pprof does not re-symbolize. */
#ifndef TK_OUTPUT_PPROF_PERF_H
#define TK_OUTPUT_PPROF_PERF_H

#include "base/writer.h"
#include "model/render.h"

tk_status tk_perf_pprof_write(const char *in, const char *out_path, const tk_render_options *opt,
			      tk_error *err);
/* The same into an open writer. */
tk_status tk_perf_pprof_to(const char *in, const tk_render_options *opt, tk_writer *w,
			   tk_error *err);

#endif
