#pragma once
// The functional cube's product loop: C[m, n] += A[m, k] x B[k, n] in fp32, every output
// element accumulating its k products in increasing k order, each step `c = a * b + c` rounded
// twice (the product, then the sum; no fused multiply-add), the product the first operand of
// the addition (which NaN a two-NaN addition returns). Every path gives the same bits; they
// differ only in speed:
//   Portable  blocked scalar loops the compiler vectorises for the baseline ISA
//   Avx2      a 4 x 16 register tile (8 ymm sums, kept across the whole k loop; strips of B
//             packed densely when many row tiles read them), chosen at run time when the CPU
//             has AVX2 (the build itself needs no -mavx2)
// Auto takes the fastest path the CPU supports, or Portable when the environment variable
// NPUSIM_NO_SIMD is set to anything but "" or "0" (to compare the paths on one host).
#include <cstddef>
#include <cstdint>

namespace npu::sem {

enum class CubePath { Auto, Portable, Avx2 };

bool cube_path_available(CubePath path);
CubePath cube_path_auto();  // what Auto resolves to here

// A, B, C row-major, no aliasing between C and A or B. Throws nothing; an unavailable path is
// the caller's error (check cube_path_available first).
void matmul_f32(const float* A, const float* B, float* C, size_t m, size_t k, size_t n,
                CubePath path = CubePath::Auto);

// Wrapping int32 accumulation (s8 mmad): C += A x B in uint32 arithmetic, any order is exact.
void matmul_u32(const uint32_t* A, const uint32_t* B, uint32_t* C, size_t m, size_t k, size_t n);

}  // namespace npu::sem
