// Goldens on tiny shapes whose results are derived by hand in the comments.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/random.h"

namespace npu::golden {
namespace {

Tensor bf16(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::from_values(Dtype::BF16, std::move(shape), v);
}
Tensor f32(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::from_values(Dtype::F32, std::move(shape), v);
}

TEST(GoldenRmsNorm, HandComputedNoGamma) {
  // x = [3, 4], D = 2, eps = 0: mean_sq = 9/2 + 16/2 = 12.5, rstd = 1/sqrt(12.5) = 0.2828427.
  // y = [0.8485281, 1.1313708]; bf16: 0.8485281 * 256 = 217.22 -> 217/256 = 0.84765625,
  // 1.1313708 * 128 = 144.82 -> 145/128 = 1.1328125.
  RmsNormResult r = rmsnorm(bf16({1, 2}, {3, 4}), nullptr, nullptr, 0.0, RmsVariant::Rsqrt);
  EXPECT_EQ(r.out.dtype(), Dtype::BF16);
  EXPECT_EQ(r.out.get(0), 0.84765625);
  EXPECT_EQ(r.out.get(1), 1.1328125);
  EXPECT_EQ(r.rstd.shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(float(r.rstd.get(0)), float(1 / std::sqrt(12.5)));
}

TEST(GoldenRmsNorm, F16Output) {
  // Same y, f16 (11-bit significand): 0.8485281 * 2048 = 1737.79 -> 1738/2048 = 0.8486328125;
  // 1.1313708 * 1024 = 1158.52 -> 1159/1024 = 1.1318359375.
  Tensor x = Tensor::from_values(Dtype::F16, {1, 2}, {3, 4});
  RmsNormResult r = rmsnorm(x, nullptr, nullptr, 0.0, RmsVariant::Rsqrt);
  EXPECT_EQ(r.out.dtype(), Dtype::F16);
  EXPECT_EQ(r.out.get(0), 0.8486328125);
  EXPECT_EQ(r.out.get(1), 1.1318359375);
}

TEST(GoldenRmsNorm, GammaBetaEpsExact) {
  // Row 0: x = [1, 1], eps = 0 -> rstd 1, y = [1*2 + 0.25, 1*(-0.5) + 0] = [2.25, -0.5].
  // Row 1: x = [0, 0], eps = 0.25 -> var 0.25, rstd 2, y = [0 + 0.25, 0] = [0.25, 0].
  Tensor x = bf16({2, 2}, {1, 1, 0, 0});
  Tensor g = bf16({2}, {2, -0.5}), b = bf16({2}, {0.25, 0});
  RmsNormResult r0 = rmsnorm(x, &g, &b, 0.0, RmsVariant::Rsqrt);
  EXPECT_EQ(r0.out.get(0), 2.25);
  EXPECT_EQ(r0.out.get(1), -0.5);
  EXPECT_TRUE(std::isinf(r0.rstd.get(1)));  // 1/sqrt(0): eps matters
  RmsNormResult r1 = rmsnorm(x, &g, &b, 0.25, RmsVariant::Rsqrt);
  EXPECT_EQ(r1.rstd.get(1), 2.0);
  EXPECT_EQ(r1.out.get(2), 0.25);
  EXPECT_EQ(r1.out.get(3), 0.0);
}

TEST(GoldenRmsNorm, VariantsDifferInRstd) {
  // x = [3, 0]: var = 4.5; 1/sqrt(4.5) = 0.47140452079. Variant A rounds it once to fp32:
  // 0.471404523 (0x3EF15D56... nearest); variant B rounds sqrt(4.5) = 2.1213202 to fp32 first,
  // then 1/s rounds again and lands one ulp (2^-25) higher: 0.471404552.
  Tensor x = bf16({1, 2}, {3, 0});
  RmsNormResult a = rmsnorm(x, nullptr, nullptr, 0.0, RmsVariant::Rsqrt);
  RmsNormResult b = rmsnorm(x, nullptr, nullptr, 0.0, RmsVariant::SqrtDiv);
  EXPECT_EQ(float(a.rstd.get(0)), 0.471404523f);
  EXPECT_EQ(float(b.rstd.get(0)), 0.471404552f);
  EXPECT_EQ(float(b.rstd.get(0)) - float(a.rstd.get(0)), std::ldexp(1.0f, -25));
  // Both outputs: 3 * 0.4714045 = 1.4142136 -> 181.02/128 -> 1.4140625.
  EXPECT_EQ(a.out.get(0), 1.4140625);
  EXPECT_EQ(b.out.get(0), 1.4140625);
}

TEST(GoldenRmsNorm, BadShapesAreErrors) {
  Tensor x = bf16({1, 2}, {3, 4}), g = bf16({3}, {1, 1, 1});
  try {
    rmsnorm(x, &g, nullptr, 1e-6, RmsVariant::Rsqrt);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "rmsnorm: gamma must have 2 elements, got bf16[3]");
  }
  EXPECT_THROW(rmsnorm(bf16({2}, {1, 2}), nullptr, nullptr, 1e-6, RmsVariant::Rsqrt), Error);
}

TEST(GoldenLinear, HandComputed) {
  // x = [[1, 2], [3, 4]], W = [[1, 0], [0.5, -1], [1, 1]] (N = 3, K = 2):
  // y = [[1, 0.5 - 2, 3], [3, 1.5 - 4, 7]]; bias [0.25, 0, -1] -> [[1.25, -1.5, 2], [3.25, -2.5, 6]].
  Tensor x = bf16({2, 2}, {1, 2, 3, 4}), w = bf16({3, 2}, {1, 0, 0.5, -1, 1, 1});
  Tensor y = linear(x, w, nullptr);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(y.to_doubles(), (std::vector<double>{1, -1.5, 3, 3, -2.5, 7}));
  Tensor bias = f32({3}, {0.25, 0, -1});
  EXPECT_EQ(linear(x, w, &bias).to_doubles(), (std::vector<double>{1.25, -1.5, 2, 3.25, -2.5, 6}));
}

TEST(GoldenLinear, OutputRoundsOnceToBf16) {
  // 1*1 + 1*2^-8 = 1.00390625: halfway between bf16 1 and 1.0078125 -> even -> 1.
  // 1*1 + 1*(3*2^-9) = 1.005859375 -> 128.75 ulps -> 1.0078125.
  Tensor x = bf16({1, 2}, {1, 1});
  Tensor w = bf16({2, 2}, {1, std::ldexp(1, -8), 1, 3 * std::ldexp(1, -9)});
  Tensor y = linear(x, w, nullptr);
  EXPECT_EQ(y.get(0), 1.0);
  EXPECT_EQ(y.get(1), 1.0078125);
  EXPECT_EQ(linear(x, w, nullptr, Dtype::F32).get(0), 1.00390625);
  try {
    linear(x, bf16({2, 3}, {0, 0, 0, 0, 0, 0}), nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "linear: w must be [N, K] with K = 2, got bf16[2, 3]");
  }
}

// The cache-blocked sums (q blocks of 256, column blocks of 64, 4- or 8-row tiles) of every
// path this CPU has against the plain i, j, q loop in fp64: a shape with partial blocks and
// tiles everywhere (13 rows: 3 x 4 + 1, 8 + 5), values spread over 2^-30..2^30 so that most fp64
// additions round and any change of order would show in the fp32 results.
TEST(GoldenLinear, BlockedSumsAreThePlainLoopBitForBit) {
  const int64_t m = 13, k = 600, n = 75;
  Rng rng(5);
  auto spread = [&](int64_t count) {
    std::vector<double> v(static_cast<size_t>(count));
    for (double& e : v) e = std::ldexp(rng.uniform(-1, 1), int(rng.next_u64() % 61) - 30);
    return v;
  };
  Tensor x = bf16({m, k}, spread(m * k)), w = bf16({n, k}, spread(n * k));
  std::vector<float> want(size_t(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t q = 0; q < k; ++q) s = s + x.get(i * k + q) * w.get(j * k + q);
      want[size_t(i * n + j)] = float(s);
    }
  for (SimdPath path : {SimdPath::Portable, SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_available(path)) continue;
    const Tensor y = linear(x, w, nullptr, Dtype::F32, path);
    int differ = 0;
    for (int64_t i = 0; i < m * n; ++i) {
      const float got = float(y.get(i));
      differ += std::memcmp(&want[size_t(i)], &got, sizeof got) != 0;
    }
    EXPECT_EQ(differ, 0) << "path " << int(path);
  }
}

TEST(GoldenRmsNormLinear, NormedIsRoundedToBf16BeforeTheMatmul) {
  // normed = bf16 of [0.8485281, 1.1313708] = [0.84765625, 1.1328125] (see HandComputedNoGamma).
  // W = [[1, 1]]: 0.84765625 + 1.1328125 = 1.98046875 = 253.5/128 -> tie -> even 254/128
  // = 1.984375. Without the intermediate rounding it would be 1.9798990 -> 253/128 = 1.9765625.
  Tensor x = bf16({1, 2}, {3, 4}), w = bf16({1, 2}, {1, 1});
  RmsNormLinearResult r = rmsnorm_linear(x, nullptr, w, nullptr, 0.0, RmsVariant::Rsqrt);
  EXPECT_EQ(r.normed.get(0), 0.84765625);
  EXPECT_EQ(r.normed.get(1), 1.1328125);
  EXPECT_EQ(r.out.get(0), 1.984375);
}

TEST(GoldenQuant, HandComputed) {
  // Row 0: amax 4, scale_q = 127/4 = 31.75; x * 31.75 = [31.75, -63.5, 15.875, 127]
  // -> RNE [32, -64 (tie -> even), 16, 127]; scale_deq = 1/31.75.
  // Row 1: amax 0 -> q = 0, scale 0.
  Tensor x = f32({2, 4}, {1, -2, 0.5, 4, 0, -0.0, 0, 0});
  QuantResult r = quant_per_token(x);
  EXPECT_EQ(r.q.dtype(), Dtype::S8);
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{32, -64, 16, 127, 0, 0, 0, 0}));
  EXPECT_EQ(r.scale.shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(float(r.scale.get(0)), 1.0f / 31.75f);
  EXPECT_EQ(r.scale.get(1), 0.0);
}

TEST(GoldenQuant, RoundingInFp32) {
  // x = [1, 3]: scale_q = fp32(127/3) = 42.333332; 1 * 42.333332 -> 42; 3 * 42.333332 =
  // 126.999996 -> fp32 127 -> 127. scale_deq = 1/42.333332 in fp32.
  QuantResult r = quant_per_token(bf16({1, 2}, {1, 3}));
  EXPECT_EQ(r.q.get(0), 42.0);
  EXPECT_EQ(r.q.get(1), 127.0);
  EXPECT_EQ(float(r.scale.get(0)), 1.0f / (127.0f / 3.0f));
}

TEST(GoldenQuant, TiesRoundToEven) {
  // amax 127 -> scale_q = 127/127 = 1 exactly, so q = rne(x): 2.5 -> 2, -3.5 -> -4, 0.5 -> 0,
  // -0.5 -> -0 = 0 (round half to even, not away from zero); scale_deq = 1.
  QuantResult r = quant_per_token(f32({1, 5}, {127, 2.5, -3.5, 0.5, -0.5}));
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{127, 2, -4, 0, 0}));
  EXPECT_EQ(r.scale.get(0), 1.0);
}

