/* The thread / map model (src/context/threads_model.c) on crafted
 * COMM / FORK / MMAP records, checked against perf's machine rules (and a
 * [vdso] read from the build-id cache the caller names), plus perf-style
 * demangling (src/context/perf_demangle.c). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

#include "context/maps_pool.h"
#include "context/perf_demangle.h"
#include "context/threads_model.h"
#include "perf_craft.h"

static void put_str_padded(pc_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	pc_bytes(b, s, n);
	while (n % 8) {
		pc_zero(b, 1);
		n++;
	}
}

static void rec_comm(pc_buf *b, uint32_t pid, uint32_t tid, const char *comm)
{
	size_t at = pc_rec_begin(b, TK_PERF_RECORD_COMM, 0);
	pc_u32(b, pid);
	pc_u32(b, tid);
	put_str_padded(b, comm);
	pc_rec_end(b, at);
}

static void rec_fork(pc_buf *b, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	size_t at = pc_rec_begin(b, TK_PERF_RECORD_FORK, 0);
	pc_u32(b, pid);
	pc_u32(b, ppid);
	pc_u32(b, tid);
	pc_u32(b, ptid);
	pc_u64(b, 1);
	pc_rec_end(b, at);
}

static void rec_mmap(pc_buf *b, uint16_t misc, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *file)
{
	size_t at = pc_rec_begin(b, TK_PERF_RECORD_MMAP, misc);
	pc_u32(b, pid);
	pc_u32(b, pid);
	pc_u64(b, start);
	pc_u64(b, len);
	pc_u64(b, pgoff);
	put_str_padded(b, file);
	pc_rec_end(b, at);
}

/* Feeds every record of the crafted pipe file to the model. */
static void feed(tk_threads *t, pc_buf *b)
{
	tk_perf_file *f;
	tk_error err;
	assert_int_equal(tk_perf_open_memory(b->p, b->n, "threads", NULL, &f, &err), TK_OK);
	const tk_perf_record *r;
	tk_status st;
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK)
		assert_int_equal(tk_threads_process(t, f, r, &err), TK_OK);
	assert_int_equal(st, TK_END);
	t->features = NULL; /* owned by f */
	tk_perf_close(f);
}

static void begin(pc_buf *b)
{
	memset(b, 0, sizeof *b);
	pc_pipe_header(b);
	pc_attr a = {.type = TK_PERF_TYPE_SOFTWARE,
		     .sample_type = TK_PERF_SAMPLE_IP | TK_PERF_SAMPLE_TID};
	pc_header_attr(b, &a, 128, NULL, 0);
}

static void test_fork_comm_and_maps(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b);
	rec_comm(&b, 100, 100, "parent");
	rec_mmap(&b, 2, 100, 0x1000, 0x1000, 0, "/nonexistent/a.so");
	rec_fork(&b, 200, 100, 200, 100); /* new process: maps cloned */
	rec_fork(&b, 100, 100, 101, 100); /* thread: maps shared */
	rec_mmap(&b, 2, 100, 0x1800, 0x100, 0x40, "/nonexistent/b.so"); /* splits a.so */
	rec_mmap(&b, 2, 100, 0x9000, 0x1000, 0, "//anon");
	rec_mmap(&b, 1, (uint32_t)-1, 0xffffffff81000000ull, 0x1000000, 0xffffffff81000000ull,
		 "[kernel.kallsyms]_text");
	tk_threads t;
	tk_symcache_options so = {.kallsyms = "/nonexistent/kallsyms",
				  .perf_map_dir = "/nonexistent"};
	assert_true(tk_threads_init(&t, &so));
	feed(&t, &b);

	tk_thread *parent = tk_threads_findnew(&t, 100, 100);
	tk_thread *child = tk_threads_findnew(&t, 200, 200);
	tk_thread *thread = tk_threads_findnew(&t, 100, 101);
	assert_string_equal(parent->comm, "parent");
	assert_string_equal(child->comm, "parent"); /* copied at fork */
	assert_string_equal(thread->comm, "parent");
	assert_ptr_equal(thread->maps, parent->maps);
	assert_ptr_not_equal(child->maps, parent->maps);
	/* a.so was split around b.so in the parent only */
	assert_int_equal(parent->maps->n, 4);
	assert_int_equal(child->maps->n, 1);

	tk_addr_loc loc;
	tk_threads_resolve(&t, parent, TK_CPUMODE_USER, 0x1810, &loc);
	assert_non_null(loc.map);
	assert_string_equal(loc.map->dso->name, "/nonexistent/b.so");
	assert_int_equal(loc.addr, 0x50); /* 0x1810 - 0x1800 + pgoff 0x40 */
	tk_threads_resolve(&t, parent, TK_CPUMODE_USER, 0x1c00, &loc);
	assert_string_equal(loc.map->dso->name, "/nonexistent/a.so");
	assert_int_equal(loc.addr, 0xc00); /* the tail keeps a.so's file offsets */
	assert_null(loc.sym);
	tk_threads_resolve(&t, child, TK_CPUMODE_USER, 0x1810, &loc);
	assert_string_equal(loc.map->dso->name, "/nonexistent/a.so");
	/* anonymous executable memory is named like perf's JIT maps */
	tk_threads_resolve(&t, thread, TK_CPUMODE_USER, 0x9010, &loc);
	assert_string_equal(loc.map->dso->name, "/tmp/perf-100.map");
	assert_int_equal(loc.addr, 0x9010);
	/* kernel addresses go through the kernel maps, user ones do not */
	tk_threads_resolve(&t, parent, TK_CPUMODE_KERNEL, 0xffffffff81000010ull, &loc);
	assert_string_equal(loc.map->dso->name, "[kernel.kallsyms]");
	tk_threads_resolve(&t, parent, TK_CPUMODE_USER, 0xffffffff81000010ull, &loc);
	assert_null(loc.map);
	/* unknown threads: perf's ":tid"; the idle thread is swapper */
	assert_string_equal(tk_threads_findnew(&t, 300, 301)->comm, ":301");
	assert_string_equal(tk_threads_findnew(&t, 0, 0)->comm, "swapper");
	tk_threads_free(&t);
	free(b.p);
}

