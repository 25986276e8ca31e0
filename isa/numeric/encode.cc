// Encoding a double into any element type with exactly one rounding step. Works on the
// double's bits (integer significand and exponent), so no libm call and no intermediate
// rounding: |v| = sig * 2^exp2 is scaled to the target quantum and rounded once.
#include <algorithm>
#include <cstring>
#include <limits>

#include "isa/numeric/float_format.h"
#include "isa/numeric/numeric.h"

namespace npu::num {
namespace {

using detail::FloatFormat;

// A finite nonzero double as |v| = sig * 2^exp2 (sig < 2^53).
struct Parts {
  bool neg;
  uint64_t sig;
  int exp2;
  int top;  // index of sig's highest set bit, so 2^(top + exp2) <= |v| < 2^(top + exp2 + 1)
};

uint64_t double_bits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

Parts split(uint64_t u) {
  const int biased = static_cast<int>((u >> 52) & 0x7FF);
  const uint64_t frac = u & ((uint64_t{1} << 52) - 1);
  Parts p;
  p.neg = (u >> 63) != 0;
  p.sig = biased ? (frac | (uint64_t{1} << 52)) : frac;
  p.exp2 = biased ? biased - 1075 : -1074;
  p.top = 63 - __builtin_clzll(p.sig);
  return p;
}

// |v| / 2^q rounded to an integer magnitude per rm (neg: the sign of v, for Floor/Ceil).
// The caller guarantees the result fits: top + exp2 - q < 62.
uint64_t round_magnitude(const Parts& p, int q, RoundMode rm) {
  const int shift = q - p.exp2;
  if (shift <= 0) return p.sig << -shift;  // exact
  uint64_t n, rem, half;
  if (shift > 62) {
    // sig < 2^53 <= half: below half a quantum, and inexact.
    n = 0;
    rem = 1;
    half = uint64_t{1} << 62;
  } else {
    n = p.sig >> shift;
    rem = p.sig & ((uint64_t{1} << shift) - 1);
    half = uint64_t{1} << (shift - 1);
  }
  bool up = false;
  switch (rm) {
    case RoundMode::Rne: up = rem > half || (rem == half && (n & 1)); break;
    case RoundMode::Trunc: up = false; break;
    case RoundMode::Away: up = rem != 0; break;
    case RoundMode::Floor: up = p.neg && rem != 0; break;
    case RoundMode::Ceil: up = !p.neg && rem != 0; break;
  }
  return n + (up ? 1 : 0);
}

// Magnitude bits on overflow (IEEE 754 for directed modes; see numeric.h).
uint32_t overflow_code(const FloatFormat& f, bool neg, RoundMode rm, bool saturate) {
  bool to_inf = false;
  if (!saturate) {
    switch (rm) {
      case RoundMode::Rne:
      case RoundMode::Away: to_inf = true; break;
      case RoundMode::Trunc: to_inf = false; break;
      case RoundMode::Floor: to_inf = neg; break;
      case RoundMode::Ceil: to_inf = !neg; break;
    }
  }
  if (!to_inf) return f.max_code();
  return f.has_inf ? f.inf_code : f.qnan_code;  // e4m3 has no Inf: NaN
}

uint32_t encode_float(const FloatFormat& f, double v, RoundMode rm, bool saturate) {
  const uint64_t u = double_bits(v);
  const bool neg = (u >> 63) != 0;
  const uint32_t sign = neg ? f.sign_bit : 0;
  const uint64_t mag = u & ~(uint64_t{1} << 63);
  if (mag >= 0x7FF0000000000000ull) {
    if (mag > 0x7FF0000000000000ull) return sign | f.qnan_code;  // NaN
    if (saturate && f.is_fp8) return sign | f.max_code();
    return sign | (f.has_inf ? f.inf_code : f.qnan_code);        // Inf
  }
  if (mag == 0) return sign;  // signed zero
  const Parts p = split(u);
  const int e = p.top + p.exp2;
  int eq = std::max(e, f.min_exp());  // exponent of the binade whose quantum we round to
  uint64_t n = round_magnitude(p, eq - f.mant_bits, rm);  // n <= 2^(mant_bits + 1)
  const uint64_t hidden = uint64_t{1} << f.mant_bits;
  if (n < hidden) return sign | static_cast<uint32_t>(n);  // subnormal or zero (eq == min_exp)
  if (n >> (f.mant_bits + 1)) {  // rounded up into the next binade
    n >>= 1;
    ++eq;
  }
  const int biased = eq + f.bias;
  const uint64_t mant = n - hidden;
  if (biased > f.max_biased_exp || (biased == f.max_biased_exp && mant > f.max_top_mant))
    return sign | overflow_code(f, neg, rm, saturate);
  return sign | (static_cast<uint32_t>(biased) << f.mant_bits) | static_cast<uint32_t>(mant);
}

int64_t encode_int(double v, RoundMode rm, int64_t lo, int64_t hi) {
  const uint64_t u = double_bits(v);
  const bool neg = (u >> 63) != 0;
  const uint64_t mag = u & ~(uint64_t{1} << 63);
  if (mag > 0x7FF0000000000000ull) return 0;  // NaN
  if (mag == 0) return 0;
  if (mag == 0x7FF0000000000000ull) return neg ? lo : hi;
  const Parts p = split(u);
  if (p.top + p.exp2 >= 62) return neg ? lo : hi;  // |v| >= 2^62: beyond every range
  const uint64_t n = round_magnitude(p, 0, rm);
  if (neg) return n > static_cast<uint64_t>(-lo) ? lo : -static_cast<int64_t>(n);
  return n > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(n);
}

uint8_t encode_e8m0(double v, RoundMode rm, bool saturate) {
  const uint64_t u = double_bits(v);
  const uint64_t mag = u & ~(uint64_t{1} << 63);
  if (mag > 0x7FF0000000000000ull) return 0xFF;  // NaN
  if (mag == 0) return 0x00;                     // +-0: the smallest scale
  if (u >> 63) return 0xFF;                      // negative: not representable
  if (mag == 0x7FF0000000000000ull) return saturate ? 0xFE : 0xFF;
  const Parts p = split(u);
  const int e = p.top + p.exp2;  // 2^e <= v < 2^(e+1)
  if (e < -127) return 0x00;     // below 2^-127: clamp to the smallest scale
  const uint64_t frac = p.sig - (uint64_t{1} << p.top);
  bool up = false;
  switch (rm) {
    case RoundMode::Rne:
      if (p.top > 0) {
        const uint64_t half = uint64_t{1} << (p.top - 1);  // v = 1.5 * 2^e
        up = frac > half || (frac == half && ((e + 127) & 1));  // ties to the even code
      }
      break;
    case RoundMode::Trunc:
    case RoundMode::Floor: up = false; break;
    case RoundMode::Away:
    case RoundMode::Ceil: up = frac != 0; break;
  }
  const int code = e + 127 + (up ? 1 : 0);
  if (code > 254) return saturate ? 0xFE : 0xFF;
  return static_cast<uint8_t>(code);
}

}  // namespace

uint64_t encode_bits(Dtype t, double v, RoundMode rm, bool saturate) {
  switch (t) {
    case Dtype::F32: return encode_float(detail::kF32, v, rm, saturate);
    case Dtype::F16: return encode_float(detail::kF16, v, rm, saturate);
    case Dtype::BF16: return encode_float(detail::kBF16, v, rm, saturate);
    case Dtype::E4M3: return encode_float(detail::kE4M3, v, rm, saturate);
    case Dtype::E5M2: return encode_float(detail::kE5M2, v, rm, saturate);
    case Dtype::E8M0: return encode_e8m0(v, rm, saturate);
    case Dtype::S32:
      return static_cast<uint32_t>(encode_int(v, rm, std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max()));
    case Dtype::S16: return static_cast<uint16_t>(encode_int(v, rm, -32768, 32767));
    case Dtype::S8: return static_cast<uint8_t>(encode_int(v, rm, -128, 127));
    case Dtype::U8: return static_cast<uint8_t>(encode_int(v, rm, 0, 255));
  }
  return 0;
}

void encode(Dtype t, void* p, double v, RoundMode rm, bool saturate) {
  const uint64_t bits = encode_bits(t, v, rm, saturate);
  auto* out = static_cast<unsigned char*>(p);
  for (int i = 0; i < size_of(t); ++i) out[i] = static_cast<unsigned char>(bits >> (8 * i));
}

uint8_t f32_to_e4m3(float f, bool saturate) {
  return static_cast<uint8_t>(encode_float(detail::kE4M3, f, RoundMode::Rne, saturate));
}

uint8_t f32_to_e5m2(float f, bool saturate) {
  return static_cast<uint8_t>(encode_float(detail::kE5M2, f, RoundMode::Rne, saturate));
}

}  // namespace npu::num
