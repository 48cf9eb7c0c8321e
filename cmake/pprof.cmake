# Profile exports (src/output/pprof_perf.c): zlib writes pprof's gzip container.
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET zlib)
target_link_libraries(tracekit_obj PUBLIC PkgConfig::ZLIB)
target_link_libraries(tracekit_shared PRIVATE PkgConfig::ZLIB)
