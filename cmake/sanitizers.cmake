# PERFTKIT_SANITIZE: build every unit under the named sanitizers, e.g. "thread" (the tsan
# preset). The fuzz preset has its own flags (cmake/fuzzing.cmake): ASan and UBSan plus
# libFuzzer's coverage, for the fuzz targets and the unit suite alike.
set(PERFTKIT_SANITIZE "" CACHE STRING "Sanitizers for every unit (-fsanitize=...), e.g. thread")
if(PERFTKIT_SANITIZE)
  add_compile_options(-fsanitize=${PERFTKIT_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${PERFTKIT_SANITIZE})
endif()
