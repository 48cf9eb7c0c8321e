/* What every subcommand shares besides option parsing: stdout, error and
 * warning reports, Ctrl-C, the input's format entry. Apart from
 * cli_common.c so the parser and cli_prepare.c (which the parser calls and
 * which reports errors) do not call each other. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

/* The no-argument usage text; main() points it at its own (main.c keeps
 * the text beside the command table). */
const char *tk_cli_usage = "";

static tk_writer *stdout_writer;

/* Ctrl-C: the readers end at the next whole record, what was printed is
 * flushed, and the command exits 130. Reading stdin (perf record -o - |
 * tracekit print -), the first one is only noted: the writer on the other
 * side is being stopped too and will send its last records, then EOF. */
static volatile sig_atomic_t interrupts;
static bool reading_stdin, told_interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupts++;
	if (!reading_stdin || interrupts > 1)
		tk_interrupt();
	if (interrupts > 2)
		_exit(TK_EXIT_INTERRUPTED);
}

void tk_cli_catch_interrupts(bool stdin_input)
{
	reading_stdin = stdin_input;
	struct sigaction sa = {.sa_handler = on_interrupt, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int interrupted_exit(void)
{
	if (stdout_writer)
		tk_writer_flush(stdout_writer, NULL);
	if (!told_interrupted)
		fputs("tracekit: interrupted\n", stderr);
	told_interrupted = true;
	return TK_EXIT_INTERRUPTED;
}

tk_writer *tk_cli_stdout(void)
{
	if (!stdout_writer) {
		if (tk_writer_open_fd(STDOUT_FILENO, "stdout", &stdout_writer, NULL) != TK_OK) {
			fputs("tracekit: out of memory\n", stderr);
			exit(TK_EXIT_BAD_INPUT);
		}
	}
	return stdout_writer;
}

int tk_cli_finish(int rc)
{
	if (interrupts && (rc == 0 || rc == TK_EXIT_INTERRUPTED)) {
		rc = interrupted_exit();
		if (!stdout_writer)
			return rc;
	}
	if (!stdout_writer)
		return rc;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_writer_flush(stdout_writer, &err);
	int werr = stdout_writer->error;
	tk_writer_abort(stdout_writer);
	stdout_writer = NULL;
	if (st != TK_OK && werr != EPIPE) {
		fprintf(stderr, "tracekit: stdout: %s\n", err.message);
		return TK_EXIT_BAD_INPUT;
	}
	return rc;
}

int tk_cli_fail(const tk_error *err, const char *fallback_file)
{
	if (err->status == TK_ERR_INTERRUPTED)
		return interrupted_exit();
	const char *file = err->file[0] ? err->file : fallback_file;
	/* Make sure what was printed before the error comes out before it. */
	if (stdout_writer)
		tk_writer_flush(stdout_writer, NULL);
	if (file && *file && err->offset != TK_NO_OFFSET)
		fprintf(stderr, "tracekit: %s: offset 0x%" PRIx64 ": %s\n", file, err->offset,
			err->message);
	else if (file && *file)
		fprintf(stderr, "tracekit: %s: %s\n", file, err->message);
	else
		fprintf(stderr, "tracekit: %s\n", err->message);
	return TK_EXIT_BAD_INPUT;
}

void tk_cli_log(void *user, int level, const char *msg)
{
	const tk_render_options *opt = user;
	if (opt && opt->quiet)
		return;
	if (level > 0 && !(opt && opt->verbose))
		return;
	if (stdout_writer)
		tk_writer_flush(stdout_writer, NULL);
	fprintf(stderr, "tracekit: %s%s\n", level == 0 ? "warning: " : "", msg);
}

tk_status tk_cli_format_of(const tk_cli *cli, const char *path, const tk_format_ops **ops,
			   tk_error *err)
{
	tk_error_clear(err);
	tk_error_set_file(err, path);
	tk_format fmt = cli->input_format ? cli->input_format : tk_detect_path(path, err);
	if (fmt == TK_FORMAT_UNKNOWN)
		return err->status ? err->status : TK_ERR_UNSUPPORTED;
	*ops = tk_format_ops_for(fmt);
	if (!*ops)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "format %s cannot be read", tk_format_name(fmt));
	return TK_OK;
}
