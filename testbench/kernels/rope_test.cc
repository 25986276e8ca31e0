// kernels/rope.s (the RoPE building block of lib/rope.inc) through `npusim run`'s pipeline:
// kernels/cases/rope_bf16.yaml and variants of its vars, on the ISS (with the race checker)
// and the SystemC model, against the golden `rope`. The kernel does the golden's fp32 math
// in the golden's order, so it must be bit-exact (max_abs 0), and both backends bit-identical.
#include <gtest/gtest.h>

#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "testbench/support/paths.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {
namespace {

cli::RunResult run(const std::vector<std::string>& vars, bool iss, const char* config) {
  CaseRun how;
  how.config = config;
  how.vars = vars;
  how.iss = iss;
  return run_case_file(source_path("kernels/cases/rope_bf16.yaml"), how);
}

void expect_exact_on_both(const std::vector<std::string>& vars, const char* config) {
  std::string what = config;
  for (const std::string& v : vars) what += " " + v;
  const cli::RunResult iss = run(vars, true, config), sc = run(vars, false, config);
  for (const cli::RunResult* r : {&iss, &sc}) {
    ASSERT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    ASSERT_EQ(r->verdicts.size(), 1u);
    EXPECT_EQ(r->verdicts[0].result.max_abs_err, 0.0) << what << "\n" << cli::format_report(*r);
  }
  EXPECT_EQ(iss.outputs.at("y").bytes(), sc.outputs.at("y").bytes()) << what << ": ISS != SystemC";
  EXPECT_TRUE(sc.sim.total_cycles.has_value()) << what;
}

// Every shape in both forms of the pair swap: the vprot instruction (the case's default) and
// the DMA gather / scatter (VPROT=0).
class RopeKernel : public ::testing::TestWithParam<const char*> {
 protected:
  void both(std::vector<std::string> vars, const char* config) {
    vars.push_back(GetParam());
    expect_exact_on_both(vars, config);
  }
};

TEST_P(RopeKernel, ShippedCase) { both({}, "ascend910b"); }

// 13 segments over 8 AIVs (uneven split), one 64-wide head rotated whole.
TEST_P(RopeKernel, WholeHeadTailRows) { both({"T=13", "NH=1", "HD=64", "RD=64"}, "ascend910b"); }

// A whole q row of the MLAProlog: 64 heads of 512 (32768 elements) per token.
TEST_P(RopeKernel, AllQHeads) { both({"T=2", "NH=64"}, "ascend910b"); }

// Odd widths: 3 segments of 96 with rope 32, on a5; 15 segments over 8 AIVs, so AIV 3 takes
// segments 5 and 6 of tokens 1 and 2 (a new cos / sin mid-run) and AIV 2 reuses token 1's.
TEST_P(RopeKernel, NarrowSegmentsOnA5) { both({"T=5", "NH=3", "HD=96", "RD=32"}, "ascend950"); }

INSTANTIATE_TEST_SUITE_P(Forms, RopeKernel, ::testing::Values("VPROT=1", "VPROT=0"),
                         [](const auto& info) { return std::string(info.param[6] == '1' ? "Vprot" : "Dma"); });

}  // namespace
}  // namespace npu::test
