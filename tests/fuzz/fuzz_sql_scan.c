/* Fuzz target: the SQL layer over any bytes. The input becomes a file
 * (memfd), is opened through the "tracekit" virtual tables and every table
 * is scanned in full, reading every column (args JSON included), as
 * `tracekit sql FILE 'SELECT ...'` would. A damaged input must end in an
 * SQL error carrying the reader's message, never a crash. Without SQLite
 * in the build the target does nothing. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracekit/tracekit.h"

#ifdef TK_HAVE_SQLITE
#include <sqlite3.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef TK_HAVE_SQLITE
	int fd = memfd_create("fuzz_sql", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	sqlite3 *db = NULL;
	if (sqlite3_open(":memory:", &db) == SQLITE_OK && tk_sql_register(db, NULL) == SQLITE_OK) {
		tk_error err;
		const char *paths[] = {path};
		if (tk_sql_attach(db, paths, 1, NULL, &err) == TK_OK) {
			static const char *const scans[] = {
			    "SELECT count(*), max(ts), max(cpu), max(pid), max(tid), max(name), "
			    "max(category), max(stream), max(length(args)) FROM event",
			    "SELECT count(*), max(ts), max(event), max(period), max(ip), "
			    "max(callsite_id), max(utid) FROM sample",
			    "SELECT count(*), max(name), max(dso), max(address) FROM stack_frame",
			    "SELECT count(*), max(parent_id), max(depth) FROM callsite",
			    "SELECT count(*), max(name), max(start_ts), max(upid) FROM thread",
			    "SELECT count(*), max(name) FROM process",
			    "SELECT count(*), max(dso), max(build_id) FROM mapping",
			    "SELECT count(*), max(name) FROM track",
			    "SELECT count(*), max(value) FROM counter",
			    "SELECT count(*), max(dur), max(end_state), max(utid) FROM sched",
			    "SELECT count(*), max(image), max(count) FROM profile",
			    "SELECT count(*), max(dur), max(state), max(utid) FROM thread_state",
			};
			for (size_t i = 0; i < sizeof scans / sizeof scans[0]; i++)
				sqlite3_exec(db, scans[i], NULL, NULL, NULL);
		}
	}
	sqlite3_close(db);
	close(fd);
#else
	(void)data;
	(void)size;
#endif
	return 0;
}
