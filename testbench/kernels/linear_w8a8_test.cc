#include "cli/lib/run_report.h"
// kernels/linear_w8a8.s (AT-09 int8 + AT-06 dequant) through the case pipeline users run
#include "cli/lib/run_report.h"
// (kernels/cases/linear_w8a8.yaml): numerics against the golden library's
#include "cli/lib/run_report.h"
// dequant(matmul_s8(x, w), x_scale, w_scale) on the ISS (race checker on) and on the SystemC
#include "cli/lib/run_report.h"
// model, both backends bit-identical, and the decode shape's cycles against the roofline
#include "cli/lib/run_report.h"
// computed from the config.
#include "cli/lib/run_report.h"
#include <gtest/gtest.h>
#include "cli/lib/run_report.h"

#include "cli/lib/run_report.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

class W8a8Iss : public ::testing::TestWithParam<W8a8Shape> {};

TEST_P(W8a8Iss, MatchesGoldenOnTiny) {
  const cli::RunResult r = run_w8a8("tiny", GetParam(), /*iss=*/true);
  ASSERT_EQ(r.verdicts.size(), 1u);
  EXPECT_TRUE(r.verdicts[0].compared);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  EXPECT_TRUE(r.warnings.empty());
}

W8a8Shape shape(int64_t m, int64_t k, int64_t n, int bd) { return W8a8Shape{m, k, n, bd, 1}; }

INSTANTIATE_TEST_SUITE_P(Quick, W8a8Iss,
                         ::testing::Values(shape(7, 512, 256, 2),     // fewer rows than AIVs' share
                                           shape(300, 256, 384, 2),   // row blocks of 128 + tail, pairs
                                           shape(1, 1024, 64, 1),     // one token, one cluster
                                           shape(136, 1024, 256, 1),  // x per unit row, a row change
                                           shape(256, 1024, 256, 1)), // whole unit rows: x_scale per row
                         [](const auto& info) { return info.param.name(); });

TEST(W8a8, SystemCIsBitIdenticalToTheIssAndAboveTheLowerBound) {
  // decode; M > 128 with x per unit row (kernels/lib/gemm_xrow.inc: ping-pong L0C slots, t by
  // unit rows), a short last unit row (136) and whole ones (256: x_scale read per unit row)
  for (const W8a8Shape& s : {shape(20, 1024, 320, 2), shape(136, 1024, 256, 1), shape(256, 1024, 256, 1)}) {
    const cli::RunResult iss = run_w8a8("tiny", s, true), sc = run_w8a8("tiny", s, false);
    EXPECT_EQ(iss.exit_code, cli::kExitPass) << cli::format_report(iss);
    EXPECT_EQ(sc.exit_code, cli::kExitPass) << cli::format_report(sc);
    ASSERT_EQ(iss.outputs.count("y"), 1u);
    EXPECT_EQ(iss.outputs.at("y").bytes(), sc.outputs.at("y").bytes()) << s.name();
    EXPECT_GE(double(total_cycles(sc)), w8a8_lower_bound(load_repo_config("tiny"), s));
  }
}

// The decode layer on ascend910b, 24 clusters. Issue 10's target is >= 85 % of the HBM roofline
// (launch.overhead_cycles 1800 + 6.5 MB / 888.9 B per cycle = 9124 cycles). With W row-major (ND)
// in GM it was met at 10697 cycles (85.3 %) by a tiling of whole W rows per DMA (one DMA over
// every HBM channel). W is now kept NZ in GM, as deployed weights are (docs/kernels.md section 9):
// a unit's rows of one column block are contiguous, rows of a whole K are not, so that tiling
// no longer applies and the decode runs gemm_aic.inc's chunks (W copied block by block, x
// converted ND -> NZ once): 10876 cycles, 83.9 %, under the `modulo` mappings shipped then; 10924,
// 83.5 %, with the hashed ones shipped now. What bounds it: the AICs end ~1050 cycles apart
// (launch skew, first-come HBM service), then the AIVs' dequant pass (~500 cycles). The
// assertion guards what is reached; the exact count is in cycle_baseline.yaml.
TEST(W8a8, DecodeShapeAgainstTheHbmRoofline) {
  const W8a8Perf p = measure_w8a8("ascend910b", W8a8Shape{});  // M 16, K 4096, N 1536, bd 24
  EXPECT_GE(p.hbm_roofline / p.cycles, 0.835);
}

}  // namespace
}  // namespace npu::test
