// Exhaustive code tests: every bf16/f16 code round-trips through f32, every 8-bit code
// decodes to the value of an independent formula, plus hand-computed spot values and the
// float special-value policy (NaN, Inf, overflow per mode, signed zero).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "isa/numeric/numeric.h"
#include "testbench/unit/numeric_oracle.h"

namespace npu::num::test {
namespace {

uint64_t dbits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// Expected value of a code of format f from the textbook formula; NaN for NaN codes.
double expected_value(const OracleFormat& f, uint32_t code) {
  const bool neg = (code & f.sign_bit) != 0;
  const uint32_t mag = code & (f.sign_bit - 1);
  const uint32_t exp_all_ones = (f.sign_bit - 1) >> f.mant_bits;
  double v;
  if (f.ieee_specials && (mag >> f.mant_bits) == exp_all_ones)
    v = (mag & ((1u << f.mant_bits) - 1)) ? NAN : INFINITY;
  else if (!f.ieee_specials && mag == f.sign_bit - 1)
    v = NAN;
  else
    v = textbook_value(f, mag);
  return neg ? -v : v;
}

// Every 16-bit code: decode agrees with the formula and with the fast path (bit for bit,
// sign of NaN included), and decode -> encode RNE gives the code back, NaN -> canonical.
void check_16bit_roundtrip(const OracleFormat& f, float (*fast_decode)(uint16_t),
                           uint16_t (*fast_encode)(float)) {
  int nans = 0, bad = 0;
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const double want = expected_value(f, c);
    const double got = decode_bits(f.dtype, c);
    const float fast = fast_decode(static_cast<uint16_t>(c));
    const bool neg = (c & 0x8000) != 0;
    uint64_t want_code = c;
    if (std::isnan(want)) {
      ++nans;
      want_code = (neg ? 0x8000 : 0) | f.nan_code;
      bad += !std::isnan(got) || std::signbit(got) != neg;
      bad += f32_to_bits(fast) != ((neg ? 0x80000000u : 0u) | 0x7FC00000u);
    } else {
      bad += dbits(got) != dbits(want);  // bitwise: keeps -0 distinct
      bad += dbits(static_cast<double>(fast)) != dbits(want);
    }
    bad += encode_bits(f.dtype, got) != want_code;
    bad += encode_bits(f.dtype, fast) != want_code;
    bad += fast_encode(fast) != want_code;
    if (bad && bad < 4) ADD_FAILURE() << name_of(f.dtype) << " code 0x" << std::hex << c;
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(nans, 2 * ((1 << f.mant_bits) - 1));  // all-ones exponent, nonzero fraction, +-
}

TEST(NumericCodes, AllBf16CodesRoundTrip) {
  check_16bit_roundtrip(kOracleBf16, bf16_to_f32, f32_to_bf16);
}

TEST(NumericCodes, AllF16CodesRoundTrip) {
  check_16bit_roundtrip(kOracleF16, f16_to_f32, f32_to_f16);
}

void check_8bit(const OracleFormat& f, float (*fast)(uint8_t)) {
  for (uint32_t c = 0; c < 256; ++c) {
    const double want = expected_value(f, c);
    const double got = decode_bits(f.dtype, c);
    const uint8_t byte = static_cast<uint8_t>(c);
    const double via_ptr = decode(f.dtype, &byte);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got) && std::isnan(fast(byte)) && std::isnan(via_ptr)) << c;
      EXPECT_EQ(std::signbit(got), (c & 0x80) != 0) << c;
      EXPECT_EQ(encode_bits(f.dtype, got), (c & 0x80) | f.nan_code) << c;
    } else {
      EXPECT_EQ(dbits(got), dbits(want)) << name_of(f.dtype) << " code " << c;
      EXPECT_EQ(dbits(fast(byte)), dbits(want)) << c;
      EXPECT_EQ(dbits(via_ptr), dbits(want)) << c;
      EXPECT_EQ(encode_bits(f.dtype, got), c) << c;
    }
  }
}

TEST(NumericCodes, AllE4m3Codes) {
  check_8bit(kOracleE4m3, e4m3_to_f32);
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x7E), 448.0);
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0xFE), -448.0);
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x08), 0x1p-6);  // smallest normal
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x01), 0x1p-9);  // smallest subnormal
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x07), 7 * 0x1p-9);
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x38), 1.0);
  EXPECT_EQ(decode_bits(Dtype::E4M3, 0x78), 256.0);  // exponent 15 is a normal binade
  EXPECT_TRUE(std::isnan(decode_bits(Dtype::E4M3, 0x7F)));
  EXPECT_TRUE(std::isnan(decode_bits(Dtype::E4M3, 0xFF)));
  EXPECT_EQ(dbits(decode_bits(Dtype::E4M3, 0x80)), dbits(-0.0));
}

