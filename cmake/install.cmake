# cmake --install: the perftkit binary, the chess core's headers, the host library with its
# headers, and a CMake package. find_package(perftkit CONFIG) gives
#   perftkit::core  the header-only chess core (include/perftkit; its headers compile under nvcc)
#   perftkit::host  the static host library: FEN/EPD/PGN, the perft drivers, classify, the
#                   work dir (host/ headers, included as "notation/fen.hpp" and so on)
# Every internal target they link is exported beside them, and the package config finds the
# outside ones again (find_dependency). The slider tables need no matching flags: each layout
# (PEXT or magic) is a variable of its own (include/perftkit/attacks.hpp), so a consumer built
# without BMI2 reads the magic-ordered table while the library reads the PEXT-ordered one.
include(CMakePackageConfigHelpers)

set(PERFTKIT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/perftkit")

set_target_properties(perftkit_core PROPERTIES EXPORT_NAME core)
set_target_properties(perftkit_host PROPERTIES EXPORT_NAME host)
set_target_properties(perftkit_compression PROPERTIES EXPORT_NAME compression)
set_target_properties(perftkit_options PROPERTIES EXPORT_NAME options)
set_target_properties(perftkit_warnings PROPERTIES EXPORT_NAME warnings)
set(PERFTKIT_EXPORTED perftkit_core perftkit_host perftkit_compression perftkit_options perftkit_warnings)
if(TARGET perftkit_cuda)
  set_target_properties(perftkit_cuda PROPERTIES EXPORT_NAME cuda)
  list(APPEND PERFTKIT_EXPORTED perftkit_cuda)
endif()

install(TARGETS perftkit RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS ${PERFTKIT_EXPORTED} EXPORT perftkitTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY include/perftkit DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY host/ DESTINATION "${PERFTKIT_HOST_INCLUDEDIR}" FILES_MATCHING PATTERN "*.hpp" PATTERN tools EXCLUDE)
install(EXPORT perftkitTargets NAMESPACE perftkit:: DESTINATION "${PERFTKIT_INSTALL_CMAKEDIR}")

# What the package config must find again: the same packages this build found (ON or OFF).
foreach(pair OPENMP:OpenMP_CXX_FOUND MPI:PERFTKIT_HAVE_MPI CUDA:PERFTKIT_HAVE_CUDA ZSTD:PERFTKIT_HAVE_ZSTD
             ZLIB:ZLIB_FOUND BZIP2:BZIP2_FOUND CLI11_CONFIG:CLI11_FOUND)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 found)
  if(${found})
    set(PERFTKIT_PACKAGE_${name} ON)
  else()
    set(PERFTKIT_PACKAGE_${name} OFF)
  endif()
endforeach()
if(NOT CLI11_FOUND)
  # The build used CLI11's headers from a folder of its own: they are installed beside the
  # host headers, and the package config makes the same target of them.
  install(DIRECTORY "${PERFTKIT_CLI11_INCLUDE}/CLI" DESTINATION "${PERFTKIT_HOST_INCLUDEDIR}/third_party/cli11")
endif()
configure_package_config_file(cmake/perftkitConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/perftkitConfig.cmake"
                              INSTALL_DESTINATION "${PERFTKIT_INSTALL_CMAKEDIR}"
                              PATH_VARS PERFTKIT_HOST_INCLUDEDIR)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/perftkitConfigVersion.cmake"
                                 VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/perftkitConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/perftkitConfigVersion.cmake"
              "${PERFTKIT_COMMIT_FILE}"
        DESTINATION "${PERFTKIT_INSTALL_CMAKEDIR}")
