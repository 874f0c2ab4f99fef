# MPI is optional: with it, `perftkit perft --work-dir` started by an MPI launcher hands the
# shards out over the ranks (host/mpi_*.cpp). Without it, processes sharing a work dir still
# split the shards through claim files.
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

# Compiles the MPI coordinator into `target` and links MPI; nothing outside it sees mpi.h.
function(perftkit_add_mpi target)
  file(GLOB sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/host/mpi*.cpp")
  target_sources(${target} PRIVATE ${sources})
  target_link_libraries(${target} PRIVATE MPI::MPI_CXX)
  target_compile_definitions(${target} PRIVATE PERFTKIT_HAVE_MPI=1)
endfunction()
