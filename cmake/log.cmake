# libtracekit-log: the in-process event logger (include/tracekit/log.h,
# src/log/) as its own small library with no dependency on the readers, so
# it links into anything. Its sources are also in libtracekit (every .c
# under src/ is). The benchmark bench/log_bench.c is built here, not run by
# ctest (make bench / bench/log_bench.sh run it).
file(GLOB TK_LOG_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/log/*.c)
add_library(tracekit_log_obj OBJECT ${TK_LOG_SOURCES})
target_include_directories(tracekit_log_obj PUBLIC ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
find_package(Threads REQUIRED)
add_library(tracekit_log_static STATIC $<TARGET_OBJECTS:tracekit_log_obj>)
set_target_properties(tracekit_log_static PROPERTIES OUTPUT_NAME tracekit-log)
target_link_libraries(tracekit_log_static PUBLIC tracekit_log_obj Threads::Threads)
add_library(tracekit_log_shared SHARED $<TARGET_OBJECTS:tracekit_log_obj>)
set_target_properties(tracekit_log_shared PROPERTIES OUTPUT_NAME tracekit-log
                      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_link_libraries(tracekit_log_shared PRIVATE Threads::Threads)
configure_file(cmake/tracekit-log.pc.in ${CMAKE_BINARY_DIR}/tracekit-log.pc @ONLY)
install(TARGETS tracekit_log_static tracekit_log_shared
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_BINARY_DIR}/tracekit-log.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The example: logs, dumps to CPEL (examples/log_demo.c).
if(EXISTS ${CMAKE_SOURCE_DIR}/examples/log_demo.c)
  add_executable(log_demo ${CMAKE_SOURCE_DIR}/examples/log_demo.c)
  target_link_libraries(log_demo PRIVATE tracekit_log_static)
endif()

# bench/log_bench.c: tracekit's logger vs an elog-style ring, and LTTng-UST
# tracepoints with the same payload when liblttng-ust-dev is installed.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/log_bench.c)
  add_executable(log_bench ${CMAKE_SOURCE_DIR}/bench/log_bench.c)
  target_compile_options(log_bench PRIVATE -O2)
  target_link_libraries(log_bench PRIVATE tracekit_log_static)
  pkg_check_modules(LTTNG_UST IMPORTED_TARGET lttng-ust)
  if(LTTNG_UST_FOUND AND NOT TK_SANITIZE)
    target_sources(log_bench PRIVATE ${CMAKE_SOURCE_DIR}/bench/log_bench_tp.c)
    target_include_directories(log_bench PRIVATE ${CMAKE_SOURCE_DIR}/bench)
    target_compile_definitions(log_bench PRIVATE TK_BENCH_LTTNG=1)
    target_link_libraries(log_bench PRIVATE PkgConfig::LTTNG_UST dl)
  endif()
endif()

# The shell tests' driver (tests/oracle/log_*.sh).
if(TK_TESTS)
  add_executable(log_writer ${CMAKE_SOURCE_DIR}/tests/log/log_writer.c)
  target_link_libraries(log_writer PRIVATE tracekit_log_static)
endif()
