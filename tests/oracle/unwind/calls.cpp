// C++ with inlining for tests/oracle/unwind_dwarf.sh: templates and
// methods inlined into a non-inlined caller, mangled names demangled.
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace work {
static volatile unsigned long sink;

template <typename T> struct Acc {
	T total = 0;
	inline __attribute__((always_inline)) void add(T v) { total += v * v; }
};

__attribute__((noinline)) unsigned long crunch(const std::vector<unsigned long> &v)
{
	Acc<unsigned long> a;
	for (int r = 0; r < 40; r++)
		for (unsigned long x : v)
			a.add(x + (unsigned long)r);
	return a.total;
}

__attribute__((noinline)) void driver(unsigned long n)
{
	std::vector<unsigned long> v(n);
	for (unsigned long i = 0; i < n; i++)
		v[i] = i;
	sink += crunch(v);
}
} // namespace work

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], nullptr, 10) : 1000000;
	work::driver(n);
	std::printf("%lu\n", work::sink);
	return 0;
}
