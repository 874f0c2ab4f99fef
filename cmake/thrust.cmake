# Thrust for the frontier pipeline: the CUDA toolkit's CCCL headers (include/cccl in CUDA 13,
# include/ before), else Debian's libthrust-dev. g++ compiles the pipeline against Thrust's
# OpenMP system, so OpenMP is needed too; without both the pipeline is not built.
set(PERFTKIT_HAVE_PIPELINE OFF)
set(_perftkit_thrust_hints)
foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
  list(APPEND _perftkit_thrust_hints "${dir}/cccl" "${dir}")
endforeach()
find_path(PERFTKIT_THRUST_INCLUDE thrust/version.h
          HINTS ${_perftkit_thrust_hints}
          PATHS /usr/local/cuda/include/cccl /usr/local/cuda/include /usr/include
          DOC "Directory holding thrust/ (and cub/, cuda/std for CCCL)")
if(PERFTKIT_THRUST_INCLUDE AND OpenMP_CXX_FOUND)
  set(PERFTKIT_HAVE_PIPELINE ON)
  message(STATUS "perftkit: frontier pipeline with Thrust from ${PERFTKIT_THRUST_INCLUDE}")
else()
  message(STATUS "perftkit: no Thrust headers or no OpenMP; the frontier pipeline is not built")
endif()
