/* The output formats tk_convert knows: how OUT's name implies each, which
 * cannot stream to standard output, the sinks of output-only formats. */
#include <string.h>
#include <sys/stat.h>

#include "convert/convert_outputs.h"
#include "output/text_sinks.h"

static const char *never_stream(const tk_output_request *r)
{
	(void)r;
	return "a CTF trace is a directory";
}

/* perf -> perf copies have pipe mode; the model sink has not */
static const char *perf_stream(const tk_output_request *r)
{
	if (r->in == TK_FORMAT_PERF && r->n_inputs == 1 && !r->limit)
		return NULL;
	return "perf.data from other formats, several inputs or with --limit is written "
	       "in file mode, which seeks back to its header";
}

static const char *dcpi_stream(const tk_output_request *r)
{
	struct stat sb;
	if (r->in == TK_FORMAT_DCPI && r->n_inputs == 1 &&
	    !(stat(r->inputs[0], &sb) == 0 && S_ISDIR(sb.st_mode)))
		return NULL;
	return "a DCPI database is a directory";
}

/* Order matters for names: double extensions before single ones. */
static const tk_output_entry tk_output_table[] = {
    /* format, name, whole suffix, needs perf samples, no --limit, stdout,
     * sink */
    {TK_FORMAT_PPROF, ".pb.gz", true, true, true, NULL, NULL},
    {TK_FORMAT_SPEEDSCOPE, ".speedscope.json", true, true, true, NULL, NULL},
    {TK_FORMAT_SVG, ".svg", true, true, true, NULL, NULL},
    {TK_FORMAT_PERF, ".data", false, false, false, perf_stream, NULL},
    {TK_FORMAT_CPEL, ".cpel", false, false, false, NULL, NULL},
    {TK_FORMAT_CHROME, ".json", false, false, false, NULL, tk_chrome_sink_open},
    {TK_FORMAT_JSON, ".jsonl", false, false, false, NULL, tk_jsonl_sink_open},
    {TK_FORMAT_FOLDED, ".folded", false, true, false, NULL, NULL},
    {TK_FORMAT_DCPI, ".prof", false, true, false, dcpi_stream, NULL},
    {TK_FORMAT_CTF, NULL, false, false, false, never_stream, NULL},
};
static const size_t tk_n_output_table = sizeof tk_output_table / sizeof tk_output_table[0];

const tk_output_entry *tk_output_entry_for(tk_format fmt)
{
	for (size_t i = 0; i < tk_n_output_table; i++)
		if (tk_output_table[i].format == fmt)
			return &tk_output_table[i];
	return NULL;
}

tk_format tk_convert_output_format(const char *to, const char *out)
{
	if (to)
		return tk_format_from_name(to);
	struct stat sb;
	if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
		return TK_FORMAT_CTF;
	size_t out_len = strlen(out);
	/* whole suffixes first (".pb.gz", ".speedscope.json", ".svg") */
	for (size_t i = 0; i < tk_n_output_table; i++) {
		const char *sfx = tk_output_table[i].suffix;
		size_t n = sfx ? strlen(sfx) : 0;
		if (sfx && tk_output_table[i].whole_suffix && out_len > n &&
		    strcmp(out + out_len - n, sfx) == 0)
			return tk_output_table[i].format;
	}
	const char *slash = strrchr(out, '/');
	const char *dot = strrchr(slash ? slash : out, '.');
	if (!dot)
		return TK_FORMAT_CTF;
	for (size_t i = 0; i < tk_n_output_table; i++) {
		const char *sfx = tk_output_table[i].suffix;
		if (sfx && !tk_output_table[i].whole_suffix && strcmp(dot, sfx) == 0)
			return tk_output_table[i].format;
	}
	return TK_FORMAT_UNKNOWN;
}
