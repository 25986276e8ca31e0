#pragma once
// Test-only oracle for float encoding: a slow "nearest representable" reference that shares
// no code with isa/numeric. It lists every finite non-negative value of the target format
// (from the textbook formula), brackets |x| between neighbours by binary search and picks one
// per rounding mode. Used by numeric_oracle_test.cc and numeric_oracle_long_test.cc.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "isa/numeric/dtype.h"

namespace npu::num::test {

struct OracleFormat {
  Dtype dtype;
  int exp_bits;
  int mant_bits;
  int bias;
  bool ieee_specials;  // all-ones exponent = Inf/NaN; otherwise only S.1..1.1..1 is NaN (e4m3)
  uint32_t sign_bit;
  uint32_t inf_code;   // magnitude bits of Inf (ieee_specials only)
  uint32_t nan_code;   // canonical quiet NaN magnitude bits
  bool fp8;
};

inline const OracleFormat kOracleBf16{Dtype::BF16, 8, 7, 127, true, 0x8000, 0x7F80, 0x7FC0, false};
inline const OracleFormat kOracleF16{Dtype::F16, 5, 10, 15, true, 0x8000, 0x7C00, 0x7E00, false};
inline const OracleFormat kOracleE5m2{Dtype::E5M2, 5, 2, 15, true, 0x80, 0x7C, 0x7E, true};
inline const OracleFormat kOracleE4m3{Dtype::E4M3, 4, 3, 7, false, 0x80, 0, 0x7F, true};

// Textbook value of a non-negative magnitude code (no specials).
inline double textbook_value(const OracleFormat& f, uint32_t code) {
  const uint32_t e = code >> f.mant_bits;
  const uint32_t m = code & ((1u << f.mant_bits) - 1);
  if (e == 0) return std::ldexp(static_cast<double>(m), 1 - f.bias - f.mant_bits);
  return std::ldexp(static_cast<double>((1u << f.mant_bits) + m),
                    static_cast<int>(e) - f.bias - f.mant_bits);
}

class Oracle {
 public:
  explicit Oracle(const OracleFormat& f) : f_(f) {
    const uint32_t all = (1u << (f.exp_bits + f.mant_bits));
    const uint32_t max_code = f.ieee_specials ? ((all - 1) >> f.mant_bits << f.mant_bits) - 1
                                              : all - 2;
    for (uint32_t c = 0; c <= max_code; ++c) values_.push_back(textbook_value(f, c));
    max_code_ = max_code;
    // One virtual value past max (the next value with an unbounded exponent): rounding to it
    // is an overflow.
    values_.push_back(values_[max_code] + (values_[max_code] - values_[max_code - 1]));
  }

  double max_value() const { return values_[max_code_]; }
  uint32_t max_code() const { return max_code_; }
  double value(uint32_t code) const { return values_[code]; }  // code <= max_code + 1 (virtual)

  uint32_t encode(double x, RoundMode rm, bool saturate) const {
    const uint32_t sign = std::signbit(x) ? f_.sign_bit : 0;
    if (std::isnan(x)) return sign | f_.nan_code;
    const uint32_t overflow = saturate ? max_code_ : (f_.ieee_specials ? f_.inf_code : f_.nan_code);
    if (std::isinf(x)) {
      if (saturate && f_.fp8) return sign | max_code_;
      return sign | (f_.ieee_specials ? f_.inf_code : f_.nan_code);
    }
    const double a = std::fabs(x);
    const bool neg = std::signbit(x);
    // Does this mode move the magnitude up when inexact?
    bool mag_up = false;
    switch (rm) {
      case RoundMode::Rne: break;
      case RoundMode::Trunc: mag_up = false; break;
      case RoundMode::Away: mag_up = true; break;
      case RoundMode::Floor: mag_up = neg; break;
      case RoundMode::Ceil: mag_up = !neg; break;
    }
    const uint32_t virt = max_code_ + 1;
    if (a >= values_[virt]) {  // at or beyond the virtual neighbour: always an overflow
      if (rm == RoundMode::Rne || mag_up) return sign | overflow;
      return sign | max_code_;  // IEEE: modes rounding toward zero give max finite
    }
    // largest lo with values_[lo] <= a
    const auto it = std::upper_bound(values_.begin(), values_.end(), a);
    const uint32_t lo = static_cast<uint32_t>((it - values_.begin()) - 1);
    uint32_t pick;
    if (values_[lo] == a) {
      pick = lo;
    } else {
      const uint32_t hi = lo + 1;
      if (rm == RoundMode::Rne) {
        const double mid = (values_[lo] + values_[hi]) / 2;  // exact: short significands
        if (a < mid) pick = lo;
        else if (a > mid) pick = hi;
        else pick = (lo % 2 == 0) ? lo : hi;  // ties to the even code
      } else {
        pick = mag_up ? hi : lo;
      }
    }
    if (pick == virt) return sign | overflow;  // only reachable when rounding up
    return sign | pick;
  }

 private:
  OracleFormat f_;
  std::vector<double> values_;
  uint32_t max_code_ = 0;
};

inline constexpr RoundMode kAllModes[] = {RoundMode::Rne, RoundMode::Trunc, RoundMode::Away,
                                          RoundMode::Floor, RoundMode::Ceil};

inline const char* mode_name(RoundMode rm) {
  switch (rm) {
    case RoundMode::Rne: return "rne";
    case RoundMode::Trunc: return "trunc";
    case RoundMode::Away: return "away";
    case RoundMode::Floor: return "floor";
    case RoundMode::Ceil: return "ceil";
  }
  return "?";
}

// Inputs that stress a format: every representable value, every tie between neighbours and
// one f32 ulp either side of it, the same at the overflow boundary, and doubles a hair off
// each tie (where rounding through f32 first would give a different answer). Both signs.
inline std::vector<double> structured_inputs(const Oracle& o, bool with_doubles) {
  std::vector<double> in;
  auto add_f32_neighbourhood = [&](double v) {
    const float f = static_cast<float>(v);
    in.push_back(f);
    in.push_back(std::nextafter(f, 0.0f));
    in.push_back(std::nextafter(f, INFINITY));
  };
  for (uint32_t c = 0; c <= o.max_code() + 1; ++c) {
    const double v = o.value(c);
    in.push_back(v);  // exact (off-code values are covered by the ties' neighbours)
    if (c == 0) continue;
    const double tie = (o.value(c - 1) + v) / 2;
    add_f32_neighbourhood(tie);
    if (with_doubles) {
      in.push_back(tie * (1 + 0x1p-40));
      in.push_back(tie * (1 - 0x1p-40));
    }
  }
  // Far beyond the range, and specials.
  for (double v : {1e10, 1e30, 3.4e38, 1e300, 0x1p-30, 0x1p-140, 1e-300}) in.push_back(v);
  in.push_back(INFINITY);
  in.push_back(NAN);
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) in.push_back(-in[i]);
  return in;
}

}  // namespace npu::num::test
