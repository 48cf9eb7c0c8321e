/* `tracekit COMMAND --help`: the command's usage and only its options. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_options.h"

static const struct {
	const char *verb, *usage, *what;
} commands[] = {
    {"info", "info FILE...", "What is in each file: format, header, features, streams, counts."},
    {"stats", "stats FILE...", "Counts per record/event type, per CPU, lost, time span."},
    {"print", "print [OPTIONS] [FILE...]", "One line per event, in time order."},
    {"convert", "convert [OPTIONS] IN... -o OUT", "Convert between formats (--to FORMAT)."},
    {"report", "report [OPTIONS] [FILE...]",
     "Aggregations: top symbols, state durations, latency, linear regression."},
    {"diff", "diff [OPTIONS] A B", "Two profiles compared per symbol."},
};

void tk_cli_help(const char *verb, FILE *out)
{
	unsigned bit = tk_cli_verb_bit(verb);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i].verb, verb) == 0)
			fprintf(out, "usage: tracekit %s\n\n%s\n", commands[i].usage,
				commands[i].what);
	fputs("\noptions:\n", out);
	for (size_t i = 0; i < tk_cli_n_opts; i++) {
		const tk_cli_opt *o = &tk_cli_opts[i];
		if (!(o->verbs & bit))
			continue;
		char left[64];
		if (o->val < 256)
			snprintf(left, sizeof left, "-%c, --%s%s%s", o->val, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		if (strlen(left) > 26)
			fprintf(out, "  %s\n  %-26s  %s\n", left, "", o->help);
		else
			fprintf(out, "  %-26s  %s\n", left, o->help);
	}
	fputs("\nexit status: 0 success, 1 bad input or failed output, 2 usage error, "
	      "130 interrupted.\n",
	      out);
}
