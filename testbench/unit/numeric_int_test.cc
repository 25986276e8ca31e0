// Float -> integer casts (rounding per mode, saturation, NaN) and integer -> float with a
// single rounding step (int32 -> bf16 must not round through f32 first).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/numeric/numeric.h"

namespace npu::num {
namespace {

int64_t to_int(Dtype t, double v, RoundMode rm) {
  return static_cast<int64_t>(decode_bits(t, encode_bits(t, v, rm)));
}

TEST(NumericInt, TiesPerMode) {
  using RM = RoundMode;
  struct Case { double v; int64_t rne, trunc, away, floor, ceil; };
  const Case cases[] = {
      {2.5, 2, 2, 3, 2, 3},     {-2.5, -2, -2, -3, -3, -2}, {3.5, 4, 3, 4, 3, 4},
      {-3.5, -4, -3, -4, -4, -3}, {2.4, 2, 2, 3, 2, 3},    {-2.6, -3, -2, -3, -3, -2},
      {0.5, 0, 0, 1, 0, 1},     {-0.5, 0, 0, -1, -1, 0},   {7.0, 7, 7, 7, 7, 7},
      {1e-300, 0, 0, 1, 0, 1},  {-1e-300, 0, 0, -1, -1, 0}, {2147483646.5, 2147483646, 2147483646, 2147483647, 2147483646, 2147483647},
  };
  for (const Case& c : cases) {
    for (Dtype t : {Dtype::S32, Dtype::S16, Dtype::S8}) {
      if (std::fabs(c.v) > 1000 && t != Dtype::S32) continue;
      EXPECT_EQ(to_int(t, c.v, RM::Rne), c.rne) << name_of(t) << " " << c.v;
      EXPECT_EQ(to_int(t, c.v, RM::Trunc), c.trunc) << name_of(t) << " " << c.v;
      EXPECT_EQ(to_int(t, c.v, RM::Away), c.away) << name_of(t) << " " << c.v;
      EXPECT_EQ(to_int(t, c.v, RM::Floor), c.floor) << name_of(t) << " " << c.v;
      EXPECT_EQ(to_int(t, c.v, RM::Ceil), c.ceil) << name_of(t) << " " << c.v;
    }
  }
}

TEST(NumericInt, Saturation) {
  using RM = RoundMode;
  EXPECT_EQ(encode_bits(Dtype::S32, 1e10), 0x7FFFFFFFu);
  EXPECT_EQ(encode_bits(Dtype::S32, -1e10), 0x80000000u);
  EXPECT_EQ(encode_bits(Dtype::S32, 2147483647.5), 0x7FFFFFFFu);     // rounds to 2^31: clamps
  EXPECT_EQ(encode_bits(Dtype::S32, -2147483648.4), 0x80000000u);
  EXPECT_EQ(encode_bits(Dtype::S32, -2147483648.6, RM::Trunc), 0x80000000u);
  EXPECT_EQ(encode_bits(Dtype::S32, INFINITY), 0x7FFFFFFFu);
  EXPECT_EQ(encode_bits(Dtype::S32, -INFINITY), 0x80000000u);
  EXPECT_EQ(encode_bits(Dtype::S32, 1e300), 0x7FFFFFFFu);
  EXPECT_EQ(encode_bits(Dtype::S8, -129.0), 0x80u);   // -128
  EXPECT_EQ(encode_bits(Dtype::S8, 128.0), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::S8, 127.4), 0x7Fu);
  EXPECT_EQ(encode_bits(Dtype::S8, 127.4, RM::Ceil), 0x7Fu);  // 128 clamps
  EXPECT_EQ(encode_bits(Dtype::S8, -1.0), 0xFFu);
  EXPECT_EQ(encode_bits(Dtype::S16, 40000.0), 0x7FFFu);
  EXPECT_EQ(encode_bits(Dtype::S16, -40000.0), 0x8000u);
  EXPECT_EQ(encode_bits(Dtype::U8, -1.0), 0x00u);
  EXPECT_EQ(encode_bits(Dtype::U8, -0.4, RM::Floor), 0x00u);
  EXPECT_EQ(encode_bits(Dtype::U8, 256.0), 0xFFu);
  EXPECT_EQ(encode_bits(Dtype::U8, 254.5), 0xFEu);    // tie -> even
  EXPECT_EQ(decode_bits(Dtype::S8, 0x80), -128.0);
  EXPECT_EQ(decode_bits(Dtype::U8, 0x80), 128.0);
  EXPECT_EQ(decode_bits(Dtype::S32, 0x80000000u), -2147483648.0);
  EXPECT_EQ(decode_bits(Dtype::S16, 0xFFFF), -1.0);
}

TEST(NumericInt, NanGivesZero) {
  for (Dtype t : {Dtype::S32, Dtype::S16, Dtype::S8, Dtype::U8})
    for (RoundMode rm : {RoundMode::Rne, RoundMode::Floor, RoundMode::Ceil}) {
      EXPECT_EQ(encode_bits(t, NAN, rm), 0u) << name_of(t);
      EXPECT_EQ(encode_bits(t, -std::numeric_limits<double>::quiet_NaN(), rm), 0u) << name_of(t);
    }
}

// Every int32 of the form 2^24 + k is exact in double; bf16 keeps 8 significant bits, so its
// ulp there is 2^17. Rounding once from the exact value differs from rounding to f32 first.
TEST(NumericInt, Int32ToBf16RoundsOnce) {
  // 16777217 = 2^24 + 1: nearest bf16 is 2^24 (0x4B80); Ceil gives 2^24 + 2^17 (0x4B81),
  // while f32 RNE (-> 2^24, exact) then bf16 Ceil would give 0x4B80.
  EXPECT_EQ(encode_bits(Dtype::BF16, 16777217.0), 0x4B80u);
  EXPECT_EQ(encode_bits(Dtype::BF16, 16777217.0, RoundMode::Ceil), 0x4B81u);
  EXPECT_EQ(encode_bits(Dtype::BF16, 16777217.0, RoundMode::Away), 0x4B81u);
  // 2^24 + 2^16 + 1 = 16842753 is just above the tie 2^24 + 2^16: RNE goes up (0x4B81).
  // Through f32 it would first become 16842752 (f32 tie -> even), an exact bf16 tie, and
  // then go to the even 2^24 (0x4B80): the double-rounding error this API exists to avoid.
  EXPECT_EQ(f32_to_bf16(static_cast<float>(16842753)), 0x4B80u);
  EXPECT_EQ(encode_bits(Dtype::BF16, 16842753.0), 0x4B81u);
  EXPECT_EQ(encode_bits(Dtype::BF16, 16842752.0), 0x4B80u);  // the exact tie itself: even
  EXPECT_EQ(encode_bits(Dtype::BF16, -16842753.0), 0xCB81u);
  // Large int32: 2147483647 -> 2^31 (0x4F00).
  EXPECT_EQ(encode_bits(Dtype::BF16, 2147483647.0), 0x4F00u);
  EXPECT_EQ(encode_bits(Dtype::BF16, 2147483647.0, RoundMode::Trunc), 0x4EFFu);
  // int32 -> f16: 65519 -> 65504, 65520 -> Inf (tie rounds to the even Inf), 2049 -> 2048.
  EXPECT_EQ(encode_bits(Dtype::F16, 65519.0), 0x7BFFu);
  EXPECT_EQ(encode_bits(Dtype::F16, 65520.0), 0x7C00u);
  EXPECT_EQ(encode_bits(Dtype::F16, 2049.0), 0x6800u);
  EXPECT_EQ(encode_bits(Dtype::F16, 2051.0), 0x6802u);  // tie 2050|2052 -> even (2052)
  // int32 -> f32: 16777217 -> 16777216, 16777219 -> 16777220.
  EXPECT_EQ(encode_bits(Dtype::F32, 16777217.0), 0x4B800000u);
  EXPECT_EQ(encode_bits(Dtype::F32, 16777219.0), 0x4B800002u);
}

// Exhaustive over a window: every int32 in [2^24 - 2^20, 2^24 + 2^20] -> bf16 RNE equals the
// nearest bf16 computed from integer arithmetic (independent of the float encoder).
TEST(NumericInt, Int32ToBf16Window) {
  int bad = 0;
  for (int64_t i = (1 << 24) - (1 << 20); i <= (1 << 24) + (1 << 20); ++i) {
    const int64_t ulp = i >= (1 << 24) ? (1 << 17) : (1 << 16);  // bf16 ulp in the binade
    const int64_t lo = i / ulp * ulp, hi = lo + ulp;
    int64_t want = (i - lo < hi - i) ? lo : (i - lo > hi - i) ? hi : ((lo / ulp) % 2 == 0 ? lo : hi);
    const double got = decode_bits(Dtype::BF16, encode_bits(Dtype::BF16, static_cast<double>(i)));
    bad += got != static_cast<double>(want);
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace npu::num
