/* The register mappings of src/unwind (perf's sample_regs_user order ->
 * DWARF numbers), without libdw: aarch64's table (x0..x30 and sp as DWARF
 * 0..31, the pc apart, as perf's arch/arm64/util/unwind-libdw.c sets
 * them) and x86_64's (perf's ax, bx, cx, dx, si, di, bp, sp, ip, r8..r15
 * -> DWARF rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8..r15, rip), each
 * register given a distinct value; a missing register, a 32-bit ABI and
 * the other byte order. */
#include <elf.h>
#include <string.h>

#include "test_support.h"
#include "unwind/unwind_regs.h"

/* perf's dump holds the registers of the mask in ascending id order */
static size_t dump(uint64_t mask, uint8_t *buf, bool swap)
{
	size_t n = 0;
	for (unsigned id = 0; id < 64; id++) {
		if (!(mask & (1ull << id)))
			continue;
		uint64_t v = 0x1000ull * (id + 1) + id; /* value of perf reg id */
		if (swap)
			v = __builtin_bswap64(v);
		memcpy(buf + 8 * n++, &v, 8);
	}
	return n;
}

static uint64_t val(unsigned id)
{
	return 0x1000ull * (id + 1) + id;
}

static tk_unwind_input input(uint16_t machine, uint64_t mask, uint8_t *buf, bool swap)
{
	tk_unwind_input in = {.machine = machine,
			      .regs_abi = TK_UNWIND_ABI_64,
			      .regs_mask = mask,
			      .regs = buf,
			      .swap = swap};
	in.regs_n = dump(mask, buf, swap);
	return in;
}

static void test_aarch64(void **state)
{
	(void)state;
	uint8_t buf[64 * 8];
	uint64_t all = (1ull << 33) - 1; /* PERF_REG_ARM64_MAX = 33 */
	for (int swap = 0; swap < 2; swap++) {
		tk_unwind_input in = input(EM_AARCH64, all, buf, swap);
		tk_unwind_regs r;
		memset(&r, 0xee, sizeof r);
		assert_true(tk_unwind_regs_load(&in, &r));
		assert_int_equal(r.n, 32);
		for (unsigned i = 0; i < 32; i++)
			assert_int_equal(r.dwarf[i], val(i)); /* x0..x30, sp */
		assert_int_equal(r.dwarf[30], val(30));       /* lr: the return address column */
		assert_int_equal(r.sp, val(31));
		assert_int_equal(r.ip, val(32));
		assert_true(r.pc_apart);
	}
	tk_unwind_regs r;
	/* no pc, no x30, a 32-bit task: no mapping */
	tk_unwind_input in = input(EM_AARCH64, all & ~(1ull << 32), buf, false);
	assert_false(tk_unwind_regs_load(&in, &r));
	in = input(EM_AARCH64, all & ~(1ull << 30), buf, false);
	assert_false(tk_unwind_regs_load(&in, &r));
	in = input(EM_AARCH64, all, buf, false);
	in.regs_abi = TK_UNWIND_ABI_32;
	assert_false(tk_unwind_regs_load(&in, &r));
	/* fewer words than the mask says */
	in = input(EM_AARCH64, all, buf, false);
	in.regs_n = 20;
	assert_false(tk_unwind_regs_load(&in, &r));
	/* extra registers in the mask (above PC) change nothing */
	in = input(EM_AARCH64, all | (1ull << 40), buf, false);
	assert_true(tk_unwind_regs_load(&in, &r));
	assert_int_equal(r.ip, val(32));
}

static void test_x86_64(void **state)
{
	(void)state;
	uint8_t buf[64 * 8];
	/* perf record's x86_64 user mask: ax..ip, flags, cs, ss, r8..r15 */
	uint64_t mask = 0xff0fffull;
	tk_unwind_input in = input(EM_X86_64, mask, buf, false);
	tk_unwind_regs r;
	assert_true(tk_unwind_regs_load(&in, &r));
	static const unsigned perf_of_dwarf[17] = {0,  3,  2,  1,  4,  5,  6,  7, 16,
						   17, 18, 19, 20, 21, 22, 23, 8};
	assert_int_equal(r.n, 17);
	for (unsigned i = 0; i < 17; i++)
		assert_int_equal(r.dwarf[i], val(perf_of_dwarf[i]));
	assert_int_equal(r.ip, val(8));
	assert_int_equal(r.sp, val(7));
	assert_false(r.pc_apart);
	in = input(EM_X86_64, mask & ~(1ull << 19), buf, false); /* no r11 */
	assert_false(tk_unwind_regs_load(&in, &r));
	in = input(EM_386, mask, buf, false);
	assert_false(tk_unwind_regs_load(&in, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_aarch64),
	    cmocka_unit_test(test_x86_64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
