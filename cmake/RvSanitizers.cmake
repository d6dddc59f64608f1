# RV_SANITIZE=address,undefined turns on the sanitizers for every target.
set(RV_SANITIZE "" CACHE STRING "Comma-separated sanitizers (address,undefined)")
if(RV_SANITIZE)
  # C only: the device code compiled by nvcc is not instrumented.
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=${RV_SANITIZE}>
    $<$<COMPILE_LANGUAGE:C>:-fno-omit-frame-pointer>
    $<$<COMPILE_LANGUAGE:C>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=${RV_SANITIZE})
endif()