/* A forked process shares its parent's map array until one of them
 * inserts a map (copy on write): each sees its own maps all along, and
 * the last holder of a shared array takes it over without a copy. */
static void test_fork_maps_copy_on_write(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b);
	rec_mmap(&b, 2, 100, 0x1000, 0x1000, 0, "/nonexistent/a.so");
	rec_fork(&b, 200, 100, 200, 100);
	rec_fork(&b, 300, 100, 300, 100);
	rec_fork(&b, 400, 200, 400, 200); /* a grandchild, before 200 maps anything */
	tk_threads t;
	tk_symcache_options so = {.kallsyms = "/nonexistent/kallsyms",
				  .perf_map_dir = "/nonexistent"};
	assert_true(tk_threads_init(&t, &so));
	feed(&t, &b);
	free(b.p);
	tk_maps *p100 = tk_threads_findnew(&t, 100, 100)->maps;
	tk_maps *p200 = tk_threads_findnew(&t, 200, 200)->maps;
	tk_maps *p300 = tk_threads_findnew(&t, 300, 300)->maps;
	tk_maps *p400 = tk_threads_findnew(&t, 400, 400)->maps;
	/* four maps, one array */
	assert_ptr_not_equal(p100, p200);
	assert_ptr_equal(p200->v, p100->v);
	assert_ptr_equal(p300->v, p100->v);
	assert_ptr_equal(p400->v, p100->v);

	begin(&b);
	rec_mmap(&b, 2, 200, 0x5000, 0x1000, 0, "/nonexistent/c.so");
	rec_mmap(&b, 2, 100, 0x1800, 0x100, 0x40, "/nonexistent/b.so");
	rec_mmap(&b, 2, 300, 0x7000, 0x1000, 0, "/nonexistent/d.so");
	feed(&t, &b);
	free(b.p);
	assert_int_equal(p100->n, 3); /* a.so split around b.so */
	assert_int_equal(p200->n, 2);
	assert_int_equal(p300->n, 2);
	assert_int_equal(p400->n, 1);
	assert_ptr_not_equal(p200->v, p100->v);
	assert_ptr_not_equal(p300->v, p100->v);
	assert_ptr_not_equal(p300->v, p200->v);
	tk_addr_loc loc;
	tk_threads_resolve(&t, tk_threads_findnew(&t, 400, 400), TK_CPUMODE_USER, 0x1810, &loc);
	assert_string_equal(loc.map->dso->name, "/nonexistent/a.so");
	tk_threads_resolve(&t, tk_threads_findnew(&t, 400, 400), TK_CPUMODE_USER, 0x5010, &loc);
	assert_null(loc.map);
	tk_threads_resolve(&t, tk_threads_findnew(&t, 200, 200), TK_CPUMODE_USER, 0x5010, &loc);
	assert_string_equal(loc.map->dso->name, "/nonexistent/c.so");
	tk_threads_resolve(&t, tk_threads_findnew(&t, 200, 200), TK_CPUMODE_USER, 0x1810, &loc);
	assert_string_equal(loc.map->dso->name, "/nonexistent/a.so");

	/* 400 holds the first array alone now: it inserts in place */
	const tk_map *before = p400->v;
	begin(&b);
	rec_mmap(&b, 2, 400, 0x9000, 0x1000, 0, "/nonexistent/e.so");
	feed(&t, &b);
	free(b.p);
	assert_ptr_equal(p400->v, before);
	assert_int_equal(p400->n, 2);
	assert_null(p400->shared);
	tk_threads_free(&t); /* each array freed once (ASan) */
}

