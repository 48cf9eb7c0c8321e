/* tracekit report --scheduler ADDRESS | --workers N: the profile of many
 * files computed on a Dask cluster. The work is Python's (Dask distributed
 * is the cluster engine), so the command hands its arguments to
 * `python3 -m tracekit.cluster report` with the package on PYTHONPATH: the
 * build tree's when this binary runs from it, else the installed one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static bool wants_cluster(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--scheduler") == 0 || strcmp(argv[i], "--workers") == 0 ||
		    strncmp(argv[i], "--scheduler=", 12) == 0 ||
		    strncmp(argv[i], "--workers=", 10) == 0)
			return true;
	}
	return false;
}

#ifdef TK_PYTHON
static const char *package_dir(void)
{
	static const char *const dirs[] = {TK_PY_BUILD_DIR, TK_PY_INSTALL_DIR};
	for (size_t i = 0; i < 2; i++) {
		char probe[4096];
		snprintf(probe, sizeof probe, "%s/tracekit/cluster.py", dirs[i]);
		if (access(probe, R_OK) == 0)
			return dirs[i];
	}
	return NULL;
}
#endif

int tk_report_cluster(int argc, char **argv, bool *handled)
{
	*handled = wants_cluster(argc, argv);
	if (!*handled)
		return 0;
#ifdef TK_PYTHON
	const char *dir = package_dir();
	if (!dir) {
		fprintf(stderr, "tracekit report: the Python package (tracekit.cluster) is not "
				"installed: run `make install`\n");
		return TK_EXIT_BAD_INPUT;
	}
	const char *old = getenv("PYTHONPATH");
	char *path = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
	char **args = calloc((size_t)argc + 4, sizeof *args);
	if (!path || !args) {
		fprintf(stderr, "tracekit report: out of memory\n");
		return TK_EXIT_BAD_INPUT;
	}
	sprintf(path, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	setenv("PYTHONPATH", path, 1);
	int k = 0;
	args[k++] = (char *)TK_PYTHON;
	args[k++] = (char *)"-m";
	args[k++] = (char *)"tracekit.cluster";
	args[k++] = (char *)"report";
	for (int i = 1; i < argc; i++) /* argv[0] is the verb */
		args[k++] = argv[i];
	args[k] = NULL;
	fflush(NULL);
	execv(TK_PYTHON, args);
	fprintf(stderr, "tracekit report: cannot run %s: %m\n", TK_PYTHON);
	return TK_EXIT_BAD_INPUT;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "tracekit report: --scheduler/--workers need the Python module, which "
			"this build does not have (install python3-dev and rebuild)\n");
	return TK_EXIT_USAGE;
#endif
}
