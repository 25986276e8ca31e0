// The cube's product loops (cube_kernel.h).
#include "isa/sem/cube_kernel.h"

#include "base/simd.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace npu::sem {
namespace {

constexpr size_t kBlockK = 64, kBlockN = 256;
// AVX2 tile: 6 rows x 16 columns, 12 ymm sums (with two B vectors and a broadcast, 15 of the 16
// registers): enough independent sums to cover the FMA latency on two pipes (5 x 2 on Zen 2).
constexpr int kTileRows = 6;

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

#if defined(__x86_64__)
// Lanes [0, cols) of a ymm row segment (cols in 1..8): a mask for maskload / maskstore.
__attribute__((target("avx2"))) __m256i lane_mask(size_t cols) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(cols)), idx);
}

// R rows x V vectors (8 columns each) of C, all k: the sums stay in registers. With Edge, `mask`
// covers the columns of the last vector (the matrix's right edge).
template <int R, int V, bool Edge>
__attribute__((target("avx2"))) inline __m256 load_cols(const float* p, int v, __m256i mask) {
  return Edge && v == V - 1 ? _mm256_maskload_ps(p, mask) : _mm256_loadu_ps(p);
}

// Sum (r, v) of a tile from C (zero for the registers an R x V tile does not use), and back.
template <int R, int V, bool Edge>
__attribute__((target("avx2"))) inline __m256 load_sum(const float* C, size_t n, int r, int v, __m256i mask) {
  return r < R && v < V ? load_cols<R, V, Edge>(C + r * n + 8 * v, v, mask) : _mm256_setzero_ps();
}

template <int R, int V, bool Edge>
__attribute__((target("avx2"))) inline void store_sum(float* C, size_t n, int r, int v, __m256i mask, __m256 c) {
  if (r >= R || v >= V) return;
  float* p = C + r * n + 8 * v;
  if (Edge && v == V - 1) _mm256_maskstore_ps(p, mask, c);
  else _mm256_storeu_ps(p, c);
}

// R rows x V vectors (8 columns each) of C, all k: the R * V sums are named locals (not an
// array, which GCC keeps in memory and stores back on every k step). With Edge, `mask` covers
// the columns of the last vector (the matrix's right edge).
// Fused: c = fma(a, b, c), one rounding. The caller takes it only where every product a * b is
// exact in fp32 (exact_products), so that it rounds as the product-then-sum step.
template <bool Fused>
__attribute__((target("avx2,fma"))) inline __m256 mul_add(__m256 a, __m256 b, __m256 c) {
  return Fused ? _mm256_fmadd_ps(a, b, c) : _mm256_add_ps(_mm256_mul_ps(a, b), c);
}

// Row r of a tile, one k step: its sums (c0, c1) += a[r, k] * (b0, b1). Rows past R do nothing.
template <int R, int V, bool Fused, int r>
__attribute__((target("avx2,fma"))) inline void row_step(const float* a, size_t k, __m256 b0, __m256 b1,
                                                         __m256& c0, __m256& c1) {
  if (r >= R) return;
  const __m256 ar = _mm256_broadcast_ss(a + r * k);
  c0 = mul_add<Fused>(ar, b0, c0);
  if (V > 1) c1 = mul_add<Fused>(ar, b1, c1);
}

template <int R, int V, bool Edge, bool Fused>
__attribute__((target("avx2,fma"))) void tile_avx2(const float* A, const float* B, size_t ldb, float* C, size_t k,
                                                   size_t n, __m256i mask) {
  static_assert(R >= 1 && R <= kTileRows && V >= 1 && V <= 2, "tile of at most 6 x 2 vectors");
  const __m256 z = _mm256_setzero_ps();
#define NPU_LD(r, v) load_sum<R, V, Edge>(C, n, r, v, mask)
  __m256 c00 = NPU_LD(0, 0), c01 = NPU_LD(0, 1), c10 = NPU_LD(1, 0), c11 = NPU_LD(1, 1);
  __m256 c20 = NPU_LD(2, 0), c21 = NPU_LD(2, 1), c30 = NPU_LD(3, 0), c31 = NPU_LD(3, 1);
  __m256 c40 = NPU_LD(4, 0), c41 = NPU_LD(4, 1), c50 = NPU_LD(5, 0), c51 = NPU_LD(5, 1);
#undef NPU_LD
  for (size_t kk = 0; kk < k; ++kk) {
    const float* b = B + kk * ldb;
    const __m256 b0 = load_cols<R, V, Edge>(b, 0, mask);
    const __m256 b1 = V > 1 ? load_cols<R, V, Edge>(b + 8, 1, mask) : z;
    const float* a = A + kk;
    // c = a * b + c: the product first, then the sum (two roundings, as the portable loop).
    row_step<R, V, Fused, 0>(a, k, b0, b1, c00, c01);
    row_step<R, V, Fused, 1>(a, k, b0, b1, c10, c11);
    row_step<R, V, Fused, 2>(a, k, b0, b1, c20, c21);
    row_step<R, V, Fused, 3>(a, k, b0, b1, c30, c31);
    row_step<R, V, Fused, 4>(a, k, b0, b1, c40, c41);
    row_step<R, V, Fused, 5>(a, k, b0, b1, c50, c51);
  }
#define NPU_ST(r, v, c) store_sum<R, V, Edge>(C, n, r, v, mask, c)
  NPU_ST(0, 0, c00), NPU_ST(0, 1, c01), NPU_ST(1, 0, c10), NPU_ST(1, 1, c11);
  NPU_ST(2, 0, c20), NPU_ST(2, 1, c21), NPU_ST(3, 0, c30), NPU_ST(3, 1, c31);
  NPU_ST(4, 0, c40), NPU_ST(4, 1, c41), NPU_ST(5, 0, c50), NPU_ST(5, 1, c51);
#undef NPU_ST
}

