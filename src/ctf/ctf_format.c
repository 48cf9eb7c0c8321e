/* Registry entry for CTF: trace directories (or a metadata file in one),
 * the model adapter (ctf_source.c) and the writer (src/ctf/writer). Native
 * renderers (babeltrace, metadata, info, stats): src/output/ctf_cli.c. */
#include "ctf/ctf_reader.h"
#include "model/format_ops.h"
#include "tracekit/ctf.h"
#include "tracekit/ctf_writer.h"

static bool ctf_detect_dir(const char *path)
{
	return ctf_path_is_ctf(path);
}

const tk_format_ops tk_ctf_format_ops = {
    .format = TK_FORMAT_CTF,
    .name = "ctf",
    .detect_dir = ctf_detect_dir,
    .source_open = tk_ctf_source_open,
    .sink_open = tk_ctf_sink_open,
};