TEST(GoldenQuant, OneHugeElement) {
  // bf16 row with one element 8192 (exact): scale_q = 127/8192 = 0.0155029296875 (exact);
  // 1 * s = 0.0155 -> 0; -39 * s = -0.6046 -> -1; 32 * s = 0.4961 -> 0; 33 * s = 0.5116 -> 1;
  // -8192 would be -127. scale_deq = fp32(1 / 0.0155029296875) = 64.50393676757812.
  QuantResult r = quant_per_token(bf16({1, 5}, {1, -39, 8192, 32, 33}));
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{0, -1, 127, 0, 1}));
  EXPECT_EQ(r.scale.get(0), 64.50393676757812);
}

TEST(GoldenQuant, ScaleDeqIsTheReciprocalOfScaleQ) {
  // docs/numerics.md AT-05: scale_deq = 1 / scale_q, not amax / 127. For amax = 0.54296875
  // (bf16 0x3f0b) the two differ by an ulp: fp32(1 / fp32(127 / amax)) = 0.004275344777852297,
  // fp32(amax / 127) = 0.0042753443121910095.
  QuantResult r = quant_per_token(bf16({1, 2}, {0.54296875, -0.25}));
  EXPECT_EQ(r.scale.get(0), 0.004275344777852297);
  EXPECT_NE(float(r.scale.get(0)), 0.54296875f / 127.0f);
}

