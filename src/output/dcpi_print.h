/* Text renderings of DCPI profiles for the CLI: the address listing
 * (testdata's .expect form), dcpicat's text form, info and stats. Each takes
 * a profile file or a database directory (every profile below it). */
#ifndef TK_OUTPUT_DCPI_PRINT_H
#define TK_OUTPUT_DCPI_PRINT_H

#include "base/writer.h"
#include "model/render.h"

/* Header lines as in the file, then "0x<address> <count>" per non-zero
 * address in address order. */
tk_status tk_dcpi_print_listing(const tk_dcpi_profile *p, tk_writer *out, tk_error *err);
/* dcpicat's interchange text: `key value` lines, then `0x%012x count`. */
tk_status tk_dcpi_print_dcpicat(const tk_dcpi_profile *p, tk_writer *out, tk_error *err);
/* The two parts of those: the lines before the counts, and one count. */
void tk_dcpi_print_head(const tk_dcpi_profile *p, bool dcpicat, tk_writer *out);
void tk_dcpi_print_count(tk_writer *out, bool dcpicat, uint64_t addr, uint32_t count);
tk_status tk_dcpi_print_info(const tk_dcpi_profile *p, tk_writer *out, tk_error *err);

/* The registry entry points (src/output/dcpi_cli.c). */
tk_status tk_dcpi_cli_print(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err);
tk_status tk_dcpi_cli_info(const char *path, const tk_render_options *opt, tk_writer *out,
			   tk_error *err);
tk_status tk_dcpi_cli_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err);

#endif
