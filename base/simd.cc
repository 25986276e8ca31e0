#include "base/simd.h"

#include <cstdlib>
#include <cstring>

namespace npu {

bool no_simd_requested() {
  const char* e = std::getenv("NPUSIM_NO_SIMD");
  return e && *e && std::strcmp(e, "0") != 0;
}

bool cpu_has_avx2() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

bool cpu_has_fma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

bool cpu_has_avx512f() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

}  // namespace npu
