/* The logger's clocks: TSC ticks (x86-64), CLOCK_MONOTONIC ns or
 * CLOCK_MONOTONIC_COARSE ns, and the calibration pairs that turn ticks into
 * seconds. */
#include <time.h>

#include "log/log_clock.h"

int tk_log__use_tsc;
static _Atomic int slow_clock = CLOCK_MONOTONIC; /* the clock of a log not on the TSC */

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t tk_log__now_slow(void)
{
	return clock_ns(atomic_load_explicit(&slow_clock, memory_order_relaxed));
}

/* TK_LOG's clock on a TK_LOG_CLOCK_COARSE log: the vDSO returns the time of
 * the kernel's last tick, no syscall and no rdtsc. */
uint64_t tk_log__now_coarse(void)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}

void tk_lg_use_clock(unsigned clock)
{
	tk_log__use_tsc = clock == LG_CLOCK_TSC;
	atomic_store(&slow_clock,
		     clock == LG_CLOCK_COARSE ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC);
}

bool tk_lg_have_tsc(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

static uint64_t ticks_now(unsigned clock)
{
#if defined(__x86_64__)
	if (clock == LG_CLOCK_TSC)
		return __builtin_ia32_rdtsc();
#endif
	return clock_ns(clock == LG_CLOCK_COARSE ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC);
}

void tk_lg_pair(unsigned clock, uint64_t *ticks, uint64_t *mono, uint64_t *real)
{
	if (clock == LG_CLOCK_COARSE) {
		/* the two coarse clocks move together, at the same tick */
		*mono = clock_ns(CLOCK_MONOTONIC_COARSE);
		*ticks = *mono;
		*real = clock_ns(CLOCK_REALTIME_COARSE);
		return;
	}
	if (clock != LG_CLOCK_TSC) {
		*mono = clock_ns(CLOCK_MONOTONIC);
		*ticks = *mono;
		*real = clock_ns(CLOCK_REALTIME);
		return;
	}
	/* the tightest of a few tries: ticks read between two clock reads */
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 5; i++) {
		uint64_t m0 = clock_ns(CLOCK_MONOTONIC);
		uint64_t t = ticks_now(clock);
		uint64_t m1 = clock_ns(CLOCK_MONOTONIC);
		if (m1 - m0 < best) {
			best = m1 - m0;
			*ticks = t;
			*mono = m0 + (m1 - m0) / 2;
		}
	}
	*real = clock_ns(CLOCK_REALTIME) - (clock_ns(CLOCK_MONOTONIC) - *mono);
}

double tk_lg_calibrate(unsigned clock, uint64_t *ticks, uint64_t *mono, uint64_t *real)
{
	tk_lg_pair(clock, ticks, mono, real);
	if (clock != LG_CLOCK_TSC)
		return 1e9;
	/* 5 ms of TSC against CLOCK_MONOTONIC: ~10 ppm, enough for a log read
	 * back after a crash; dumps refine it with the pair taken at stop */
	uint64_t t1, m1, r1;
	do
		tk_lg_pair(clock, &t1, &m1, &r1);
	while (m1 - *mono < 5000000u);
	return (double)(t1 - *ticks) * 1e9 / (double)(m1 - *mono);
}
