// The cube's product loops (cube_kernel.h).
#include "isa/sem/cube_kernel.h"

#include "base/simd.h"
#include "base/simd_width.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace npu::sem {
namespace {

constexpr size_t kBlockK = 64, kBlockN = 256;

// Blocked over k and n with a contiguous inner loop over n that the compiler vectorises; the
// blocking never reorders k. T = float or uint32_t.
template <typename T>
void matmul_portable(const T* A, const T* B, T* C, size_t m, size_t k, size_t n) {
  for (size_t kb = 0; kb < k; kb += kBlockK) {
    size_t ke = std::min(k, kb + kBlockK);
    for (size_t jb = 0; jb < n; jb += kBlockN) {
      size_t jn = std::min(n - jb, kBlockN);
      for (size_t i = 0; i < m; ++i) {
        T* c = C + i * n + jb;
        for (size_t kk = kb; kk < ke; ++kk) {
          const T a = A[i * k + kk];
          const T* b = B + kk * n + jb;
          for (size_t j = 0; j < jn; ++j) c[j] += a * b[j];
        }
      }
    }
  }
}

}  // namespace

#if defined(__x86_64__)
// The tiled loop (cube_tile.inc) once per vector width, each compiled for its instruction set
// (the build itself needs no -mavx2 or -mavx512f; matmul_f32 calls a width only on a CPU that
// has it). Internal linkage: no inline function of these regions can stand in for another.
NPU_SIMD_AVX2_BEGIN
namespace {
namespace avx2 {
// 6 rows x 16 columns, 12 ymm sums (with two B vectors and a broadcast, 15 of the 16 registers):
// enough independent sums to cover the FMA latency on two pipes (5 x 2 on Zen 2).
struct Isa : simd::Avx2 {
  static constexpr int kRows = 6;
};
#include "isa/sem/cube_tile.inc"
}  // namespace avx2
}  // namespace
NPU_SIMD_END

NPU_SIMD_AVX512_BEGIN
namespace {
namespace avx512 {
// 8 rows x 32 columns, 16 zmm sums of the 32 registers: two FMA pipes of latency 4 (Zen 4/5,
// Intel server cores) need 8 independent sums, the extra rows halve the broadcasts per FMA.
struct Isa : simd::Avx512 {
  static constexpr int kRows = 8;
};
#include "isa/sem/cube_tile.inc"
}  // namespace avx512
}  // namespace
NPU_SIMD_END
#endif

namespace {

#if defined(__x86_64__)
// Every value zero or of magnitude in [2^-63, 2^63): biased exponent 64 .. 189.
__attribute__((target("avx2"))) bool exact_range_avx2(const float* v, size_t n) {
  const __m256i abs_mask = _mm256_set1_epi32(0x7FFFFFFF), lo = _mm256_set1_epi32(64 << 23),
                top = _mm256_set1_epi32((190 << 23) - 1), zero = _mm256_setzero_si256();  // top: below 2^63
  __m256i bad = zero;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i a = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)), abs_mask);
    const __m256i out = _mm256_or_si256(_mm256_cmpgt_epi32(lo, a), _mm256_cmpgt_epi32(a, top));
    bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi32(a, zero), out));
  }
  if (!_mm256_testz_si256(bad, bad)) return false;
  for (; i < n; ++i)
    if (!in_exact_range(v[i])) return false;
  return true;
}
#endif

}  // namespace

bool in_exact_range(float v) {
  uint32_t u;
  std::memcpy(&u, &v, 4);
  const uint32_t e = (u >> 23) & 0xFF;
  return (u & 0x7FFFFFFF) == 0 || (e >= 64 && e <= 189);
}

bool exact_products(const float* v, size_t n) {
#if defined(__x86_64__)
  if (cpu_has_avx2() && !no_simd_requested()) return exact_range_avx2(v, n);
#endif
  for (size_t i = 0; i < n; ++i)
    if (!in_exact_range(v[i])) return false;
  return true;
}

bool cube_path_available(CubePath path) {
  switch (path) {
    case CubePath::Auto:
    case CubePath::Portable: return true;
    case CubePath::Avx2: return cpu_has_avx2();
    case CubePath::Fma: return cpu_has_avx2() && cpu_has_fma();
    case CubePath::Avx512: return cpu_has_avx512f();
  }
  return false;
}

