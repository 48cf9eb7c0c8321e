/* Emits events through the tk_test tracepoint provider:
 * tk_app [N [THREADS]]: N sample events per thread (default 100). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "tk_tp.h"

static long n_events = 100;

static void *emit(void *arg)
{
	long id = (long)arg;
	/* No empty strings: babeltrace2 2.0.4 prints a stale value from a
	 * recycled field for an empty string or an empty text sequence
	 * (babeltrace 1 and tracekit print ""), so they cannot be compared. */
	static const char *const words[] = {"alpha", "b\"quote", "tab\there", "\x01ctl\x7f",
					    "end\\"};
	for (long i = 0; i < n_events; i++) {
		tracepoint(tk_test, sample, (int)i, words[i % 5], (double)i / 3.0 + (double)id);
		if (i % 10 == 0)
			tracepoint(tk_test, tick, (int)(id * 1000 + i));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		n_events = atol(argv[1]);
	long threads = argc > 2 ? atol(argv[2]) : 1;
	if (threads < 1 || threads > 64)
		threads = 1;
	pthread_t t[64];
	for (long k = 0; k < threads; k++)
		pthread_create(&t[k], NULL, emit, (void *)k);
	for (long k = 0; k < threads; k++)
		pthread_join(t[k], NULL);
	return 0;
}
