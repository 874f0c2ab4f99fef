/* An LD_PRELOAD library that turns every madvise(MADV_HUGEPAGE) into MADV_NOHUGEPAGE, so
 * that an unchanged perftkit binary runs its hash table on 4 KiB pages
 * (bench/fresh_memory_pages.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/mman.h>

int madvise(void* address, size_t length, int advice) {
  static int (*real_madvise)(void*, size_t, int);
  if (!real_madvise) real_madvise = (int (*)(void*, size_t, int))dlsym(RTLD_NEXT, "madvise");
  return real_madvise(address, length, advice == MADV_HUGEPAGE ? MADV_NOHUGEPAGE : advice);
}
