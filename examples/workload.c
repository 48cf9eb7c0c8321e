/* A small workload for `make demo`: a few functions that burn CPU in
 * different proportions, so a profile has something to show. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint64_t sink;

static uint64_t hash_step(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 33);
}

static void __attribute__((noinline)) hash_loop(unsigned n)
{
	uint64_t x = 1;
	for (unsigned i = 0; i < n; i++)
		x = hash_step(x + i);
	sink = x;
}

static void __attribute__((noinline)) sort_work(unsigned n)
{
	unsigned *a = malloc(n * sizeof *a);
	if (!a)
		return;
	for (unsigned i = 0; i < n; i++)
		a[i] = (unsigned)hash_step(i);
	for (unsigned i = 1; i < n; i++) { /* insertion sort: deliberately slow */
		unsigned v = a[i], j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
	sink = a[n / 2];
	free(a);
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
	for (unsigned r = 0; r < rounds; r++) {
		hash_loop(2000000);
		sort_work(4000);
	}
	printf("workload done: %llu\n", (unsigned long long)sink);
	return 0;
}
