// The golden library's own conversions (refnum.h) and Tensor, with hand-derived bit patterns.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/random.h"
#include "golden/refnum.h"
#include "golden/tensor.h"

namespace npu::golden {
namespace {

using ref::decode;
using ref::encode;
using ref::encode_s8;

TEST(GoldenRefnum, Bf16RoundsOnceToNearestEven) {
  EXPECT_EQ(encode(Dtype::BF16, 1.0), 0x3F80u);
  // 1 + 2^-8 is halfway between 1 (mantissa 0, even) and 1 + 2^-7: ties to even -> 1.
  EXPECT_EQ(encode(Dtype::BF16, 1.0 + std::ldexp(1, -8)), 0x3F80u);
  // 1 + 3*2^-9 = 1.005859375: 128.75 ulps -> 129 -> 0x3F81.
  EXPECT_EQ(encode(Dtype::BF16, 1.0 + 3 * std::ldexp(1, -9)), 0x3F81u);
  // 1 + 2^-8 + 2^-30: a double->f32->bf16 path would tie to 1.0; one rounding gives 0x3F81.
  EXPECT_EQ(encode(Dtype::BF16, 1.0 + std::ldexp(1, -8) + std::ldexp(1, -30)), 0x3F81u);
  EXPECT_EQ(encode(Dtype::BF16, -2.0), 0xC000u);
  // Subnormals: min subnormal is 2^-133; 2^-134 ties to 0; 0.75 * 2^-133 rounds up.
  EXPECT_EQ(encode(Dtype::BF16, std::ldexp(1, -133)), 0x0001u);
  EXPECT_EQ(encode(Dtype::BF16, std::ldexp(1, -134)), 0x0000u);
  EXPECT_EQ(encode(Dtype::BF16, 0.75 * std::ldexp(1, -133)), 0x0001u);
  EXPECT_EQ(encode(Dtype::BF16, -0.0), 0x8000u);
  // NaN keeps its sign; overflow is Inf, or max (0x7F7F) when saturating.
  EXPECT_EQ(encode(Dtype::BF16, std::nan("")), 0x7FC0u);
  EXPECT_EQ(encode(Dtype::BF16, -std::nan("")), 0xFFC0u);
  EXPECT_EQ(encode(Dtype::BF16, 1e39), 0x7F80u);
  EXPECT_EQ(encode(Dtype::BF16, 1e39, true), 0x7F7Fu);
  EXPECT_EQ(decode(Dtype::BF16, 0x3F81), 1.0078125);
  EXPECT_TRUE(std::isnan(decode(Dtype::BF16, 0x7FC1)));
  EXPECT_EQ(ref::bf16_rne(1.00390625f), 1.0f);
}

TEST(GoldenRefnum, F16AndF32) {
  EXPECT_EQ(encode(Dtype::F16, 65504.0), 0x7BFFu);
  // 65520 is halfway between 65504 (odd mantissa 1023) and 65536 (even): RNE -> Inf.
  EXPECT_EQ(encode(Dtype::F16, 65520.0), 0x7C00u);
  EXPECT_EQ(encode(Dtype::F16, 65520.0, true), 0x7BFFu);
  EXPECT_EQ(encode(Dtype::F16, std::ldexp(1, -24)), 0x0001u);
  EXPECT_EQ(encode(Dtype::F16, std::nan("")), 0x7E00u);
  EXPECT_EQ(decode(Dtype::F16, 0x3C00), 1.0);
  EXPECT_EQ(encode(Dtype::F32, 1.0), 0x3F800000u);
  EXPECT_EQ(encode(Dtype::F32, std::nan("")), 0x7FC00000u);
  EXPECT_EQ(encode(Dtype::F32, 1.0 + std::ldexp(1, -24)), 0x3F800000u);  // tie -> even
  EXPECT_EQ(decode(Dtype::F32, 0x00000001), std::ldexp(1, -149));
  EXPECT_EQ(ref::max_finite(Dtype::F16), 65504.0);
}

// The inline int8 encoder is encode(S8): ties on both sides of zero, the saturation bounds and
// past them, NaN and infinities, and a dense sweep of quarters and random doubles.
TEST(GoldenRefnum, EncodeS8IsEncode) {
  std::vector<double> vs = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 126.5, 127.5, -127.5, -128.5, 127.49,
                            -128.49, 1e300, -1e300, std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                            0.49999999999999994, -0.49999999999999994, 1e-300};
  for (int i = -600; i <= 600; ++i) vs.push_back(i * 0.25);
  uint64_t z = 12345;
  for (int i = 0; i < 20000; ++i) vs.push_back(double(int64_t(splitmix64(&z) % 60000) - 30000) / 97.0);
  for (double v : vs) EXPECT_EQ(encode_s8(v), encode(Dtype::S8, v)) << v;
}

// transposed_bits moves each element's bits: [k, n] -> [n, k] for 1-, 2- and 4-byte elements, on
// shapes that leave partial 32 x 32 blocks, against bits() element by element.
TEST(GoldenTensor, TransposedBitsMovesEveryElement) {
  uint64_t z = 99;
  for (Dtype dt : {Dtype::S8, Dtype::BF16, Dtype::F32})
    for (auto [k, n] : {std::pair<int64_t, int64_t>{1, 1}, {37, 45}, {64, 32}, {3, 70}}) {
      Tensor w(dt, {k, n});
      for (int64_t i = 0; i < k * n; ++i) w.set_bits(i, splitmix64(&z) & (dt == Dtype::S8 ? 0xFF : dt == Dtype::BF16 ? 0xFFFF : 0xFFFFFFFF));
      const Tensor t = transposed_bits(w);
      ASSERT_EQ(t.shape(), (std::vector<int64_t>{n, k}));
      int differ = 0;
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < n; ++j) differ += t.bits(j * k + i) != w.bits(i * n + j);
      EXPECT_EQ(differ, 0) << int(dt) << " " << k << " x " << n;
    }
}

