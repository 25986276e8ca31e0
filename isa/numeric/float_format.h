#pragma once
// Internal: bit layout of the binary float element types, shared by the encoder and decoder.
#include <cstdint>

#include "isa/numeric/dtype.h"

namespace npu::num::detail {

struct FloatFormat {
  int mant_bits;           // stored fraction bits
  int bias;
  int max_biased_exp;      // largest exponent field of a finite value
  uint32_t max_top_mant;   // largest fraction field at max_biased_exp (e4m3: 6, S.1111.111 is NaN)
  uint32_t sign_bit;
  bool has_inf;
  uint32_t inf_code;       // magnitude bits of Inf (unused without has_inf)
  uint32_t qnan_code;      // magnitude bits of the canonical quiet NaN
  bool is_fp8;             // saturating casts also clamp +-Inf input (docs/numerics.md fp8 casts)
  constexpr int min_exp() const { return 1 - bias; }
  constexpr uint32_t max_code() const {
    return (static_cast<uint32_t>(max_biased_exp) << mant_bits) | max_top_mant;
  }
};

inline constexpr FloatFormat kF32{23, 127, 254, 0x7FFFFF, 0x80000000u, true, 0x7F800000u, 0x7FC00000u, false};
inline constexpr FloatFormat kF16{10, 15, 30, 0x3FF, 0x8000, true, 0x7C00, 0x7E00, false};
inline constexpr FloatFormat kBF16{7, 127, 254, 0x7F, 0x8000, true, 0x7F80, 0x7FC0, false};
inline constexpr FloatFormat kE5M2{2, 15, 30, 0x3, 0x80, true, 0x7C, 0x7E, true};
inline constexpr FloatFormat kE4M3{3, 7, 15, 0x6, 0x80, false, 0, 0x7F, true};

// f32 bit pattern of the value of `code` in format f (exact: every format here is a subset of
// f32). NaN codes give the canonical f32 quiet NaN with the code's sign. constexpr so the
// 8-bit decode tables are built by the compiler.
constexpr uint32_t to_f32_bits(const FloatFormat& f, uint32_t code) {
  const uint32_t sign = (code & f.sign_bit) ? 0x80000000u : 0u;
  const uint32_t mag = code & (f.sign_bit - 1);
  const uint32_t exp = mag >> f.mant_bits;
  uint32_t mant = mag & ((1u << f.mant_bits) - 1);
  const uint32_t exp_ones = (f.sign_bit - 1) >> f.mant_bits;
  if (f.has_inf && exp == exp_ones) return sign | (mant ? 0x7FC00000u : 0x7F800000u);
  if (!f.has_inf && mag > f.max_code()) return sign | 0x7FC00000u;
  if (exp == 0) {
    if (mant == 0) return sign;
    // Subnormal: value = mant * 2^(min_exp - mant_bits); normalise (always normal in f32
    // for the narrow formats; f32 itself never takes this path).
    int e = f.min_exp();
    while (!(mant & (1u << f.mant_bits))) {
      mant <<= 1;
      --e;
    }
    mant &= (1u << f.mant_bits) - 1;
    return sign | (static_cast<uint32_t>(e + 127) << 23) | (mant << (23 - f.mant_bits));
  }
  return sign | (static_cast<uint32_t>(static_cast<int>(exp) - f.bias + 127) << 23) |
         (mant << (23 - f.mant_bits));
}

// The format of a binary float dtype (F32, F16, BF16, E4M3, E5M2); nullptr otherwise.
inline const FloatFormat* float_format(Dtype t) {
  switch (t) {
    case Dtype::F32: return &kF32;
    case Dtype::F16: return &kF16;
    case Dtype::BF16: return &kBF16;
    case Dtype::E4M3: return &kE4M3;
    case Dtype::E5M2: return &kE5M2;
    default: return nullptr;
  }
}

}  // namespace npu::num::detail
