// Long tier: the shape grid of the quantisation kernels on the SystemC model of ascend910b
// (block_dim 24, 48 AIVs): quant_int8 over M in {1, 7, 16, 128, 300} x K in {512, 4096, 7168,
// 16384} x {bf16, fp32}, dequant over M x N in {256, 1536, 2048} (bias alternating). Each point:
// every output passes its golden (s8 within one step, fp32 scales, bf16; in fact exactly), the
// ISS writes bit-identical outputs, and the cycles are never below the lower bound (input bytes
// at the HBM bandwidth of the config).
#include <gtest/gtest.h>

#include <tuple>

#include "hw/config/hw_config.h"
#include "testbench/support/quant_cases.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

template <class Case>
void check(const KernelOutcome& sc, const KernelOutcome& iss, const Case& c) {
  EXPECT_TRUE(sc.pass()) << c.name() << " (systemc)\n" << sc.report();
  for (const OutputCheck& o : sc.outputs)  // the comparison allows an int8 step; the kernels are exact
    EXPECT_EQ(o.cmp.max_abs_err, 0.0) << c.name() << " " << o.name << "\n" << sc.report();
  std::string why;
  EXPECT_TRUE(same_outputs(iss, sc, &why)) << c.name() << ": " << why;
  const PerfBound lb = lower_bound(ascend910b_config(), c);
  EXPECT_GE(double(sc.info.cycles), lb.cycles()) << c.name() << ": below the lower bound";
  std::printf("[grid] %s: %llu cycles (lower bound %.0f, roofline %.0f)\n", c.name().c_str(),
              static_cast<unsigned long long>(sc.info.cycles), lb.cycles(),
              roofline(ascend910b_config(), c).cycles());
}

using QShape = std::tuple<int64_t, int64_t, bool>;  // M, K, fp32
class QuantGrid : public ::testing::TestWithParam<QShape> {};
TEST_P(QuantGrid, MatchesGoldenAndIss) {
  QuantCase c;
  std::tie(c.M, c.K, c.f32) = GetParam();
  c.block_dim = 24;
  c.seed = uint64_t(c.M * 131 + c.K);
  check(run_quant_int8(Engine::SystemC, ascend910b_config(), c), run_quant_int8(Engine::Iss, ascend910b_config(), c), c);
}
INSTANTIATE_TEST_SUITE_P(Grid, QuantGrid,
                         ::testing::Combine(::testing::Values<int64_t>(1, 7, 16, 128, 300),
                                            ::testing::Values<int64_t>(512, 4096, 7168, 16384),
                                            ::testing::Bool()),
                         [](const auto& i) {
                           return "M" + std::to_string(std::get<0>(i.param)) + "_K" +
                                  std::to_string(std::get<1>(i.param)) +
                                  (std::get<2>(i.param) ? "_f32" : "_bf16");
                         });

using DShape = std::tuple<int64_t, int64_t>;  // M, N
class DequantGrid : public ::testing::TestWithParam<DShape> {};
TEST_P(DequantGrid, MatchesGoldenAndIss) {
  DequantCase c;
  std::tie(c.M, c.N) = GetParam();
  c.has_bias = (c.M + c.N / 256) % 2 == 0;
  c.block_dim = 24;
  c.seed = uint64_t(c.M * 137 + c.N);
  check(run_dequant(Engine::SystemC, ascend910b_config(), c), run_dequant(Engine::Iss, ascend910b_config(), c), c);
}
INSTANTIATE_TEST_SUITE_P(Grid, DequantGrid,
                         ::testing::Combine(::testing::Values<int64_t>(1, 7, 16, 128, 300),
                                            ::testing::Values<int64_t>(256, 1536, 2048)),
                         [](const auto& i) {
                           return "M" + std::to_string(std::get<0>(i.param)) + "_N" +
                                  std::to_string(std::get<1>(i.param));
                         });

}  // namespace
}  // namespace npu::test
