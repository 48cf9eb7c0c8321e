/* The profile table of the reports (dcpiprof's layout); see
 * report_columns.h. */
#include "output/report_columns.h"

void tk_report_put_profile_table(tk_writer *out, tk_profile_key key, const char *event,
				 tk_profile_agg *agg, uint64_t top, size_t count_min_width,
				 size_t name_max_width)
{
	size_t n;
	const tk_profile_row *rows = tk_profile_agg_rows(agg, &n);
	uint64_t total = tk_profile_agg_total(agg);
	if (top && n > top)
		n = (size_t)top;
	size_t count_w = strlen(event) > count_min_width ? strlen(event) : count_min_width;
	size_t name_w = 9;
	for (size_t i = 0; i < n && key != TK_PROFILE_BY_IMAGE; i++) {
		size_t len = strlen(rows[i].symbol ? rows[i].symbol : TK_PROFILE_UNKNOWN_SYMBOL);
		if (len > name_w)
			name_w = len > name_max_width ? name_max_width : len;
	}
	tk_put_spaces(out, (unsigned)(count_w - strlen(event)));
	tk_put_str(out, event);
	tk_put_str(out, "        %     cum%  ");
	if (key == TK_PROFILE_BY_ADDRESS) {
		tk_report_put_padded(out, "address", 18);
		tk_put_str(out, "  ");
	}
	if (key != TK_PROFILE_BY_IMAGE) {
		tk_report_put_padded(out, "procedure", name_w);
		tk_put_str(out, "  ");
	}
	tk_put_str(out, "image\n");
	uint64_t cum = 0;
	for (size_t i = 0; i < n; i++) {
		const tk_profile_row *row = &rows[i];
		cum += row->count;
		tk_put_u64_pad(out, row->count, (unsigned)count_w, ' ');
		tk_put_char(out, ' ');
		tk_report_put_percent(out, row->count, total);
		tk_put_char(out, ' ');
		tk_report_put_percent(out, cum, total);
		tk_put_str(out, "  ");
		if (key == TK_PROFILE_BY_ADDRESS) {
			char addr[24];
			snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)row->addr);
			tk_report_put_padded(out, addr, 18);
			tk_put_str(out, "  ");
		}
		if (key != TK_PROFILE_BY_IMAGE) {
			tk_report_put_padded(
			    out, row->symbol ? row->symbol : TK_PROFILE_UNKNOWN_SYMBOL, name_w);
			tk_put_str(out, "  ");
		}
		tk_put_str(out, row->image);
		tk_put_char(out, '\n');
	}
}
