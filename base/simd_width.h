#pragma once
// fp32 vector wrappers for each x86 width, for code written once and compiled per width (the
// functional cube's tile, isa/sem/cube_tile.inc; the bench's FMA peak, hw/top/fma_chains.inc).
// Each struct is compiled for its own instruction set (NPU_SIMD_AVX2_BEGIN ... NPU_SIMD_END:
// `#pragma GCC target` with gcc, `#pragma clang attribute` with clang), so the build needs no
// -m flag: call a width only on a CPU that has it (base/simd.h). A user includes its loop
// between the same markers, inside a namespace of its own, with `using Isa = ...` or a struct
// derived from one of these that adds its tile shape.
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>

#if defined(__clang__)
#define NPU_SIMD_AVX2_BEGIN _Pragma("clang attribute push(__attribute__((target(\"avx2,fma\"))), apply_to = function)")
#define NPU_SIMD_AVX512_BEGIN _Pragma("clang attribute push(__attribute__((target(\"avx512f\"))), apply_to = function)")
#define NPU_SIMD_END _Pragma("clang attribute pop")
#else
#define NPU_SIMD_AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma\")")
#define NPU_SIMD_AVX512_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f\")")
#define NPU_SIMD_END _Pragma("GCC pop_options")
#endif

NPU_SIMD_AVX2_BEGIN
namespace npu::simd {
struct Avx2 {  // 8 lanes; masks are per-lane all-ones / zero words
  using V = __m256;
  using M = __m256i;
  static constexpr int kLanes = 8;
  static M lane_mask(size_t cols) {  // lanes [0, cols), cols in 1..8
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(cols)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V loadu(const float* p) { return _mm256_loadu_ps(p); }
  static V maskload(const float* p, M m) { return _mm256_maskload_ps(p, m); }
  static void storeu(float* p, V v) { _mm256_storeu_ps(p, v); }
  static void maskstore(float* p, M m, V v) { _mm256_maskstore_ps(p, m, v); }
  static V zero() { return _mm256_setzero_ps(); }
  static V set1(float x) { return _mm256_set1_ps(x); }
  static V bcast(const float* p) { return _mm256_broadcast_ss(p); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static float first(V v) { return _mm256_cvtss_f32(v); }
};
}  // namespace npu::simd
NPU_SIMD_END

NPU_SIMD_AVX512_BEGIN
namespace npu::simd {
struct Avx512 {  // 16 lanes (AVX-512F); masks are mask registers
  using V = __m512;
  using M = __mmask16;
  static constexpr int kLanes = 16;
  static M lane_mask(size_t cols) { return static_cast<M>((1u << cols) - 1); }  // cols in 1..16
  static V loadu(const float* p) { return _mm512_loadu_ps(p); }
  static V maskload(const float* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
  static void storeu(float* p, V v) { _mm512_storeu_ps(p, v); }
  static void maskstore(float* p, M m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V zero() { return _mm512_setzero_ps(); }
  static V set1(float x) { return _mm512_set1_ps(x); }
  static V bcast(const float* p) { return _mm512_set1_ps(*p); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static float first(V v) { return _mm512_cvtss_f32(v); }
};
}  // namespace npu::simd
NPU_SIMD_END
#endif
