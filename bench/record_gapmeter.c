/* What each sample costs the sampled program, measured from inside it: a
 * loop that reads the TSC back to back for DURATION seconds and keeps every
 * gap between two reads that is longer than 0.5 us. A gap of 0.5-300 us is
 * an interrupt taken on this CPU (with `record -F 10000 -a`: nearly all of
 * them the sampling timer's, the rest the scheduler tick and IPIs); longer
 * gaps are the program being preempted, counted apart. The loop touches no
 * memory, so the gaps are the kernel's work on its behalf (and the VM's:
 * interrupt delivery and timer reprogramming exit to the host), not cache
 * effects.
 *
 *   record_gapmeter DURATION OUT
 *
 * writes one line to OUT: interrupts, their median and p90 in us, their
 * total in s, preemptions, their total in s. x86-64 only (rdtsc). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double mono(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: record_gapmeter DURATION OUT\n");
		return 2;
	}
	double dur = atof(argv[1]);
	double m0 = mono();
	uint64_t c0 = __builtin_ia32_rdtsc();
	while (mono() - m0 < 0.05)
		;
	double tps = (double)(__builtin_ia32_rdtsc() - c0) / (mono() - m0);
	uint64_t lo = (uint64_t)(0.5e-6 * tps), hi = (uint64_t)(300e-6 * tps);
	size_t cap = (size_t)1 << 22, n = 0, n_pre = 0;
	uint64_t *gaps = malloc(cap * sizeof *gaps), pre = 0;
	if (!gaps)
		return 1;
	uint64_t prev = __builtin_ia32_rdtsc(), end = prev + (uint64_t)(dur * tps);
	for (;;) {
		uint64_t t = __builtin_ia32_rdtsc(), d = t - prev;
		prev = t;
		if (d > lo) {
			if (d >= hi) {
				n_pre++;
				pre += d;
			} else if (n < cap) {
				gaps[n++] = d;
			}
		}
		if (t > end)
			break;
	}
	qsort(gaps, n, sizeof *gaps, cmp_u64);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += gaps[i];
	FILE *f = fopen(argv[2], "w");
	if (!f)
		return 1;
	fprintf(f, "%zu %.3f %.3f %.4f %zu %.4f\n", n, n ? (double)gaps[n / 2] / tps * 1e6 : 0,
		n ? (double)gaps[n * 9 / 10] / tps * 1e6 : 0, (double)sum / tps, n_pre,
		(double)pre / tps);
	fclose(f);
	free(gaps);
	return 0;
}