static void test_fork_replaces_thread(void **state)
{
	(void)state;
	pc_buf b;
	begin(&b);
	rec_comm(&b, 500, 500, "old");
	rec_comm(&b, 400, 400, "new-parent");
	rec_fork(&b, 500, 400, 500, 400); /* tid 500 reused by a new child */
	tk_threads t;
	tk_symcache_options so = {.kallsyms = "/nonexistent/kallsyms"};
	assert_true(tk_threads_init(&t, &so));
	feed(&t, &b);
	assert_string_equal(tk_threads_findnew(&t, 500, 500)->comm, "new-parent");
	tk_threads_free(&t);
	free(b.p);
}

static void test_maps_overlap(void **state)
{
	(void)state;
	tk_maps m = {0};
	tk_map a = {.start = 0x1000, .end = 0x5000, .pgoff = 0x100};
	tk_map c = {.start = 0x2000, .end = 0x6000, .pgoff = 0};
	assert_true(tk_maps_insert(&m, &a));
	assert_true(tk_maps_insert(&m, &c)); /* trims a to [0x1000, 0x2000) */
	assert_int_equal(m.n, 2);
	assert_int_equal(m.v[0].end, 0x2000);
	assert_int_equal(m.v[0].pgoff, 0x100);
	assert_ptr_equal(tk_maps_find(&m, 0x5fff), &m.v[1]);
	assert_null(tk_maps_find(&m, 0x6000));
	assert_null(tk_maps_find(&m, 0xfff));
	tk_map whole = {.start = 0, .end = 0x10000};
	assert_true(tk_maps_insert(&m, &whole)); /* swallows both */
	assert_int_equal(m.n, 1);
	free(m.v);
}

/* Map arrays from the pool: capacities of 8 << k, blocks that never
 * overlap (each filled with its own pattern, checked after thousands of
 * gets and puts across chunks), freed blocks reused by their class,
 * arrays past the largest class from malloc; inserts through a pooled
 * tk_maps give what they give through malloc. */
static void test_maps_pool(void **state)
{
	(void)state;
	tk_maps_pool pool = {0};
	size_t cap = 1;
	tk_map *a = tk_maps_pool_get(&pool, &cap, sizeof *a);
	assert_non_null(a);
	assert_int_equal(cap, 8);
	tk_maps_pool_put(&pool, a, cap);
	cap = 5;
	assert_ptr_equal(tk_maps_pool_get(&pool, &cap, sizeof *a), a); /* reused */
	cap = 5000;                                                    /* past 8 << 9: malloc */
	tk_map *big = tk_maps_pool_get(&pool, &cap, sizeof *big);
	assert_non_null(big);
	assert_int_equal(cap, 5000);
	big[4999].start = 1;
	tk_maps_pool_put(&pool, big, cap);
	cap = 8; /* an element too large for the chunks: refused */
	assert_null(tk_maps_pool_get(&pool, &cap, TK_MAPS_POOL_MAX_ELEM + 1));

	enum { N = 3000 };
	static tk_map *v[N];
	static size_t caps[N];
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < N; i++) {
			if (v[i] && (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x % 2))
				continue; /* keep about half of them */
			tk_maps_pool_put(&pool, v[i], caps[i]);
			caps[i] = 1 + (size_t)(x % 700);
			size_t want = caps[i];
			v[i] = tk_maps_pool_get(&pool, &caps[i], sizeof(tk_map));
			assert_non_null(v[i]);
			assert_true(caps[i] >= want);
			for (size_t k = 0; k < caps[i]; k++)
				v[i][k].start = i;
		}
		for (size_t i = 0; i < N; i++)
			for (size_t k = 0; k < caps[i]; k++)
				assert_int_equal(v[i][k].start, i);
	}
	assert_true(pool.n_chunks > 2); /* the first (small pages) and huge ones */
	for (size_t i = 0; i < N; i++)
		tk_maps_pool_put(&pool, v[i], caps[i]);
	tk_maps_pool_free(&pool);

	/* the overlap rules through a pool, many inserts (arrays regrown) */
	tk_maps_pool p2 = {0};
	tk_maps m = {.pool = &p2}, plain = {0};
	for (uint64_t i = 0; i < 300; i++) {
		tk_map one = {.start = 0x1000 * (i * 7 % 300),
			      .end = 0x1000 * (i * 7 % 300) + 0x1800,
			      .pgoff = i};
		assert_true(tk_maps_insert(&m, &one));
		assert_true(tk_maps_insert(&plain, &one));
	}
	assert_int_equal(m.n, plain.n);
	assert_memory_equal(m.v, plain.v, m.n * sizeof *m.v);
	free(plain.v);
	tk_maps_pool_free(&p2);
}

