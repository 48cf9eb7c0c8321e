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

/* What a piped child runs; it never returns. */
typedef void (*child_fn)(const void *arg);

/* Forks a child whose stdin is a new pipe and points the caller's fd 1 at
 * the pipe's write end (the old stdout kept in *saved_stdout). The pipe is
 * made large: the rings are not drained while a write into a full pipe
 * waits, so it gives room for a reader's hiccup (1 MiB,
 * fs.pipe-max-size's default). Returns the child's pid, or -1 (printed). */
static pid_t start_piped_child(child_fn run, const void *arg, int *saved_stdout)
{
	*saved_stdout = -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		perror("tracekit record: pipe");
		return -1;
	}
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
		if (dup2(p[0], 0) < 0)
			_exit(127);
		run(arg);
		_exit(127);
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

/* Ends the caller's side of the pipe (fd 1 held its last write end, so the
 * child sees EOF) and gives fd 1 back. */
static void restore_stdout(int *saved_stdout)
{
	fflush(stdout);
	if (*saved_stdout >= 0) {
		dup2(*saved_stdout, 1);
		close(*saved_stdout);
		*saved_stdout = -1;
	}
}

typedef struct converter_args {
	const char *format, *out;
	bool quiet;
} converter_args;

static void run_converter(const void *arg)
{
	const converter_args *a = arg;
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	char *argv[] = {"tracekit", "convert",      "-",  "--to", (char *)a->format,
			"-o",       (char *)a->out, NULL, NULL};
	if (a->quiet)
		argv[7] = "-q";
	execv("/proc/self/exe", argv);
	fprintf(stderr, "tracekit record: cannot run the converter: %s\n", strerror(errno));
}

int rec_converter_start(rec_converter *cv, const char *format, const char *out, bool quiet)
{
	converter_args a = {format, out, quiet};
	cv->pid = start_piped_child(run_converter, &a, &cv->saved_stdout);
	return cv->pid < 0 ? -1 : 0;
}

int rec_converter_finish(rec_converter *cv)
{
	if (cv->pid <= 0)
		return -1;
	restore_stdout(&cv->saved_stdout);
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

typedef struct fold_args {
	const char *db, *epoch;
} fold_args;

static void run_fold(const void *arg)
{
	const fold_args *a = arg;
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	/* the pipe's write end, the counters and their rings: the
	 * recorder's, not ours (an open write end would hide the EOF) */
	close_range(3, ~0u, 0);
	tk_error err;
	tk_error_clear(&err);
	tk_perf_dcpi_options opt = {.epoch = a->epoch};
	tk_status st = tk_perf_to_dcpi("-", a->db, &opt, &err);
	if (st == TK_ERR_NOT_FOUND)
		st = TK_OK; /* an epoch without samples: no profile */
	if (st != TK_OK) {
		fprintf(stderr, "tracekit record: epoch %s: ", a->epoch);
		tk_cli_fail(&err, "-");
	}
	fflush(NULL);
	_exit(st == TK_OK ? 0 : 1);
}

pid_t rec_fold_start(const char *db, const char *epoch, int *saved_stdout)
{
	fold_args a = {db, epoch};
	return start_piped_child(run_fold, &a, saved_stdout);
}

void rec_fold_end(int *saved_stdout)
{
	restore_stdout(saved_stdout);
}
