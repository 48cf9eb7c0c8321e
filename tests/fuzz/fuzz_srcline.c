/* Fuzz target: source lines (src/analysis/srcline.c) of an ELF file read
 * through libdwfl: program headers (offset -> address), DWARF line tables
 * (the binutils readings: file entry 0, rows outside their CU), the PLT
 * test, the symbol-table fallback (function symbols sorted per image, the
 * file-symbol rule, the section of an address) and the failure limit.
 * srcline takes a path: the input is written to a memfd and named by
 * /proc/self/fd. Whatever the file, every answer is NULL or a string. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/srcline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_srcline", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	tk_srcline *s = tk_srcline_new();
	if (s) {
		tk_srcline_fail_limit(s, true);
		tk_srcline_debug_dir(s, "/nonexistent-fuzz-debug-dir");
		static const uint8_t id[20] = {0xfe, 0xed};
		/* offsets spread over the file, and past its end */
		size_t step = size / 61 + 1;
		for (size_t off = 0; off <= size + step; off += step) {
			const char *a = tk_srcline_get(s, path, off, false);
			const char *b = tk_srcline_get_id(s, path, id, sizeof id, off + 1, true);
			if ((a && !memchr(a, '\0', 8192)) || (b && !memchr(b, '\0', 8192)))
				__builtin_trap();
		}
		tk_srcline_free(s);
	}
	close(fd);
	return 0;
}
