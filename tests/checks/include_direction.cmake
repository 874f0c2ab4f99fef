# Checks that includes between the folders of host/ point one way (run by CTest as
# include_direction; `cmake -DSOURCE_DIR=<repo> -P tests/checks/include_direction.cmake` by hand):
#
#   cli -> workdir -> perft / classify / benchmark / enginediff -> pipeline / notation -> common -> include/perftkit
#
# A folder may include its own files, those of a folder on its level, and those of any folder
# below it; never one above it. No host/ file includes a cuda/ header: cuda/ builds on host/,
# not the other way. An include that needs a logic change to remove goes in EXCEPTIONS below,
# as "file|included path|reason".
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

set(LEVEL_cli 0)
set(LEVEL_workdir 1)
set(LEVEL_perft 2)
set(LEVEL_classify 2)
set(LEVEL_benchmark 2)
set(LEVEL_enginediff 2)
set(LEVEL_pipeline 3)
set(LEVEL_notation 3)
set(LEVEL_common 4)
set(LEVEL_perftkit 5)  # the chess core, include/perftkit/
set(FOLDERS cli workdir perft classify benchmark enginediff pipeline notation common)

set(EXCEPTIONS)  # none

file(GLOB CUDA_HEADERS RELATIVE "${SOURCE_DIR}/cuda" "${SOURCE_DIR}/cuda/*.hpp" "${SOURCE_DIR}/cuda/*.cuh")
set(violations 0)
foreach(folder IN LISTS FOLDERS)
  file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}/host" "${SOURCE_DIR}/host/${folder}/*.cpp"
       "${SOURCE_DIR}/host/${folder}/*.hpp")
  foreach(source IN LISTS sources)
    file(STRINGS "${SOURCE_DIR}/host/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" included "${line}")
      if("${source}|${included}" IN_LIST EXCEPTIONS)
        continue()
      endif()
      if(included MATCHES "^cuda/" OR included IN_LIST CUDA_HEADERS OR included MATCHES "\\.cuh$")
        message(NOTICE "host/${source}: includes the CUDA header \"${included}\"")
        math(EXPR violations "${violations} + 1")
        continue()
      endif()
      string(REGEX MATCH "^[a-z0-9_]+/" target "${included}")
      string(REGEX REPLACE "/$" "" target "${target}")
      if(NOT DEFINED LEVEL_${target})
        message(NOTICE "host/${source}: \"${included}\" does not name its folder")
        math(EXPR violations "${violations} + 1")
      elseif(LEVEL_${target} LESS LEVEL_${folder})
        message(NOTICE "host/${source}: ${folder}/ includes \"${included}\" from ${target}/, which sits above it")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations GREATER 0)
  message(FATAL_ERROR "${violations} include(s) against the direction cli -> workdir -> perft/classify/benchmark/enginediff -> pipeline/notation -> common -> include/perftkit")
endif()
message(STATUS "include direction: every host/ include points down")