TEST(NumericCodes, AllE5m2Codes) {
  check_8bit(kOracleE5m2, e5m2_to_f32);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0x7B), 57344.0);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0x7C), INFINITY);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0xFC), -INFINITY);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0x01), 0x1p-16);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0x04), 0x1p-14);
  EXPECT_EQ(decode_bits(Dtype::E5M2, 0x3C), 1.0);
  for (uint32_t c : {0x7Du, 0x7Eu, 0x7Fu}) EXPECT_TRUE(std::isnan(decode_bits(Dtype::E5M2, c)));
}

TEST(NumericCodes, AllE8m0Codes) {
  for (uint32_t c = 0; c < 255; ++c) {
    EXPECT_EQ(decode_bits(Dtype::E8M0, c), std::ldexp(1.0, static_cast<int>(c) - 127)) << c;
    EXPECT_EQ(static_cast<double>(e8m0_to_f32(static_cast<uint8_t>(c))),
              std::ldexp(1.0, static_cast<int>(c) - 127)) << c;
    EXPECT_EQ(encode_bits(Dtype::E8M0, decode_bits(Dtype::E8M0, c)), c) << c;
  }
  EXPECT_EQ(decode_bits(Dtype::E8M0, 0x7F), 1.0);
  EXPECT_EQ(decode_bits(Dtype::E8M0, 0x00), 0x1p-127);
  EXPECT_EQ(decode_bits(Dtype::E8M0, 0xFE), 0x1p127);
  EXPECT_TRUE(std::isnan(decode_bits(Dtype::E8M0, 0xFF)));
  EXPECT_FALSE(std::signbit(decode_bits(Dtype::E8M0, 0xFF)));
  EXPECT_EQ(f32_to_bits(e8m0_to_f32(0)), 0x00400000u);  // f32 subnormal 2^-127
}

TEST(NumericCodes, E8m0Encode) {
  using RM = RoundMode;
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.0), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.4), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.6), 0x80u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.5), 0x80u);   // tie 0x7F|0x80 -> even code 0x80 (2.0)
  EXPECT_EQ(encode_bits(Dtype::E8M0, 3.0), 0x80u);   // tie 0x80|0x81 -> 0x80 (2.0)
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.9, RM::Trunc), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.9, RM::Floor), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.1, RM::Ceil), 0x80u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1.1, RM::Away), 0x80u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 2.0, RM::Ceil), 0x80u);  // exact stays
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0.0), 0x00u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, -0.0), 0x00u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1p-130, RM::Ceil), 0x00u);  // clamp to 2^-127
  EXPECT_EQ(encode_bits(Dtype::E8M0, 1e-300), 0x00u);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1p127), 0xFEu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1.fp127), 0xFFu);  // rounds to 2^128: out of range
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1.fp127, RM::Rne, true), 0xFEu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1.fp127, RM::Trunc), 0xFEu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, 0x1p200), 0xFFu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, INFINITY), 0xFFu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, INFINITY, RM::Rne, true), 0xFEu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, NAN), 0xFFu);
  EXPECT_EQ(encode_bits(Dtype::E8M0, -1.0), 0xFFu);
}

