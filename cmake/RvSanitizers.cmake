# RV_SANITIZE=address,undefined turns on the sanitizers for every target;
# RV_SANITIZE=thread builds for ThreadSanitizer (ctest -L tsan: the threaded
# tests).
set(RV_SANITIZE "" CACHE STRING "Comma-separated sanitizers (address,undefined; or thread)")
if(RV_SANITIZE)
  # C only: the device code compiled by nvcc is not instrumented.
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=${RV_SANITIZE}>
    $<$<COMPILE_LANGUAGE:C>:-fno-omit-frame-pointer>
    $<$<COMPILE_LANGUAGE:C>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=${RV_SANITIZE})
endif()

# RV_FUZZ=ON (clang only) builds the fuzz targets of tests/fuzz/: every C
# target gets libFuzzer's coverage instrumentation and ASan + UBSan.
option(RV_FUZZ "Build the fuzz targets of tests/fuzz (clang only)" OFF)
if(RV_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RV_FUZZ=ON needs clang: cmake -DCMAKE_C_COMPILER=clang -DRV_FUZZ=ON ...")
  endif()
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link,address,undefined>
    $<$<COMPILE_LANGUAGE:C>:-fno-omit-frame-pointer>
    $<$<COMPILE_LANGUAGE:C>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=address,undefined)
endif()