CubePath cube_path_auto() {
  static const CubePath p = no_simd_requested()                          ? CubePath::Portable
                            : cube_path_available(CubePath::Avx512) ? CubePath::Avx512
                            : cube_path_available(CubePath::Fma)    ? CubePath::Fma
                            : cube_path_available(CubePath::Avx2) ? CubePath::Avx2
                                                                  : CubePath::Portable;
  return p;
}

void matmul_f32(const float* A, const float* B, float* C, size_t m, size_t k, size_t n, CubePath path,
                bool products_exact) {
  if (path == CubePath::Auto) path = cube_path_auto();
#if defined(__x86_64__)
  if (path == CubePath::Avx512) {
    return products_exact ? avx512::matmul<true>(A, B, C, m, k, n) : avx512::matmul<false>(A, B, C, m, k, n);
  }
  if (path == CubePath::Fma && products_exact) return avx2::matmul<true>(A, B, C, m, k, n);
  if (path == CubePath::Avx2 || path == CubePath::Fma) return avx2::matmul<false>(A, B, C, m, k, n);
#endif
  matmul_portable(A, B, C, m, k, n);
}

#if defined(__x86_64__)
namespace {

// 4 rows x 32 columns of C in 8 zmm sums across the whole k loop: per k, two (masked) loads of
// B, four broadcasts of A, eight vpmulld + vpaddd. A last partial tile repeats its last row
// (computed, not stored) and masks its columns.
__attribute__((target("avx512f"))) void matmul_u32_avx512(const uint32_t* A, const uint32_t* B, uint32_t* C,
                                                          size_t m, size_t k, size_t n) {
  for (size_t j0 = 0; j0 < n; j0 += 32) {
    const size_t w = std::min<size_t>(32, n - j0);
    const __mmask16 m0 = w >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << w) - 1);
    const __mmask16 m1 = w >= 32 ? __mmask16(0xFFFF) : w > 16 ? __mmask16((1u << (w - 16)) - 1) : __mmask16(0);
    for (size_t i0 = 0; i0 < m; i0 += 4) {
      const size_t rows = std::min<size_t>(4, m - i0);
      const uint32_t* a[4];
      __m512i c[4][2];
      for (size_t r = 0; r < 4; ++r) {
        const size_t i = i0 + std::min(r, rows - 1);
        a[r] = A + i * k;
        c[r][0] = _mm512_maskz_loadu_epi32(m0, C + i * n + j0);
        c[r][1] = _mm512_maskz_loadu_epi32(m1, C + i * n + j0 + 16);
      }
      for (size_t q = 0; q < k; ++q) {
        const __m512i b0 = _mm512_maskz_loadu_epi32(m0, B + q * n + j0);
        const __m512i b1 = _mm512_maskz_loadu_epi32(m1, B + q * n + j0 + 16);
        for (size_t r = 0; r < 4; ++r) {
          const __m512i av = _mm512_set1_epi32(static_cast<int>(a[r][q]));
          c[r][0] = _mm512_add_epi32(c[r][0], _mm512_mullo_epi32(av, b0));
          c[r][1] = _mm512_add_epi32(c[r][1], _mm512_mullo_epi32(av, b1));
        }
      }
      for (size_t r = 0; r < rows; ++r) {
        _mm512_mask_storeu_epi32(C + (i0 + r) * n + j0, m0, c[r][0]);
        _mm512_mask_storeu_epi32(C + (i0 + r) * n + j0 + 16, m1, c[r][1]);
      }
    }
  }
}

}  // namespace
#endif

void matmul_u32(const uint32_t* A, const uint32_t* B, uint32_t* C, size_t m, size_t k, size_t n, CubePath path) {
  if (path == CubePath::Auto) path = cube_path_auto();
#if defined(__x86_64__)
  if (path == CubePath::Avx512) return matmul_u32_avx512(A, B, C, m, k, n);
#endif
  matmul_portable(A, B, C, m, k, n);
}

}  // namespace npu::sem
