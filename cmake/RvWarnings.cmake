# Warning set of the style guide; -Werror when RV_WERROR is on (CI).
set(RV_WARNING_FLAGS
  -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wmissing-declarations -Wwrite-strings -Wformat=2 -Wcast-qual -Wfloat-equal
  -Wdouble-promotion -Wfloat-conversion -Wvla -Wnull-dereference -Wundef)
if(RV_WERROR)
  list(APPEND RV_WARNING_FLAGS -Werror)
endif()
function(rv_enable_warnings target)
  # C only: nvcc does not take gcc's warning flags.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:${RV_WARNING_FLAGS}>)
endfunction()
