// kernels/linear_mxfp8.s (AT-09 MXFP8, a5) through the case pipeline users run
// (kernels/cases/linear_mxfp8.yaml on configs/ascend950.yaml): numerics against the golden
// library's linear_mxfp8 (mx_scaled_mm(mx_quantize(x), w, ws), fp64 accumulation) on the ISS with
// the race checker, both hand-off paths; SystemC bit-identical to the ISS; the decode shape's cycles
// against the lower bound computed from the config; shapes the kernel refuses. The decode shape
// (both paths, numerics and cycles) is in linear_mxfp8_long_test.cc.
#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "isa/error.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/mxfp8_case.h"
#include "testbench/support/thrown_message.h"

namespace npu::test {
namespace {

class MxIss : public ::testing::TestWithParam<MxShape> {};

TEST_P(MxIss, MatchesGolden) {
  const cli::RunResult r = run_mxfp8(GetParam(), /*iss=*/true);
  ASSERT_EQ(r.verdicts.size(), 1u);
  EXPECT_TRUE(r.verdicts[0].compared);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  EXPECT_TRUE(r.warnings.empty());
}

MxShape shape(int64_t m, int64_t k, int64_t n, int64_t kc, int via, int bd) { return MxShape{m, k, n, kc, via, bd}; }

INSTANTIATE_TEST_SUITE_P(Quick, MxIss,
                         ::testing::Values(shape(7, 1024, 256, 224, 1, 2),     // odd M, chunks split over 2 AIVs
                                           shape(7, 992, 96, 256, 0, 3),       // K tail chunk of 224, idle AICs
                                           shape(300, 512, 384, 96, 0, 4),     // row blocks of 128 + tail, pairs of 128 x 256
                                           shape(128, 512, 256, 224, 1, 2)),   // resident x filling its 96 KiB
                         [](const auto& info) { return info.param.name(); });

TEST(Mxfp8, SystemCIsBitIdenticalToTheIssOnEveryPath) {
  for (const MxShape& s : {shape(20, 1024, 320, 96, 0, 2),     // paired blocks of 256 columns: KC <= 124
                           shape(20, 1024, 320, 96, 1, 2),     // the same through UB -> L1
                           shape(150, 512, 256, 96, 0, 2)}) {  // M > 128: x per chunk from xw
    const cli::RunResult iss = run_mxfp8(s, true), sc = run_mxfp8(s, false);
    EXPECT_EQ(iss.exit_code, cli::kExitPass) << cli::format_report(iss);
    EXPECT_EQ(sc.exit_code, cli::kExitPass) << cli::format_report(sc);
    ASSERT_EQ(iss.outputs.count("y"), 1u);
    EXPECT_EQ(iss.outputs.at("y").bytes(), sc.outputs.at("y").bytes()) << s.name();
    ASSERT_TRUE(sc.sim.total_cycles);
    EXPECT_GE(double(*sc.sim.total_cycles), mxfp8_lower_bound(load_repo_config("ascend950"), s));
  }
}

// Shapes the kernel does not support. The case's `checks` refuse K not a multiple of 32, KC
// beyond 1024 and a UB -> L1 hand-off with M > 128 with the reason, located at the check's line
// (npu::Error: the CLI prints it and exits 2); the rules that depend on the block geometry (a
// KC-wide tile that does not fit an L0 half: 128 x 256 pairs x 224, 128 columns x 512; a
// resident x beyond its 96 KiB) are the kernel's own check, which faults at its label instead of
// computing garbage.
std::string refusal(const MxShape& s) {
  return npu::test::thrown_message([&] { run_mxfp8(s, true); });
}

TEST(Mxfp8, RefusedShapesAreLocatedErrors) {
  std::string e = refusal(shape(16, 1000, 32, 512, 0, 2));  // (a copy of the case: the line of its first check)
  EXPECT_NE(e.find("linear_mxfp8.yaml:15:12: error: checks[0]: K must be a multiple of 32"), std::string::npos) << e;
  EXPECT_NE(e.find("(K % 32 = 8, not 0)"), std::string::npos) << e;
  e = refusal(shape(16, 2048, 32, 2048, 0, 2));
  EXPECT_NE(e.find("error: checks[2]: KC must be at most 1024"), std::string::npos) << e;
  e = refusal(shape(200, 1024, 32, 224, 1, 2));
  EXPECT_NE(e.find("error: checks[4]: VIA_L1=1 needs M <= 128"), std::string::npos) << e;
  for (const MxShape& s : {shape(300, 512, 384, 224, 0, 4), shape(128, 1024, 64, 224, 1, 2), shape(16, 1024, 256, 512, 1, 2)}) {
    e = refusal(s);
    EXPECT_NE(e.find("linear_mxfp8.s:"), std::string::npos) << s.name() << ": " << e;  // the kernel's check
    EXPECT_EQ(e.find("checks["), std::string::npos) << s.name() << ": " << e;
  }
}

}  // namespace
}  // namespace npu::test
