/* tracekit's in-process logger in a few lines: two threads log typed
 * events, the log is stopped and dumped to CPEL.
 *
 *   build/bin/log_demo demo.cpel
 *   tracekit print --format cpeldump demo.cpel
 *   tracekit view demo.cpel -o demo.html      (a track per logger track)
 *
 * tests/oracle/log_demo.sh runs these three and checks what they show. */
#include <pthread.h>
#include <stdio.h>

#include <tracekit/log.h>

TK_LOG_TYPE(ev_rx, "rx-burst: queue %d pkts %d", TK_LOG_U32, TK_LOG_U32);
TK_LOG_TYPE(ev_state, "link-state %s", TK_LOG_STR);
TK_LOG_TYPE(ev_load, "load: %.3f of %s", TK_LOG_F64, TK_LOG_SREF);
TK_LOG_TYPE(ev_big, "bytes: total %ld delta %ld", TK_LOG_U64, TK_LOG_I64);

static void *worker(void *arg)
{
	unsigned q = (unsigned)(uintptr_t)arg;
	char name[16];
	snprintf(name, sizeof name, "worker %u", q);
	tk_log_thread_track(name);
	uint32_t cpu = tk_log_string("cpu budget");
	uint64_t total = 0;
	for (unsigned i = 0; i < 5; i++) {
		TK_LOG(ev_rx, q, 32 + i);
		total += 1500u * (32 + i);
		TK_LOG(ev_big, total, (int64_t)i - 2);
		TK_LOG(ev_load, 0.25 * i, cpu);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : "demo.cpel";
	if (tk_log_open(NULL) != 0) {
		perror("tk_log_open");
		return 1;
	}
	tk_log_thread_track("main thread");
	TK_LOG(ev_state, "up");
	pthread_t t[2];
	for (unsigned i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
	for (unsigned i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	TK_LOG(ev_state, "down");
	tk_log_enable(0);
	if (tk_log_dump(out, TK_LOG_DUMP_CPEL) != 0) {
		perror(out);
		return 1;
	}
	tk_log_close();
	printf("wrote %s: tracekit print --format cpeldump %s\n", out, out);
	return 0;
}
