/* tracekit report: aggregations over any input with events. */
#include "cli.h"

int tk_cmd_report(int argc, char **argv)
{
	tk_cli cli;
	int rc = tk_cli_parse(&cli, "report", argc, argv);
	if (rc)
		return rc;
	tk_error err;
	tk_error_clear(&err);
	tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "report is not implemented yet");
	return tk_cli_fail(&err, cli.inputs[0]);
}