TEST(GoldenQuant, TinyAmaxOverflowsScaleQAndSaturates) {
  // amax = 1e-38 < 127 / FLT_MAX: scale_q = 127 / amax overflows to +Inf in fp32, so
  // x * scale_q is +-Inf for every nonzero x and saturates to 127 / -128; 0 * Inf = NaN -> 0;
  // scale_deq = 1 / Inf = 0 (the row dequantises to 0, like an amax = 0 row).
  QuantResult r = quant_per_token(f32({1, 4}, {1e-38, -1e-38, 0, 5e-39}));
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{127, -128, 0, 127}));
  EXPECT_EQ(r.scale.get(0), 0.0);
}

TEST(GoldenDequant, ProductsLeftToRightInFp32) {
  // y = (fp32(acc) * x_scale) * w_scale: 2^30 * 2^100 = 2^130 overflows fp32 to Inf before
  // * 2^-100 (grouping the scales first would give 2^30); bf16(Inf) = Inf.
  Tensor a = Tensor::from_values(Dtype::S32, {1, 1}, {1 << 30});
  Tensor y = dequant(a, f32({1}, {std::ldexp(1.0, 100)}), f32({1}, {std::ldexp(1.0, -100)}), nullptr);
  EXPECT_TRUE(std::isinf(y.get(0)));
  // int32 -> fp32 is RNE: 16777217 -> 16777216 (2^24), then * 1 * 1 + bias 1 = 16777217 ->
  // fp32 16777216 again (the bias is added in fp32), bf16 16777216.
  Tensor a2 = Tensor::from_values(Dtype::S32, {1, 1}, {16777217});
  Tensor one = f32({1}, {1});
  EXPECT_EQ(dequant(a2, one, one, &one).get(0), 16777216.0);
}

