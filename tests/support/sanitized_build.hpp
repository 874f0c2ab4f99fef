// Whether this unit is built under AddressSanitizer or ThreadSanitizer: g++ and clang say so
// differently. Tests that need what a sanitizer takes (address space, signal handlers) skip.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PERFTKIT_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PERFTKIT_TEST_SANITIZED 1
#endif
#endif
#ifndef PERFTKIT_TEST_SANITIZED
#define PERFTKIT_TEST_SANITIZED 0
#endif
