#pragma once
// The functional cube's product loop: C[m, n] += A[m, k] x B[k, n] in fp32, every output
// element accumulating its k products in increasing k order, each step `c = a * b + c` rounded
// twice (the product, then the sum; no fused multiply-add), the product the first operand of
// the addition (which NaN a two-NaN addition returns). Every path gives the same bits; they
// differ only in speed:
//   Portable  blocked scalar loops the compiler vectorises for the baseline ISA
//   Avx2      a 6 x 16 register tile (12 ymm sums, kept across the whole k loop; strips of B
//             packed densely when many row tiles read them), chosen at run time when the CPU
//             has AVX2 (the build itself needs no -mavx2)
//   Fma       the Avx2 tile with fused multiply-adds (CPU with AVX2 and FMA), taken only when the
//             caller says every product is exact in fp32 (products_exact; the Avx2 tile
//             otherwise): then fma(a, b, c) = round(a * b + c) = round(round(a * b) + c), the
//             same bits as the two-rounding step, at twice the rate. The mmad of 16-bit and fp8
//             operands qualifies when exact_products holds for both: their significands (at most
//             11 bits each) multiply into at most 22 bits, and the range keeps the product a
//             normal fp32 number (no underflow, no overflow, no NaN or infinity among them).
//   Avx512    the same on 16-lane zmm registers, an 8 x 32 tile (16 sums), fused exactly where
//             Fma is (AVX-512F always has FMA), chosen when the CPU has AVX-512F
// Auto takes the fastest path the CPU supports, or Portable when the environment variable
// NPUSIM_NO_SIMD is set to anything but "" or "0" (to compare the paths on one host).
#include <cstddef>
#include <cstdint>

namespace npu::sem {

enum class CubePath { Auto, Portable, Avx2, Fma, Avx512 };

bool cube_path_available(CubePath path);
CubePath cube_path_auto();  // what Auto resolves to here

// A, B, C row-major, no aliasing between C and A or B. Throws nothing; an unavailable path is
// the caller's error (check cube_path_available first).
void matmul_f32(const float* A, const float* B, float* C, size_t m, size_t k, size_t n,
                CubePath path = CubePath::Auto, bool products_exact = false);

// Every value is zero or of magnitude in [2^-63, 2^63) (so a product of two such values with
// significands of at most 12 bits each is an exact, normal fp32 number).
bool in_exact_range(float v);
bool exact_products(const float* v, size_t n);

// Wrapping int32 accumulation (s8 mmad): C += A x B in uint32 arithmetic, any order is exact.
// Avx512: a 4 x 32 register tile (vpmulld); every other path runs the portable loop.
void matmul_u32(const uint32_t* A, const uint32_t* B, uint32_t* C, size_t m, size_t k, size_t n,
                CubePath path = CubePath::Auto);

}  // namespace npu::sem
