# The manual pages (man/roofval.1, man/roofval-COMMAND.1) and the bash
# completion (completion/roofval.bash) in the build tree, made by the built
# roofval from its command and option tables ('roofval help --man-dir',
# 'roofval help --completion'), so that they cannot drift from --help.
# Included from the top CMakeLists.txt after the roofval target; no install
# rules here.
#
# Run as a script (cmake -DROOFVAL=... -DOUT=... -P RvDocs.cmake) it is the
# generation step itself.
if(CMAKE_SCRIPT_MODE_FILE)
  file(MAKE_DIRECTORY ${OUT}/man ${OUT}/completion)
  execute_process(COMMAND ${ROOFVAL} help --man-dir ${OUT}/man
    OUTPUT_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "roofval help --man-dir failed (${rc})")
  endif()
  execute_process(COMMAND ${ROOFVAL} help --completion
    OUTPUT_FILE ${OUT}/completion/roofval.bash.tmp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "roofval help --completion failed (${rc})")
  endif()
  file(RENAME ${OUT}/completion/roofval.bash.tmp ${OUT}/completion/roofval.bash)
  file(TOUCH ${OUT}/man/.stamp)
  return()
endif()

add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/man/.stamp
  BYPRODUCTS ${CMAKE_CURRENT_BINARY_DIR}/completion/roofval.bash
  COMMAND ${CMAKE_COMMAND} -DROOFVAL=$<TARGET_FILE:roofval> -DOUT=${CMAKE_CURRENT_BINARY_DIR}
    -P ${CMAKE_CURRENT_LIST_FILE}
  DEPENDS roofval ${CMAKE_CURRENT_LIST_FILE}
  COMMENT "Manual pages and bash completion from the option tables"
  VERBATIM)
add_custom_target(rv_docs ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/man/.stamp)
