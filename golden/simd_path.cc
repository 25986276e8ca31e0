#include "golden/simd_path.h"

#include "base/simd.h"

namespace npu::golden {

bool simd_path_available(SimdPath path) {
  switch (path) {
    case SimdPath::Avx2: return cpu_has_avx2();
    case SimdPath::Avx512: return cpu_has_avx512f();
    default: return true;
  }
}

SimdPath resolve_simd_path(SimdPath path) {
  static const SimdPath automatic = no_simd_requested()                    ? SimdPath::Portable
                                    : simd_path_available(SimdPath::Avx512) ? SimdPath::Avx512
                                    : simd_path_available(SimdPath::Avx2)   ? SimdPath::Avx2
                                                                            : SimdPath::Portable;
  if (path == SimdPath::Auto) return automatic;
  return simd_path_available(path) ? path : SimdPath::Portable;
}

}  // namespace npu::golden
