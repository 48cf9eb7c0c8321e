/* --to FORMAT and --profile-db for `tracekit record` (record_sinks.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/perf_to_dcpi.h"
#include "cli.h"
#include "record_sinks.h"

int rec_converter_start(rec_converter *cv, const char *format, const char *out, bool quiet)
{
	cv->pid = -1;
	cv->saved_stdout = -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		perror("tracekit record: pipe");
		return -1;
	}
	/* room for a reader's hiccup: the rings are not drained while a
	 * write into a full pipe waits (1 MiB, fs.pipe-max-size's default) */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("tracekit record: fork");
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(p[0], 0) < 0)
			_exit(127);
		char *argv[] = {"tracekit", "convert",   "-",  "--to", (char *)format,
				"-o",       (char *)out, NULL, NULL};
		if (quiet)
			argv[7] = "-q";
		execv("/proc/self/exe", argv);
		fprintf(stderr, "tracekit record: cannot run the converter: %s\n", strerror(errno));
		_exit(127);
	}
	close(p[0]);
	cv->saved_stdout = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (cv->saved_stdout < 0 || dup2(p[1], 1) < 0) {
		perror("tracekit record: dup2");
		close(p[1]);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(p[1]);
	cv->pid = pid;
	return 0;
}

int rec_converter_finish(rec_converter *cv)
{
	if (cv->pid <= 0)
		return -1;
	fflush(stdout);
	if (cv->saved_stdout >= 0) { /* fd 1 was the last writer of the pipe */
		dup2(cv->saved_stdout, 1);
		close(cv->saved_stdout);
		cv->saved_stdout = -1;
	}
	int ws;
	pid_t r;
	do
		r = waitpid(cv->pid, &ws, 0);
	while (r < 0 && errno == EINTR);
	cv->pid = -1;
	if (r < 0)
		return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

pid_t rec_fold_start(const char *db, const char *epoch, int *saved_stdout)
{
	*saved_stdout = -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		perror("tracekit record: pipe");
		return -1;
	}
	/* room for a reader's hiccup: the rings are not drained while a
	 * write into a full pipe waits (1 MiB, fs.pipe-max-size's default) */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("tracekit record: fork");
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGCHLD, SIG_DFL);
		if (dup2(p[0], 0) < 0)
			_exit(1);
		/* the pipe's write end, the counters and their rings: the
		 * recorder's, not ours (an open write end would hide the EOF) */
		close_range(3, ~0u, 0);
		tk_error err;
		tk_error_clear(&err);
		tk_perf_dcpi_options opt = {.epoch = epoch};
		tk_status st = tk_perf_to_dcpi("-", db, &opt, &err);
		if (st == TK_ERR_NOT_FOUND)
			st = TK_OK; /* an epoch without samples: no profile */
		if (st != TK_OK) {
			fprintf(stderr, "tracekit record: epoch %s: ", epoch);
			tk_cli_fail(&err, "-");
		}
		fflush(NULL);
		_exit(st == TK_OK ? 0 : 1);
	}
	close(p[0]);
	*saved_stdout = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (*saved_stdout < 0 || dup2(p[1], 1) < 0) {
		perror("tracekit record: dup2");
		close(p[1]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(p[1]);
	return pid;
}

void rec_fold_end(int *saved_stdout)
{
	fflush(stdout);
	if (*saved_stdout >= 0) {
		dup2(*saved_stdout, 1); /* fd 1 held the pipe's last write end */
		close(*saved_stdout);
		*saved_stdout = -1;
	}
}
