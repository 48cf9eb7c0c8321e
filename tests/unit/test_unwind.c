/* Unit tests for src/unwind without perf: the test unwinds its own stack
 * (registers and a copy of the stack taken in capture(), the maps from
 * /proc/self/maps), built without frame pointers at -O2, so only the CFI
 * finds the callers; the return addresses each level records with
 * __builtin_return_address must come back, minus one. Then damaged
 * inputs: random stack words, no stack, missing registers, a small
 * frame limit. Skipped where the unwinder has no libdw (x86_64 only). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "unwind/unwind.h"

#define MAX_MAPS   512
#define STACK_COPY 16384

typedef struct self_map {
	uint64_t start, end, pgoff;
	char path[256];
} self_map;

static self_map maps[MAX_MAPS];
static size_t n_maps;
static uint64_t stack_end;

static void load_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	char line[1024];
	n_maps = 0;
	while (fgets(line, sizeof line, f) && n_maps < MAX_MAPS) {
		unsigned long long s, e, off;
		char perms[8], path[256] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %255s", &s, &e, perms, &off, path) < 4)
			continue;
		if (strcmp(path, "[stack]") == 0)
			stack_end = e;
		if (path[0] != '/')
			continue;
		maps[n_maps] = (self_map){.start = s, .end = e, .pgoff = off};
		snprintf(maps[n_maps].path, sizeof maps[n_maps].path, "%s", path);
		n_maps++;
	}
	fclose(f);
}

static bool find_map(void *user, uint64_t addr, tk_unwind_map *out)
{
	(void)user;
	for (size_t i = 0; i < n_maps; i++)
		if (addr >= maps[i].start && addr < maps[i].end) {
			*out = (tk_unwind_map){.start = maps[i].start,
					       .end = maps[i].end,
					       .pgoff = maps[i].pgoff,
					       .path = maps[i].path};
			return true;
		}
	return false;
}

/* perf's x86_64 user registers for mask 0xff0fff (AX..SS, R8..R15) */
enum { R_BP = 6, R_SP = 7, R_IP = 8, N_REGS = 20 };

static tk_unwinder *unwinder;
static uint64_t regs[N_REGS];
static uint8_t *stack_copy;
static size_t stack_len;
static uint64_t pcs[TK_UNWIND_INLINE_MAX * 8];
static size_t n_pcs;
static uint64_t ret_capture, ret_level2, ret_level1;
static volatile int sink;

static tk_unwind_input input(void)
{
	return (tk_unwind_input){
	    .space = &unwinder,
	    .pid = 1,
	    .machine = EM_X86_64,
	    .regs_abi = TK_UNWIND_ABI_64,
	    .regs_mask = 0xff0fffull,
	    .regs = (const uint8_t *)regs,
	    .regs_n = N_REGS,
	    .stack = stack_copy,
	    .stack_size = stack_len,
	    .find_map = find_map,
	};
}

/* Registers and the stack as perf samples them, at a pc of this function. */
__attribute__((noinline, no_sanitize_address)) static void capture(void)
{
	uint64_t rsp, rbp, rip;
	__asm__ volatile("mov %%rsp, %0\n\tmov %%rbp, %1\n\tlea 0(%%rip), %2"
			 : "=r"(rsp), "=r"(rbp), "=r"(rip));
	memset(regs, 0, sizeof regs);
	regs[R_BP] = rbp;
	regs[R_SP] = rsp;
	regs[R_IP] = rip;
	stack_len = stack_end > rsp && stack_end - rsp < STACK_COPY ? stack_end - rsp : STACK_COPY;
	/* byte by byte: ASan must not see the other frames' redzones read */
	for (size_t i = 0; i < stack_len; i++)
		stack_copy[i] = ((const volatile uint8_t *)(uintptr_t)rsp)[i];
	ret_capture = (uint64_t)(uintptr_t)__builtin_return_address(0);
}

__attribute__((noinline)) static void level2(void)
{
	capture();
	ret_level2 = (uint64_t)(uintptr_t)__builtin_return_address(0);
	sink++; /* no tail call */
}

__attribute__((noinline)) static void level1(void)
{
	level2();
	ret_level1 = (uint64_t)(uintptr_t)__builtin_return_address(0);
	sink++;
}

static int setup(void **state)
{
	(void)state;
	if (!tk_unwind_available(EM_X86_64))
		return 0;
	load_maps();
	stack_copy = malloc(STACK_COPY);
	unwinder = tk_unwinder_new();
	return stack_copy && unwinder ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tk_unwinder_free(unwinder);
	free(stack_copy);
	return 0;
}

static void test_own_stack(void **state)
{
	(void)state;
	if (!tk_unwind_available(EM_X86_64))
		skip();
	level1();
	assert_true(stack_end > 0);
	tk_unwind_input in = input();
	n_pcs = tk_unwind(unwinder, &in, pcs, 127);
	assert_true(n_pcs >= 4);
	assert_int_equal(pcs[0], regs[R_IP]);
	assert_int_equal(pcs[1] + 1, ret_capture); /* into level2 */
	assert_int_equal(pcs[2] + 1, ret_level2);  /* into level1 */
	assert_int_equal(pcs[3] + 1, ret_level1);  /* into this test */
	/* the same sample again: the same walk from the cached Dwfl */
	uint64_t again[127];
	assert_int_equal(tk_unwind(unwinder, &in, again, 127), n_pcs);
	assert_memory_equal(again, pcs, n_pcs * sizeof *pcs);
	/* a frame limit is a frame limit */
	assert_int_equal(tk_unwind(unwinder, &in, again, 2), 2);
	assert_int_equal(again[1], pcs[1]);
}

static void test_damaged(void **state)
{
	(void)state;
	if (!tk_unwind_available(EM_X86_64))
		skip();
	level1();
	tk_unwind_input in = input();
	uint64_t out[127];
	/* no stack: the sampled ip alone */
	in.stack_size = 0;
	assert_int_equal(tk_unwind(unwinder, &in, out, 127), 1);
	assert_int_equal(out[0], regs[R_IP]);
	/* random words where the return addresses were: short, never more
	 * than the limit, and the first frame is still the ip */
	in.stack_size = stack_len;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i + 8 <= stack_len; i += 8) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			uint64_t w = round & 1 ? seed : regs[R_IP] + (seed % 4096) - 2048;
			memcpy(stack_copy + i, &w, 8);
		}
		size_t n = tk_unwind(unwinder, &in, out, 64);
		assert_true(n >= 1 && n <= 64);
		assert_int_equal(out[0], regs[R_IP]);
	}
	/* no instruction pointer in the mask, a 32-bit ABI: nothing */
	in.regs_mask &= ~(1ull << R_IP);
	assert_int_equal(tk_unwind(unwinder, &in, out, 127), 0);
	in = input();
	in.regs_abi = TK_UNWIND_ABI_32;
	assert_int_equal(tk_unwind(unwinder, &in, out, 127), 0);
	/* registers cut short */
	in = input();
	in.regs_n = 3;
	assert_int_equal(tk_unwind(unwinder, &in, out, 127), 0);
	/* an ip in no map: the ip, then nothing */
	in = input();
	uint64_t saved = regs[R_IP];
	regs[R_IP] = 0x10;
	assert_int_equal(tk_unwind(unwinder, &in, out, 127), 1);
	regs[R_IP] = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_own_stack),
	    cmocka_unit_test(test_damaged),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