TEST(GoldenMatmulS8AndDequant, HandComputed) {
  // acc = [[1*4 - 2*5 + 3*6, -128*(1 - 2 + 3)]] = [[12, -256]].
  Tensor x = Tensor::from_values(Dtype::S8, {1, 3}, {1, -2, 3});
  Tensor w = Tensor::from_values(Dtype::S8, {2, 3}, {4, 5, 6, -128, -128, -128});
  Tensor acc = matmul_s8(x, w);
  EXPECT_EQ(acc.dtype(), Dtype::S32);
  EXPECT_EQ(acc.to_doubles(), (std::vector<double>{12, -256}));
  // dequant [[100, -3]] * x_scale 0.5 * w_scale [0.25, 2] = [12.5, -3]; + bias [1, 0.125]
  // = [13.5, -2.875] (both exact in bf16).
  Tensor a = Tensor::from_values(Dtype::S32, {1, 2}, {100, -3});
  Tensor xs = f32({1}, {0.5}), ws = f32({2}, {0.25, 2}), b = f32({2}, {1, 0.125});
  EXPECT_EQ(dequant(a, xs, ws, nullptr).to_doubles(), (std::vector<double>{12.5, -3}));
  EXPECT_EQ(dequant(a, xs, ws, &b).to_doubles(), (std::vector<double>{13.5, -2.875}));
  // 257 -> bf16: ulp 2 in [256, 512), tie -> even 256.
  Tensor a2 = Tensor::from_values(Dtype::S32, {1, 1}, {257});
  Tensor one = f32({1}, {1});
  EXPECT_EQ(dequant(a2, one, one, nullptr).get(0), 256.0);
}

