/* cpeldump text: byte-identical to VPP's cpeldump (src/tools/perftool),
 * but with safe formatting and strict checks of datum string offsets. */
#ifndef TK_OUTPUT_CPEL_DUMP_H
#define TK_OUTPUT_CPEL_DUMP_H

#include "base/writer.h"
#include "cpel/cpel_reader.h"

/* Writes every event of every EVENT section, in file order (through a
 * native CPEL session over f). limit: stop after that many events (0 =
 * all). A %s datum whose offset is outside the
 * event section's string table ends the dump with an error naming the
 * event's offset. */
tk_status tk_cpel_dump(const tk_cpel_file *f, tk_writer *out, uint64_t limit, tk_error *err);
/* The same over a native CPEL session that has not run (session_cpel.h). */
tk_status tk_cpel_dump_session(tk_session *s, tk_writer *out, uint64_t limit, tk_error *err);

#endif
