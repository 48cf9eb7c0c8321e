/* A known call chain for tests/oracle/unwind_dwarf.sh: main -> top ->
 * mid_b -> mid_a -> leaf (and top -> leaf), with spin() inlined into
 * leaf. Built without frame pointers, so only DWARF unwinding finds the
 * callers. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline)) void leaf(unsigned long n)
{
	spin(n);
	sink++;
}

__attribute__((noinline)) void mid_a(unsigned long n)
{
	leaf(n);
	sink++;
}

__attribute__((noinline)) void mid_b(unsigned long n)
{
	mid_a(n);
	sink++;
}

__attribute__((noinline)) void top(unsigned long n)
{
	for (int k = 0; k < 10; k++) {
		mid_b(n);
		leaf(n / 2);
	}
	sink++;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000;
	top(n);
	printf("%lu\n", sink);
	return 0;
}
