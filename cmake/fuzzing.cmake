# PERFTKIT_FUZZ: the libFuzzer targets of fuzz/ (clang only). Every unit is built with
# AddressSanitizer and UndefinedBehaviorSanitizer (a report aborts) and libFuzzer's coverage
# instrumentation, so that the parsers the targets drive are checked as they run.
option(PERFTKIT_FUZZ "Build the libFuzzer targets of fuzz/ under ASan and UBSan (clang)" OFF)
if(PERFTKIT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PERFTKIT_FUZZ needs clang (libFuzzer): configure with the fuzz preset")
  endif()
  add_compile_options(-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
