// The cube's product loops (cube_kernel.h).
#include "isa/sem/cube_kernel.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

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

#if defined(__x86_64__)
// Lanes [0, cols) of a ymm row segment (cols in 1..8): a mask for maskload / maskstore.
__attribute__((target("avx2"))) __m256i lane_mask(size_t cols) {
  const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(cols)), idx);
}

// R rows x V vectors (8 columns each) of C, all k: the sums stay in registers. With Edge, `mask`
// covers the columns of the last vector (the matrix's right edge).
template <int R, int V, bool Edge>
__attribute__((target("avx2"))) void tile_avx2(const float* A, const float* B, float* C, size_t k, size_t n,
                                               __m256i mask) {
  __m256 acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = Edge && v == V - 1 ? _mm256_maskload_ps(C + r * n + 8 * v, mask) : _mm256_loadu_ps(C + r * n + 8 * v);
  for (size_t kk = 0; kk < k; ++kk) {
    __m256 b[V];
    for (int v = 0; v < V; ++v)
      b[v] = Edge && v == V - 1 ? _mm256_maskload_ps(B + kk * n + 8 * v, mask) : _mm256_loadu_ps(B + kk * n + 8 * v);
    for (int r = 0; r < R; ++r) {
      const __m256 a = _mm256_broadcast_ss(A + r * k + kk);
      for (int v = 0; v < V; ++v) acc[r][v] = _mm256_add_ps(_mm256_mul_ps(a, b[v]), acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) {
      if (Edge && v == V - 1)
        _mm256_maskstore_ps(C + r * n + 8 * v, mask, acc[r][v]);
      else
        _mm256_storeu_ps(C + r * n + 8 * v, acc[r][v]);
    }
}

// Rows in tiles of 4 (then 1 at a time), columns in strips of 16 (then one vector of up to 8,
// masked): the strip of B (k x 16) stays in cache while every row tile passes over it.
template <int V, bool Edge>
__attribute__((target("avx2"))) void strip_avx2(const float* A, const float* B, float* C, size_t m, size_t k,
                                                size_t n, __m256i mask) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4) tile_avx2<4, V, Edge>(A + i * k, B, C + i * n, k, n, mask);
  for (; i < m; ++i) tile_avx2<1, V, Edge>(A + i * k, B, C + i * n, k, n, mask);
}

__attribute__((target("avx2"))) void matmul_avx2(const float* A, const float* B, float* C, size_t m, size_t k,
                                                 size_t n) {
  const __m256i all = lane_mask(8);
  size_t j = 0;
  for (; j + 16 <= n; j += 16) strip_avx2<2, false>(A, B + j, C + j, m, k, n, all);
  for (; j + 8 <= n; j += 8) strip_avx2<1, false>(A, B + j, C + j, m, k, n, all);
  if (j < n) strip_avx2<1, true>(A, B + j, C + j, m, k, n, lane_mask(n - j));
}
#endif

bool no_simd_requested() {
  const char* e = std::getenv("NPUSIM_NO_SIMD");
  return e && *e && std::strcmp(e, "0") != 0;
}

}  // namespace

bool cube_path_available(CubePath path) {
  switch (path) {
    case CubePath::Auto:
    case CubePath::Portable: return true;
    case CubePath::Avx2:
#if defined(__x86_64__)
      return __builtin_cpu_supports("avx2");
#else
      return false;
#endif
  }
  return false;
}

CubePath cube_path_auto() {
  static const CubePath p =
      !no_simd_requested() && cube_path_available(CubePath::Avx2) ? CubePath::Avx2 : CubePath::Portable;
  return p;
}

void matmul_f32(const float* A, const float* B, float* C, size_t m, size_t k, size_t n, CubePath path) {
  if (path == CubePath::Auto) path = cube_path_auto();
#if defined(__x86_64__)
  if (path == CubePath::Avx2) return matmul_avx2(A, B, C, m, k, n);
#endif
  matmul_portable(A, B, C, m, k, n);
}

void matmul_u32(const uint32_t* A, const uint32_t* B, uint32_t* C, size_t m, size_t k, size_t n) {
  matmul_portable(A, B, C, m, k, n);
}

}  // namespace npu::sem
