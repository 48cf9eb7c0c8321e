/* Helpers for the cmocka unit tests: where the shared test data is, and
 * reading whole files. */
#ifndef TK_TEST_SUPPORT_H
#define TK_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* "$TK_TESTDATA/rel" in a static buffer (overwritten by the next call). */
const char *tk_test_data(const char *rel);
/* Reads a whole file (malloc'd, NUL-appended); NULL when missing. */
uint8_t *tk_test_read_file(const char *path, size_t *size);

#endif
