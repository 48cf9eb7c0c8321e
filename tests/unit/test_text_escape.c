/* The default text style keeps a payload string on its line and inside its
 * quotes: a quote, a backslash, a newline or a control byte in the string
 * must not break the line or the quoting (issue 11). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "base/writer.h"
#include "output/model_print.h"
#include "tracekit/tracekit.h"

static void text_of(const char *s, size_t n, char *out, size_t cap)
{
	static const tk_field_class str_cls = {.kind = TK_TYPE_STRING};
	tk_value v = {.cls = &str_cls, .v.str = {s, n}};
	tk_writer *w;
	assert_int_equal(tk_writer_open_memory(&w, NULL), TK_OK);
	tk_value_write_text(w, &v);
	size_t len;
	const char *d = tk_writer_data(w, &len);
	assert_true(len < cap);
	memcpy(out, d, len);
	out[len] = '\0';
	tk_writer_abort(w);
}

static void escapes(void **state)
{
	(void)state;
	char got[128];
	text_of("plain", 5, got, sizeof got);
	assert_string_equal(got, "\"plain\"");
	text_of("say \"hi\"\nback\\slash\ttab", 23, got, sizeof got);
	assert_string_equal(got, "\"say \\\"hi\\\"\\nback\\\\slash\\ttab\"");
	text_of("a\0b\x1b\x7f", 5, got, sizeof got);
	assert_string_equal(got, "\"a\\x00b\\x1b\\x7f\"");
	text_of("caf\xc3\xa9", 5, got, sizeof got); /* UTF-8 passes as it is */
	assert_string_equal(got, "\"caf\xc3\xa9\"");
	assert_null(strchr(got, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(escapes)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
