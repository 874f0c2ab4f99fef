# Checks that every C++ and CUDA file of include/, host/, cuda/, tests/, fuzz/ and python/ is formatted
# as .clang-format says (run by CTest as format_check; by hand:
# `cmake -DSOURCE_DIR=<repo> -P tests/checks/format_check.cmake`). To format the tree, see README.md.
#
# The check is clang-format-14's: another version formats a few constructs differently. When
# clang-format-14 is missing, the test is skipped with a message (CTest's SKIP_REGULAR_EXPRESSION).
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT CLANG_FORMAT_NAMES)
  set(CLANG_FORMAT_NAMES clang-format-14)
endif()
if(NOT CLANG_FORMAT)
  find_program(CLANG_FORMAT NAMES ${CLANG_FORMAT_NAMES})
endif()
if(NOT CLANG_FORMAT)
  message("format check skipped: clang-format-14 not found (apt-get install clang-format-14)")
  return()
endif()

set(files)
foreach(folder include host cuda tests fuzz python)
  file(GLOB_RECURSE found RELATIVE "${SOURCE_DIR}"
       "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.hpp"
       "${SOURCE_DIR}/${folder}/*.cu" "${SOURCE_DIR}/${folder}/*.cuh")
  list(APPEND files ${found})
endforeach()
list(SORT files)
list(LENGTH files count)
if(count EQUAL 0)
  message(FATAL_ERROR "format check: no source files under ${SOURCE_DIR}")
endif()

execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror --style=file ${files}
                WORKING_DIRECTORY "${SOURCE_DIR}"
                RESULT_VARIABLE result
                ERROR_VARIABLE report)
if(NOT result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "format check: cannot run ${CLANG_FORMAT}: ${result}")
elseif(NOT result EQUAL 0)
  string(REGEX MATCHALL "[^\n]+: error: code should be clang-formatted" lines "${report}")
  set(unformatted)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: error: .*" "" file "${line}")
    list(APPEND unformatted "${file}")
  endforeach()
  list(REMOVE_DUPLICATES unformatted)
  list(JOIN unformatted "\n  " listed)
  message(FATAL_ERROR "${report}\nformat check: these files are not formatted as .clang-format says "
                      "(fix: clang-format-14 -i FILE...):\n  ${listed}")
endif()
message("format check: ${count} files formatted as .clang-format says (${CLANG_FORMAT})")
