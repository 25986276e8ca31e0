// `npusim run --timing-only` gives the full run's cycles and statistics (timing_only_check.h),
// on the flagship cases at reduced K and N (the full shapes: run_timing_only_long_test.cc).
#include <gtest/gtest.h>

#include <string>

#include "testbench/support/cli_support.h"
#include "testbench/system/timing_only_check.h"

namespace {

using npu::test::source_path;

class TimingOnly : public npu::test::CliScratchTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(TimingOnly, GivesTheFullRunsCyclesAndStatistics) {
  npu::test::expect_timing_only_matches_full([this](const std::string& a) { return npusim(a); }, scratch_,
                                             source_path("kernels/cases/") + GetParam());
}

INSTANTIATE_TEST_SUITE_P(FlagshipCasesSmall, TimingOnly,
                         ::testing::Values("rmsnorm_linear.yaml --var K=1024 --var N=384",
                                           "linear_bf16.yaml --var K=1024 --var N=384", "rmsnorm_bf16.yaml"),
                         [](const auto& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

class TimingOnlyCli : public npu::test::CliScratchTest {};

TEST_F(TimingOnlyCli, RefusesTheIssAndTheRaceChecker) {
  const std::string kase = source_path("kernels/cases/rmsnorm_bf16.yaml");
  EXPECT_EQ(npusim("run " + kase + " --timing-only --iss"), 2);
  EXPECT_NE(err_.find("--timing-only needs the SystemC model"), std::string::npos) << err_;
  EXPECT_EQ(npusim("run " + kase + " --timing-only --race error"), 2);
  EXPECT_NE(err_.find("race checker"), std::string::npos) << err_;
}

// The large-case note is about generating the tensors and running the golden (1.7e10 FLOP
// here, over its 1e10 threshold): a timing-only run does neither, so it says nothing.
TEST_F(TimingOnlyCli, GivesNoLargeCaseNote) {
  const std::string kase = source_path("kernels/cases/linear_bf16.yaml") + " --var M=2048 --var K=2048 --var N=2048";
  EXPECT_EQ(npusim("run " + kase + " --timing-only"), 0) << err_;
  EXPECT_EQ(err_.find("note: a large case"), std::string::npos) << err_;
}

}  // namespace
