#pragma once
// NPUSIM_ASAN: defined when this translation unit is built with AddressSanitizer (gcc defines
// __SANITIZE_ADDRESS__; clang 14 only answers __has_feature).
#if defined(__SANITIZE_ADDRESS__)
#define NPUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPUSIM_ASAN 1
#endif
#endif
