/* Typed views of non-sample records (layouts from include/uapi/linux/
 * perf_event.h and tools/lib/perf/include/perf/event.h). Each type checks
 * the record is long enough for its fixed part and its counted arrays. */
#include <string.h>

#include "perf/perf_internal.h"

typedef struct ev_ctx {
	const uint8_t *p;
	uint32_t size;
	bool swap;
} ev_ctx;

static uint64_t u64_at(const ev_ctx *c, uint32_t off)
{
	return tk_load_u64(c->p + off, c->swap);
}
static uint32_t u32_at(const ev_ctx *c, uint32_t off)
{
	return tk_load_u32(c->p + off, c->swap);
}
static uint16_t u16_at(const ev_ctx *c, uint32_t off)
{
	return tk_load_u16(c->p + off, c->swap);
}

/* A NUL-terminated string starting at off inside the record, or "" when the
 * record holds no terminator (a malformed record must not be over-read). */
static const char *str_at(const ev_ctx *c, uint32_t off)
{
	if (off >= c->size)
		return "";
	const char *s = (const char *)c->p + off;
	return memchr(s, 0, c->size - off) ? s : "";
}

static tk_status too_short(const tk_perf_record *r, uint64_t want, tk_error *err)
{
	return tk_error_set(err, TK_ERR_FORMAT, r->offset,
			    "%s record of %u bytes is shorter than %llu",
			    tk_perf_record_type_name(r->type), r->size, (unsigned long long)want);
}

static const tk_perf_attr *attr_of(const tk_perf_file *f, const tk_perf_record *r)
{
	if (r->attr)
		return r->attr;
	return f->n_attrs ? f->attrs[0] : NULL;
}

