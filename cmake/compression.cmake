# Compressed input for classify (common/decompressing_reader): zstd, zlib (gzip) and bzip2
# from Debian (libzstd-dev, zlib1g-dev, libbz2-dev). Each is optional: without it, perftkit
# names the missing library when it meets such a stream. perftkit_compression carries the
# libraries and PERFTKIT_HAVE_ZSTD / _ZLIB / _BZIP2 for whoever links it; each library's
# decoder is a file of its own in host/common, built when the library is found.
# PERFTKIT_ENABLE_COMPRESSION=OFF builds without them (the device check's portable binary).
add_library(perftkit_compression INTERFACE)
if(NOT PERFTKIT_ENABLE_COMPRESSION)
  message(STATUS "perftkit: compressed input off (PERFTKIT_ENABLE_COMPRESSION)")
  return()
endif()
find_package(zstd CONFIG QUIET)
if(TARGET zstd::libzstd_shared)
  target_link_libraries(perftkit_compression INTERFACE zstd::libzstd_shared)
  target_compile_definitions(perftkit_compression INTERFACE PERFTKIT_HAVE_ZSTD=1)
  set(PERFTKIT_HAVE_ZSTD ON)
endif()
find_package(ZLIB QUIET)
if(ZLIB_FOUND)
  target_link_libraries(perftkit_compression INTERFACE ZLIB::ZLIB)
  target_compile_definitions(perftkit_compression INTERFACE PERFTKIT_HAVE_ZLIB=1)
  set(PERFTKIT_HAVE_ZLIB ON)
endif()
find_package(BZip2 QUIET)
if(BZIP2_FOUND)
  target_link_libraries(perftkit_compression INTERFACE BZip2::BZip2)
  target_compile_definitions(perftkit_compression INTERFACE PERFTKIT_HAVE_BZIP2=1)
  set(PERFTKIT_HAVE_BZIP2 ON)
endif()
message(STATUS "perftkit: compressed input: zstd ${PERFTKIT_HAVE_ZSTD}, gzip ${ZLIB_FOUND}, bzip2 ${BZIP2_FOUND}")
