#include "golden/refnum.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace npu::golden::ref {
namespace {

// A binary float format: ebits/mbits/bias; IEEE formats reserve the top exponent for
// Inf/NaN, e4m3 (OCP) has no Inf and only S.1111.111 as NaN.
struct Format {
  int ebits, mbits, bias;
  bool ieee;           // top exponent = Inf/NaN
  uint64_t qnan;       // positive quiet NaN code
};

const Format* format_of(Dtype t) {
  static const Format f32{8, 23, 127, true, 0x7FC00000u};
  static const Format f16{5, 10, 15, true, 0x7E00u};
  static const Format bf16{8, 7, 127, true, 0x7FC0u};
  static const Format e4m3{4, 3, 7, false, 0x7Fu};
  static const Format e5m2{5, 2, 15, true, 0x7Eu};
  switch (t) {
    case Dtype::F32: return &f32;
    case Dtype::F16: return &f16;
    case Dtype::BF16: return &bf16;
    case Dtype::E4M3: return &e4m3;
    case Dtype::E5M2: return &e5m2;
    default: return nullptr;
  }
}

double fmt_max(const Format& f) {
  int emax_field = (1 << f.ebits) - (f.ieee ? 2 : 1);
  // e4m3: the top exponent keeps mantissas 0..6 (mantissa 7 is NaN).
  int64_t mant = f.ieee ? (int64_t(1) << (f.mbits + 1)) - 1 : (int64_t(1) << (f.mbits + 1)) - 2;
  return std::ldexp(double(mant), emax_field - f.bias - f.mbits);
}

// The exact value of a finite element built bit by bit (normals, IEEE formats), or false for
// what the general ldexp path handles (subnormals, Inf/NaN, the e4m3 top binade).
bool fast_decode(const Format& f, uint64_t bits, double* out) {
  const uint64_t emask = (uint64_t(1) << f.ebits) - 1;
  const uint64_t e = (bits >> f.mbits) & emask;
  if (!f.ieee || e == 0 || e == emask) return false;
  const uint64_t sign = (bits >> (f.ebits + f.mbits)) & 1;
  const uint64_t m = bits & ((uint64_t(1) << f.mbits) - 1);
  const uint64_t d = (sign << 63) | ((e - uint64_t(f.bias) + 1023) << 52) | (m << (52 - f.mbits));
  std::memcpy(out, &d, sizeof d);
  return true;
}

bool fast_encode(const Format& f, double v, uint64_t* out) {
  return f.ieee && encode_normal(f.ebits, f.mbits, f.bias, v, out);
}

double fmt_decode(const Format& f, uint64_t bits) {
  if (double fast; fast_decode(f, bits, &fast)) return fast;
  uint64_t mmask = (uint64_t(1) << f.mbits) - 1;
  uint64_t emask = (uint64_t(1) << f.ebits) - 1;
  bool neg = (bits >> (f.ebits + f.mbits)) & 1;
  uint64_t e = (bits >> f.mbits) & emask, m = bits & mmask;
  double v;
  if (f.ieee && e == emask) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (!f.ieee && e == emask && m == mmask) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(double(m), 1 - f.bias - f.mbits);
  } else {
    v = std::ldexp(double(m + (uint64_t(1) << f.mbits)), int(e) - f.bias - f.mbits);
  }
  return neg ? -v : v;
}

uint64_t fmt_encode(const Format& f, double v, bool saturate) {
  if (uint64_t fast; fast_encode(f, v, &fast)) return fast;
  uint64_t sign = uint64_t(std::signbit(v) ? 1 : 0) << (f.ebits + f.mbits);
  double maxv = fmt_max(f);
  uint64_t max_bits = 0, inf_bits = 0;
  {
    // max finite bits: all but NaN/Inf codes.
    uint64_t emask = (uint64_t(1) << f.ebits) - 1, mmask = (uint64_t(1) << f.mbits) - 1;
    max_bits = f.ieee ? (((emask - 1) << f.mbits) | mmask) : ((emask << f.mbits) | (mmask - 1));
    inf_bits = emask << f.mbits;
  }
  if (std::isnan(v)) return sign | f.qnan;
  double a = std::fabs(v);
  if (std::isinf(a)) {
    if (f.ieee) return sign | inf_bits;
    return sign | (saturate ? max_bits : f.qnan);
  }
  if (a == 0) return sign;
  int e2;
  std::frexp(a, &e2);
  int E = e2 - 1, emin = 1 - f.bias;
  int Eq = E < emin ? emin : E;
  int qexp = Eq - f.mbits;
  double r = rne(std::ldexp(a, -qexp));  // exact: a power-of-two scaling
  if (std::ldexp(r, qexp) > maxv) {
    if (saturate) return sign | max_bits;
    return sign | (f.ieee ? inf_bits : f.qnan);
  }
  // (Eq + bias - 1) << mbits plus r covers normals, subnormals and the carry into the
  // next binade (r == 2^(mbits+1)), since the implicit bit is part of r.
  return sign | ((uint64_t(Eq + f.bias - 1) << f.mbits) + uint64_t(r));
}

}  // namespace

double int_min(Dtype t) {
  switch (t) {
    case Dtype::S32: return -2147483648.0;
    case Dtype::S16: return -32768.0;
    case Dtype::S8: return -128.0;
    default: return 0.0;
  }
}

