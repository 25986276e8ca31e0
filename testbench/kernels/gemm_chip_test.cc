// kernels/gemm_chip.s (the whole-chip bf16 GEMM tiled as the vendor's A2 templates tile it, b in
// [K, N]) through kernels/cases/gemm_chip_bf16.yaml at small shapes, on the ISS (race checker
// on) and the SystemC model, against the golden `linear` (b_trans false; bf16 rule), the two
// backends bit-identical. The published sizes run in timing_calib_tables_long_test
// (docs/fidelity.md, the vendor GEMM anchor).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "testbench/support/paths.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {
namespace {

cli::RunResult run_chip(const std::vector<std::string>& vars, bool iss) {
  CaseRun how;
  how.vars = vars;
  how.iss = iss;
  return run_case_file(source_dir() + "/kernels/cases/gemm_chip_bf16.yaml", how);
}

// Both engines, plain ND loads (the case's NZ = 0) and the vendor's ND -> NZ loads (NZ = 1): the
// golden passes in all four runs and c is the same bits in all four (the NZ tile loads give the
// L0 contents the ND ones give); the NZ runs pay the conversion.
void expect_on_both(const std::vector<std::string>& vars) {
  std::string what;
  for (const std::string& v : vars) what += " " + v;
  std::vector<std::string> nz = vars;
  nz.push_back("NZ=1");
  const cli::RunResult iss = run_chip(vars, true), sc = run_chip(vars, false);
  const cli::RunResult iss_nz = run_chip(nz, true), sc_nz = run_chip(nz, false);
  for (const cli::RunResult* r : {&iss, &sc, &iss_nz, &sc_nz}) {
    EXPECT_EQ(r->exit_code, cli::kExitPass) << what << "\n" << cli::format_report(*r);
    ASSERT_EQ(r->verdicts.size(), 1u) << what;
    EXPECT_TRUE(r->verdicts[0].compared) << what;
  }
  EXPECT_EQ(iss.outputs.at("c").bytes(), sc.outputs.at("c").bytes()) << what << ": ISS != SystemC";
  EXPECT_EQ(iss_nz.outputs.at("c").bytes(), sc_nz.outputs.at("c").bytes()) << what << " NZ=1: ISS != SystemC";
  EXPECT_EQ(sc.outputs.at("c").bytes(), sc_nz.outputs.at("c").bytes()) << what << ": NZ=1 != NZ=0";
  EXPECT_GT(sc_nz.sim.total_cycles.value_or(0), sc.sim.total_cycles.value_or(0)) << what;
}

// 6 x 5 = 30 tiles of 128 x 256 on 24 AICs (six AICs take two, the second from the swizzle's
// snaking second group), M <= N: column groups (Nz). Tails everywhere: the last tile row has 80
// rows (its L0C half 1 16), K = 272 is a chunk of 256 and one of 16 (k-steps of 64 and 16), the
// chunks of each tile start at block_idx mod 2.
TEST(GemmChip, ColumnGroupsWithTails) { expect_on_both({"M=720", "K=272", "N=1280"}); }

// M > N: row groups (Zn), 10 x 4 = 40 tiles, the last tile column 16 wide; and the order of
// plain row-major tiles (SW=1, SD=0), one tile row of 64 rows (no L0C half 1).
TEST(GemmChip, RowGroupsAndRowMajorOrder) {
  expect_on_both({"M=1200", "K=64", "N=784"});
  expect_on_both({"M=64", "K=528", "N=1040", "SW=1", "SD=0"});
}

}  // namespace
}  // namespace npu::test