// Overflow without saturate follows IEEE 754 per mode (numeric.h); with saturate: max.
TEST(NumericCodes, FloatOverflowPolicy) {
  using RM = RoundMode;
  struct Case { Dtype t; double v; RM rm; bool sat; uint64_t want; };
  const Case cases[] = {
      {Dtype::E4M3, 1000.0, RM::Rne, false, 0x7F},    // no Inf: NaN
      {Dtype::E4M3, 1000.0, RM::Rne, true, 0x7E},     // +max 448
      {Dtype::E4M3, -1000.0, RM::Rne, true, 0xFE},
      {Dtype::E4M3, 1000.0, RM::Trunc, false, 0x7E},  // toward zero: max finite
      {Dtype::E4M3, 1000.0, RM::Floor, false, 0x7E},
      {Dtype::E4M3, -1000.0, RM::Floor, false, 0xFF}, // away from zero for negatives: NaN
      {Dtype::E4M3, -1000.0, RM::Ceil, false, 0xFE},
      {Dtype::E4M3, 1000.0, RM::Away, false, 0x7F},
      {Dtype::E4M3, 464.0, RM::Rne, false, 0x7E},     // tie 448|480 -> even mantissa (448)
      {Dtype::E4M3, 449.0, RM::Away, false, 0x7F},    // rounds up past 448
      {Dtype::E4M3, INFINITY, RM::Rne, false, 0x7F},
      {Dtype::E4M3, -INFINITY, RM::Rne, true, 0xFE},
      {Dtype::E5M2, 61440.0, RM::Rne, false, 0x7C},   // tie 57344|65536 -> Inf (even)
      {Dtype::E5M2, 61439.0, RM::Rne, false, 0x7B},
      {Dtype::E5M2, 1e6, RM::Rne, true, 0x7B},
      {Dtype::E5M2, -1e6, RM::Trunc, false, 0xFB},
      {Dtype::E5M2, INFINITY, RM::Rne, false, 0x7C},
      {Dtype::E5M2, INFINITY, RM::Rne, true, 0x7B},   // fp8 saturating cast clamps Inf
      {Dtype::F16, 65520.0, RM::Rne, false, 0x7C00},
      {Dtype::F16, 65519.0, RM::Rne, false, 0x7BFF},
      {Dtype::F16, 65520.0, RM::Rne, true, 0x7BFF},
      {Dtype::F16, 1e9, RM::Ceil, false, 0x7C00},
      {Dtype::F16, -1e9, RM::Ceil, false, 0xFBFF},
      {Dtype::F16, INFINITY, RM::Rne, true, 0x7C00},  // Inf is not an overflow for f16
      {Dtype::BF16, 1e39, RM::Rne, false, 0x7F80},
      {Dtype::BF16, -1e39, RM::Rne, true, 0xFF7F},
      {Dtype::BF16, 1e39, RM::Trunc, false, 0x7F7F},
      {Dtype::F32, 1e39, RM::Rne, false, 0x7F800000},
      {Dtype::F32, 1e39, RM::Floor, false, 0x7F7FFFFF},
      {Dtype::F32, -1e39, RM::Floor, false, 0xFF800000},
  };
  for (const Case& c : cases)
    EXPECT_EQ(encode_bits(c.t, c.v, c.rm, c.sat), c.want)
        << name_of(c.t) << " " << c.v << " rm " << static_cast<int>(c.rm) << " sat " << c.sat;
}

TEST(NumericCodes, NanZeroSubnormal) {
  const double neg_nan = -std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(encode_bits(Dtype::BF16, NAN), 0x7FC0u);
  EXPECT_EQ(encode_bits(Dtype::BF16, neg_nan), 0xFFC0u);
  EXPECT_EQ(encode_bits(Dtype::BF16, NAN, RoundMode::Trunc, true), 0x7FC0u);
  EXPECT_EQ(encode_bits(Dtype::F16, neg_nan), 0xFE00u);
  EXPECT_EQ(encode_bits(Dtype::F32, NAN), 0x7FC00000u);
  EXPECT_EQ(encode_bits(Dtype::F32, neg_nan), 0xFFC00000u);
  EXPECT_EQ(encode_bits(Dtype::E5M2, neg_nan, RoundMode::Rne, true), 0xFEu);
  EXPECT_EQ(encode_bits(Dtype::E4M3, NAN, RoundMode::Rne, true), 0x7Fu);
  // f32 signalling NaN 0x7F800001 -> quiet.
  EXPECT_EQ(f32_to_bf16(bits_to_f32(0x7F800001u)), 0x7FC0u);
  EXPECT_EQ(f32_to_bits(static_cast<float>(decode_bits(Dtype::F32, 0xFF800001u))), 0xFFC00000u);
  EXPECT_EQ(f32_to_bits(bf16_to_f32(0x7F81)), 0x7FC00000u);
  // Signed zero and underflow keep the sign.
  EXPECT_EQ(encode_bits(Dtype::BF16, -0.0), 0x8000u);
  EXPECT_EQ(encode_bits(Dtype::E4M3, -1e-9), 0x80u);
  EXPECT_EQ(encode_bits(Dtype::E4M3, 1e-9, RoundMode::Ceil), 0x01u);   // up to 2^-9
  EXPECT_EQ(encode_bits(Dtype::E4M3, -1e-9, RoundMode::Ceil), 0x80u);  // -0
  EXPECT_EQ(encode_bits(Dtype::E4M3, -1e-9, RoundMode::Floor), 0x81u);
  EXPECT_EQ(encode_bits(Dtype::E4M3, 0x1p-10), 0x00u);  // tie 0|2^-9 -> even (0)
  EXPECT_EQ(encode_bits(Dtype::E4M3, 0x1.8p-9), 0x02u); // tie 1|2 subnormal -> even (2)
  EXPECT_EQ(encode_bits(Dtype::F16, 0x1p-25), 0x0000u);
  EXPECT_EQ(encode_bits(Dtype::F16, 0x1.000002p-25), 0x0001u);
  EXPECT_EQ(f32_to_f16(0x1.000002p-25f), 0x0001u);
  EXPECT_EQ(f32_to_f16(0x1.ffcp-15f), 0x0400u);  // subnormal rounding up into the normals
  EXPECT_EQ(encode_bits(Dtype::F32, 0x1p-149), 0x00000001u);
  EXPECT_EQ(encode_bits(Dtype::F32, 0x1p-150), 0x00000000u);  // tie -> even (0)
  EXPECT_EQ(encode_bits(Dtype::F32, 0x1.8p-149), 0x00000002u);
  EXPECT_EQ(encode_bits(Dtype::F32, 1e-300, RoundMode::Away), 0x00000001u);
}

