# ccache, when installed, becomes the compiler launcher for C++ and CUDA. Paths are made
# relative to the source tree (base_dir), so a second clone of the same commit hits the
# cache; the sloppiness lets precompiled headers be cached. Without ccache nothing changes.
option(PERFTKIT_CCACHE "Compile through ccache when it is installed" ON)
if(PERFTKIT_CCACHE)
  find_program(PERFTKIT_CCACHE_PROGRAM ccache)
  if(PERFTKIT_CCACHE_PROGRAM)
    set(_perftkit_ccache_launcher
        "${CMAKE_COMMAND}" -E env
        "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}"
        "CCACHE_NOHASHDIR=1"
        "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        "${PERFTKIT_CCACHE_PROGRAM}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${_perftkit_ccache_launcher}")
    set(CMAKE_CUDA_COMPILER_LAUNCHER "${_perftkit_ccache_launcher}")
    message(STATUS "perftkit: compiling through ${PERFTKIT_CCACHE_PROGRAM}")
  endif()
endif()
