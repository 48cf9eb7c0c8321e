/* Checking perf's copy of kallsyms against the running kernel, and the
 * core table's range; see kallsyms_core.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/kallsyms_core.h"
#include "symbols/symtab_internal.h"

/* _text and _stext are the first text symbols: a few lines in on x86-64
 * 6.x, after the per-cpu symbols (a few hundred lines) on older kernels. */
#define HEAD_LIMIT ((size_t)64 << 10)

/* Reads up to want bytes of fd into buf (short only at end of file). */
static size_t read_up_to(int fd, char *buf, size_t want)
{
	size_t n = 0;
	while (n < want) {
		ssize_t r = read(fd, buf + n, want - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	return n;
}

/* line s[0..n) is "ADDR T NAME" for one of the reference names perf uses
 * (kallsyms__get_function_start: T or W in either case, or A) */
static bool is_reference(const char *s, size_t n, const char *name)
{
	const char *sp = memchr(s, ' ', n);
	if (!sp || (size_t)(sp - s) + 3 >= n || sp[2] != ' ')
		return false;
	char type = sp[1];
	if (!strchr("TtWwA", type) || type == '\0')
		return false;
	size_t at = (size_t)(sp - s) + 3, len = strlen(name);
	return n - at == len && memcmp(s + at, name, len) == 0;
}

/* The length of the head of buf[0..n) through its _text and _stext lines
 * (whichever comes later), 0 when both are not there in whole lines. */
static size_t head_through_refs(const char *buf, size_t n)
{
	bool text = false, stext = false;
	size_t pos = 0;
	while (pos < n) {
		const char *nl = memchr(buf + pos, '\n', n - pos);
		if (!nl)
			return 0;
		size_t end = (size_t)(nl - buf);
		text |= is_reference(buf + pos, end - pos, "_text");
		stext |= is_reference(buf + pos, end - pos, "_stext");
		pos = end + 1;
		if (text && stext)
			return pos;
	}
	return 0;
}

bool tk_kallsyms_copy_matches(const char *path, const char *proc)
{
	char *want = malloc(HEAD_LIMIT), *got = want ? malloc(HEAD_LIMIT) : NULL;
	int pfd = got ? open(proc ? proc : "/proc/kallsyms", O_RDONLY | O_CLOEXEC) : -1;
	bool same = false;
	if (pfd >= 0) {
		/* 4 KiB at a time: the kernel formats only the lines read */
		size_t n = 0, head = 0;
		while (n < HEAD_LIMIT && !head) {
			size_t step = HEAD_LIMIT - n < 4096 ? HEAD_LIMIT - n : 4096;
			size_t r = read_up_to(pfd, want + n, step);
			n += r;
			head = head_through_refs(want, n);
			if (r < step)
				break;
		}
		close(pfd);
		int cfd = head ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		if (cfd >= 0) {
			same = read_up_to(cfd, got, head) == head && memcmp(want, got, head) == 0;
			close(cfd);
		}
	}
	free(want);
	free(got);
	return same;
}

void tk_symtab_set_rest(tk_symtab *core, const tk_symtab *(*rest)(void *ctx), void *ctx)
{
	size_t n = tk_symtab_count(core);
	if (n == 0)
		return;
	/* a test hook: the upper half of the core goes to the whole table
	 * too, so tests reach that path on any recording's kernel frames */
	const char *env = getenv("TRACEKIT_KALLSYMS_CORE_TEST");
	size_t last = env && strcmp(env, "half") == 0 ? n / 2 : n - 1;
	core->core_lo = tk_symtab_at(core, 0)->start;
	core->core_hi = tk_symtab_at(core, last)->start;
	core->rest_ctx = ctx;
	core->rest = rest;
}

bool tk_symtab_has_rest(const tk_symtab *t)
{
	return t && t->rest;
}