// double -> f32 RNE equals the compiler's conversion (IEEE RNE) on random doubles spanning
// the f32 range, its subnormals and beyond; directed modes bracket that result.
TEST(NumericCodes, DoubleToF32MatchesHardware) {
  std::mt19937_64 rng(7);
  int bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t exp = 1023 - 160 + rng() % 300;  // 2^-160 .. 2^140
    const uint64_t u = (rng() & 0x800FFFFFFFFFFFFFull) | (exp << 52);
    double d;
    std::memcpy(&d, &u, sizeof d);
    const float want = static_cast<float>(d);
    bad += encode_bits(Dtype::F32, d) != f32_to_bits(want);
    const double lo = decode_bits(Dtype::F32, encode_bits(Dtype::F32, d, RoundMode::Floor));
    const double hi = decode_bits(Dtype::F32, encode_bits(Dtype::F32, d, RoundMode::Ceil));
    bad += !(lo <= d && d <= hi);
    bad += (lo == hi) != (static_cast<double>(want) == d);
  }
  EXPECT_EQ(bad, 0);
}

TEST(NumericCodes, DtypeInfoAndByteOrder) {
  EXPECT_EQ(size_of(Dtype::F32), 4);
  EXPECT_EQ(size_of(Dtype::BF16), 2);
  EXPECT_EQ(size_of(Dtype::E8M0), 1);
  EXPECT_EQ(size_of(Dtype::S16), 2);
  EXPECT_TRUE(is_float(Dtype::E8M0));
  EXPECT_FALSE(is_float(Dtype::U8));
  EXPECT_STREQ(name_of(Dtype::BF16), "bf16");
  EXPECT_STREQ(name_of(Dtype::E4M3), "e4m3");
  EXPECT_STREQ(name_of(Dtype::S32), "s32");
  for (Dtype t : {Dtype::F32, Dtype::F16, Dtype::BF16, Dtype::E4M3, Dtype::E5M2}) {
    const double m = max_finite(t);
    EXPECT_EQ(decode_bits(t, encode_bits(t, m)), m) << name_of(t);
    EXPECT_EQ(encode_bits(t, m, RoundMode::Rne, true), encode_bits(t, 1e300, RoundMode::Rne, true));
  }
  EXPECT_EQ(max_finite(Dtype::E4M3), 448.0);
  EXPECT_EQ(max_finite(Dtype::E5M2), 57344.0);
  EXPECT_EQ(max_finite(Dtype::F16), 65504.0);
  EXPECT_EQ(max_finite(Dtype::BF16), 0x1.fep127);
  EXPECT_EQ(max_finite(Dtype::E8M0), 0x1p127);
  unsigned char buf[4] = {};
  encode(Dtype::F32, buf, 1.0);  // 0x3F800000 little-endian
  EXPECT_EQ(buf[0], 0x00);
  EXPECT_EQ(buf[3], 0x3F);
  EXPECT_EQ(decode(Dtype::F32, buf), 1.0);
  encode(Dtype::S16, buf, -2.0);  // 0xFFFE
  EXPECT_EQ(buf[0], 0xFE);
  EXPECT_EQ(buf[1], 0xFF);
  EXPECT_EQ(buf[2], 0x80);  // untouched (byte 2 of the f32 1.0)
  EXPECT_EQ(decode(Dtype::S16, buf), -2.0);
  const unsigned char bf[2] = {0xC0, 0x3F};  // bf16 0x3FC0 = 1.5
  EXPECT_EQ(decode(Dtype::BF16, bf), 1.5);
}

}  // namespace
}  // namespace npu::num::test
