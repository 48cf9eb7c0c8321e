# The symbol cache writes its files from a background thread
# (src/symbols/symcache_writer.c).
find_package(Threads REQUIRED)
target_link_libraries(tracekit_obj PUBLIC Threads::Threads)
target_link_libraries(tracekit_shared PRIVATE Threads::Threads)
