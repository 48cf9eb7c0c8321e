/* Functions without CFI for tests/oracle/unwind_dwarf.sh (x86_64), where
 * perf's unwinder (libunwind) guesses the caller from rbp and libdwfl
 * would guess differently (src/unwind/unwind_nocfi.c):
 * - spin_fp keeps a frame pointer of its own: the guess is right;
 * - spin_sub moves rsp but keeps no frame pointer, and its caller with_fp
 *   has one (a VLA), as a library's _fini called from ld.so's _dl_fini:
 *   perf skips with_fp, then reads its caller's return address from the
 *   wrong slot (where middle stored stack addresses or zeros);
 * - spin_flat's callers keep no frame pointer: the guess fails, the walk
 *   ends at the sampled frame.
 * Built without frame pointers (-fomit-frame-pointer) and with -O2. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

__asm__(".text\n"
	".globl spin_fp\n.type spin_fp,@function\nspin_fp:\n"
	" push %rbp\n mov %rsp,%rbp\n mov %rdi,%rax\n"
	"1: dec %rax\n jnz 1b\n pop %rbp\n ret\n.size spin_fp,.-spin_fp\n"
	".globl spin_sub\n.type spin_sub,@function\nspin_sub:\n"
	" sub $8,%rsp\n mov %rdi,%rax\n"
	"1: dec %rax\n jnz 1b\n add $8,%rsp\n ret\n.size spin_sub,.-spin_sub\n"
	".globl spin_flat\n.type spin_flat,@function\nspin_flat:\n"
	" mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n.size spin_flat,.-spin_flat\n");
void spin_fp(long n);
void spin_sub(long n);
void spin_flat(long n);

static volatile long sink;

__attribute__((noinline)) void with_fp(long n, int k)
{
	volatile char vla[k];
	memset((char *)vla, 1, (size_t)k);
	spin_sub(n);
	sink += vla[k - 1];
}

__attribute__((noinline)) void middle(long n, uintptr_t fill)
{
	/* what perf's wrong slot holds: stack addresses (a [stack] frame,
	 * where its walk ends: no unwind table) or 0 (its pc 0 - 1 frame) */
	volatile uintptr_t slots[25];
	for (size_t i = 0; i < 25; i++)
		slots[i] = fill ? (uintptr_t)&slots[i] : 0;
	with_fp(n, 40);
	sink += (long)slots[3];
}

__attribute__((noinline)) void caller(long n, int which)
{
	if (which == 0)
		spin_fp(n);
	else if (which == 1 || which == 2)
		middle(n, which == 1);
	else
		spin_flat(n);
	sink++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	/* spin_fp and spin_sub twice each, spin_flat once: most stacks
	 * are deeper than 2 frames */
	static const int order[] = {0, 1, 0, 2, 3};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		caller(n, order[i]);
	return 0;
}
