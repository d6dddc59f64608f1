# Writes OUT from IN with the version and the commit of the tree at SRC: 12
# hex digits, with "-dirty" when tracked files differ from that commit (what
# `git describe --dirty` says), or "unknown" outside a git checkout. Run when
# CMake configures and again before every build (target rv_build_info), so a
# build names the tree it was built from; configure_file() rewrites OUT only
# when its text changes, so an unchanged tree rebuilds nothing.
# usage: cmake -DSRC=dir -DIN=file -DOUT=file -DVERSION=x.y.z -P RvBuildInfo.cmake
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc
  OUTPUT_VARIABLE RV_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT RV_GIT_COMMIT)
  set(RV_GIT_COMMIT "unknown")
else()
  # Refresh the index's stat data first, as git describe --dirty does, so a
  # touched but unchanged file is not taken for a change.
  execute_process(COMMAND git update-index -q --refresh
    WORKING_DIRECTORY ${SRC} OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND git diff-index --quiet HEAD --
    WORKING_DIRECTORY ${SRC} RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
  if(NOT dirty EQUAL 0)
    string(APPEND RV_GIT_COMMIT "-dirty")
  endif()
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${IN} ${OUT} @ONLY)
