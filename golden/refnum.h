#pragma once
// Independent reference conversions for the goldens. They deliberately do not call
// isa/numeric (the code under test): a golden that shares the conversion it checks cannot
// catch a bug in it. Semantics follow docs/numerics.md; every encode rounds once (RNE) from double.
#include <cstdint>
#include <cstring>
#include <string>

#include "isa/numeric/dtype.h"

namespace npu::golden::ref {

using num::Dtype;

int size_of(Dtype t);             // bytes per element
bool is_float(Dtype t);           // f32 f16 bf16 e4m3 e5m2 e8m0
const char* name_of(Dtype t);     // "f32", "bf16", ... (ISA spelling)
bool parse_dtype(const std::string& name, Dtype* out);

// Exact value of an element given its bits (low size_of(t) bytes). NaN codes give NaN.
double decode(Dtype t, uint64_t bits);

// decode of n consecutive little-endian elements at `bytes` into out[0, n): the same values as
// decode() per element; 16-bit float types go through a table of all 65,536 codes built once
// from decode() (the goldens' hot loops decode millions of elements).
void decode_n(Dtype t, const uint8_t* bytes, int64_t n, double* out);

// One RNE rounding from double into t.
//  floats: overflow -> +-Inf (f32/f16/bf16/e5m2) or NaN (e4m3) unless `saturate`, which
//          clamps to +-max finite; Inf input stays Inf where the format has Inf, otherwise it
//          is NaN (or +-max when saturating); NaN -> the quiet NaN code with the sign kept
//          (f32 0x7FC00000, bf16 0x7FC0, f16 0x7E00, e4m3 0x7F, e5m2 0x7E).
//  integers (s32 s16 s8 u8): RNE, always saturating; NaN -> 0.
//  e8m0: nearest power of two (ties to the even code); <= 0, NaN, Inf or outside
//        [2^-127, 2^127] -> 0xFF.
uint64_t encode(Dtype t, double v, bool saturate = false);

// One RNE rounding from double done on the bits, for results that are normal numbers of an
// IEEE binary format with ebits / mbits / bias (the common case; inline for the generators'
// loops); false where encode's general path must decide (zero, subnormal, overflow, Inf/NaN).
// Ties to even on the dropped 52 - mbits bits; a carry out of the mantissa moves into the
// exponent, as in the general path.
inline bool encode_normal(int ebits, int mbits, int bias, double v, uint64_t* out) {
  uint64_t d;
  std::memcpy(&d, &v, sizeof d);
  const uint64_t sign = d >> 63, dexp = (d >> 52) & 0x7FF;
  const int64_t e = int64_t(dexp) - 1023 + bias;  // target exponent field
  const int64_t top = (int64_t(1) << ebits) - 1;   // Inf / NaN exponent field
  if (e < 1 || e >= top || dexp == 0x7FF) return false;
  const int drop = 52 - mbits;
  const uint64_t mant = d & ((uint64_t(1) << 52) - 1);
  const uint64_t half = uint64_t(1) << (drop - 1), rest = mant & ((uint64_t(1) << drop) - 1);
  uint64_t q = (uint64_t(e) << mbits) | (mant >> drop);  // exponent and kept mantissa
  if (rest > half || (rest == half && (q & 1))) ++q;     // the carry may reach the exponent
  if (int64_t(q >> mbits) >= top) return false;          // rounded up to overflow
  *out = (sign << (ebits + mbits)) | q;
  return true;
}

// The ebits / mbits / bias of t for encode_normal when t is an IEEE binary format (f32 f16 bf16
// e5m2: the top exponent is Inf / NaN); false for the others.
bool ieee_layout(Dtype t, int* ebits, int* mbits, int* bias);

// Largest finite value (e4m3 448, e5m2 57344, f16 65504, bf16 ~3.39e38, ints: max).
double max_finite(Dtype t);
// The least value of an integer dtype (s8 -128, s16 -32768, s32 -2^31, u8 0).
double int_min(Dtype t);

// Round to nearest, ties to even, on a double (no dependence on the FP environment).
double rne(double v);

// encode(Dtype::S8, v) as its byte, inline for the per-element loops of the int8 goldens: RNE,
// saturate to [-128, 127], NaN -> 0 (clamped first: the bounds are integers, so clamping and
// rounding commute; then floor by truncation, exact below 2^63).
inline uint8_t encode_s8(double v) {
  if (v != v) return 0;  // NaN
  const double c = v < -128.0 ? -128.0 : v > 127.0 ? 127.0 : v;
  const int64_t t = static_cast<int64_t>(c);  // toward zero
  const int64_t fl = t - int64_t(c < static_cast<double>(t));
  const double frac = c - static_cast<double>(fl);
  // Without branches: a fraction above or below one half is a coin toss for a predictor.
  const int64_t up = int64_t(frac > 0.5) | (int64_t(frac == 0.5) & (fl & 1));
  return static_cast<uint8_t>(static_cast<int8_t>(fl + up));
}

// fp32 -> bf16 -> fp32 (the cast every golden applies to bf16 outputs).
float bf16_rne(float f);
float f16_rne(float f);

}  // namespace npu::golden::ref
