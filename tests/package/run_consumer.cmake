# CTest's package test (script mode): installs the build into a fresh prefix, builds the
# consumer of tests/package/ against it alone, runs it, and checks its counts and that the
# package's version and commit are the installed binary's.
#   -DBUILD_DIR=... -DWORK_DIR=... -DCXX_COMPILER=... [-DCXX_FLAGS=-march=x86-64]
set(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
run_step("configure the consumer" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G Ninja
         -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
         "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run_step("build the consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
run_step("run the consumer" "${WORK_DIR}/build/consumer")
message(STATUS "consumer (CXX_FLAGS '${CXX_FLAGS}'):\n${step_output}")
foreach(expected "kiwipete perft 4: 4085603" "fool's mate: checkmate, winner black")
  string(FIND "${step_output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the consumer did not print '${expected}'")
  endif()
endforeach()

file(READ "${WORK_DIR}/build/package_version.txt" package)
run_step("run the installed perftkit" "${prefix}/bin/perftkit" --version)
string(REPLACE " " " (commit " package_as_binary "${package}")
string(FIND "${step_output}" "perftkit ${package_as_binary})" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the package says '${package}', the installed binary '${step_output}'")
endif()
message(STATUS "package ${package}; ${step_output}")
