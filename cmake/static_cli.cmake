# The tracekit CLI links its libraries from their static archives where
# the system has every one it needs: a run then maps one program and libc
# instead of eleven shared objects, about 1 ms less start-up per run
# (--version 2.6 -> 1.6 ms here; 4% of a warm 8 MB perf-script run).
# libtracekit.so, the Python module and the tests keep the shared ones.
# -DTK_STATIC_DEPS=OFF links the CLI as they are.
option(TK_STATIC_DEPS "Link the tracekit CLI against static archives of its libraries" ON)
if(NOT TK_STATIC_DEPS)
  return()
endif()
set(tk_static_names zstd elf z)
if(TRACEEVENT_FOUND)
  list(APPEND tk_static_names traceevent)
endif()
if(SQLITE3_FOUND)
  list(APPEND tk_static_names sqlite3)
endif()
if(LIBDW_FOUND)
  # libdw.a's own needs (compressed files: xz, bzip2)
  list(APPEND tk_static_names dw lzma bz2)
  if(LIBDEFLATE_FOUND)
    list(APPEND tk_static_names deflate)
  endif()
endif()
set(tk_archives)
foreach(name IN LISTS tk_static_names)
  find_library(TK_ARCHIVE_${name} NAMES lib${name}.a)
  if(NOT TK_ARCHIVE_${name})
    message(STATUS "lib${name}.a not found: the CLI links the shared libraries")
    return()
  endif()
  list(APPEND tk_archives ${TK_ARCHIVE_${name}})
endforeach()
# One group, so the archives' references among themselves resolve in any
# order; the shared objects that follow (the libraries' link interface)
# are then not needed and --as-needed leaves them out.
target_link_libraries(tracekit PRIVATE "-Wl,--start-group" ${tk_archives} "-Wl,--end-group")
target_link_options(tracekit PRIVATE "-Wl,--as-needed")
