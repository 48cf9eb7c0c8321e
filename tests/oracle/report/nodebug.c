/* For tests/oracle/report_srcline.sh: built without -g, so no line table
 * names a file and binutils' addr2line (which perf asks) falls back to
 * the symbol table: a static function is named by the file symbol before
 * it ("nodebug.c:?", perf's "nodebug.c:0"), a hidden one, which the linker
 * makes local after an empty file symbol, by "" (":0"), a global one by
 * nothing ("??:0"). */
#include <stdlib.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void in_static(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline, visibility("hidden"))) void in_hidden(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (i >> 3);
}

__attribute__((noinline)) void in_global(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i + (i << 2);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000;
	in_static(n);
	in_hidden(n);
	in_global(n);
	return (int)(sink & 1);
}
