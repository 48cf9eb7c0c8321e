/* C++ symbol names as perf 6.1 stores them when it loads an ELF image
 * (symbol-elf.c demangle_sym: bfd_demangle with DMGL_NO_OPTS, i.e. without
 * parameters or return type): "_ZN6fuzzer6Fuzzer7RunOneEPKhmbPNS_9InputInfoEbPb"
 * -> "fuzzer::Fuzzer::RunOne". perf compares these names, not the mangled
 * ones, when it picks one of several symbols at an address. The demangler
 * is the C++ runtime's __cxa_demangle, found at run time (dlopen of
 * libstdc++, once per process), so the library does not link C++; without
 * it names stay mangled. */
#ifndef TK_SYMBOLS_SYMDEMANGLE_H
#define TK_SYMBOLS_SYMDEMANGLE_H

/* name as perf shows it, malloc'd; NULL when name is not a C++ name (or
 * cannot be demangled): then it is shown as is. A version or "@plt"
 * suffix is kept. Not thread-safe on its first call. */
char *tk_symbols_demangle(const char *name);

/* Cuts the parameter list (and qualifiers after it) and, for template
 * functions, the return type from a fully demangled name, in place. */
void tk_demangle_strip(char *s);

#endif
