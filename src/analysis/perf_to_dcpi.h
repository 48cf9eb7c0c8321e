/* perf.data -> DCPI profile database: one profile per (image, event) under
 * DB/<epoch of the recording>/<hostname>/, written through the DCPI writer.
 * A sample's ip is mapped through the MMAP/MMAP2 records (threads_model.h)
 * to its image; the profile's tstart/tsize are the image's executable
 * segment when its ELF is readable (addresses are then ELF virtual
 * addresses), else the mapping (process addresses). The image id is the
 * build id, else a hash of path, size and mtime. Samples in no image go to
 * an "[unknown]" profile (offset 0), and so do addresses outside their
 * image's range, so the counts of the database add up to the number of
 * samples. The epoch is CLOCK_DATA's wall time when recorded, else the
 * file's mtime. */
#ifndef TK_ANALYSIS_PERF_TO_DCPI_H
#define TK_ANALYSIS_PERF_TO_DCPI_H

#include "tracekit/tracekit.h"

typedef struct tk_perf_dcpi_options {
	const char *events; /* --event globs or NULL */
	const char *epoch;  /* the epoch directory; NULL: the recording's */
	tk_log_fn log;
	void *log_user;
} tk_perf_dcpi_options;

tk_status tk_perf_to_dcpi(const char *in, const char *db, const tk_perf_dcpi_options *opt,
			  tk_error *err);

#endif
