// kernels/linear_mxfp8.s over issue 10's numerics grid on the SystemC model of ascend950 (36
// clusters): M in {1, 7, 16, 128, 300}, K in {512, 4096, 7168}, N in {256, 1536, 2048} (a spread
// of the combinations, not all 45), each through GM and, where x fits the 96 KiB L1 region, through
// UB -> L1 as well. KC = 96 fits every block shape (pairs of 128 x 256: 256 x 96 <= 31744). Every
// point must pass the golden (bf16 rule) and stay above the lower bound.
#include <cstdio>

#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/mxfp8_case.h"

namespace npu::test {
namespace {

class MxGrid : public ::testing::TestWithParam<MxShape> {};

TEST_P(MxGrid, PassesTheGoldenOnSystemC) {
  const MxShape& s = GetParam();
  const cli::RunResult r = run_mxfp8(s, /*iss=*/false);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  ASSERT_TRUE(r.sim.total_cycles);
  EXPECT_GE(double(*r.sim.total_cycles), mxfp8_lower_bound(load_repo_config("ascend950"), s));
  std::printf("linear_mxfp8 %s: %llu cycles\n", s.name().c_str(), (unsigned long long)*r.sim.total_cycles);
}

MxShape at(int64_t m, int64_t k, int64_t n, int via) { return MxShape{m, k, n, 96, via, 36}; }

INSTANTIATE_TEST_SUITE_P(Grid, MxGrid,
                         ::testing::Values(at(1, 512, 256, 0), at(1, 4096, 1536, 1), at(7, 7168, 256, 0),
                                           at(7, 512, 2048, 1), at(16, 4096, 1536, 1), at(16, 7168, 2048, 0),
                                           at(128, 512, 1536, 1), at(128, 4096, 256, 0), at(300, 512, 2048, 0),
                                           at(300, 4096, 1536, 0)),
                         [](const auto& info) { return info.param.name(); });

}  // namespace
}  // namespace npu::test
