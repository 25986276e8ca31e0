// Long tier: the full shape grid of the flagship kernels on the SystemC model against the goldens
// (configs/tiny.yaml, block_dim 2): M in {1, 7, 16, 128, 300} x K in {512, 1024, 4096, 7168}
// x N in {256, 1536, 2048} for linear and rmsnorm_linear (the RMSNorm variant alternates),
// and RMSNorm over rows x D with every option combination.
#include <gtest/gtest.h>

#include <tuple>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

using Shape = std::tuple<int64_t, int64_t, int64_t>;  // M, K, N
const auto kGrid = ::testing::Combine(::testing::Values<int64_t>(1, 7, 16, 128, 300),
                                      ::testing::Values<int64_t>(512, 1024, 4096, 7168),
                                      ::testing::Values<int64_t>(256, 1536, 2048));
std::string shape_name(const ::testing::TestParamInfo<Shape>& i) {
  return "M" + std::to_string(std::get<0>(i.param)) + "_K" + std::to_string(std::get<1>(i.param)) +
         "_N" + std::to_string(std::get<2>(i.param));
}

class LinearGrid : public ::testing::TestWithParam<Shape> {};
TEST_P(LinearGrid, MatchesGolden) {
  LinearCase c;
  std::tie(c.M, c.K, c.N) = GetParam();
  c.block_dim = 2;
  c.seed = uint64_t(c.M * 31 + c.K * 7 + c.N);
  KernelOutcome r = run_linear(Engine::SystemC, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}
INSTANTIATE_TEST_SUITE_P(Grid, LinearGrid, kGrid, shape_name);

class RmsNormLinearGrid : public ::testing::TestWithParam<Shape> {};
TEST_P(RmsNormLinearGrid, MatchesGolden) {
  RmsNormLinearCase c;
  std::tie(c.M, c.K, c.N) = GetParam();
  c.variant = int((c.M + c.K / 512 + c.N / 256) % 2);
  c.block_dim = 2;
  c.seed = uint64_t(c.M * 37 + c.K * 11 + c.N);
  KernelOutcome r = run_rmsnorm_linear(Engine::SystemC, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}
INSTANTIATE_TEST_SUITE_P(Grid, RmsNormLinearGrid, kGrid, shape_name);

using RmsShape = std::tuple<int64_t, int64_t, int>;  // rows, D, option bits
class RmsNormGrid : public ::testing::TestWithParam<RmsShape> {};
TEST_P(RmsNormGrid, MatchesGolden) {
  RmsNormCase c;
  int opt;
  std::tie(c.rows, c.D, opt) = GetParam();
  c.variant = opt & 1;
  c.has_gamma = opt & 2;
  c.has_beta = opt & 4;
  c.out_rstd = opt & 8;
  c.f16 = opt & 16;
  c.block_dim = 2;
  c.seed = uint64_t(c.rows * 101 + c.D + opt);
  KernelOutcome r = run_rmsnorm(Engine::SystemC, tiny_config(), c);
  EXPECT_TRUE(r.pass()) << c.name() << "\n" << r.report();
}
INSTANTIATE_TEST_SUITE_P(Grid, RmsNormGrid,
                         ::testing::Combine(::testing::Values<int64_t>(1, 7, 16, 128, 300),
                                            ::testing::Values<int64_t>(512, 1024, 4096, 7168, 16384),
                                            ::testing::Values(0, 1, 2, 3, 15, 14 | 16, 3 | 16)),
                         [](const ::testing::TestParamInfo<RmsShape>& i) {
                           return "rows" + std::to_string(std::get<0>(i.param)) + "_D" +
                                  std::to_string(std::get<1>(i.param)) + "_opt" +
                                  std::to_string(std::get<2>(i.param));
                         });

}  // namespace
}  // namespace npu::test
