/* Output path resolution; see output_path.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/output_path.h"

/* Linux gives up after 40 links too (ELOOP). */
#define MAX_LINKS 40

/* The target of link `path` read as the kernel reads it: a relative target
 * is relative to the link's own directory. */
static char *link_target(const char *path, int *e)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0) {
		*e = errno;
		return NULL;
	}
	buf[n] = '\0';
	const char *slash = strrchr(path, '/');
	size_t dir = buf[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
	char *t = malloc(dir + (size_t)n + 1);
	if (!t) {
		*e = ENOMEM;
		return NULL;
	}
	memcpy(t, path, dir);
	memcpy(t + dir, buf, (size_t)n + 1);
	return t;
}

/* The descriptor a path names when it is one of ours ("-", /dev/stdout,
 * /dev/fd/N, ...) and is open; -1 otherwise. */
static int own_descriptor(const char *path)
{
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	const char *num = NULL;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		num = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		num = path + 14;
	if (!num || !*num || strspn(num, "0123456789") != strlen(num) || strlen(num) > 6)
		return -1;
	int fd = atoi(num);
	return fcntl(fd, F_GETFD) == -1 ? -1 : fd;
}

tk_status tk_output_path_resolve(const char *path, tk_output_path *out, tk_error *err)
{
	memset(out, 0, sizeof *out);
	char *p = strdup(path);
	int e = ENOMEM;
	if (!p)
		goto fail;
	int fd = own_descriptor(path);
	if (fd >= 0) {
		out->path = p;
		out->kind = TK_OUTPUT_STDOUT;
		out->fd = fd;
		return TK_OK;
	}
	for (int links = 0;; links++) {
		if (lstat(p, &out->sb) != 0) {
			e = errno;
			if (e != ENOENT)
				goto fail;
			out->kind = TK_OUTPUT_ABSENT;
			break;
		}
		if (!S_ISLNK(out->sb.st_mode)) {
			mode_t m = out->sb.st_mode;
			out->kind = S_ISREG(m)                                 ? TK_OUTPUT_REGULAR
				    : S_ISDIR(m)                               ? TK_OUTPUT_DIR
				    : S_ISCHR(m) || S_ISFIFO(m) || S_ISSOCK(m) ? TK_OUTPUT_STREAM
									       : TK_OUTPUT_OTHER;
			break;
		}
		if (links == MAX_LINKS) {
			e = ELOOP;
			goto fail;
		}
		char *t = link_target(p, &e);
		if (!t)
			goto fail;
		free(p);
		p = t;
	}
	out->path = p;
	return TK_OK;
fail:
	free(p);
	memset(out, 0, sizeof *out);
	tk_error_set_file(err, path);
	return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot resolve the output path: %s",
			    strerror(e));
}

void tk_output_path_free(tk_output_path *out)
{
	free(out->path);
	out->path = NULL;
}

int tk_output_path_open_stream(const tk_output_path *out, tk_error *err)
{
	if (out->kind == TK_OUTPUT_STDOUT)
		return out->fd;
	int fd;
	if (S_ISSOCK(out->sb.st_mode)) {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		if (strlen(out->path) >= sizeof sa.sun_path) {
			errno = ENAMETOOLONG;
			fd = -1;
		} else {
			strcpy(sa.sun_path, out->path);
			fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
				int e = errno;
				close(fd);
				errno = e;
				fd = -1;
			}
		}
	} else {
		/* No O_TRUNC, no O_CREAT: a device or FIFO is used as it is. */
		fd = open(out->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
	if (fd < 0) {
		tk_error_set_file(err, out->path);
		tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot open for writing: %s",
			     strerror(errno));
	}
	return fd;
}
