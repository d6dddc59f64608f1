# RV_SANITIZE=address,undefined turns on the sanitizers for every target.
set(RV_SANITIZE "" CACHE STRING "Comma-separated sanitizers (address,undefined)")
if(RV_SANITIZE)
  add_compile_options(-fsanitize=${RV_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${RV_SANITIZE})
endif()