TEST(GoldenRefnum, E4M3) {
  EXPECT_EQ(ref::max_finite(Dtype::E4M3), 448.0);
  EXPECT_EQ(encode(Dtype::E4M3, 1.0), 0x38u);   // exponent 7 (bias 7), mantissa 0
  EXPECT_EQ(encode(Dtype::E4M3, 448.0), 0x7Eu);  // S.1111.110
  // 464 is halfway between 448 (mantissa 6, even) and 480 (the NaN code): -> 448.
  EXPECT_EQ(encode(Dtype::E4M3, 464.0), 0x7Eu);
  EXPECT_EQ(encode(Dtype::E4M3, 465.0), 0x7Fu);        // overflow -> NaN (non-saturating)
  EXPECT_EQ(encode(Dtype::E4M3, 465.0, true), 0x7Eu);  // saturating -> max
  EXPECT_EQ(encode(Dtype::E4M3, -465.0, true), 0xFEu);
  EXPECT_EQ(encode(Dtype::E4M3, INFINITY), 0x7Fu);
  EXPECT_EQ(encode(Dtype::E4M3, INFINITY, true), 0x7Eu);
  EXPECT_EQ(encode(Dtype::E4M3, std::ldexp(1, -9)), 0x01u);  // min subnormal
  EXPECT_EQ(encode(Dtype::E4M3, std::ldexp(1, -6)), 0x08u);  // min normal
  EXPECT_TRUE(std::isnan(decode(Dtype::E4M3, 0x7F)));
  EXPECT_TRUE(std::isnan(decode(Dtype::E4M3, 0xFF)));
  EXPECT_EQ(decode(Dtype::E4M3, 0x7E), 448.0);
  EXPECT_EQ(decode(Dtype::E4M3, 0x78), 256.0);  // exponent field 15 is a normal binade
}

TEST(GoldenRefnum, E5M2) {
  EXPECT_EQ(ref::max_finite(Dtype::E5M2), 57344.0);
  EXPECT_EQ(encode(Dtype::E5M2, 57344.0), 0x7Bu);
  // 61440 is halfway between 57344 (mantissa 3, odd) and 65536: RNE -> Inf.
  EXPECT_EQ(encode(Dtype::E5M2, 61440.0), 0x7Cu);
  EXPECT_EQ(encode(Dtype::E5M2, 61440.0, true), 0x7Bu);
  EXPECT_EQ(encode(Dtype::E5M2, std::nan("")), 0x7Eu);
  EXPECT_EQ(encode(Dtype::E5M2, 1.0), 0x3Cu);
  EXPECT_TRUE(std::isinf(decode(Dtype::E5M2, 0x7C)));
  EXPECT_TRUE(std::isnan(decode(Dtype::E5M2, 0x7D)));
}

TEST(GoldenRefnum, E8M0) {
  EXPECT_EQ(decode(Dtype::E8M0, 0), std::ldexp(1, -127));
  EXPECT_EQ(decode(Dtype::E8M0, 127), 1.0);
  EXPECT_EQ(decode(Dtype::E8M0, 254), std::ldexp(1, 127));
  EXPECT_TRUE(std::isnan(decode(Dtype::E8M0, 0xFF)));
  EXPECT_EQ(encode(Dtype::E8M0, 1.0), 127u);
  EXPECT_EQ(encode(Dtype::E8M0, 0.25), 125u);
  EXPECT_EQ(encode(Dtype::E8M0, 3.0), 128u);  // tie between 2 (code 128, even) and 4
  EXPECT_EQ(encode(Dtype::E8M0, 0.0), 0xFFu);  // no zero in E8M0
  EXPECT_EQ(encode(Dtype::E8M0, std::ldexp(1, -128)), 0xFFu);
}