TEST(GoldenRmsNormLinearQuant, HandComputed) {
  // x = [1, 1]: rstd 1, normed = [1, 1]; amax 1, scale_q 127, q = [127, 127],
  // x_scale = fp32(1/127); W = [[1, 2]] -> acc = 381; out = 381 * (1/127) * 0.5 ~= 1.5 -> bf16 1.5.
  Tensor x = bf16({1, 2}, {1, 1});
  Tensor w = Tensor::from_values(Dtype::S8, {1, 2}, {1, 2});
  Tensor ws = f32({1}, {0.5});
  RmsNormLinearQuantResult r =
      rmsnorm_linear_quant(x, nullptr, w, ws, nullptr, 0.0, RmsVariant::Rsqrt, true);
  EXPECT_EQ(r.normed.dtype(), Dtype::BF16);
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{127, 127}));
  EXPECT_EQ(float(r.x_scale.get(0)), 1.0f / 127.0f);
  EXPECT_EQ(r.acc.get(0), 381.0);
  EXPECT_EQ(r.out.get(0), 1.5);
  RmsNormLinearQuantResult f =
      rmsnorm_linear_quant(x, nullptr, w, ws, nullptr, 0.0, RmsVariant::Rsqrt, false);
  EXPECT_EQ(f.normed.dtype(), Dtype::F32);
}

TEST(GoldenRmsNormLinearQuant, NormedStorageChoiceMatters) {
  // x = [3, 4] -> normed fp32 [0.8485281, 1.1313708] vs bf16 [0.84765625, 1.1328125].
  // bf16: amax 1.1328125, scale_q = 112.11034; 0.84765625 * 112.11 = 95.03 -> 95.
  // fp32: amax 1.1313708, scale_q = 112.25338; 0.8485281 * 112.25 = 95.25 -> 95 too, but the
  // scales differ, so x_scale (1/scale_q) tells the two storage choices apart.
  Tensor x = bf16({1, 2}, {3, 4});
  Tensor w = Tensor::from_values(Dtype::S8, {1, 2}, {1, 1});
  Tensor ws = f32({1}, {1});
  auto b = rmsnorm_linear_quant(x, nullptr, w, ws, nullptr, 0.0, RmsVariant::Rsqrt, true);
  auto f = rmsnorm_linear_quant(x, nullptr, w, ws, nullptr, 0.0, RmsVariant::Rsqrt, false);
  EXPECT_EQ(b.q.to_doubles(), (std::vector<double>{95, 127}));
  EXPECT_EQ(f.q.to_doubles(), (std::vector<double>{95, 127}));
  EXPECT_EQ(float(b.x_scale.get(0)), 1.0f / (127.0f / 1.1328125f));
  EXPECT_NE(b.x_scale.get(0), f.x_scale.get(0));
}

