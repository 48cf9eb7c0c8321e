/* ns per logged event for tracekit's logger, an elog-style ring (VPP's
 * design: one shared ring of 32-byte events, the index taken with one
 * atomic fetch-add) and LTTng-UST tracepoints, all with one payload: a u32
 * and two u64 (VPP's rx-burst plus a byte count).
 *
 *   log_bench [EVENTS_PER_THREAD]     (bench/log_bench.sh runs it with an
 *                                      LTTng session active)
 *
 * Each thread logs in batches of 256 events timed with CLOCK_MONOTONIC; a
 * batch's time / 256 is one sample. One clock read ends a batch and starts
 * the next, so the samples add up to the loop's whole time with one clock
 * read (~40 ns on the VM, 0.15 ns per event) per batch. Median and p99 are
 * over all samples of all threads. Printed per logger, for 1 and 2
 * threads, after the floor: a loop of bare rdtsc reads (every logger here
 * reads the TSC once per event, LTTng-UST reads CLOCK_MONOTONIC). Last,
 * apart: tracekit with its TK_LOG_CLOCK_COARSE option (time stamps of
 * CLOCK_MONOTONIC_COARSE, one kernel tick of resolution, no rdtsc) after
 * that clock's own floor, and with .prefault (the thread's ring faulted in
 * at its first event, inside the first timed batch, instead of one page
 * fault per 64 events during the first lap). Then, one thread, the cost
 * of the clock reads TK_LOG does not use: lfence; rdtsc, rdtscp and
 * CLOCK_MONOTONIC (LTTng-UST's), and TK_LOG while logging is disabled. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracekit/log.h>

#ifdef TK_BENCH_LTTNG
#include "log_bench_tp.h"
#endif

#define BATCH 256

TK_LOG_TYPE(ev_rx, "rx: queue %u pkts %lu bytes %lu", TK_LOG_U32, TK_LOG_U64, TK_LOG_U64);

/* ---- the elog-style baseline ---- */
typedef struct elog_ev {
	uint64_t time;
	uint16_t type, track;
	uint8_t data[20];
} elog_ev;

#define ELOG_RING (1u << 20)
static elog_ev *elog_ring;
static _Atomic uint64_t elog_index;

