/* Labels (untyped ELF symbols) for tests/oracle/perfscript_identical.sh
 * (x86_64). perf names code by a label unless the label is hidden or
 * internal (its elf_sym__is_label()): zstd's HUF_*_fast_asm_loop, built
 * into tracekit, is a hidden label, and perf leaves its samples to
 * whatever symbol comes before it. Three loops, each behind a label of
 * its own, called in turn. */
#include <stdlib.h>

__asm__(".text\n"
	".globl seen_loop\nseen_loop:\n mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n"
	".globl hidden_loop\n.hidden hidden_loop\nhidden_loop:\n"
	" mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n"
	".globl internal_loop\n.internal internal_loop\ninternal_loop:\n"
	" mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n");
void seen_loop(long n);
void hidden_loop(long n);
void internal_loop(long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000000;
	seen_loop(n);
	hidden_loop(n);
	internal_loop(n);
	return 0;
}