TEST(GoldenRmsNormLinearQuant, GammaZeroRowAndBothVariantsByHand) {
  // Row 0 = [0, 0]: mean_sq 0, rstd = 1/sqrt(1e-6), normed 0, amax 0 -> q 0, x_scale 0, out 0
  // (docs/numerics.md AT-05's amax == 0 rule). Row 1 = [2, -1], gamma [1, 0.5], eps 1e-6:
  // mean_sq 2.5, rstd = 0.6324554 (both variants), normed = [1.2649111, -0.3162278] ->
  // bf16 [1.265625, -0.31640625] (the kernel's storage choice); amax 1.265625, scale_q =
  // 127 / 1.265625 = 100.34568; q = [rne(127.0), rne(-31.75)] = [127, -32]; x_scale =
  // 1 / 100.34568 = 0.009965551; W = [[1, 1]], w_scale [1]: acc 95, out = 95 * 0.009965551 =
  // 0.94673 -> bf16 0.9453125 (steps of 2^-8 in [0.5, 1): 242 / 256).
  Tensor x = bf16({2, 2}, {0, 0, 2, -1});
  Tensor gamma = bf16({2}, {1, 0.5});
  Tensor w = Tensor::from_values(Dtype::S8, {1, 2}, {1, 1});
  Tensor ws = f32({1}, {1});
  for (RmsVariant v : {RmsVariant::Rsqrt, RmsVariant::SqrtDiv}) {
    RmsNormLinearQuantResult r = rmsnorm_linear_quant(x, &gamma, w, ws, nullptr, 1e-6, v, true);
    EXPECT_EQ(r.normed.to_doubles(), (std::vector<double>{0, 0, 1.265625, -0.31640625}));
    EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{0, 0, 127, -32}));
    EXPECT_EQ(r.x_scale.get(0), 0.0);
    EXPECT_EQ(float(r.x_scale.get(1)), 1.0f / (127.0f / 1.265625f));
    EXPECT_EQ(r.acc.to_doubles(), (std::vector<double>{0, 95}));
    EXPECT_EQ(r.out.to_doubles(), (std::vector<double>{0, 0.9453125}));
  }
}

// Every path against the definition (int64 sums element by element) on extreme and random int8
// values, with rows past a multiple of 4 and k past a multiple of 16.
TEST(GoldenMatmulS8, PathsAreTheDefinition) {
  const int64_t m = 7, k = 1000 + 13, n = 9;
  Rng rng(3);
  Tensor x(Dtype::S8, {m, k}), w(Dtype::S8, {n, k});
  for (int64_t i = 0; i < m * k; ++i) x.set(i, i % 97 == 0 ? -128.0 : double(int(rng.next_u64() % 256) - 128));
  for (int64_t i = 0; i < n * k; ++i) w.set(i, i % 89 == 0 ? -128.0 : double(int(rng.next_u64() % 256) - 128));
  for (int64_t q = 0; q < k; ++q) x.set(q, -128), w.set(q, -128);  // row 0 . row 0: 1013 * 2^14
  for (SimdPath path : {SimdPath::Portable, SimdPath::Avx2, SimdPath::Avx512}) {
    const Tensor acc = matmul_s8(x, w, path);
    int differ = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t s = 0;
        for (int64_t q = 0; q < k; ++q) s += int64_t(x.get(i * k + q)) * int64_t(w.get(j * k + q));
        differ += acc.get(i * n + j) != double(s);
      }
    EXPECT_EQ(differ, 0) << "path " << int(path);
  }
  EXPECT_EQ(matmul_s8(x, w).get(0), 1013.0 * 16384);
}

TEST(GoldenMatmulS8, OverflowIsAnError) {
  // 2^17 * (-128 * -128) = 2^31 > int32 max.
  int64_t k = int64_t(1) << 17;
  Tensor x(Dtype::S8, {1, k}), w(Dtype::S8, {1, k});
  for (int64_t i = 0; i < k; ++i) {
    x.set(i, -128);
    w.set(i, -128);
  }
  try {
    matmul_s8(x, w);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "matmul_s8: acc[0, 0] = 2147483648 overflows int32");
  }
}

}  // namespace
}  // namespace npu::golden
