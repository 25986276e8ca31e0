// The comparison rule: thresholds, NaN/Inf handling, allowed bad count, report line.
#include <cmath>

#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/compare.h"

namespace npu::golden {
namespace {

Tensor f32(std::vector<double> v) {
  int64_t n = int64_t(v.size());
  return Tensor::from_values(Dtype::F32, {n}, v);
}

TEST(GoldenCompare, DefaultTolerances) {
  Tolerance b = default_tolerance(Dtype::BF16);
  EXPECT_EQ(b.atol, 1e-4);
  EXPECT_EQ(b.rtol, 0.0078125);
  EXPECT_EQ(b.max_error_ratio, 0.005);
  EXPECT_EQ(default_tolerance(Dtype::F16).rtol, 1e-3);
  EXPECT_EQ(default_tolerance(Dtype::F32).atol, 2.5e-5);
  EXPECT_EQ(default_tolerance(Dtype::S8).atol, 1.0);
  EXPECT_EQ(default_tolerance(Dtype::S32).atol, 0.0);
}

TEST(GoldenCompare, ExactlyAtThresholdIsNotBad) {
  // tol (0.25, 0.5, 0): threshold at r = 2 is 0.25 + 0.5 * 2 = 1.25 (all exact in binary).
  Tolerance tol{0.25, 0.5, 0};
  CompareResult at = compare(f32({3.25}), f32({2}), tol);
  EXPECT_TRUE(at.pass);
  EXPECT_EQ(at.bad_count, 0);
  EXPECT_EQ(at.max_abs_err, 1.25);
  EXPECT_EQ(at.max_rel_err, 0.625);
  // One fp32 ulp further (2^-22 at 3.25) is bad.
  CompareResult over = compare(f32({3.25 + std::ldexp(1, -22)}), f32({2}), tol);
  EXPECT_FALSE(over.pass);
  EXPECT_EQ(over.bad_count, 1);
  EXPECT_EQ(over.first_bad, 0);
}

TEST(GoldenCompare, Bf16OneUlpPassesTwoFail) {
  // r = 1: threshold 1e-4 + 2^-7. t = 1 + 2^-7 (one bf16 ulp) passes; 1 + 2^-6 does not.
  Tensor r = Tensor::from_values(Dtype::BF16, {1}, {1.0});
  EXPECT_TRUE(compare(Tensor::from_values(Dtype::BF16, {1}, {1.0078125}), r).pass);
  EXPECT_FALSE(compare(Tensor::from_values(Dtype::BF16, {1}, {1.015625}), r).pass);
}

TEST(GoldenCompare, NanOrInfWhereReferenceFiniteAlwaysFails) {
  Tolerance lax{1e9, 1e9, 1.0};  // everything else would pass
  CompareResult n = compare(f32({1, std::nan("")}), f32({1, 2}), lax);
  EXPECT_FALSE(n.pass);
  EXPECT_EQ(n.nonfinite_count, 1);
  EXPECT_EQ(n.bad_count, 1);
  CompareResult i = compare(f32({INFINITY, 2}), f32({1, 2}), lax);
  EXPECT_FALSE(i.pass);
  EXPECT_EQ(i.first_bad, 0);
}

TEST(GoldenCompare, NonFiniteReferences) {
  Tolerance tol{0, 0, 0};
  EXPECT_TRUE(compare(f32({std::nan(""), INFINITY}), f32({std::nan(""), INFINITY}), tol).pass);
  EXPECT_FALSE(compare(f32({1.0}), f32({std::nan("")}), tol).pass);
  EXPECT_FALSE(compare(f32({-INFINITY}), f32({INFINITY}), tol).pass);
}

TEST(GoldenCompare, AllowedBadCountRoundsHalfToEven) {
  // max_error_ratio 0.005: numel 100 -> round(0.5) = 0 (as Python); numel 300 -> round(1.5) = 2.
  Tolerance tol{0, 0, 0.005};
  std::vector<double> r100(100, 1.0), t100 = r100;
  t100[7] = 2.0;
  CompareResult a = compare(f32(t100), f32(r100), tol);
  EXPECT_EQ(a.allowed_bad, 0);
  EXPECT_FALSE(a.pass);
  std::vector<double> r300(300, 1.0), t300 = r300;
  t300[1] = t300[2] = 2.0;
  CompareResult b = compare(f32(t300), f32(r300), tol);
  EXPECT_EQ(b.allowed_bad, 2);
  EXPECT_TRUE(b.pass);  // bad_count == allowed passes
  t300[3] = 2.0;
  EXPECT_FALSE(compare(f32(t300), f32(r300), tol).pass);
  EXPECT_EQ(round_half_even(2.5), 2);
  EXPECT_EQ(round_half_even(3.5), 4);
}

TEST(GoldenCompare, RelativeErrorAgainstZeroIsInfinite) {
  CompareResult r = compare(f32({0.5, 0}), f32({0, 0}), Tolerance{1, 0, 0});
  EXPECT_TRUE(r.pass);
  EXPECT_TRUE(std::isinf(r.max_rel_err));
}

TEST(GoldenCompare, ShapeMismatchIsAnError) {
  try {
    compare(f32({1, 2}), f32({1}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "compare: output f32[2] and reference f32[1] have different shapes");
  }
}

TEST(GoldenCompare, FormatLine) {
  Tolerance tol{0.25, 0.5, 0};
  CompareResult r = compare(f32({3.25, 1, 5}), f32({2, 1, 2}), tol);
  EXPECT_EQ(format_result("out", r),
            "out: FAIL max_abs=3.000e+00 max_rel=1.500e+00 bad=1/3 (33.333%) allowed=0 "
            "tol=(0.25, 0.5, 0) first_bad=2");
  CompareResult ok = compare(f32({1}), f32({1}), Tolerance{1e-4, 0.0078125, 0.005});
  EXPECT_EQ(format_result("rstd", ok),
            "rstd: PASS max_abs=0.000e+00 max_rel=0.000e+00 bad=0/1 (0.000%) allowed=0 "
            "tol=(0.0001, 0.0078125, 0.005)");
}

}  // namespace
}  // namespace npu::golden
