// `npusim run --timing-only` gives the full run's cycles and statistics (timing_only_check.h) on
// the flagship cases at their own shapes (AT-10 M = 16, K = 4096, N = 1536).
#include <gtest/gtest.h>

#include <string>

#include "testbench/support/cli_support.h"
#include "testbench/system/timing_only_check.h"

namespace {

class TimingOnlyFlagship : public npu::test::CliScratchTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(TimingOnlyFlagship, GivesTheFullRunsCyclesAndStatistics) {
  npu::test::expect_timing_only_matches_full([this](const std::string& a) { return npusim(a); }, scratch_,
                                             npu::test::source_path("kernels/cases/") + GetParam());
}

INSTANTIATE_TEST_SUITE_P(FlagshipCases, TimingOnlyFlagship,
                         ::testing::Values("rmsnorm_linear.yaml", "linear_bf16.yaml"),
                         [](const auto& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
