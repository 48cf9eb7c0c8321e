# tracekit view: the viewer's HTML/CSS/JS (viewer/) are embedded into the
# library at build time by cmake/view_embed.cmake (no JS build step, no
# xxd); the tests of tests/view/ are registered here.
set(TK_VIEWER_JS util.js data.js lod.js layout.js flame.js stats.js render.js app.js)
set(TK_VIEWER_DEPS ${CMAKE_SOURCE_DIR}/viewer/index.html ${CMAKE_SOURCE_DIR}/viewer/view.css
    ${CMAKE_SOURCE_DIR}/cmake/view_embed.cmake)
foreach(f ${TK_VIEWER_JS})
  list(APPEND TK_VIEWER_DEPS ${CMAKE_SOURCE_DIR}/viewer/${f})
endforeach()
set(TK_VIEW_ASSETS_C ${CMAKE_BINARY_DIR}/generated/view_assets.c)
string(REPLACE ";" "\\;" tk_viewer_js_arg "${TK_VIEWER_JS}")
add_custom_command(OUTPUT ${TK_VIEW_ASSETS_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated
  COMMAND ${CMAKE_COMMAND} -DDIR=${CMAKE_SOURCE_DIR}/viewer -DOUT=${TK_VIEW_ASSETS_C}
          "-DJS=${tk_viewer_js_arg}" -P ${CMAKE_SOURCE_DIR}/cmake/view_embed.cmake
  DEPENDS ${TK_VIEWER_DEPS}
  COMMENT "Embedding the viewer (viewer/)")
target_sources(tracekit_obj PRIVATE ${TK_VIEW_ASSETS_C})

if(TK_TESTS)
  set(TK_VIEW_ENV "TK=$<TARGET_FILE:tracekit>;TK_TESTDATA=${TK_TESTDATA};TK_SOURCE_DIR=${CMAKE_SOURCE_DIR};TK_BUILD_DIR=${CMAKE_BINARY_DIR};TZ=UTC;LC_ALL=C")
  # playwright-core into the build tree, once, for the browser tests
  add_test(NAME view/setup COMMAND bash ${CMAKE_SOURCE_DIR}/tests/view/setup.sh)
  set_tests_properties(view/setup PROPERTIES FIXTURES_SETUP tk_view_browser ENVIRONMENT "${TK_VIEW_ENV}"
                       SKIP_RETURN_CODE 77)
  file(GLOB TK_VIEW_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/view/view_*.sh)
  foreach(script ${TK_VIEW_TESTS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME view/${name} COMMAND bash ${script})
    set_tests_properties(view/${name} PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "${TK_VIEW_ENV}")
    if(name MATCHES "^view_browser")
      set_tests_properties(view/${name} PROPERTIES FIXTURES_REQUIRED tk_view_browser TIMEOUT 300)
    endif()
  endforeach()
  add_test(NAME view/js_unit COMMAND node --test ${CMAKE_SOURCE_DIR}/tests/view/js)
  set_tests_properties(view/js_unit PROPERTIES ENVIRONMENT "${TK_VIEW_ENV}")
endif()
