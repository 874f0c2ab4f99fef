# The committed include/perftkit/magics.hpp holds exactly the multipliers that
# host/tools/find_magics.cpp prints (its random seed is fixed): the header can be regenerated,
# and the tool keeps building and running. Only the numbers are compared, in order (the
# committed header is clang-formatted). Run as: cmake -DFIND_MAGICS=... -DMAGICS_HEADER=... -P
execute_process(COMMAND "${FIND_MAGICS}" OUTPUT_VARIABLE printed RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "find_magics exited with ${status}")
endif()
file(READ "${MAGICS_HEADER}" committed)
string(REGEX MATCHALL "0x[0-9a-fA-F]+ULL" printed_numbers "${printed}")
string(REGEX MATCHALL "0x[0-9a-fA-F]+ULL" committed_numbers "${committed}")
list(LENGTH committed_numbers count)
if(NOT count EQUAL 128)
  message(FATAL_ERROR "${MAGICS_HEADER}: expected 128 multipliers (64 rook, 64 bishop), found ${count}")
endif()
if(NOT printed_numbers STREQUAL committed_numbers)
  message(FATAL_ERROR "find_magics prints other multipliers than ${MAGICS_HEADER} holds: regenerate the header")
endif()
message(STATUS "the 128 committed multipliers are the ones find_magics prints")
