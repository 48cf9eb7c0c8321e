/* Reads a logger file back through tracekit's reader path (the recovery of
 * src/log/log_recover.c into elog, then the elog reader), for the unit
 * tests of the logger. */
#ifndef TK_TEST_LOG_READ_H
#define TK_TEST_LOG_READ_H

#include <stdlib.h>
#include <string.h>

#include "cpel/elog_reader.h"
#include "log/log_impl.h"
#include "test_support.h"

/* The file as an elog (NULL with *why set when it cannot be read). */
static inline tk_elog_file *log_read(const char *path, const char **why, uint64_t *at)
{
	size_t size;
	uint8_t *data = tk_test_read_file(path, &size);
	*why = "cannot read the file";
	*at = 0;
	if (!data)
		return NULL;
	/* the region wants 8-byte alignment: malloc gives 16 */
	uint8_t *elog;
	size_t n;
	bool ok = tk_lg_recover_elog(data, size, &elog, &n, why, at);
	free(data);
	if (!ok)
		return NULL;
	tk_elog_file *f;
	tk_error err;
	if (tk_elog_open_owned(elog, n, path, &f, &err) != TK_OK) {
		*why = "elog reader refused the recovered log";
		return NULL;
	}
	return f;
}

static inline const char *log_type_format(const tk_elog_file *f, const tk_elog_event *e)
{
	return f->types[e->type].format.s;
}

#endif
