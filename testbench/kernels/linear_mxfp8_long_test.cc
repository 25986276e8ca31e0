// kernels/linear_mxfp8.s at the decode shape (M 16, K 4096, N 1536, 36 clusters of ascend950), both
// hand-off paths: numerics on the ISS against the golden, and the SystemC cycles against the HBM
// roofline (the quick tier has the small shapes; the exact counts are in cycle_baseline.yaml).
#include <cstdio>

#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/mxfp8_case.h"

namespace npu::test {
namespace {

TEST(Mxfp8Long, DecodeShapeMatchesGoldenOnTheIss) {
  for (int via : {0, 1}) {
    const cli::RunResult r = run_mxfp8(MxShape{16, 4096, 1536, 512, via, 36}, /*iss=*/true);
    EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  }
}

// The decode layer on ascend950, 36 clusters, both paths. Issue 10's target is >= 80 % of the HBM
// roofline (launch.overhead_cycles 1800 + x, w, ws, y once at 1600 GB/s / 1.65 GHz = 969.7 B per
// cycle: 1800 + 6.67 MB / 969.7 = 8677 cycles). Measured: GM 10554 cycles (82.2 %: met; 11885 =
// 73.0 % before W's scales came once per AIC), UB -> L1 18229 (47.6 %, bound by the 36-fold
// quantisation on the AIVs, docs/quant.md). The GM path asserts the target, the direct path the
// level reached; the exact counts are in cycle_baseline.yaml.
TEST(Mxfp8Long, DecodeShapeAgainstTheHbmRoofline) {
  const hw::HwConfig cfg = load_repo_config("ascend950");
  for (int via : {0, 1}) {
    const MxShape s{16, 4096, 1536, 512, via, 36};
    const cli::RunResult r = run_mxfp8(s, false);
    EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
    ASSERT_TRUE(r.sim.total_cycles);
    const double cycles = double(*r.sim.total_cycles), roof = mxfp8_hbm_roofline(cfg, s);
    EXPECT_GE(cycles, mxfp8_lower_bound(cfg, s));
    EXPECT_GE(roof / cycles, via ? 0.47 : 0.80) << s.name();
    std::printf("linear_mxfp8 %s: %.0f cycles, HBM roofline %.0f (%.1f %%)\n", s.name().c_str(), cycles, roof,
                100 * roof / cycles);
  }
}

}  // namespace
}  // namespace npu::test
