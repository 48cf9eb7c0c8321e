/* The running kernel's build id and perf's build-id comparison; see
 * kernel_syms.h. */
#include <stdio.h>
#include <string.h>

#include "symbols/kernel_syms.h"

#define NT_GNU_BUILD_ID 3
#define NOTES_LIMIT     8192 /* /sys/kernel/notes is a few hundred bytes */

static uint32_t load_native_u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

size_t tk_sysfs_build_id(const char *path, uint8_t id[TK_BUILD_ID_MAX])
{
	FILE *f = fopen(path ? path : "/sys/kernel/notes", "rb");
	if (!f)
		return 0;
	uint8_t buf[NOTES_LIMIT];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	/* Elf_Nhdr {namesz, descsz, type}, name and desc each padded to 4 */
	size_t pos = 0;
	while (n - pos >= 12) {
		uint32_t namesz = load_native_u32(buf + pos);
		uint32_t descsz = load_native_u32(buf + pos + 4);
		uint32_t type = load_native_u32(buf + pos + 8);
		pos += 12;
		size_t name_room = ((size_t)namesz + 3) & ~(size_t)3;
		size_t desc_room = ((size_t)descsz + 3) & ~(size_t)3;
		if (name_room > n - pos || desc_room > n - pos - name_room)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(buf + pos, "GNU", 4) == 0) {
			size_t len = descsz < TK_BUILD_ID_MAX ? descsz : TK_BUILD_ID_MAX;
			memcpy(id, buf + pos + name_room, len);
			return len;
		}
		pos += name_room + desc_room;
	}
	return 0;
}

bool tk_build_id_equal(const uint8_t *recorded, size_t recorded_len, const uint8_t *host,
		       size_t host_len)
{
	if (recorded_len > host_len && recorded_len == 20) {
		if (memcmp(recorded, host, host_len) != 0)
			return false;
		for (size_t i = host_len; i < recorded_len; i++)
			if (recorded[i])
				return false;
		return true;
	}
	return recorded_len == host_len && memcmp(recorded, host, host_len) == 0;
}
