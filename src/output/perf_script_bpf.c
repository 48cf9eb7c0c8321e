/* perf script's bpf-output dump (see perf_script_bpf.h). */
#include "output/perf_script_bpf.h"

#define PERF_COUNT_SW_BPF_OUTPUT 10

bool tk_script_is_bpf_output(const tk_perf_attr *a)
{
	return a && a->type == TK_PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT;
}

/* isprint() of perf's own ctype table (tools/lib/ctype.c), not the C
 * library's: Latin-1 letters and punctuation 0xa0-0xff print as they are,
 * so a dump matches byte for byte whatever the locale. */
static bool perf_isprint(uint8_t c)
{
	return (c >= 0x20 && c <= 0x7e) || c >= 0xa0;
}

static const char hexdig[] = "0123456789abcdef";

static void put_hex2(tk_writer *w, uint8_t v)
{
	char b[3] = {' ', hexdig[v >> 4], hexdig[v & 15]};
	tk_put_mem(w, b, 3);
}

void tk_script_bpf_output(tk_writer *w, const uint8_t *raw, uint32_t n)
{
	/* binary__fprintf with 8 bytes per line; printable/hit_nul as perf's
	 * printer_data decides whether the data is a C string */
	bool hit_nul = false, printable = true;
	if (n == 0)
		return;
	tk_put_char(w, '\n');
	for (uint32_t line = 0; line * 8u < n; line++) {
		uint32_t at = line * 8u, len = n - at < 8 ? n - at : 8;
		tk_put_str(w, line == 0 ? "      BPF output:" : "                 ");
		tk_put_char(w, ' ');
		tk_put_hex_pad(w, at, 4);
		tk_put_char(w, ':');
		for (uint32_t j = 0; j < len; j++)
			put_hex2(w, raw[at + j]);
		tk_put_spaces(w, 3 * (8 - len));
		tk_put_str(w, "  ");
		for (uint32_t j = 0; j < len; j++) {
			uint8_t ch = raw[at + j];
			if (hit_nul && ch)
				printable = false;
			if (!perf_isprint(ch)) {
				tk_put_char(w, '.');
				if (printable) {
					if (ch == 0)
						hit_nul = true;
					else
						printable = false;
				}
			} else {
				tk_put_char(w, (char)ch);
			}
		}
		tk_put_spaces(w, 8 - len);
		tk_put_char(w, '\n');
	}
	if (printable && hit_nul) {
		/* perf prints the data with %s: up to its first NUL, which exists */
		size_t slen = 0;
		while (raw[slen])
			slen++;
		tk_put_str(w, "      BPF string: \"");
		tk_put_mem(w, raw, slen);
		tk_put_str(w, "\"\n");
	}
}
