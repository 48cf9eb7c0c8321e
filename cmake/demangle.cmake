# C++ names (src/context/perf_demangle.c): the C++ runtime's __cxa_demangle
# (found at run time) first; binutils' libiberty, which perf's demangling
# is, for the names __cxa_demangle gives up on (it demangles parameters
# perf never shows: long template-heavy names fail there). Optional:
# without it those names stay mangled.
find_path(LIBIBERTY_INCLUDE_DIR libiberty/demangle.h)
find_library(LIBIBERTY_LIBRARY NAMES libiberty.a iberty)
if(LIBIBERTY_INCLUDE_DIR AND LIBIBERTY_LIBRARY)
  target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBIBERTY=1)
  target_include_directories(tracekit_obj PRIVATE ${LIBIBERTY_INCLUDE_DIR}/libiberty)
  target_link_libraries(tracekit_obj PUBLIC ${LIBIBERTY_LIBRARY})
  target_link_libraries(tracekit_shared PRIVATE ${LIBIBERTY_LIBRARY})
else()
  target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_LIBIBERTY=0)
  message(STATUS "libiberty not found (Debian: libiberty-dev): C++ names that "
                 "__cxa_demangle cannot demangle stay mangled")
endif()