static void check_strip(const char *in, const char *want)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", in);
	tk_demangle_strip(buf);
	assert_string_equal(buf, want);
}

/* The running process's vdso as a file image (its PT_LOADs start at
 * offset 0, the section headers follow them) and its build id; false
 * when there is none. */
static bool host_vdso(const unsigned char **image, size_t *size, uint8_t id[20])
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	size_t end = 0;
	bool have_id = false;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
		if (ph[i].p_type != PT_NOTE)
			continue;
		const char *n = (const char *)eh + ph[i].p_offset, *e = n + ph[i].p_filesz;
		while (n + sizeof(Elf64_Nhdr) <= e) {
			const Elf64_Nhdr *nh = (const Elf64_Nhdr *)n;
			const char *desc = n + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz == 20 && desc + 20 <= e) {
				memcpy(id, desc, 20);
				have_id = true;
			}
			n = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	/* the section headers (the symbols' way in) lie past the PT_LOADs */
	size_t sh_end = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (sh_end > end)
		end = sh_end;
	*image = (const unsigned char *)eh;
	*size = end;
	return have_id && end > 0;
}

/* A [vdso] recorded with a build id is read from the build-id cache the
 * caller names (tk_symcache_options.debug_dir), as perf reads its
 * --buildid-dir, not from $HOME/.debug (HOME points elsewhere here). */
