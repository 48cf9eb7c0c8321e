/* The hand-written protobuf encoder (base/pb.c) against the encodings the
 * protobuf documentation gives ("Encoding": 150 in field 1 is 08 96 01,
 * "testing" in field 2 is 12 07 74 65 73 74 69 6e 67), and the interner
 * that numbers pprof's records (base/intern.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/intern.h"
#include "base/pb.h"

static void expect_bytes(const tk_pb *b, const uint8_t *want, size_t n)
{
	assert_false(b->failed);
	assert_int_equal(b->len, n);
	assert_memory_equal(b->buf, want, n);
}

static void varints(void **state)
{
	(void)state;
	tk_pb b = {0};
	static const struct {
		uint64_t v;
		uint8_t bytes[10];
		size_t n;
	} cases[] = {
	    {0, {0x00}, 1},
	    {1, {0x01}, 1},
	    {127, {0x7f}, 1},
	    {128, {0x80, 0x01}, 2},
	    {300, {0xac, 0x02}, 2},
	    {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tk_pb_reset(&b);
		tk_pb_varint(&b, cases[i].v);
		expect_bytes(&b, cases[i].bytes, cases[i].n);
	}
	tk_pb_free(&b);
}

static void fields(void **state)
{
	(void)state;
	tk_pb b = {0}, sub = {0};
	tk_pb_uint(&b, 1, 150);
	expect_bytes(&b, (const uint8_t[]){0x08, 0x96, 0x01}, 3);
	tk_pb_reset(&b);
	tk_pb_uint(&b, 1, 0); /* proto3 default: nothing */
	assert_int_equal(b.len, 0);
	tk_pb_lenfield(&b, 2, "testing", 7);
	expect_bytes(&b, (const uint8_t[]){0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}, 9);
	/* nested: field 3 holding {1: 150} */
	tk_pb_reset(&b);
	tk_pb_uint(&sub, 1, 150);
	tk_pb_sub(&b, 3, &sub);
	expect_bytes(&b, (const uint8_t[]){0x1a, 0x03, 0x08, 0x96, 0x01}, 5);
	/* field numbers above 15 take a two-byte tag */
	tk_pb_reset(&b);
	tk_pb_uint(&b, 16, 1);
	expect_bytes(&b, (const uint8_t[]){0x80, 0x01, 0x01}, 3);
	/* a long payload grows the buffer */
	tk_pb_reset(&b);
	char big[5000];
	memset(big, 'x', sizeof big);
	tk_pb_lenfield(&b, 6, big, sizeof big);
	assert_int_equal(b.len, 1 + 2 + sizeof big);
	assert_int_equal(b.buf[1], 0x88);
	assert_int_equal(b.buf[2], 0x27);
	tk_pb_free(&b);
	tk_pb_free(&sub);
}

static void interning(void **state)
{
	(void)state;
	tk_intern t;
	tk_intern_init(&t, 0);
	size_t idx;
	bool added;
	assert_true(tk_intern_get(&t, "", 0, &idx, &added));
	assert_int_equal(idx, 0);
	assert_true(added);
	char key[32];
	for (int i = 0; i < 20000; i++) {
		int n = snprintf(key, sizeof key, "k%d", i);
		assert_true(tk_intern_get(&t, key, (size_t)n, &idx, &added));
		assert_true(added);
		assert_int_equal(idx, (size_t)i + 1);
	}
	for (int i = 19999; i >= 0; i -= 7) {
		int n = snprintf(key, sizeof key, "k%d", i);
		assert_true(tk_intern_get(&t, key, (size_t)n, &idx, &added));
		assert_false(added);
		assert_int_equal(idx, (size_t)i + 1);
		assert_memory_equal(t.v[idx].key, key, (size_t)n);
	}
	/* keys are bytes: embedded NULs count */
	assert_true(tk_intern_get(&t, "a\0b", 3, &idx, &added));
	assert_true(added);
	assert_true(tk_intern_get(&t, "a\0c", 3, &idx, &added));
	assert_true(added);
	tk_intern_free(&t);
	/* the limit refuses new keys once the arena is past it */
	tk_intern_init(&t, 1);
	bool refused = false;
	for (int i = 0; i < 100000 && !refused; i++) {
		int n = snprintf(key, sizeof key, "k%d", i);
		refused = !tk_intern_get(&t, key, (size_t)n, &idx, NULL);
	}
	assert_true(refused);
	assert_true(tk_intern_over_limit(&t));
	tk_intern_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(varints),
	    cmocka_unit_test(fields),
	    cmocka_unit_test(interning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
