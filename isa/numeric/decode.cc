// Decoding element bits to exact values, and the per-element fast paths used by the
// functional cube/vector units (bit twiddling for f16/bf16, compile-time tables for 8-bit).
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/numeric/float_format.h"
#include "isa/numeric/numeric.h"

namespace npu::num {
namespace {

constexpr uint32_t kF32QuietNan = 0x7FC00000u;

using Table = std::array<uint32_t, 256>;  // f32 bit patterns

constexpr Table make_table(const detail::FloatFormat& f) {
  Table t{};
  for (uint32_t c = 0; c < 256; ++c) t[c] = detail::to_f32_bits(f, c);
  return t;
}

// E8M0 code c (1..254) is 2^(c-127): the f32 with biased exponent c. Code 0 (2^-127) is the
// f32 subnormal 0x00400000; 0xFF is NaN (no sign).
constexpr Table make_e8m0_table() {
  Table t{};
  for (uint32_t c = 1; c < 255; ++c) t[c] = c << 23;
  t[0] = 0x00400000u;
  t[255] = kF32QuietNan;
  return t;
}

constexpr Table kE4M3Table = make_table(detail::kE4M3);
constexpr Table kE5M2Table = make_table(detail::kE5M2);
constexpr Table kE8M0Table = make_e8m0_table();

}  // namespace

float bits_to_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint32_t f32_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bf16_to_f32(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) u = (u & 0x80000000u) | kF32QuietNan;  // canonical NaN
  return bits_to_f32(u);
}

uint16_t f32_to_bf16(float f) {
  const uint32_t u = f32_to_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16 & 0x8000u) | 0x7FC0u);
  // RNE on the bit pattern: the encoding is monotonic in magnitude, so adding half an ulp
  // (minus one, plus the kept LSB for ties-to-even) rounds correctly, carries into the
  // exponent, and turns overflow into Inf.
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & 0x3FFu;
  if (exp == 0x1F) return bits_to_f32(sign | (mant ? kF32QuietNan : 0x7F800000u));
  if (exp == 0) {
    const float mag = static_cast<float>(mant) * 0x1p-24f;  // exact: subnormal = mant * 2^-24
    return sign ? -mag : mag;
  }
  return bits_to_f32(sign | ((exp + 112u) << 23) | (mant << 13));
}

uint16_t f32_to_f16(float f) {
  const uint32_t u = f32_to_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t mag = u & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return sign | 0x7E00u;               // NaN
  if (mag >= 0x47800000u) return sign | 0x7C00u;              // >= 2^16 (or Inf): overflow
  if (mag >= 0x38800000u) {                                   // >= 2^-14: f16 normal range
    // Rebias the exponent (127 -> 15) and round 13 bits away RNE; a carry reaching
    // exponent 31 is the correct overflow to Inf (values in [65520, 65536)).
    const uint32_t rebased = mag - (112u << 23);
    return sign | static_cast<uint16_t>((rebased + 0xFFFu + ((rebased >> 13) & 1u)) >> 13);
  }
  const uint32_t exp = mag >> 23;
  if (exp < 102) return sign;  // < 2^-25: below half the smallest subnormal (2^-24)
  // Subnormal result: n = value / 2^-24 = mant * 2^(exp - 126), rounded RNE.
  const uint32_t mant = (mag & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126u - exp;  // 14..24
  const uint32_t q = mant >> shift;
  const uint32_t rem = mant & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1u);
  const uint32_t n = q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
  return sign | static_cast<uint16_t>(n);  // n == 0x400 is the smallest normal, as encoded
}

float e4m3_to_f32(uint8_t b) { return bits_to_f32(kE4M3Table[b]); }
float e5m2_to_f32(uint8_t b) { return bits_to_f32(kE5M2Table[b]); }
float e8m0_to_f32(uint8_t b) { return bits_to_f32(kE8M0Table[b]); }

double decode_bits(Dtype t, uint64_t bits) {
  switch (t) {
    case Dtype::F32: {
      const uint32_t u = static_cast<uint32_t>(bits);
      if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return std::copysign(std::numeric_limits<double>::quiet_NaN(), (u >> 31) ? -1.0 : 1.0);
      return bits_to_f32(u);
    }
    case Dtype::F16: return f16_to_f32(static_cast<uint16_t>(bits));
    case Dtype::BF16: return bf16_to_f32(static_cast<uint16_t>(bits));
    case Dtype::E4M3: return e4m3_to_f32(static_cast<uint8_t>(bits));
    case Dtype::E5M2: return e5m2_to_f32(static_cast<uint8_t>(bits));
    case Dtype::E8M0: return e8m0_to_f32(static_cast<uint8_t>(bits));
    case Dtype::S32: return static_cast<int32_t>(static_cast<uint32_t>(bits));
    case Dtype::S16: return static_cast<int16_t>(static_cast<uint16_t>(bits));
    case Dtype::S8: return static_cast<int8_t>(static_cast<uint8_t>(bits));
    case Dtype::U8: return static_cast<uint8_t>(bits);
  }
  return 0.0;
}

double decode(Dtype t, const void* p) {
  const auto* in = static_cast<const unsigned char*>(p);
  uint64_t bits = 0;
  for (int i = 0; i < size_of(t); ++i) bits |= static_cast<uint64_t>(in[i]) << (8 * i);
  return decode_bits(t, bits);
}

}  // namespace npu::num
