/* The README's library example: count the events of any supported file.
 * Build against an installed tracekit:
 *   cc count_events.c $(pkg-config --cflags --libs tracekit)
 * or against a build tree, without installing:
 *   cc count_events.c $(PKG_CONFIG_PATH=build pkg-config --cflags --libs tracekit) */
#include <stdio.h>

#include <tracekit/tracekit.h>

/* "FILE: offset 0x1f40: message"; no offset when the error has none (a
 * file that cannot be opened, out of memory). */
static void print_error(const tk_error *err)
{
	if (err->offset == TK_NO_OFFSET)
		fprintf(stderr, "%s: %s\n", err->file, err->message);
	else
		fprintf(stderr, "%s: offset 0x%llx: %s\n", err->file,
			(unsigned long long)err->offset, err->message);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: count_events FILE\n");
		return 2;
	}
	tk_error err;
	tk_source *src;
	if (tk_source_open(argv[1], NULL, &src, &err) != TK_OK) {
		print_error(&err);
		return 1;
	}
	const tk_event *ev; /* valid until the next tk_source_next() */
	tk_status st;
	unsigned long long n = 0;
	while ((st = tk_source_next(src, &ev, &err)) == TK_OK)
		n++;
	tk_source_close(src);
	if (st != TK_END) {
		print_error(&err);
		return 1;
	}
	printf("%llu events\n", n);
	return 0;
}