int size_of(Dtype t) {
  switch (t) {
    case Dtype::F32:
    case Dtype::S32: return 4;
    case Dtype::F16:
    case Dtype::BF16:
    case Dtype::S16: return 2;
    default: return 1;
  }
}

bool is_float(Dtype t) {
  return format_of(t) != nullptr || t == Dtype::E8M0;
}

const char* name_of(Dtype t) {
  switch (t) {
    case Dtype::F32: return "f32";
    case Dtype::F16: return "f16";
    case Dtype::BF16: return "bf16";
    case Dtype::S32: return "s32";
    case Dtype::S16: return "s16";
    case Dtype::S8: return "s8";
    case Dtype::U8: return "u8";
    case Dtype::E4M3: return "e4m3";
    case Dtype::E5M2: return "e5m2";
    case Dtype::E8M0: return "e8m0";
  }
  return "?";
}

bool parse_dtype(const std::string& name, Dtype* out) {
  for (int i = 0; i <= static_cast<int>(Dtype::E8M0); ++i) {
    Dtype d = static_cast<Dtype>(i);
    if (name == name_of(d)) {
      *out = d;
      return true;
    }
  }
  return false;
}

bool ieee_layout(Dtype t, int* ebits, int* mbits, int* bias) {
  const Format* f = format_of(t);
  if (!f || !f->ieee) return false;
  *ebits = f->ebits;
  *mbits = f->mbits;
  *bias = f->bias;
  return true;
}

double max_finite(Dtype t) {
  if (const Format* f = format_of(t)) return fmt_max(*f);
  switch (t) {
    case Dtype::S32: return 2147483647.0;
    case Dtype::S16: return 32767.0;
    case Dtype::S8: return 127.0;
    case Dtype::U8: return 255.0;
    default: return std::ldexp(1.0, 127);  // e8m0
  }
}

double rne(double v) {
  if (!std::isfinite(v)) return v;
  double fl = std::floor(v);
  double d = v - fl;  // exact for |v| < 2^52; beyond that v is already an integer
  if (d > 0.5 || (d == 0.5 && std::fmod(fl, 2.0) != 0)) fl += 1.0;
  return fl;
}

double decode(Dtype t, uint64_t bits) {
  if (const Format* f = format_of(t)) return fmt_decode(*f, bits);
  switch (t) {
    case Dtype::S32: return double(int32_t(uint32_t(bits)));
    case Dtype::S16: return double(int16_t(uint16_t(bits)));
    case Dtype::S8: return double(int8_t(uint8_t(bits)));
    case Dtype::U8: return double(uint8_t(bits));
    default: {  // e8m0
      uint8_t c = uint8_t(bits);
      if (c == 0xFF) return std::numeric_limits<double>::quiet_NaN();
      return std::ldexp(1.0, int(c) - 127);
    }
  }
}

namespace {

// decode() of every 16-bit code of t, built on first use (thread-safe static initialisation).
const double* table16(Dtype t) {
  auto build = [](Dtype d) {
    std::vector<double> v(size_t(1) << 16);
    for (uint64_t b = 0; b < v.size(); ++b) v[b] = decode(d, b);
    return v;
  };
  static const std::vector<double> bf16 = build(Dtype::BF16), f16 = build(Dtype::F16);
  return t == Dtype::BF16 ? bf16.data() : t == Dtype::F16 ? f16.data() : nullptr;
}

}  // namespace

void decode_n(Dtype t, const uint8_t* bytes, int64_t n, double* out) {
  const int es = size_of(t);
  if (const double* lut = es == 2 ? table16(t) : nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = lut[uint32_t(bytes[2 * i]) | uint32_t(bytes[2 * i + 1]) << 8];
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    uint64_t b = 0;
    for (int k = 0; k < es; ++k) b |= uint64_t(bytes[i * es + k]) << (8 * k);
    out[i] = decode(t, b);
  }
}

uint64_t encode(Dtype t, double v, bool saturate) {
  if (const Format* f = format_of(t)) return fmt_encode(*f, v, saturate);
  if (t == Dtype::E8M0) {
    if (!(v > 0) || std::isinf(v)) return 0xFF;
    int e2;
    double m = std::frexp(v, &e2);  // v = m * 2^e2, m in [0.5, 1)
    int E = e2 - 1;                  // v in [2^E, 2^(E+1))
    double x = 2 * m;                // in [1, 2)
    if (x > 1.5 || (x == 1.5 && ((E + 127) & 1))) ++E;
    if (E < -127 || E > 127) return 0xFF;
    return uint64_t(E + 127);
  }
  // Integers: RNE, saturate, NaN -> 0.
  double lo = int_min(t), hi = max_finite(t);
  double r = std::isnan(v) ? 0.0 : rne(v);
  if (r < lo) r = lo;
  if (r > hi) r = hi;
  int64_t i = int64_t(r);
  uint64_t mask = size_of(t) == 4 ? 0xFFFFFFFFu : size_of(t) == 2 ? 0xFFFFu : 0xFFu;
  return uint64_t(i) & mask;
}

float bf16_rne(float f) { return float(decode(Dtype::BF16, encode(Dtype::BF16, f))); }
float f16_rne(float f) { return float(decode(Dtype::F16, encode(Dtype::F16, f))); }

}  // namespace npu::golden::ref