// Rows in tiles of 6 (then one tile of the 1-5 left), columns in strips of 16 (then one vector
// of up to 8, masked): the strip of B (k x 16, ldb apart) stays in cache while every row tile
// passes over it.
template <int V, bool Edge, bool Fused>
__attribute__((target("avx2,fma"))) void strip_avx2(const float* A, const float* B, size_t ldb, float* C, size_t m,
                                                    size_t k, size_t n, __m256i mask) {
  size_t i = 0;
  for (; i + kTileRows <= m; i += kTileRows) tile_avx2<kTileRows, V, Edge, Fused>(A + i * k, B, ldb, C + i * n, k, n, mask);
  const float *a = A + i * k;
  float* c = C + i * n;
  switch (m - i) {
    case 5: tile_avx2<5, V, Edge, Fused>(a, B, ldb, c, k, n, mask); break;
    case 4: tile_avx2<4, V, Edge, Fused>(a, B, ldb, c, k, n, mask); break;
    case 3: tile_avx2<3, V, Edge, Fused>(a, B, ldb, c, k, n, mask); break;
    case 2: tile_avx2<2, V, Edge, Fused>(a, B, ldb, c, k, n, mask); break;
    case 1: tile_avx2<1, V, Edge, Fused>(a, B, ldb, c, k, n, mask); break;
    default: break;
  }
}

template <bool Fused>
__attribute__((target("avx2,fma"))) void matmul_avx2(const float* A, const float* B, float* C, size_t m, size_t k,
                                                     size_t n) {
  const __m256i all = lane_mask(8);
  // A strip read by more than a few row tiles is first packed densely (k x 16): rows of B n floats
  // apart map to a few L1 sets when n is a multiple of a power of two and would evict each other.
  thread_local std::vector<float> packed;
  const bool pack = m > 16 && n > 16;
  if (pack && packed.size() < k * 16) packed.resize(k * 16);
  size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    if (!pack) {
      strip_avx2<2, false, Fused>(A, B + j, n, C + j, m, k, n, all);
      continue;
    }
    for (size_t kk = 0; kk < k; ++kk) std::memcpy(packed.data() + kk * 16, B + kk * n + j, 16 * sizeof(float));
    strip_avx2<2, false, Fused>(A, packed.data(), 16, C + j, m, k, n, all);
  }
  for (; j + 8 <= n; j += 8) strip_avx2<1, false, Fused>(A, B + j, n, C + j, m, k, n, all);
  if (j < n) strip_avx2<1, true, Fused>(A, B + j, n, C + j, m, k, n, lane_mask(n - j));
}

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
  }
  return false;
}

CubePath cube_path_auto() {
  static const CubePath p = no_simd_requested()                        ? CubePath::Portable
                            : cube_path_available(CubePath::Fma)  ? CubePath::Fma
                            : cube_path_available(CubePath::Avx2) ? CubePath::Avx2
                                                                  : CubePath::Portable;
  return p;
}

void matmul_f32(const float* A, const float* B, float* C, size_t m, size_t k, size_t n, CubePath path,
                bool products_exact) {
  if (path == CubePath::Auto) path = cube_path_auto();
#if defined(__x86_64__)
  if (path == CubePath::Fma && products_exact) return matmul_avx2<true>(A, B, C, m, k, n);
  if (path == CubePath::Avx2 || path == CubePath::Fma) return matmul_avx2<false>(A, B, C, m, k, n);
#endif
  matmul_portable(A, B, C, m, k, n);
}

void matmul_u32(const uint32_t* A, const uint32_t* B, uint32_t* C, size_t m, size_t k, size_t n) {
  matmul_portable(A, B, C, m, k, n);
}

}  // namespace npu::sem
