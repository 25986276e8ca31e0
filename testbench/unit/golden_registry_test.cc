// Goldens by name: dispatch, attribute parsing and the error texts a case-file author sees.
#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/registry.h"
#include "testbench/support/thrown_message.h"

namespace npu::golden {
namespace {

std::string error_of(const std::string& name, const Attrs& attrs, const TensorMap& in) {
  return npu::test::thrown_message([&] { run_golden(name, attrs, in); });
}

Tensor bf16(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::from_values(Dtype::BF16, std::move(shape), v);
}

TEST(GoldenRegistry, ListsEveryGolden) {
  std::vector<std::string> names;
  for (const GoldenInfo& g : golden_list()) names.push_back(g.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rmsnorm", "linear", "rmsnorm_linear",
                                             "quant_per_token", "dequant", "linear_w8a8", "rmsnorm_linear_quant",
                                             "mx_quantize", "mx_scaled_mm", "linear_mxfp8", "rope", "mla_prolog",
                                             "mla_prolog_quant", "qwen3_pre_attn"}));
  EXPECT_EQ(golden_info("rmsnorm").attrs.size(), 5u);
}

TEST(GoldenRegistry, UnknownNamesListWhatExists) {
  EXPECT_EQ(error_of("rms_norm", {}, {}),
            "unknown golden 'rms_norm' (goldens: rmsnorm, linear, rmsnorm_linear, quant_per_token, "
            "dequant, linear_w8a8, rmsnorm_linear_quant, mx_quantize, mx_scaled_mm, linear_mxfp8, rope, mla_prolog, "
            "mla_prolog_quant, qwen3_pre_attn)");
  EXPECT_EQ(error_of("rmsnorm", {{"epsilon", "1e-6"}}, {}),
            "golden 'rmsnorm': unknown attribute 'epsilon' (attributes: eps, has_gamma, has_bias, "
            "variant, output_rstd)");
  TensorMap in{{"x", bf16({1, 2}, {3, 4})}, {"weight", bf16({2}, {1, 1})}};
  EXPECT_EQ(error_of("rmsnorm", {}, in),
            "golden 'rmsnorm': unknown input tensor 'weight' (inputs: x, gamma [if has_gamma], "
            "beta [if has_bias])");
}

TEST(GoldenRegistry, BadValuesAndMissingOrUnexpectedInputs) {
  TensorMap x{{"x", bf16({1, 2}, {3, 4})}};
  EXPECT_EQ(error_of("rmsnorm", {{"variant", "fast"}}, x),
            "golden 'rmsnorm': attribute variant = 'fast' is not one of: rsqrt, sqrt_div");
  EXPECT_EQ(error_of("rmsnorm", {{"eps", "1e-6x"}, {"has_gamma", "false"}}, x),
            "golden 'rmsnorm': attribute eps = '1e-6x' is not a number");
  EXPECT_EQ(error_of("rmsnorm", {{"has_gamma", "maybe"}}, x),
            "golden 'rmsnorm': attribute has_gamma = 'maybe' is not a bool (true/false)");
  EXPECT_EQ(error_of("rmsnorm", {}, x),
            "golden 'rmsnorm': missing input tensor 'gamma' (has_gamma is true) (inputs: x, gamma "
            "[if has_gamma], beta [if has_bias])");
  TensorMap xg{{"x", bf16({1, 2}, {3, 4})}, {"gamma", bf16({2}, {1, 1})}};
  EXPECT_EQ(error_of("rmsnorm", {{"has_gamma", "false"}}, xg),
            "golden 'rmsnorm': input tensor 'gamma' given but has_gamma is false");
}

