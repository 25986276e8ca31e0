// kernels/rmsnorm_linear_quant.s (AT-11, V -> C -> V) through the case pipeline users run
// (kernels/cases/rmsnorm_linear_quant.yaml): q, x_scale and y against the golden
// rmsnorm_linear_quant (normed rounded to bf16, the kernel's storage choice) on the ISS with the
// race checker on, SystemC bit-identical to the ISS, and the decode shape against its bounds.
#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

W8a8Shape shape(int64_t m, int64_t k, int64_t n, int bd, int variant = 0) {
  W8a8Shape s{m, k, n, bd, 1};
  s.variant = variant;
  return s;
}

void expect_all_pass(const cli::RunResult& r) {
  ASSERT_EQ(r.verdicts.size(), 3u);  // y, q, x_scale
  for (const auto& v : r.verdicts) EXPECT_TRUE(v.compared);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  EXPECT_TRUE(r.warnings.empty());
}

class RlqIss : public ::testing::TestWithParam<W8a8Shape> {};

TEST_P(RlqIss, MatchesGoldenOnTiny) { expect_all_pass(run_rlq("tiny", GetParam(), /*iss=*/true)); }

INSTANTIATE_TEST_SUITE_P(Quick, RlqIss,
                         ::testing::Values(shape(7, 512, 256, 2),        // odd M, fewer rows than 4 AIVs x 2
                                           shape(300, 256, 384, 2),      // 128-row blocks + tail, 75 rows per AIV
                                           shape(3, 7168, 64, 1, 1),     // two chunks per row (3 passes), sqrt + div
                                           shape(1, 1024, 64, 1, 1),     // one token: one AIV idle, sqrt + div
                                           shape(136, 1024, 256, 1),     // x per unit row, a row change
                                           shape(256, 1024, 256, 1)),    // whole unit rows: x_scale per row
                         [](const auto& info) { return info.param.name(); });

TEST(Rlq, SystemCIsBitIdenticalToTheIssAndAboveTheLowerBound) {
  for (const W8a8Shape& s : {shape(20, 1024, 320, 2), shape(5, 4608, 64, 1, 1), shape(136, 1024, 256, 1)}) {
    const cli::RunResult iss = run_rlq("tiny", s, true), sc = run_rlq("tiny", s, false);
    expect_all_pass(iss);
    expect_all_pass(sc);
    for (const char* t : {"y", "q", "x_scale"}) {
      ASSERT_EQ(iss.outputs.count(t), 1u) << t;
      EXPECT_EQ(iss.outputs.at(t).bytes(), sc.outputs.at(t).bytes()) << s.name() << " " << t;
    }
    EXPECT_GE(double(total_cycles(sc)), rlq_lower_bound(load_repo_config("tiny"), s)) << s.name();
  }
}

// The decode layer on ascend910b, 24 clusters: numerics against the golden on the SystemC model
// and the cycles against the HBM roofline (x, gamma, W, w_scale, y, q, x_scale, t once: 6.65 MB
// / 888.9 B per cycle = 7481 cycles after launch.overhead_cycles 1800 = 9281). Issue 10's target
// is >= 85 %: met with W row-major (ND) in GM (10895 cycles, 85.2 %, whole W rows per DMA). With W
// kept NZ in GM (docs/kernels.md section 9) that tiling no longer applies: gemm_aic.inc's chunks,
// q read behind S - 2 or S - 1 W parts (gemm_prologue_after's stagger 2) and converted ND -> NZ
// on its load behind the hand-off (64 KiB: MTE2 1134 cycles instead of 629), 11322 cycles = 82.0 %
// under the `modulo` mappings shipped then, 11255 = 82.5 % with the hashed ones shipped now.
// The assertion guards what is reached; the exact count is in cycle_baseline.yaml.
TEST(Rlq, DecodeShapeAgainstTheHbmRoofline) {
  const W8a8Perf p = measure_rlq("ascend910b", W8a8Shape{});  // M 16, K 4096, N 1536, bd 24
  EXPECT_GE(p.hbm_roofline / p.cycles, 0.815);
}

}  // namespace
}  // namespace npu::test
