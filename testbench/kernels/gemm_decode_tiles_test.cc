// kernels/gemm_decode_tiles.s (the decode GEMM with the tile as parameters, lib/gemm_tiles.inc)
// through its cases kernels/cases/gemm_decode_tiles_{kn,nk}.yaml at small shapes: W [K, N] and
// [N, K] (b_trans), on the ISS (race checker on) and the SystemC model, against the golden
// `linear` (b_trans false / true; bf16 rule), the two backends bit-identical. The published
// shapes run in timing_calib_tables_long_test (docs/fidelity.md, the b_trans anchor).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "testbench/support/paths.h"

namespace npu::test {
namespace {

cli::RunResult run_tiles(const std::string& layout, const std::vector<std::string>& vars, bool iss) {
  cli::RunOptions o;
  o.case_path = source_dir() + "/kernels/cases/gemm_decode_tiles_" + layout + ".yaml";
  o.config_path = source_dir() + "/configs/ascend910b.yaml";
  o.vars = vars;
  o.iss = iss;
  return cli::run_case(o);
}

void expect_on_both(const std::string& layout, const std::vector<std::string>& vars) {
  std::string what = layout;
  for (const std::string& v : vars) what += " " + v;
  const cli::RunResult iss = run_tiles(layout, vars, true);
  const cli::RunResult sc = run_tiles(layout, vars, false);
  for (const cli::RunResult* r : {&iss, &sc}) {
    EXPECT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    ASSERT_EQ(r->verdicts.size(), 1u) << what;
    EXPECT_TRUE(r->verdicts[0].compared) << what;
  }
  EXPECT_EQ(iss.outputs.at("y").bytes(), sc.outputs.at("y").bytes()) << what << ": ISS != SystemC";
}

class GemmDecodeTiles : public ::testing::TestWithParam<std::string> {};

// Four N tiles of 128 on four AICs (block_dim = N / TN), K in four tiles of 64; 5 rows.
TEST_P(GemmDecodeTiles, OneTilePerAic) {
  expect_on_both(GetParam(), {"M=5", "K=256", "N=512", "TK=64", "TN=128"});
}

// Tails: N = 400 leaves a last tile of 16 columns, K = 272 a last chunk of 16 rows; one token.
TEST_P(GemmDecodeTiles, NarrowLastTileAndShortLastChunk) {
  expect_on_both(GetParam(), {"M=1", "K=272", "N=400", "TK=128", "TN=128"});
}

INSTANTIATE_TEST_SUITE_P(Layout, GemmDecodeTiles, ::testing::Values("kn", "nk"));

}  // namespace
}  // namespace npu::test
