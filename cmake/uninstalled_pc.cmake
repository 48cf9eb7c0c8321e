# build/tracekit-uninstalled.pc: examples and other programs build against
# the build tree without `make install` (PKG_CONFIG_PATH=build pkg-config
# --cflags --libs tracekit). The library's directory is recorded as an
# rpath, so they also run from the build tree.
get_target_property(TK_UNINSTALLED_LIBDIR tracekit_shared LIBRARY_OUTPUT_DIRECTORY)
if(NOT TK_UNINSTALLED_LIBDIR)
  set(TK_UNINSTALLED_LIBDIR ${CMAKE_BINARY_DIR}/lib)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/tracekit-uninstalled.pc.in
               ${CMAKE_BINARY_DIR}/tracekit-uninstalled.pc @ONLY)
