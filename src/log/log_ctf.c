/* The log as a CTF 1.8 trace: one stream file per track (stream_<track>,
 * one packet), little-endian, a 1 GHz clock whose offset is the wall time
 * at the log's start, events {id, timestamp} + context {track} + fields
 * arg0..argN typed as logged. Written with openat/write/pwrite only, so a
 * signal handler may call it. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "log/log_impl.h"

#define CTF_MAGIC 0xC1FC1FC1u

static uint64_t ts_of(const tk_lg_event *e)
{
	double ns = e->seconds * 1e9;
	if (!(ns > 0))
		return 0;
	return ns >= 1.8e19 ? UINT64_MAX : (uint64_t)ns;
}

static void put_le64_at(tk_lg_out *o, uint64_t off, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	tk_lg_out_patch(o, off, b, 8);
}

static bool write_stream(int dirfd, const tk_lg_view *v, tk_lg_iter *it, tk_lg_out *o,
			 unsigned track, bool *any)
{
	tk_lg_iter_init(it, v, (int)track);
	tk_lg_event e;
	if (!tk_lg_iter_next(it, &e)) {
		*any = false;
		return true;
	}
	*any = true;
	char name[32] = "stream_";
	size_t n = 7;
	char d[12];
	size_t nd = 0;
	unsigned x = track;
	do
		d[nd++] = (char)('0' + x % 10);
	while ((x /= 10) != 0);
	while (nd)
		name[n++] = d[--nd];
	name[n] = 0;
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	tk_lg_out_fd(o, fd);
	tk_lg_out_le32(o, CTF_MAGIC);
	tk_lg_out_le32(o, 0); /* stream_id */
	tk_lg_out_le64(o, 0); /* timestamp_begin */
	tk_lg_out_le64(o, 0); /* timestamp_end */
	tk_lg_out_le64(o, 0); /* content_size */
	tk_lg_out_le64(o, 0); /* packet_size */
	uint64_t first = ts_of(&e), last = first;
	const char *tn = v->tracks[track];
	size_t tnl = strlen(tn) + 1;
	do {
		const tk_lg_vtype *t = &v->types[e.type];
		uint64_t ts = ts_of(&e);
		last = ts > last ? ts : last;
		tk_lg_out_bytes(o, (uint8_t[2]){(uint8_t)e.type, (uint8_t)(e.type >> 8)}, 2);
		tk_lg_out_le64(o, ts);
		tk_lg_out_bytes(o, tn, tnl);
		unsigned wi = 0;
		for (unsigned k = 0; k < t->n_args; k++) {
			switch (t->kinds[k]) {
			case TK_LOG_U32: tk_lg_out_le32(o, (uint32_t)e.w[wi++]); break;
			case TK_LOG_STR: {
				const char *s = (const char *)&e.w[wi];
				tk_lg_out_bytes(o, s, strnlen(s, TK_LOG_STR_MAX));
				tk_lg_out_u8(o, 0);
				wi += LG_STR_WORDS;
				break;
			}
			case TK_LOG_SREF: {
				uint32_t off = (uint32_t)e.w[wi++];
				if (off < v->strtab_len)
					tk_lg_out_bytes(
					    o, v->strtab + off,
					    strnlen(v->strtab + off, v->strtab_len - off));
				tk_lg_out_u8(o, 0);
				break;
			}
			default: tk_lg_out_le64(o, e.w[wi++]); break;
			}
		}
	} while (tk_lg_iter_next(it, &e));
	uint64_t bits = o->pos * 8;
	put_le64_at(o, 8, first);
	put_le64_at(o, 16, last);
	put_le64_at(o, 24, bits);
	put_le64_at(o, 32, bits);
	bool ok = tk_lg_out_finish(o);
	return close(fd) == 0 && ok;
}

/* A TSDL string literal. */
static void put_quoted(tk_lg_out *o, const char *s, size_t n)
{
	tk_lg_out_u8(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			tk_lg_out_u8(o, '\\');
			tk_lg_out_u8(o, c);
		} else if (c < 0x20 || c >= 0x7f) {
			tk_lg_out_u8(o, '_');
		} else {
			tk_lg_out_u8(o, c);
		}
	}
	tk_lg_out_u8(o, '"');
}

static const char *ctf_type(char k)
{
	switch (k) {
	case TK_LOG_U32: return "uint32_t";
	case TK_LOG_U64: return "uint64_t";
	case TK_LOG_I64: return "int64_t";
	case TK_LOG_F64: return "double";
	default: return "string";
	}
}

static bool write_metadata(int dirfd, const tk_lg_view *v, tk_lg_out *o)
{
	int fd = openat(dirfd, "metadata", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	tk_lg_out_fd(o, fd);
	tk_lg_out_str(o,
		      "/* CTF 1.8 */\n\n"
		      "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		      "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		      "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		      "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
		      "typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := "
		      "double;\n\n"
		      "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
		      "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
		      "\t};\n};\n\n"
		      "env {\n\ttracer_name = \"tracekit-log\";\n\ttracer_major = 1;\n"
		      "\ttracer_minor = 0;\n};\n\n"
		      "clock {\n\tname = \"tklog\";\n\tdescription = \"tracekit logger time\";\n"
		      "\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = ");
	tk_lg_out_dec(o, v->init_real_ns / 1000000000u);
	tk_lg_out_str(o, ";\n\toffset = ");
	tk_lg_out_dec(o, v->init_real_ns % 1000000000u);
	tk_lg_out_str(o, ";\n\tabsolute = true;\n};\n\n"
			 "typealias integer { size = 64; align = 8; signed = false; "
			 "map = clock.tklog.value; } := uint64_clock_t;\n\n"
			 "stream {\n\tid = 0;\n"
			 "\tpacket.context := struct {\n\t\tuint64_clock_t timestamp_begin;\n"
			 "\t\tuint64_clock_t timestamp_end;\n\t\tuint64_t content_size;\n"
			 "\t\tuint64_t packet_size;\n\t};\n"
			 "\tevent.header := struct {\n\t\tuint16_t id;\n"
			 "\t\tuint64_clock_t timestamp;\n\t};\n"
			 "\tevent.context := struct {\n\t\tstring track;\n\t};\n};\n");
	for (unsigned i = 0; i < v->n_types; i++) {
		const tk_lg_vtype *t = &v->types[i];
		if (!t->format)
			continue;
		tk_lg_out_str(o, "\nevent {\n\tname = ");
		put_quoted(o, t->format, t->name_len ? t->name_len : strlen(t->format));
		tk_lg_out_str(o, ";\n\tid = ");
		tk_lg_out_dec(o, i);
		tk_lg_out_str(o, ";\n\tstream_id = 0;\n\tfields := struct {\n");
		for (unsigned k = 0; k < t->n_args; k++) {
			tk_lg_out_str(o, "\t\t");
			tk_lg_out_str(o, ctf_type(t->kinds[k]));
			tk_lg_out_str(o, " arg");
			tk_lg_out_dec(o, k);
			tk_lg_out_str(o, ";\n");
		}
		tk_lg_out_str(o, "\t};\n};\n");
	}
	bool ok = tk_lg_out_finish(o);
	return close(fd) == 0 && ok;
}

bool tk_lg_emit_ctf(int dirfd, const tk_lg_view *v, tk_lg_iter *it, tk_lg_out *o)
{
	for (unsigned k = 0; k < v->n_tracks; k++) {
		bool any;
		if (v->tracks[k] && !write_stream(dirfd, v, it, o, k, &any))
			return false;
	}
	return write_metadata(dirfd, v, o);
}
