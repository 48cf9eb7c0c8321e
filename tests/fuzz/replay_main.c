/* Replays a fuzz target's stored corpus (tests/fuzz/corpus/<target>/) in the
 * normal test run, so every crash the fuzzers found stays fixed. Built
 * with each fuzz_<target>.c in place of libFuzzer's main. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, failed = 0;
	for (int a = 1; a < argc; a++) {
		struct stat sb;
		if (stat(argv[a], &sb) != 0) {
			fprintf(stderr, "replay: no corpus at %s\n", argv[a]);
			return 1;
		}
		if (!S_ISDIR(sb.st_mode)) {
			failed += replay_file(argv[a]);
			files++;
			continue;
		}
		struct dirent **list;
		int n = scandir(argv[a], &list, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[a], list[i]->d_name);
			if (list[i]->d_name[0] != '.' && stat(path, &sb) == 0 &&
			    S_ISREG(sb.st_mode)) {
				failed += replay_file(path);
				files++;
			}
			free(list[i]);
		}
		free(list);
	}
	printf("replayed %d inputs, %d unreadable\n", files, failed);
	if (files == 0) {
		fprintf(stderr, "replay: empty corpus\n");
		return 1;
	}
	return failed ? 1 : 0;
}