TEST(GoldenRegistry, RunsWithAttributesAndNamedOutputs) {
  // Same case as GoldenRmsNormLinear.NormedIsRoundedToBf16BeforeTheMatmul: out = 1.984375.
  TensorMap in{{"x", bf16({1, 2}, {3, 4})}, {"w", bf16({1, 2}, {1, 1})}};
  TensorMap out = run_golden("rmsnorm_linear", {{"eps", "0"}, {"has_gamma", "false"}}, in);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out.at("out").get(0), 1.984375);
  EXPECT_EQ(out.at("normed").get(1), 1.1328125);
  // output_rstd adds rstd; variant selects B.
  TensorMap r = run_golden("rmsnorm",
                           {{"eps", "0"}, {"has_gamma", "false"}, {"output_rstd", "true"},
                            {"variant", "sqrt_div"}},
                           {{"x", bf16({1, 2}, {3, 0})}});
  EXPECT_EQ(float(r.at("rstd").get(0)), 0.471404552f);
  TensorMap no_rstd = run_golden("rmsnorm", {{"has_gamma", "false"}}, {{"x", bf16({1, 2}, {3, 0})}});
  EXPECT_EQ(no_rstd.count("rstd"), 0u);
  // linear's out_dtype: 1 + 2^-10 + 2^-20 (x . w of [1, 2^-10 + 2^-20] and [1, 1], exact in f32)
  // rounds to 1 in bf16, to 1 + 2^-10 in f16, and stays in f32; the default is bf16.
  const TensorMap lin_in{{"x", Tensor::from_values(Dtype::F32, {1, 2}, {1, 0.0009775161743164062})},
                         {"w", Tensor::from_values(Dtype::F32, {1, 2}, {1, 1})}};
  const std::pair<const char*, double> want[] = {{"bf16", 1.0}, {"f16", 1.0009765625}, {"f32", 1.0009775161743164}};
  for (const auto& [dt, v] : want) {
    const Tensor y = run_golden("linear", {{"out_dtype", dt}}, lin_in).at("out");
    EXPECT_EQ(y.dtype(), std::string(dt) == "bf16" ? Dtype::BF16 : std::string(dt) == "f16" ? Dtype::F16 : Dtype::F32);
    EXPECT_EQ(y.get(0), v) << dt;
  }
  EXPECT_EQ(run_golden("linear", {}, lin_in).at("out").dtype(), Dtype::BF16);
}

TEST(GoldenRegistry, QuantisedGoldensByName) {
  TensorMap q = run_golden("quant_per_token", {},
                           {{"x", Tensor::from_values(Dtype::F32, {1, 4}, {1, -2, 0.5, 4})}});
  EXPECT_EQ(q.at("q").to_doubles(), (std::vector<double>{32, -64, 16, 127}));
  TensorMap mx = run_golden("mx_quantize", {{"elem", "e5m2"}},
                            {{"x", Tensor::from_values(Dtype::F32, {1, 32},
                                                       std::vector<double>(32, 1.0))}});
  EXPECT_EQ(mx.at("scale").bits(0), 112u);
  TensorMap mm = run_golden("mx_scaled_mm", {{"out_dtype", "bf16"}},
                            {{"a", mx.at("q")}, {"a_scale", mx.at("scale")},
                             {"b", mx.at("q")}, {"b_scale", mx.at("scale")}});
  EXPECT_EQ(mm.at("out").dtype(), Dtype::BF16);
  EXPECT_EQ(mm.at("out").get(0), 32.0);  // 32 * 1 * 1
  TensorMap dq = run_golden(
      "dequant", {{"has_bias", "true"}},
      {{"acc", Tensor::from_values(Dtype::S32, {1, 2}, {100, -3})},
       {"x_scale", Tensor::from_values(Dtype::F32, {1}, {0.5})},
       {"w_scale", Tensor::from_values(Dtype::F32, {2}, {0.25, 2})},
       {"bias", Tensor::from_values(Dtype::F32, {2}, {1, 0.125})}});
  EXPECT_EQ(dq.at("out").to_doubles(), (std::vector<double>{13.5, -2.875}));
  TensorMap rlq = run_golden(
      "rmsnorm_linear_quant", {{"has_gamma", "false"}, {"eps", "0"}},
      {{"x", bf16({1, 2}, {1, 1})}, {"w", Tensor::from_values(Dtype::S8, {1, 2}, {1, 2})},
       {"w_scale", Tensor::from_values(Dtype::F32, {1}, {0.5})}});
  EXPECT_EQ(rlq.at("out").get(0), 1.5);
  EXPECT_EQ(rlq.at("acc").get(0), 381.0);
}

}  // namespace
}  // namespace npu::golden