tk_status tk_perf_parse_event(const tk_perf_file *f, const tk_perf_record *r, tk_perf_event *e,
			      tk_error *err)
{
	memset(e, 0, sizeof *e);
	e->type = r->type;
	ev_ctx c = {r->data, r->size, f->swap};
	uint32_t min = 8;
	switch (r->type) {
	case TK_PERF_RECORD_MMAP:
		if (r->size < (min = 40))
			break;
		e->u.mmap.pid = u32_at(&c, 8);
		e->u.mmap.tid = u32_at(&c, 12);
		e->u.mmap.start = u64_at(&c, 16);
		e->u.mmap.len = u64_at(&c, 24);
		e->u.mmap.pgoff = u64_at(&c, 32);
		e->u.mmap.filename = str_at(&c, 40);
		return TK_OK;
	case TK_PERF_RECORD_MMAP2:
		if (r->size < (min = 72))
			break;
		e->u.mmap2.pid = u32_at(&c, 8);
		e->u.mmap2.tid = u32_at(&c, 12);
		e->u.mmap2.start = u64_at(&c, 16);
		e->u.mmap2.len = u64_at(&c, 24);
		e->u.mmap2.pgoff = u64_at(&c, 32);
		if (r->misc & (1U << 14)) { /* PERF_RECORD_MISC_MMAP_BUILD_ID */
			e->u.mmap2.build_id_size = c.p[40] > 20 ? 20 : c.p[40];
			e->u.mmap2.build_id = c.p + 44;
		} else {
			e->u.mmap2.maj = u32_at(&c, 40);
			e->u.mmap2.min = u32_at(&c, 44);
			e->u.mmap2.ino = u64_at(&c, 48);
			e->u.mmap2.ino_generation = u64_at(&c, 56);
		}
		e->u.mmap2.prot = u32_at(&c, 64);
		e->u.mmap2.flags = u32_at(&c, 68);
		e->u.mmap2.filename = str_at(&c, 72);
		return TK_OK;
	case TK_PERF_RECORD_LOST:
		if (r->size < (min = 24))
			break;
		e->u.lost.id = u64_at(&c, 8);
		e->u.lost.lost = u64_at(&c, 16);
		return TK_OK;
	case TK_PERF_RECORD_COMM:
		if (r->size < (min = 16))
			break;
		e->u.comm.pid = u32_at(&c, 8);
		e->u.comm.tid = u32_at(&c, 12);
		e->u.comm.comm = str_at(&c, 16);
		return TK_OK;
	case TK_PERF_RECORD_EXIT:
	case TK_PERF_RECORD_FORK:
		if (r->size < (min = 32))
			break;
		e->u.fork.pid = u32_at(&c, 8);
		e->u.fork.ppid = u32_at(&c, 12);
		e->u.fork.tid = u32_at(&c, 16);
		e->u.fork.ptid = u32_at(&c, 20);
		e->u.fork.time = u64_at(&c, 24);
		return TK_OK;
	case TK_PERF_RECORD_THROTTLE:
	case TK_PERF_RECORD_UNTHROTTLE:
		if (r->size < (min = 32))
			break;
		e->u.throttle.time = u64_at(&c, 8);
		e->u.throttle.id = u64_at(&c, 16);
		e->u.throttle.stream_id = u64_at(&c, 24);
		return TK_OK;
	case TK_PERF_RECORD_READ: {
		const tk_perf_attr *a = attr_of(f, r);
		uint64_t rf = a ? a->read_format : 0;
		if (rf & TK_PERF_FORMAT_GROUP)
			return tk_error_set(err, TK_ERR_UNSUPPORTED, r->offset,
					    "READ record with a group read_format");
		min = 24;
		for (uint64_t b = 1; b <= TK_PERF_FORMAT_LOST; b <<= 1)
			min += (rf & b) ? 8 : 0;
		if (r->size < min)
			break;
		e->u.read.pid = u32_at(&c, 8);
		e->u.read.tid = u32_at(&c, 12);
		e->u.read.value = u64_at(&c, 16);
		uint32_t o = 24;
		if (rf & TK_PERF_FORMAT_TOTAL_TIME_ENABLED)
			e->u.read.time_enabled = u64_at(&c, (o += 8) - 8);
		if (rf & TK_PERF_FORMAT_TOTAL_TIME_RUNNING)
			e->u.read.time_running = u64_at(&c, (o += 8) - 8);
		if (rf & TK_PERF_FORMAT_ID)
			e->u.read.id = u64_at(&c, (o += 8) - 8);
		if (rf & TK_PERF_FORMAT_LOST)
			e->u.read.lost = u64_at(&c, (o += 8) - 8);
		return TK_OK;
	}
	case TK_PERF_RECORD_AUX:
		if (r->size < (min = 32))
			break;
		e->u.aux.aux_offset = u64_at(&c, 8);
		e->u.aux.aux_size = u64_at(&c, 16);
		e->u.aux.flags = u64_at(&c, 24);
		return TK_OK;
	case TK_PERF_RECORD_ITRACE_START:
		if (r->size < (min = 16))
			break;
		e->u.itrace_start.pid = u32_at(&c, 8);
		e->u.itrace_start.tid = u32_at(&c, 12);
		return TK_OK;
	case TK_PERF_RECORD_LOST_SAMPLES:
		if (r->size < (min = 16))
			break;
		e->u.lost_samples.lost = u64_at(&c, 8);
		return TK_OK;
	case TK_PERF_RECORD_SWITCH:
	case TK_PERF_RECORD_FINISHED_ROUND:
	case TK_PERF_RECORD_FINISHED_INIT: return TK_OK;
	case TK_PERF_RECORD_SWITCH_CPU_WIDE:
		if (r->size < (min = 16))
			break;
		e->u.switch_cpu_wide.next_prev_pid = u32_at(&c, 8);
		e->u.switch_cpu_wide.next_prev_tid = u32_at(&c, 12);
		return TK_OK;
	case TK_PERF_RECORD_NAMESPACES: {
		if (r->size < (min = 24))
			break;
		uint64_t nr = u64_at(&c, 16);
		if (nr > (r->size - 24) / 16)
			return too_short(r, 24 + nr * 16, err);
		e->u.namespaces.pid = u32_at(&c, 8);
		e->u.namespaces.tid = u32_at(&c, 12);
		e->u.namespaces.nr = nr;
		e->u.namespaces.entries = c.p + 24;
		return TK_OK;
	}
	case TK_PERF_RECORD_KSYMBOL:
		if (r->size < (min = 24))
			break;
		e->u.ksymbol.addr = u64_at(&c, 8);
		e->u.ksymbol.len = u32_at(&c, 16);
		e->u.ksymbol.ksym_type = u16_at(&c, 20);
		e->u.ksymbol.flags = u16_at(&c, 22);
		e->u.ksymbol.name = str_at(&c, 24);
		return TK_OK;
	case TK_PERF_RECORD_BPF_EVENT:
		if (r->size < (min = 24))
			break;
		e->u.bpf_event.type = u16_at(&c, 8);
		e->u.bpf_event.flags = u16_at(&c, 10);
		e->u.bpf_event.id = u32_at(&c, 12);
		e->u.bpf_event.tag = c.p + 16;
		return TK_OK;
	case TK_PERF_RECORD_CGROUP:
		if (r->size < (min = 16))
			break;
		e->u.cgroup.id = u64_at(&c, 8);
		e->u.cgroup.path = str_at(&c, 16);
		return TK_OK;
	case TK_PERF_RECORD_TEXT_POKE: {
		if (r->size < (min = 20))
			break;
		uint16_t ol = u16_at(&c, 16), nl = u16_at(&c, 18);
		if ((uint32_t)ol + nl > r->size - 20)
			return too_short(r, 20u + ol + nl, err);
		e->u.text_poke.addr = u64_at(&c, 8);
		e->u.text_poke.old_len = ol;
		e->u.text_poke.new_len = nl;
		e->u.text_poke.bytes = c.p + 20;
		return TK_OK;
	}
	case TK_PERF_RECORD_AUX_OUTPUT_HW_ID:
		if (r->size < (min = 16))
			break;
		e->u.aux_output_hw_id.hw_id = u64_at(&c, 8);
		return TK_OK;
	case TK_PERF_RECORD_CALLCHAIN_DEFERRED: {
		if (r->size < (min = 24))
			break;
		uint64_t nr = u64_at(&c, 16);
		if (nr > (r->size - 24) / 8)
			return too_short(r, 24 + nr * 8, err);
		e->u.callchain_deferred.cookie = u64_at(&c, 8);
		e->u.callchain_deferred.nr = nr;
		e->u.callchain_deferred.ips = c.p + 24;
		return TK_OK;
	}
	case TK_PERF_RECORD_HEADER_BUILD_ID:
		if (r->size < (min = 36))
			break;
		e->u.build_id.pid = (int32_t)u32_at(&c, 8);
		e->u.build_id.size = (r->misc & (1U << 15)) ? (c.p[32] > 20 ? 20 : c.p[32]) : 20;
		e->u.build_id.build_id = c.p + 12;
		e->u.build_id.filename = str_at(&c, 36);
		return TK_OK;
	case TK_PERF_RECORD_ID_INDEX: {
		if (r->size < (min = 16))
			break;
		uint64_t nr = u64_at(&c, 8);
		if (nr > (r->size - 16) / 32)
			return too_short(r, 16 + nr * 32, err);
		e->u.id_index.nr = nr;
		e->u.id_index.entries = c.p + 16;
		return TK_OK;
	}
	case TK_PERF_RECORD_AUXTRACE_INFO:
		if (r->size < (min = 16))
			break;
		e->u.auxtrace_info.type = u32_at(&c, 8);
		return TK_OK;
	case TK_PERF_RECORD_AUXTRACE:
		if (r->size < (min = 48))
			break;
		e->u.auxtrace.size = u64_at(&c, 8);
		e->u.auxtrace.offset = u64_at(&c, 16);
		e->u.auxtrace.reference = u64_at(&c, 24);
		e->u.auxtrace.idx = u32_at(&c, 32);
		e->u.auxtrace.tid = u32_at(&c, 36);
		e->u.auxtrace.cpu = u32_at(&c, 40);
		return TK_OK;
	case TK_PERF_RECORD_AUXTRACE_ERROR:
		if (r->size < (min = 40))
			break;
		e->u.auxtrace_error.type = u32_at(&c, 8);
		e->u.auxtrace_error.code = u32_at(&c, 12);
		e->u.auxtrace_error.cpu = u32_at(&c, 16);
		e->u.auxtrace_error.pid = u32_at(&c, 20);
		e->u.auxtrace_error.tid = u32_at(&c, 24);
		e->u.auxtrace_error.fmt = u32_at(&c, 28);
		e->u.auxtrace_error.ip = u64_at(&c, 32);
		/* fmt >= 2 keeps the time in the old reserved slot before msg */
		if (r->size >= 48)
			e->u.auxtrace_error.time =
			    e->u.auxtrace_error.fmt >= 2 ? u64_at(&c, 40) : 0;
		e->u.auxtrace_error.msg = str_at(&c, 48);
		return TK_OK;
	case TK_PERF_RECORD_THREAD_MAP:
		if (r->size < (min = 16))
			break;
		e->u.thread_map.nr = u64_at(&c, 8);
		if (e->u.thread_map.nr > (r->size - 16) / 24)
			return too_short(r, 16 + e->u.thread_map.nr * 24, err);
		return TK_OK;
	case TK_PERF_RECORD_CPU_MAP: {
		if (r->size < (min = 12))
			break;
		uint16_t t = u16_at(&c, 8);
		if (t == 2 && r->size >= 16)
			e->u.thread_map.nr = (uint64_t)u16_at(&c, 14) - u16_at(&c, 12) + 1;
		else
			e->u.thread_map.nr = u16_at(&c, 10);
		return TK_OK;
	}
	case TK_PERF_RECORD_EVENT_UPDATE:
		if (r->size < (min = 24))
			break;
		e->u.event_update.type = u64_at(&c, 8);
		e->u.event_update.id = u64_at(&c, 16);
		return TK_OK;
	case TK_PERF_RECORD_TIME_CONV:
		if (r->size < (min = 32))
			break;
		e->u.time_conv.time_shift = u64_at(&c, 8);
		e->u.time_conv.time_mult = u64_at(&c, 16);
		e->u.time_conv.time_zero = u64_at(&c, 24);
		if (r->size >= 50) {
			e->u.time_conv.time_cycles = u64_at(&c, 32);
			e->u.time_conv.time_mask = u64_at(&c, 40);
			e->u.time_conv.cap_user_time_zero = c.p[48] != 0;
			e->u.time_conv.cap_user_time_short = c.p[49] != 0;
		}
		return TK_OK;
	case TK_PERF_RECORD_HEADER_FEATURE:
		if (r->size < (min = 16))
			break;
		e->u.header_feature.feat_id = u64_at(&c, 8);
		e->u.header_feature.data = c.p + 16;
		e->u.header_feature.size = r->size - 16;
		return TK_OK;
	case TK_PERF_RECORD_COMPRESSED: e->u.compressed.data_size = r->size - 8; return TK_OK;
	case TK_PERF_RECORD_COMPRESSED2:
		if (r->size < (min = 16))
			break;
		e->u.compressed.data_size = u64_at(&c, 8);
		return TK_OK;
	case TK_PERF_RECORD_SAMPLE:
		return tk_error_set(err, TK_ERR_UNSUPPORTED, r->offset,
				    "samples are decoded by tk_perf_parse_sample");
	default:
		return tk_error_set(err, TK_ERR_UNSUPPORTED, r->offset,
				    "no typed view for record type %u", r->type);
	}
	return too_short(r, min, err);
}
