/* A frame whose CFA is rbx-based, for tests/oracle/unwind_dwarf.sh
 * (x86_64), as ld.so's _dl_runtime_resolve_xsavec has it: `realign`
 * saves rbx, keeps its entry rsp there (CFA = rbx + 16) and aligns rsp
 * down, then calls spin_leaf, which never saves rbx. The CFI of
 * spin_leaf says nothing of rbx, so realign's CFA needs rbx carried from
 * the sampled registers: libunwind (perf) does so, libdw 0.188's x86_64
 * defaults leave rbx undefined (src/unwind/unwind_fast.c), and a walk
 * that followed them would end at realign. Built with -O2. */
#include <stdlib.h>

__asm__(".text\n"
	".globl spin_leaf\n.type spin_leaf,@function\nspin_leaf:\n"
	" .cfi_startproc\n mov %rdi,%rax\n1: dec %rax\n jnz 1b\n ret\n .cfi_endproc\n"
	".size spin_leaf,.-spin_leaf\n"
	".globl realign\n.type realign,@function\nrealign:\n"
	" .cfi_startproc\n push %rbx\n .cfi_adjust_cfa_offset 8\n .cfi_rel_offset %rbx,0\n"
	" mov %rsp,%rbx\n .cfi_def_cfa_register %rbx\n and $-64,%rsp\n sub $128,%rsp\n"
	" call spin_leaf\n mov %rbx,%rsp\n .cfi_def_cfa_register %rsp\n"
	" pop %rbx\n .cfi_adjust_cfa_offset -8\n .cfi_restore %rbx\n ret\n .cfi_endproc\n"
	".size realign,.-realign\n");
void realign(long n);

static volatile long sink;

__attribute__((noinline)) void outer(long n)
{
	realign(n);
	sink++;
}

int main(int argc, char **argv)
{
	outer(argc > 1 ? atol(argv[1]) : 100000000);
	return 0;
}
