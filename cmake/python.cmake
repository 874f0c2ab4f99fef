# The Python module (python/): nanobind from PyPI (`pip install nanobind`; pip install . gets
# it as a build requirement), built against the interpreter CMake finds (a virtual
# environment first). Without Python's headers or nanobind, the module is left out with a
# message and its tests are not registered. PERFTKIT_HAVE_PYTHON says whether it is built.
set(PERFTKIT_HAVE_PYTHON OFF)
if(NOT PERFTKIT_BUILD_PYTHON)
  return()
endif()
set(Python_FIND_VIRTUALENV FIRST)
find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
if(NOT Python_FOUND)
  message(STATUS "perftkit: Python module off (no Python interpreter with development headers)")
  return()
endif()
if(NOT nanobind_ROOT)
  execute_process(COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
                  OUTPUT_VARIABLE nanobind_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
find_package(nanobind CONFIG QUIET)
if(NOT nanobind_FOUND)
  message(STATUS "perftkit: Python module off (nanobind not found for ${Python_EXECUTABLE}: pip install nanobind)")
  return()
endif()
set(PERFTKIT_HAVE_PYTHON ON)
message(STATUS "perftkit: Python module for ${Python_EXECUTABLE} (nanobind ${nanobind_VERSION})")