TEST(GoldenRefnum, IntegersRoundEvenAndSaturate) {
  EXPECT_EQ(encode(Dtype::S8, 2.5), 2u);
  EXPECT_EQ(encode(Dtype::S8, -2.5), 0xFEu);  // -2
  EXPECT_EQ(encode(Dtype::S8, 3.5), 4u);
  EXPECT_EQ(encode(Dtype::S8, 127.5), 127u);
  EXPECT_EQ(encode(Dtype::S8, -1000.0), 0x80u);
  EXPECT_EQ(encode(Dtype::S8, std::nan("")), 0u);
  EXPECT_EQ(encode(Dtype::S32, 3e9), 0x7FFFFFFFu);
  EXPECT_EQ(encode(Dtype::S16, -40000.0), 0x8000u);
  EXPECT_EQ(encode(Dtype::U8, -1.0), 0u);
  EXPECT_EQ(decode(Dtype::S8, 0x80), -128.0);
  EXPECT_EQ(decode(Dtype::S32, 0xFFFFFFFF), -1.0);
  EXPECT_EQ(ref::rne(-0.5), -0.0);
  EXPECT_EQ(ref::rne(1.5), 2.0);
}

// decode_n (a table for the 16-bit floats) gives decode()'s bits for every code: the 65,536 of
// bf16 and f16 (NaNs, subnormals, both zeros), and a sample of the other types.
TEST(GoldenRefnum, DecodeNMatchesDecodeForEveryCode) {
  auto same_bits = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (Dtype t : {Dtype::BF16, Dtype::F16, Dtype::S16}) {
    std::vector<uint8_t> bytes;
    for (uint32_t c = 0; c < 65536; ++c) bytes.insert(bytes.end(), {uint8_t(c), uint8_t(c >> 8)});
    std::vector<double> out(65536);
    ref::decode_n(t, bytes.data(), 65536, out.data());
    int bad = 0;
    for (uint32_t c = 0; c < 65536; ++c) bad += !same_bits(out[c], decode(t, c));
    EXPECT_EQ(bad, 0) << ref::name_of(t);
  }
  const uint8_t f32[] = {0x00, 0x00, 0x80, 0x3F, 0x01, 0x00, 0x00, 0x80, 0x00, 0x00, 0xC0, 0x7F};
  double out[3];
  ref::decode_n(Dtype::F32, f32, 3, out);
  EXPECT_EQ(out[0], 1.0);
  EXPECT_TRUE(same_bits(out[1], -std::ldexp(1, -149)));
  EXPECT_TRUE(std::isnan(out[2]));
  const uint8_t s8[] = {0xFF, 0x80, 0x7F};
  ref::decode_n(Dtype::S8, s8, 3, out);
  EXPECT_EQ(out[0], -1.0);
  EXPECT_EQ(out[1], -128.0);
  EXPECT_EQ(out[2], 127.0);
}

TEST(GoldenRefnum, DtypeNames) {
  Dtype d;
  ASSERT_TRUE(ref::parse_dtype("e4m3", &d));
  EXPECT_EQ(d, Dtype::E4M3);
  EXPECT_FALSE(ref::parse_dtype("fp8", &d));
  EXPECT_STREQ(ref::name_of(Dtype::BF16), "bf16");
}

TEST(GoldenTensor, ValuesBitsAndShape) {
  Tensor t = Tensor::from_values(Dtype::BF16, {2, 3}, {1, -2, 0.5, 1.00390625, 3, 1e39});
  EXPECT_EQ(t.describe(), "bf16[2, 3]");
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.dim(-1), 3);
  EXPECT_EQ(t.bytes().size(), 12u);
  EXPECT_EQ(t.bits(1), 0xC000u);
  EXPECT_EQ(t.bytes()[2], 0x00);  // little-endian: low byte first
  EXPECT_EQ(t.bytes()[3], 0xC0);
  EXPECT_EQ(t.get(3), 1.0);        // tie to even
  EXPECT_EQ(t.at(1, 1), 3.0);
  EXPECT_TRUE(std::isinf(t.get(5)));
  t.set(5, 1e39, /*saturate=*/true);
  EXPECT_EQ(t.bits(5), 0x7F7Fu);
  std::vector<float> f = t.to_floats();
  EXPECT_EQ(f[2], 0.5f);
  EXPECT_THROW(t.get(6), Error);
  EXPECT_THROW(t.dim(2), Error);
  try {
    Tensor::from_values(Dtype::F32, {2}, {1, 2, 3});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "tensor f32[2] needs 2 values, got 3");
  }
  Tensor s = Tensor::from_bits(Dtype::E4M3, {2}, {0x38, 0x7F});
  EXPECT_EQ(s.get(0), 1.0);
  EXPECT_TRUE(std::isnan(s.get(1)));
  Tensor z(Dtype::S32, {0, 4});
  EXPECT_EQ(z.numel(), 0);
}

}  // namespace
}  // namespace npu::golden
