# DWARF unwinding of perf --call-graph dwarf samples (src/unwind) with
# elfutils' libdw. Optional: without it the unwinder keeps the sampled ip
# only (what perf prints without its binaries) and says so at configure.
pkg_check_modules(LIBDW IMPORTED_TARGET libdw)
if(LIBDW_FOUND)
  target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBDW=1)
  target_link_libraries(tracekit_obj PUBLIC PkgConfig::LIBDW)
  target_link_libraries(tracekit_shared PRIVATE PkgConfig::LIBDW)
  # libdeflate (optional) inflates the compressed debug sections the
  # inline frames read, ~2x faster than libelf's zlib
  pkg_check_modules(LIBDEFLATE IMPORTED_TARGET libdeflate)
  if(LIBDEFLATE_FOUND)
    target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBDEFLATE=1)
    target_link_libraries(tracekit_obj PUBLIC PkgConfig::LIBDEFLATE)
    target_link_libraries(tracekit_shared PRIVATE PkgConfig::LIBDEFLATE)
  else()
    target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBDEFLATE=0)
    message(STATUS "libdeflate not found (Debian: libdeflate-dev): compressed debug "
                   "sections are inflated by libelf's zlib (slower)")
  endif()
else()
  target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBDW=0)
  message(STATUS "libdw not found (Debian: libdw-dev): DWARF unwinding of "
                 "--call-graph dwarf samples disabled (only the sampled ip is shown)")
endif()
