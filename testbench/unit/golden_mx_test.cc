// OCP MX v1.0 quantisation and scaled_mm goldens: scale rules and saturation.
#include <cmath>

#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/registry.h"

namespace npu::golden {
namespace {

// One row of K values: first the given ones, then `fill`.
Tensor row(int64_t k, std::vector<double> head, double fill = 0) {
  std::vector<double> v(size_t(k), fill);
  for (size_t i = 0; i < head.size(); ++i) v[i] = head[i];
  return Tensor::from_values(Dtype::F32, {1, k}, v);
}

TEST(GoldenMx, ScaleFromAmaxE4M3) {
  // amax = 1: floor(log2 1) = 0, shared_exp = 0 - 8 = -8 -> code 119; 1 * 2^8 = 256 -> e4m3
  // 0x78 (exponent field 15, mantissa 0); 0.5 -> 128 -> 0x70.
  MxQuantResult r = mx_quantize(row(32, {1.0, 0.5, -1.0}), Dtype::E4M3);
  EXPECT_EQ(r.scale.shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(r.scale.bits(0), 119u);
  EXPECT_EQ(r.q.bits(0), 0x78u);
  EXPECT_EQ(r.q.bits(1), 0x70u);
  EXPECT_EQ(r.q.bits(2), 0xF8u);
  EXPECT_EQ(r.q.bits(3), 0x00u);
  // amax = 448 = 1.75 * 2^8: shared_exp 0 -> code 127, 448 -> 0x7E.
  EXPECT_EQ(mx_quantize(row(32, {448}), Dtype::E4M3).scale.bits(0), 127u);
}

TEST(GoldenMx, ElementsSaturateInsteadOfNaN) {
  // amax = 511 in [256, 512): shared_exp = 8 - 8 = 0, so 511 / 2^0 = 511 rounds (quantum 32)
  // to 512 > 448: must clamp to 448 (0x7E), not NaN (0x7F). -500 -> 512 -> -448 (0xFE).
  MxQuantResult r = mx_quantize(row(32, {511, -500, 300}), Dtype::E4M3);
  EXPECT_EQ(r.scale.bits(0), 127u);
  EXPECT_EQ(r.q.bits(0), 0x7Eu);
  EXPECT_EQ(r.q.bits(1), 0xFEu);
  EXPECT_EQ(r.q.get(2), 288.0);  // 300 / 32 = 9.375 -> 9 * 32 = 288
}

TEST(GoldenMx, AmaxZeroGivesSmallestScaleAndZeros) {
  MxQuantResult r = mx_quantize(row(32, {}, 0.0), Dtype::E4M3);
  EXPECT_EQ(r.scale.bits(0), 0x00u);  // 2^-127
  for (int64_t i = 0; i < 32; ++i) EXPECT_EQ(r.q.get(i), 0.0);
}

TEST(GoldenMx, NanOrInfAmaxGivesNanScale) {
  MxQuantResult n = mx_quantize(row(32, {1.0, std::nan("")}), Dtype::E4M3);
  EXPECT_EQ(n.scale.bits(0), 0xFFu);
  EXPECT_TRUE(std::isnan(n.q.get(0)));
  MxQuantResult i = mx_quantize(row(32, {1.0, -INFINITY}), Dtype::E5M2);
  EXPECT_EQ(i.scale.bits(0), 0xFFu);
  EXPECT_EQ(i.q.bits(0), 0x7Eu);  // e5m2 NaN
}

TEST(GoldenMx, TinyAmaxClampsAtMinus127) {
  // amax = 2^-130 (fp32 subnormal): floor(log2) - 8 = -138 -> clamped to -127 (code 0);
  // element 2^-130 / 2^-127 = 2^-3 -> e4m3 exponent field 4 -> 0x20.
  MxQuantResult r = mx_quantize(row(32, {std::ldexp(1, -130)}), Dtype::E4M3);
  EXPECT_EQ(r.scale.bits(0), 0u);
  EXPECT_EQ(r.q.bits(0), 0x20u);
}

TEST(GoldenMx, E5M2AndPartialLastBlock) {
  // K = 33: two blocks. Block 0 amax 1 -> shared_exp 0 - 15 = -15 -> code 112, 1 * 2^15 =
  // 32768 -> e5m2 0x78. Block 1 holds one element, 6 = 1.5 * 2^2 -> shared_exp 2 - 15 = -13
  // -> code 114; 6 * 2^13 = 49152 = 1.5 * 2^15 -> 0x7A.
  std::vector<double> v(33, 0.0);
  v[0] = 1.0;
  v[32] = 6.0;
  MxQuantResult r = mx_quantize(Tensor::from_values(Dtype::F32, {1, 33}, v), Dtype::E5M2);
  EXPECT_EQ(r.scale.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(r.scale.bits(0), 112u);
  EXPECT_EQ(r.scale.bits(1), 114u);
  EXPECT_EQ(r.q.bits(0), 0x78u);
  EXPECT_EQ(r.q.bits(32), 0x7Au);
}

TEST(GoldenMxScaledMm, HandComputed) {
  // K = 2, one block. a = [1, 2] * 2^-1 (code 126); b = [3, 0.5] * 2^1 (code 128):
  // (0.5)(6) + (1)(1) = 4.
  Tensor a = Tensor::from_values(Dtype::E4M3, {1, 2}, {1, 2});
  Tensor b = Tensor::from_values(Dtype::E4M3, {1, 2}, {3, 0.5});
  Tensor sa = Tensor::from_bits(Dtype::E8M0, {1, 1}, {126});
  Tensor sb = Tensor::from_bits(Dtype::E8M0, {1, 1}, {128});
  Tensor y = mx_scaled_mm(a, sa, b, sb);
  EXPECT_EQ(y.dtype(), Dtype::F32);
  EXPECT_EQ(y.get(0), 4.0);
  // A NaN scale makes its block, and so the dot product, NaN.
  Tensor nan_s = Tensor::from_bits(Dtype::E8M0, {1, 1}, {0xFF});
  EXPECT_TRUE(std::isnan(mx_scaled_mm(a, nan_s, b, sb).get(0)));
}

TEST(GoldenMxScaledMm, TwoBlocksWithDifferentScales) {
  // K = 64, all elements 1. Row a: block 0 scale 2^0, block 1 scale 2^2; b: both 2^-1.
  // y = 32 * (1 * 0.5) + 32 * (4 * 0.5) = 16 + 64 = 80.
  Tensor a = Tensor::from_values(Dtype::E4M3, {1, 64}, std::vector<double>(64, 1.0));
  Tensor b = Tensor::from_values(Dtype::E4M3, {1, 64}, std::vector<double>(64, 1.0));
  Tensor sa = Tensor::from_bits(Dtype::E8M0, {1, 2}, {127, 129});
  Tensor sb = Tensor::from_bits(Dtype::E8M0, {1, 2}, {126, 126});
  EXPECT_EQ(mx_scaled_mm(a, sa, b, sb).get(0), 80.0);
  Tensor bad = Tensor::from_bits(Dtype::E8M0, {1, 1}, {127});
  try {
    mx_scaled_mm(a, bad, b, sb);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "mx_scaled_mm: a_scale must be [1, 2], got e8m0[1, 1]");
  }
}

TEST(GoldenMxScaledMm, QuantiseThenMultiplyApproximatesTheMatmul) {
  // x = [1.1, -0.3, ...] with w = identity-ish row: the MX round trip keeps ~3 bits of
  // mantissa, so each element is within 2^-4 relative; the dot product stays close.
  std::vector<double> xv(32), wv(32);
  double exact = 0;
  for (int i = 0; i < 32; ++i) {
    xv[size_t(i)] = 0.1 * (i - 15);
    wv[size_t(i)] = 0.05 * ((i * 7) % 11 - 5);
    exact += float(xv[size_t(i)]) * float(wv[size_t(i)]);
  }
  MxQuantResult qa = mx_quantize(Tensor::from_values(Dtype::F32, {1, 32}, xv), Dtype::E4M3);
  MxQuantResult qb = mx_quantize(Tensor::from_values(Dtype::F32, {1, 32}, wv), Dtype::E4M3);
  double y = mx_scaled_mm(qa.q, qa.scale, qb.q, qb.scale).get(0);
  EXPECT_NEAR(y, exact, 0.05 * std::fabs(exact) + 0.02);
}


// The registered linear_mxfp8 golden (what kernels/cases/linear_mxfp8.yaml checks against) by
// hand: K = 64, two blocks. Row 0: block 0 holds 1 and 0.5 (amax 1 -> code 119, elements 256 and
// 128), block 1 holds 480 (amax 480 -> shared_exp 0; 480 = S.1111.111 would be e4m3 NaN, it
// saturates to 448). Row 1 is all zero
// (codes 0, zero elements). W row 0 has e4m3 1 at k = 0, 1, 32 with scale 2^0 (code 127), so
// y[0, 0] = (256 + 128) * 2^-8 + 448 = 449.5 -> bf16 450 (RNE at 2 units of 449.5); y[1, 0] = 0.
TEST(GoldenMx, LinearMxfp8ByHand) {
  std::vector<double> xv(128, 0.0), wv(64, 0.0);
  xv[0] = 1.0;
  xv[1] = 0.5;
  xv[32] = 480.0;
  wv[0] = wv[1] = wv[32] = 1.0;
  TensorMap in{{"x", Tensor::from_values(Dtype::BF16, {2, 64}, xv)},
               {"w", Tensor::from_values(Dtype::E4M3, {1, 64}, wv)},
               {"w_scale", Tensor::from_values(Dtype::E8M0, {1, 2}, {1.0, 1.0})}};
  TensorMap out = run_golden("linear_mxfp8", {}, in);
  EXPECT_EQ(out.at("x_scale").bits(0), 119u);
  EXPECT_EQ(out.at("x_scale").bits(1), 127u);
  EXPECT_EQ(out.at("x_scale").bits(2), 0u);
  EXPECT_EQ(out.at("q").bits(32), 0x7Eu);  // 448, saturated
  EXPECT_EQ(out.at("out").get(0), 450.0);
  EXPECT_EQ(out.at("out").get(1), 0.0);
}

}  // namespace
}  // namespace npu::golden
