# Warnings for host C++ code; nvcc gets its own set in cuda/CMakeLists.txt.
add_library(perftkit_warnings INTERFACE)
target_compile_options(perftkit_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
