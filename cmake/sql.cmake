# SQL over traces (src/sql, `tracekit sql`, `convert -o x.sqlite`, the
# sqlite3 shell extension build/lib/tracekit_sqlite.so). Needs Debian's
# libsqlite3-dev; without it src/sql compiles to nothing and the CLI says
# SQL is not available.
pkg_check_modules(SQLITE3 IMPORTED_TARGET sqlite3)
if(NOT SQLITE3_FOUND)
  message(STATUS "sqlite3 not found: SQL support is not built")
  return()
endif()
target_link_libraries(tracekit_obj PUBLIC PkgConfig::SQLITE3)
target_compile_definitions(tracekit_obj PUBLIC TK_HAVE_SQLITE=1)
target_link_libraries(tracekit_shared PRIVATE PkgConfig::SQLITE3)
string(APPEND TK_PC_REQUIRES " sqlite3")
configure_file(${CMAKE_SOURCE_DIR}/cmake/tracekit.pc.in ${CMAKE_BINARY_DIR}/tracekit.pc @ONLY)
if(EXISTS ${CMAKE_SOURCE_DIR}/cmake/tracekit-uninstalled.pc.in AND TK_UNINSTALLED_LIBDIR)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/tracekit-uninstalled.pc.in
                 ${CMAKE_BINARY_DIR}/tracekit-uninstalled.pc @ONLY)
endif()

# The loadable extension: `.load build/lib/tracekit_sqlite` in the sqlite3
# shell. It links the static library (position-independent) and calls
# SQLite through the host's libsqlite3.so.0, which Debian's shell and
# Python's sqlite3 module share.
add_library(tracekit_sqlite MODULE ${CMAKE_SOURCE_DIR}/tools/sqlite/tracekit_sqlite.c)
target_link_libraries(tracekit_sqlite PRIVATE tracekit_static)
set_target_properties(tracekit_sqlite PROPERTIES PREFIX "" OUTPUT_NAME tracekit_sqlite)
set(TK_HAVE_SQLITE ON)
# Installed beside the libraries: `.load PREFIX/lib/tracekit_sqlite`.
install(TARGETS tracekit_sqlite LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
