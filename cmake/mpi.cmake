# MPI is optional: with it, `perftkit perft --work-dir` started by an MPI launcher hands the
# shards out over the ranks (host/workdir/mpi_rank_group.cpp, chosen in host/workdir/CMakeLists.txt). Without
# it, processes sharing a work dir still split the shards through claim files.
set(PERFTKIT_HAVE_MPI OFF)
if(PERFTKIT_ENABLE_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(PERFTKIT_HAVE_MPI ON)
    message(STATUS "perftkit: MPI found (launcher: ${MPIEXEC_EXECUTABLE})")
  else()
    message(STATUS "perftkit: MPI not found; --work-dir runs spread over processes through claim files only")
  endif()
endif()
