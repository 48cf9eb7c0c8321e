/* Fuzz target: the DCPI profile reader (header grammar, chunks, footer),
 * both renderers, and the header writer: a profile that reads back must
 * still read back, with the same totals, after its header is rewritten by
 * tk_dcpi_format_header() in front of the original body. */
#include <stdlib.h>
#include <string.h>

#include "base/writer.h"
#include "output/dcpi_print.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void rewrite_header(const tk_dcpi_profile *p, const uint8_t *data, size_t size)
{
	const tk_dcpi_header *h = tk_dcpi_profile_header(p);
	const char *extra[64];
	size_t n_extra = 0;
	char *copies[64];
	for (size_t i = 0; i < h->n_lines && n_extra < 64; i++) {
		if (h->lines[i].known)
			continue;
		copies[n_extra] = strndup(h->lines[i].text, h->lines[i].len);
		if (!copies[n_extra])
			goto out;
		extra[n_extra] = copies[n_extra];
		n_extra++;
	}
	tk_dcpi_fields f = {
	    .version = h->version,
	    .image = h->image,
	    .epoch = h->epoch,
	    .platform = h->platform,
	    .event = h->event,
	    .period = h->period,
	    .tstart = h->tstart,
	    .tsize = h->tsize,
	    .cpuspeed = h->cpuspeed,
	    .path = h->path,
	    .has_cpucount = h->has_cpucount,
	    .cpucount = h->cpucount,
	    .extra_lines = extra,
	    .n_extra = n_extra,
	};
	size_t need = tk_dcpi_format_header(&f, NULL, 0, NULL);
	if (need == 0 || need % 4 != 0) {
		if (need)
			abort(); /* the writer must pad to a multiple of 4 */
		goto out;
	}
	size_t body = size - (size_t)h->header_size;
	uint8_t *buf = malloc(need + body);
	if (!buf)
		goto out;
	tk_dcpi_format_header(&f, (char *)buf, need, NULL);
	memcpy(buf + need, data + h->header_size, body);
	tk_dcpi_profile *q;
	if (tk_dcpi_open_memory(buf, need + body, "rewritten", &q, NULL) != TK_OK)
		abort(); /* a rewritten header must read back */
	if (tk_dcpi_total_samples(q) != tk_dcpi_total_samples(p) ||
	    tk_dcpi_total_offsets(q) != tk_dcpi_total_offsets(p) ||
	    tk_dcpi_profile_header(q)->tstart != h->tstart)
		abort();
	tk_dcpi_close(q);
	free(buf);
out:
	for (size_t i = 0; i < n_extra; i++)
		free(copies[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_dcpi_profile *p;
	tk_error err;
	tk_error_clear(&err);
	if (tk_dcpi_open_memory(data, size, "fuzz", &p, &err) != TK_OK)
		return 0;
	tk_writer *w;
	if (tk_writer_open_memory(&w, NULL) == TK_OK) {
		tk_dcpi_print_listing(p, w, NULL);
		tk_dcpi_print_dcpicat(p, w, NULL);
		tk_dcpi_print_info(p, w, NULL);
		tk_writer_abort(w);
	}
	if (tk_dcpi_body_supported(p))
		rewrite_header(p, data, size);
	tk_dcpi_close(p);
	return 0;
}
