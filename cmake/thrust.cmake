# Thrust for the frontier pipeline, which every build has: the CUDA toolkit's CCCL headers
# (include/cccl in CUDA 13, include/ before), else Debian's libthrust-dev with libcub-dev.
# g++ compiles the pipeline against Thrust's OpenMP system, or against its sequential C++
# system where OpenMP is absent (the sanitizer presets): PERFTKIT_THRUST_HOST_SYSTEM.
# The toolkit's folders are hints, searched before the system's /usr/include: with both
# installed, every build (with CUDA or not) takes the toolkit's CCCL.
set(_perftkit_thrust_hints)
foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
  list(APPEND _perftkit_thrust_hints "${dir}/cccl" "${dir}")
endforeach()
list(APPEND _perftkit_thrust_hints /usr/local/cuda/include/cccl /usr/local/cuda/include)
find_path(PERFTKIT_THRUST_INCLUDE thrust/version.h
          HINTS ${_perftkit_thrust_hints}
          DOC "Directory holding thrust/ (and cub/, cuda/std for CCCL)")
if(NOT PERFTKIT_THRUST_INCLUDE)
  message(FATAL_ERROR "perftkit: no Thrust headers (thrust/version.h) were found; the frontier pipeline needs them. "
                      "Install the CUDA toolkit (its CCCL headers), or Debian's libthrust-dev and libcub-dev, "
                      "or set PERFTKIT_THRUST_INCLUDE to the folder that holds thrust/.")
endif()
if(OpenMP_CXX_FOUND)
  set(PERFTKIT_THRUST_HOST_SYSTEM THRUST_DEVICE_SYSTEM_OMP)
  message(STATUS "perftkit: frontier pipeline with Thrust from ${PERFTKIT_THRUST_INCLUDE}, on OpenMP")
else()
  set(PERFTKIT_THRUST_HOST_SYSTEM THRUST_DEVICE_SYSTEM_CPP)
  message(STATUS "perftkit: frontier pipeline with Thrust from ${PERFTKIT_THRUST_INCLUDE}, sequential (no OpenMP)")
endif()
