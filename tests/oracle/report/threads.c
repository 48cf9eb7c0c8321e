#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void spin_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
__attribute__((noinline)) static void spin_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i * 3;
}
static void *worker(void *arg)
{
	unsigned long n = (unsigned long)arg;
	spin_a(n);
	spin_b(n / 2);
	return NULL;
}
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 50000000;
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(n * (i + 1)));
	spin_b(n);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%lu\n", sink);
	return 0;
}
