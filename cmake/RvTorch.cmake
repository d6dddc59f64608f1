# The torch kernel backend's module, libroofval-torch.so (src/kernel/torch/):
# C++ against libtorch, built when CMake finds the Torch package (Debian's
# libtorch-dev, or the one inside a pip PyTorch:
# -DCMAKE_PREFIX_PATH=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')).
# RV_TORCH=AUTO builds it when Torch is found (not under the sanitizers:
# libtorch is not instrumented), ON requires it, OFF never builds it. Without
# the module src/kernel/torch.c's probe says why torch is missing.
set(RV_TORCH AUTO CACHE STRING "Build the torch kernel module: AUTO (when libtorch is found), ON, OFF")
set_property(CACHE RV_TORCH PROPERTY STRINGS AUTO ON OFF)
set(RV_HAVE_TORCH OFF)
if(RV_TORCH STREQUAL "AUTO" AND (RV_SANITIZE OR RV_FUZZ))
  message(STATUS "torch module: not built under the sanitizers (RV_TORCH=ON forces it)")
elseif(RV_TORCH STREQUAL "ON" OR RV_TORCH STREQUAL "AUTO")
  # A C++ compiler first: Torch's CMake package checks C++ sources.
  include(CheckLanguage)
  check_language(CXX)
  if(CMAKE_CXX_COMPILER)
    enable_language(CXX)
  endif()
  if(NOT CMAKE_CXX_COMPILER)
    if(RV_TORCH STREQUAL "ON")
      message(FATAL_ERROR "RV_TORCH=ON: no C++ compiler (install g++)")
    endif()
    message(STATUS "torch module: no C++ compiler; not built")
  elseif(RV_TORCH STREQUAL "ON")
    find_package(Torch REQUIRED)
  else()
    find_package(Torch QUIET)
  endif()
  if(CMAKE_CXX_COMPILER AND (Torch_FOUND OR TORCH_FOUND))
    set(RV_HAVE_TORCH ON)
  else()
    message(STATUS "torch module: no Torch package found (install libtorch-dev); not built")
  endif()
elseif(NOT RV_TORCH STREQUAL "OFF")
  message(FATAL_ERROR "RV_TORCH=${RV_TORCH}: give AUTO, ON or OFF")
endif()

if(RV_HAVE_TORCH)
  # CUDA in this libtorch (a pip PyTorch built with it): the module then
  # runs on the GPU too, timed with cudaEvent pairs.
  if(TARGET torch_cuda OR CAFFE2_USE_CUDA)
    set(rv_torch_cuda 1)
  else()
    set(rv_torch_cuda 0)
  endif()
  message(STATUS "torch module: libtorch ${Torch_VERSION} (CUDA: ${rv_torch_cuda})")
  target_compile_definitions(rv_objects PRIVATE RV_TORCH_MODULE_DIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_library(roofval_torch MODULE src/kernel/torch/torch_module.cpp)
  set_target_properties(roofval_torch PROPERTIES OUTPUT_NAME roofval-torch PREFIX lib
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_compile_definitions(roofval_torch PRIVATE RV_TORCH_CUDA=${rv_torch_cuda})
  set(rv_torch_warnings -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Wundef)
  if(RV_WERROR)
    list(APPEND rv_torch_warnings -Werror)
  endif()
  target_compile_options(roofval_torch PRIVATE ${rv_torch_warnings})
  # Its own symbols first: the executable's copies of the core stay apart.
  target_link_options(roofval_torch PRIVATE -Wl,-Bsymbolic)
  # Every symbol resolved at link time: a core function it reaches with C++
  # linkage fails here, not at the first probe.
  if(NOT RV_SANITIZE AND NOT RV_FUZZ)
    target_link_options(roofval_torch PRIVATE -Wl,--no-undefined)
  endif()
  target_link_libraries(roofval_torch PRIVATE rv_core ${TORCH_LIBRARIES})
endif()