static void test_vdso_from_debug_dir(void **state)
{
	(void)state;
	const unsigned char *image = NULL;
	size_t size = 0;
	uint8_t id[20];
	if (!host_vdso(&image, &size, id))
		skip();
	char dir[] = "/tmp/tk-debugdir-XXXXXX", path[512], hex[41];
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(path, sizeof path, "%s/[vdso]", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/[vdso]/%s", dir, hex);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/[vdso]/%s/vdso", dir, hex);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(image, 1, size, f), size);
	fclose(f);

	pc_buf b;
	begin(&b);
	rec_comm(&b, 100, 100, "app");
	size_t at = pc_rec_begin(&b, TK_PERF_RECORD_MMAP2, 2 | (1u << 14));
	pc_u32(&b, 100);
	pc_u32(&b, 100);
	pc_u64(&b, 0x7fff0000ull); /* start */
	pc_u64(&b, 0x2000);        /* len */
	pc_u64(&b, 0);             /* pgoff */
	pc_bytes(&b, (uint8_t[4]){20, 0, 0, 0}, 4);
	pc_bytes(&b, id, 20);
	pc_u32(&b, 5); /* prot */
	pc_u32(&b, 2); /* flags */
	put_str_padded(&b, "[vdso]");
	pc_rec_end(&b, at);

	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("HOME", "/nonexistent", 1);
	tk_threads t;
	tk_symcache_options so = {.debug_dir = dir, .perf_map_dir = "/nonexistent"};
	assert_true(tk_threads_init(&t, &so));
	feed(&t, &b);
	tk_thread *app = tk_threads_findnew(&t, 100, 100);
	bool clock = false;
	for (uint64_t off = 0; off < size && !clock; off += 4) {
		tk_addr_loc loc;
		tk_threads_resolve(&t, app, TK_CPUMODE_USER, 0x7fff0000ull + off, &loc);
		clock = loc.name && strstr(loc.name, "clock_gettime");
	}
	assert_true(clock); /* the vdso's own function, from the copy */
	tk_threads_free(&t);
	free(b.p);
	if (home)
		setenv("HOME", home, 1);
	free(home);
	remove(path);
	snprintf(path, sizeof path, "%s/[vdso]/%s", dir, hex);
	rmdir(path);
	snprintf(path, sizeof path, "%s/[vdso]", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_demangle_strip(void **state)
{
	(void)state;
	check_strip("fuzzer::Fuzzer::RunOne(unsigned char const*, unsigned long, bool)",
		    "fuzzer::Fuzzer::RunOne");
	check_strip("hash_table<a, false, b>::expand()", "hash_table<a, false, b>::expand");
	check_strip("void std::sort<int*>(int*, int*)", "std::sort<int*>");
	check_strip("foo::bar() const", "foo::bar");
	check_strip("__asan::AsanInitInternal() [clone .part.0]", "__asan::AsanInitInternal");
	check_strip("(anonymous namespace)::sha1(char*)", "(anonymous namespace)::sha1");
	check_strip("virtual thunk to std::basic_istringstream<char>::~basic_istringstream()",
		    "virtual thunk to std::basic_istringstream<char>::~basic_istringstream()");
	check_strip("plain_c_name", "plain_c_name");
	tk_demangler d;
	tk_demangler_init(&d);
	assert_string_equal(tk_demangle(&d, "main"), "main");
	const char *n = tk_demangle(&d, "_ZN6fuzzer6Fuzzer7RunOneEPKhmbPNS_9InputInfoEbPb");
	/* without a C++ runtime the name stays as it is */
	assert_true(strcmp(n, "fuzzer::Fuzzer::RunOne") == 0 ||
		    strcmp(n, "_ZN6fuzzer6Fuzzer7RunOneEPKhmbPNS_9InputInfoEbPb") == 0);
	assert_string_equal(tk_demangle(&d, "_ZN3foo3barEv@plt"),
			    d.cxa_demangle || TK_HAVE_LIBIBERTY ? "foo::bar@plt"
								: "_ZN3foo3barEv@plt");
	/* __cxa_demangle rejects this name (a v8 template from a profile of
	 * node); perf shows it through libiberty without parameters, as
	 * `c++filt -p` does */
	const char *v8 =
	    "_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutCastIZNS1_"
	    "22DispatchToSpecificTypeIZNKS0_6String7GetImplEiNS0_16PtrComprCageBaseERKNS0_"
	    "31SharedStringAccessGuardIfNeededEE19StringGetDispatchertJRiRS5_S8_EEET0_S4_"
	    "DpOT1_E17CastingDispatchertJRS4_SA_SB_S8_EEESC_SF_.isra.0";
	const char *v8_want =
	    "v8::internal::StringShape::DispatchToSpecificTypeWithoutCast<v8::internal::"
	    "StringShape::DispatchToSpecificType<v8::internal::String::GetImpl(int, "
	    "v8::internal::PtrComprCageBase, v8::internal::SharedStringAccessGuardIfNeeded "
	    "const&) const::StringGetDispatcher, unsigned short, int&, "
	    "v8::internal::PtrComprCageBase&, v8::internal::SharedStringAccessGuardIfNeeded "
	    "const&>(v8::internal::String, int&, v8::internal::PtrComprCageBase&, "
	    "v8::internal::SharedStringAccessGuardIfNeeded const&)::CastingDispatcher, unsigned "
	    "short, v8::internal::String&, int&, v8::internal::PtrComprCageBase&, "
	    "v8::internal::SharedStringAccessGuardIfNeeded const&>";
	assert_string_equal(tk_demangle(&d, v8), TK_HAVE_LIBIBERTY ? v8_want : v8);
	/* must reject: names neither demangler takes stay as they are, a
	 * nesting deep enough to exhaust a recursive demangler's stack too */
	const char *junk = "_ZZZZZN1a1bIIIIIIIII";
	assert_ptr_equal(tk_demangle(&d, junk), junk);
	/* a name the text step would strip to nothing (found by
	 * fuzz_demangle): libiberty's answer, perf's, else the name as is;
	 * never an empty name */
	const char *clone = "_Z8 [clone ";
	assert_string_equal(tk_demangle(&d, clone), TK_HAVE_LIBIBERTY ? " [clone " : clone);
	size_t depth = 200000;
	char *deep = malloc(depth + 3);
	assert_non_null(deep);
	memcpy(deep, "_Z", 2);
	memset(deep + 2, 'P', depth);
	deep[depth + 2] = '\0';
	assert_ptr_equal(tk_demangle(&d, deep), deep);
	free(deep);
	tk_demangler_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fork_comm_and_maps),
	    cmocka_unit_test(test_fork_maps_copy_on_write),
	    cmocka_unit_test(test_fork_replaces_thread),
	    cmocka_unit_test(test_maps_overlap),
	    cmocka_unit_test(test_maps_pool),
	    cmocka_unit_test(test_vdso_from_debug_dir),
	    cmocka_unit_test(test_demangle_strip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
