/* The Dwfl cache (one per address space) and module reporting. */
#if TK_HAVE_LIBDW
#include <string.h>

#include "unwind/unwind_image.h"
#include "unwind/unwind_space.h"

static char *debuginfo_path;

/* perf's offline_callbacks: images are reported by hand with
 * dwfl_report_elf(); separate debug files (debuglink, build id) are found
 * by libdwfl's standard search, /usr/lib/debug included. */
static const Dwfl_Callbacks offline_callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

/* With per-image DWARF for the inline frames, the Dwfl opens a debug file
 * only for its CFI (.debug_frame, when .eh_frame does not unwind a frame):
 * a build-id debug file without .debug_frame would give it none, so it
 * is not opened (and not inflated a second time). */
static int find_debuginfo_for_cfi(Dwfl_Module *mod, void **userdata, const char *modname,
				  Dwarf_Addr base, const char *file_name,
				  const char *debuglink_file, GElf_Word debuglink_crc,
				  char **debuginfo_file_name)
{
	if (tk_unwind_image_skip_debuginfo(mod, file_name, debuglink_file))
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks image_callbacks = {
    .find_debuginfo = find_debuginfo_for_cfi,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

void tk_unwind_space_drop(tk_unwind_space *s)
{
	if (s->dwfl)
		dwfl_end(s->dwfl);
	memset(s, 0, sizeof *s);
}

tk_unwind_space *tk_unwind_space_get(tk_unwinder *u, const void *key)
{
	tk_unwind_space *lru = &u->spaces[0];
	for (size_t i = 0; i < TK_UNWIND_SPACES; i++) {
		tk_unwind_space *s = &u->spaces[i];
		if (s->key == key && s->dwfl) {
			s->last_used = ++u->clock;
			return s;
		}
		if (!s->key || s->last_used < lru->last_used)
			lru = s;
		if (!s->key)
			break;
	}
	tk_unwind_space_drop(lru);
	lru->dwfl = dwfl_begin(u->images ? &image_callbacks : &offline_callbacks);
	lru->key = lru->dwfl ? key : NULL;
	lru->last_used = ++u->clock;
	lru->gen = u->clock;
	return lru;
}

static bool failed_before(const tk_unwind_space *s, uint64_t base, const char *path)
{
	unsigned n = s->n_failed < TK_UNWIND_FAILED ? s->n_failed : TK_UNWIND_FAILED;
	for (unsigned i = 0; i < n; i++)
		if (s->failed_base[i] == base && strcmp(s->failed_path[i], path) == 0)
			return true;
	return false;
}

/* Caches the answer for the pcs that both the map and the module hold. */
static void remember(tk_unwind_space *s, const tk_unwind_input *in, Dwfl_Module *m,
		     const tk_unwind_map *map)
{
	Dwarf_Addr lo, hi;
	if (!in->space_gen || !dwfl_module_info(m, NULL, &lo, &hi, NULL, NULL, NULL, NULL))
		return;
	s->last_lo = lo > map->start ? lo : map->start;
	s->last_hi = hi < map->end ? hi : map->end;
	s->last_space_gen = in->space_gen;
	s->last_mod = m;
	s->last_map = *map;
}

tk_unwind_report tk_unwind_report_module(tk_unwinder *u, uint64_t pc, Dwfl_Module **mod,
					 tk_unwind_map *map)
{
	tk_unwind_space *s = u->cur;
	const tk_unwind_input *in = u->in;
	if (s->last_mod && !u->no_fast && in->space_gen && in->space_gen == s->last_space_gen &&
	    pc >= s->last_lo && pc < s->last_hi) {
		*mod = s->last_mod;
		*map = s->last_map;
		return TK_UNWIND_REPORTED;
	}
	memset(map, 0, sizeof *map);
	if (!in->find_map || !in->find_map(in->find_user, pc, map) || pc < map->start ||
	    pc >= map->end)
		return TK_UNWIND_NO_MAP;
	if (!map->path || !*map->path || map->pgoff > map->start)
		return TK_UNWIND_NO_IMAGE;
	Dwarf_Addr base = map->start - map->pgoff;
	Dwfl_Module *m = dwfl_addrmodule(s->dwfl, pc);
	if (m) {
		Dwarf_Addr start;
		const char *name = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		if (start == base && name && strcmp(name, map->path) == 0) {
			*mod = m;
			remember(s, in, m, map);
			return TK_UNWIND_REPORTED;
		}
		/* the maps changed under this Dwfl (an image unmapped and
		 * another mapped there): libdwfl cannot remove one module */
		s->stale = true;
		return TK_UNWIND_CONFLICT;
	}
	if (failed_before(s, base, map->path))
		return TK_UNWIND_NO_IMAGE;
	s->last_mod = NULL; /* a new module: the Dwfl's layout changes */
	m = dwfl_report_elf(s->dwfl, map->path, map->path, -1, base, false);
	if (!m || dwfl_addrmodule(s->dwfl, pc) != m) {
		unsigned i = s->n_failed++ % TK_UNWIND_FAILED;
		s->failed_base[i] = base;
		s->failed_path[i] = map->path;
		return TK_UNWIND_NO_IMAGE;
	}
	*mod = m;
	remember(s, in, m, map);
	return TK_UNWIND_REPORTED;
}
#else
typedef int tk_unwind_space_empty; /* ISO C: no empty translation unit */
#endif