static inline void elog_log(uint32_t q, uint64_t pkts, uint64_t bytes)
{
	uint64_t i = atomic_fetch_add_explicit(&elog_index, 1, memory_order_relaxed);
	elog_ev *e = &elog_ring[i & (ELOG_RING - 1)];
	e->time = __builtin_ia32_rdtsc();
	e->type = 1;
	e->track = 0;
	memcpy(e->data, &q, 4);
	memcpy(e->data + 4, &pkts, 8);
	memcpy(e->data + 12, &bytes, 8);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

enum {
	TRACEKIT,
	SHARED,
	ELOG,
	LTTNG,
	RDTSC,
	COARSE_FLOOR,
	TRACEKIT_COARSE,
	TRACEKIT_PREFAULT,
	LFENCE_FLOOR,
	RDTSCP_FLOOR,
	MONO_FLOOR,
	TRACEKIT_OFF
};
static const char *const names[] = {"tracekit TK_LOG",
				    "tracekit shared_ring (elog's way)",
				    "elog-style fetch-add ring",
				    "LTTng-UST tracepoint",
				    "floor: rdtsc alone",
				    "floor: CLOCK_MONOTONIC_COARSE alone",
				    "tracekit TK_LOG, clock COARSE",
				    "tracekit TK_LOG, .prefault = 1",
				    "clock: lfence; rdtsc",
				    "clock: rdtscp",
				    "clock: CLOCK_MONOTONIC (vDSO)",
				    "tracekit TK_LOG, logging disabled"};
static volatile uint64_t rdtsc_sink;

typedef struct job {
	int which;
	uint64_t events;
	double *samples;
	size_t n;
	pthread_barrier_t *start;
} job;

static void *run(void *arg)
{
	job *j = arg;
	uint64_t batches = j->events / BATCH;
	j->n = 0;
	pthread_barrier_wait(j->start);
	uint64_t t0 = now_ns();
	for (uint64_t b = 0; b < batches; b++) {
		for (uint32_t i = 0; i < BATCH; i++) {
			uint64_t pkts = b * BATCH + i, bytes = pkts * 1500;
			switch (j->which) {
			case TRACEKIT:
			case TRACEKIT_COARSE:
			case TRACEKIT_PREFAULT:
			case TRACEKIT_OFF:
			case SHARED: TK_LOG(ev_rx, i, pkts, bytes); break;
			case ELOG: elog_log(i, pkts, bytes); break;
			case RDTSC: rdtsc_sink = __builtin_ia32_rdtsc(); break;
			case LFENCE_FLOOR:
				__builtin_ia32_lfence();
				rdtsc_sink = __builtin_ia32_rdtsc();
				break;
			case RDTSCP_FLOOR: {
				unsigned aux;
				rdtsc_sink = __builtin_ia32_rdtscp(&aux);
				break;
			}
			case MONO_FLOOR: {
				struct timespec ts;
				clock_gettime(CLOCK_MONOTONIC, &ts);
				rdtsc_sink = (uint64_t)ts.tv_nsec;
				break;
			}
			case COARSE_FLOOR: {
				struct timespec ts;
				clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
				rdtsc_sink = (uint64_t)ts.tv_nsec;
				break;
			}
#ifdef TK_BENCH_LTTNG
			default: tracepoint(tk_bench, rx, i, pkts, bytes); break;
#else
			default: break;
#endif
			}
		}
		uint64_t t1 = now_ns();
		j->samples[j->n++] = (double)(t1 - t0) / BATCH;
		t0 = t1;
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void measure(int which, unsigned threads, uint64_t events)
{
	bool logger = which <= LTTNG || which == TRACEKIT_COARSE || which == TRACEKIT_PREFAULT ||
		      which == TRACEKIT_OFF;
	if (logger) {
		/* flight recorder, 65536 events per ring (per thread, or one) */
		tk_log_config c = {.ring_events = 1 << 16,
				   .max_threads = 8,
				   .mode = TK_LOG_FLIGHT,
				   .clock = which == TRACEKIT_COARSE ? TK_LOG_CLOCK_COARSE
								     : TK_LOG_CLOCK_DEFAULT,
				   .shared_ring = which == SHARED,
				   .prefault = which == TRACEKIT_PREFAULT};
		if (tk_log_open(&c) != 0) {
			perror("tk_log_open");
			exit(1);
		}
		if (which == TRACEKIT_OFF)
			tk_log_enable(0);
	}
	job j[2];
	pthread_t t[2];
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, threads);
	for (unsigned i = 0; i < threads; i++) {
		j[i] = (job){.which = which, .events = events, .start = &start};
		j[i].samples = malloc(sizeof(double) * (events / BATCH + 1));
		pthread_create(&t[i], NULL, run, &j[i]);
	}
	size_t n = 0;
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		n += j[i].n;
	}
	double *all = malloc(sizeof(double) * (n ? n : 1));
	size_t k = 0;
	for (unsigned i = 0; i < threads; i++) {
		memcpy(all + k, j[i].samples, j[i].n * sizeof(double));
		k += j[i].n;
		free(j[i].samples);
	}
	qsort(all, n, sizeof(double), cmp);
	printf("%-35s %u thread%s  median %6.2f ns  p99 %7.2f ns  (%zu batches of %d)\n",
	       names[which], threads, threads > 1 ? "s" : " ", all[n / 2], all[n * 99 / 100], n,
	       BATCH);
	free(all);
	pthread_barrier_destroy(&start);
	if (logger)
		tk_log_close();
}

int main(int argc, char **argv)
{
	uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000000;
	elog_ring = calloc(ELOG_RING, sizeof *elog_ring);
	int which_max = 3;
#ifdef TK_BENCH_LTTNG
	which_max = getenv("TK_BENCH_NO_LTTNG") ? 3 : 4;
#endif
	for (unsigned threads = 1; threads <= 2; threads++) {
		measure(RDTSC, threads, events);
		for (int w = 0; w < which_max; w++)
			measure(w, threads, events);
	}
	for (unsigned threads = 1; threads <= 2; threads++) {
		measure(COARSE_FLOOR, threads, events);
		measure(TRACEKIT_COARSE, threads, events);
	}
	for (unsigned threads = 1; threads <= 2; threads++)
		measure(TRACEKIT_PREFAULT, threads, events);
	/* what the other ways to read the time cost (one thread) */
	measure(LFENCE_FLOOR, 1, events);
	measure(RDTSCP_FLOOR, 1, events);
	measure(MONO_FLOOR, 1, events);
	/* what a TK_LOG left in the code costs while logging is off */
	measure(TRACEKIT_OFF, 1, events);
	free(elog_ring);
	return 0;
}
