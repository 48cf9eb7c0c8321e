# The CPython extension tracekit._tracekit and the pure-Python package
# (python/tracekit). The build tree gets a ready package in
# build/python/tracekit (tests run it from there); `make install` puts it in
# Python's site directory for the prefix. Skipped, with a message, when
# python3-dev is missing; not built under the sanitizers (CPython itself is
# not instrumented: the Python tests run against the normal build).
# Debian's interpreter (its python3-numpy, -pandas, -distributed), not
# whatever python3 comes first on PATH.
if(EXISTS /usr/bin/python3 AND NOT Python3_EXECUTABLE)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module)
if(NOT Python3_Development.Module_FOUND)
  message(STATUS "python3-dev not found: the Python module is not built")
  return()
endif()
if(TK_SANITIZE OR TK_FUZZ)
  return()
endif()

file(GLOB TK_PY_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/*.c)
Python3_add_library(tracekit_python MODULE ${TK_PY_SOURCES})
target_link_libraries(tracekit_python PRIVATE tracekit_static)
set(TK_PY_DIR ${CMAKE_BINARY_DIR}/python/tracekit)
set_target_properties(tracekit_python PROPERTIES OUTPUT_NAME _tracekit
                      LIBRARY_OUTPUT_DIRECTORY ${TK_PY_DIR})
# CPython's headers declare PyMODINIT_FUNC without a prototype we can see
# from -Wmissing-prototypes' point of view only through the macro; keep the
# project's warnings otherwise.
file(GLOB TK_PY_PACKAGE CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/tracekit/*.py)
foreach(f ${TK_PY_PACKAGE})
  get_filename_component(n ${f} NAME)
  configure_file(${f} ${TK_PY_DIR}/${n} COPYONLY)
endforeach()
# Where the CLI finds the package when it hands `report --scheduler` to
# Python: the build tree first, then the installed site directory.
# Debian's interpreter looks in PREFIX/lib/python3.X/dist-packages
# (its posix_local scheme); others in site-packages.
execute_process(
  COMMAND ${Python3_EXECUTABLE} -c
    "import sysconfig; print('dist' if sysconfig.get_default_scheme() == 'posix_local' else 'site')"
  OUTPUT_VARIABLE TK_PY_KIND OUTPUT_STRIP_TRAILING_WHITESPACE)
set(TK_PY_SITE lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/${TK_PY_KIND}-packages)
set(TK_PY_SITE ${TK_PY_SITE} CACHE STRING "Python site directory below the prefix")
install(TARGETS tracekit_python LIBRARY DESTINATION ${TK_PY_SITE}/tracekit)
install(FILES ${TK_PY_PACKAGE} DESTINATION ${TK_PY_SITE}/tracekit)
# The CLI's `report --scheduler/--workers` runs the cluster module.
target_compile_definitions(tracekit PRIVATE TK_PYTHON="${Python3_EXECUTABLE}"
  TK_PY_BUILD_DIR="${CMAKE_BINARY_DIR}/python"
  TK_PY_INSTALL_DIR="${CMAKE_INSTALL_PREFIX}/${TK_PY_SITE}")
set(TK_HAVE_PYTHON ON)
