// Long tier: a sweep of linear / rmsnorm_linear shapes on configs/ascend910b.yaml (24 clusters,
// SystemC, timing-only). Prints each case's cycles, HBM-roofline efficiency and cube utilisation
// (definitions: testbench/support/kernel_perf.h) and checks that no run beats the lower bound.
// The targets themselves are quick tests (perf_test.cc); exact counts of a fixed set are
// pinned by cycle_baseline_test.cc. The efficiency here is reported, not asserted: it varies with
// the shape (work split over 24 AICs, HBM channel / L2 slice spread; see docs/kernels.md).
#include <gtest/gtest.h>

#include <cstdio>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/kernel_perf.h"

namespace npu::test {
namespace {

template <class Case>
void report(const char* kernel, const Case& c, uint64_t cycles) {
  const auto& cfg = ascend910b_config();
  const double roof = roofline(cfg, c).cycles();
  std::printf("[perf] %-15s %-28s %8llu cycles  roofline %8.0f  %5.1f %%  cube %5.1f %%\n", kernel,
              c.name().c_str(), (unsigned long long)cycles, roof, 100 * roof / double(cycles),
              100 * cube_utilisation(cfg, double(c.M) * c.N * c.K, double(cycles)));
  EXPECT_GE(double(cycles), lower_bound(cfg, c).cycles()) << c.name();
}

TEST(KernelPerfSweep, Linear) {
  const int64_t shapes[][3] = {{16, 1024, 1536}, {16, 2048, 1536}, {16, 4096, 1536}, {16, 8192, 1536},
                               {16, 4096, 4096}, {16, 7168, 1536}, {32, 4096, 1536}, {128, 4096, 1536},
                               {1024, 1024, 1024}, {2048, 2048, 2048}};
  for (const auto& s : shapes) {
    const auto c = gemm_case<LinearCase>(s[0], s[1], s[2], ascend910b_config().chip.clusters);
    report("linear", c, run_linear(Engine::SystemC, ascend910b_config(), c, false, true).info.cycles);
  }
}

TEST(KernelPerfSweep, RmsNormLinear) {
  const int64_t shapes[][3] = {{16, 1024, 1536}, {16, 4096, 1536}, {16, 7168, 1536}, {64, 4096, 1536}};
  for (const auto& s : shapes) {
    const auto c = gemm_case<RmsNormLinearCase>(s[0], s[1], s[2], ascend910b_config().chip.clusters);
    report("rmsnorm_linear", c, run_rmsnorm_linear(Engine::SystemC, ascend910b_config(), c, false, true).info.cycles);
  }
}

}  // namespace
}  // namespace npu::test
