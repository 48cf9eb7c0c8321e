/* Registry entry for DCPI profiles and profile databases (DB, DB/EPOCH,
 * DB/EPOCH/HOST): detection, the model adapter and the byte-identical copy.
 * Native renderers (listing, dcpicat, info, stats): src/output/dcpi_cli.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/writer.h"
#include "dcpi/dcpi_source.h"
#include "model/format_ops.h"

static bool dcpi_detect_file(const uint8_t *head, size_t n)
{
	if (n < 12 || memcmp(head, "version", 7) != 0)
		return false;
	size_t i = 7;
	while (i < n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	return i > 7 && i + 4 <= n && memcmp(head + i, "pdb-", 4) == 0;
}

static bool dcpi_detect_dir(const char *path)
{
	return tk_dcpi_db_detect(path);
}

/* Writes the validated bytes of one profile atomically to out. */
static tk_status copy_profile(const char *in, const char *out, tk_error *err)
{
	tk_dcpi_profile *p;
	tk_status st = tk_dcpi_open(in, &p, err);
	if (st != TK_OK)
		return st;
	size_t size;
	const uint8_t *bytes = tk_dcpi_profile_bytes(p, &size);
	tk_writer *w;
	if ((st = tk_writer_open_atomic(out, &w, err)) == TK_OK) {
		tk_put_mem(w, bytes, size);
		st = tk_writer_commit(w, err);
	}
	tk_dcpi_close(p);
	return st;
}

static tk_status mkdirs_for(char *path, size_t root_len, tk_error *err)
{
	for (char *s = path + root_len + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		int rc = mkdir(path, 0777);
		int e = errno;
		*s = '/';
		if (rc != 0 && e != EEXIST)
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "cannot create directory for %s: %s", path,
					    strerror(e));
	}
	return TK_OK;
}

/* A database is copied profile by profile, keeping the layout below it. */
static tk_status dcpi_copy(const char *in, const char *out, const tk_sink_options *opt,
			   tk_error *err)
{
	(void)opt;
	struct stat sb;
	if (stat(in, &sb) == 0 && !S_ISDIR(sb.st_mode))
		return copy_profile(in, out, err);
	char **paths;
	size_t n;
	tk_status st = tk_dcpi_db_list(in, &paths, &n, err);
	if (st != TK_OK)
		return st;
	size_t in_len = strlen(in), out_len = strlen(out);
	while (out_len > 1 && out[out_len - 1] == '/')
		out_len--;
	if (mkdir(out, 0777) != 0 && errno != EEXIST)
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot create %s: %s", out,
				  strerror(errno));
	for (size_t i = 0; i < n && st == TK_OK; i++) {
		const char *rel = paths[i] + in_len;
		while (*rel == '/')
			rel++;
		char *dest = malloc(out_len + strlen(rel) + 2);
		if (!dest) {
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			break;
		}
		memcpy(dest, out, out_len);
		dest[out_len] = '/';
		strcpy(dest + out_len + 1, rel);
		if ((st = mkdirs_for(dest, out_len, err)) == TK_OK)
			st = copy_profile(paths[i], dest, err);
		free(dest);
	}
	tk_dcpi_db_free_list(paths, n);
	return st;
}

const tk_format_ops tk_dcpi_format_ops = {
    .format = TK_FORMAT_DCPI,
    .name = "dcpi",
    .detect_file = dcpi_detect_file,
    .detect_dir = dcpi_detect_dir,
    .source_open = tk_dcpi_source_open,
    .copy = dcpi_copy,
};
