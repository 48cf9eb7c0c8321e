/* An executable for synth_perf.py's made-up samples (oracle/report_synth):
 * built -rdynamic and stripped, main and named_in_prog keep their names
 * (.dynsym) while hidden_fn has none. Never run. */
#include <stdio.h>

__attribute__((noinline)) static int hidden_fn(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int named_in_prog(int x)
{
	return hidden_fn(x) + 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", named_in_prog(argc));
	return 0;
}
