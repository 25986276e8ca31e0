// The race checker on the flagship kernels (quick subset; the full sweep of every set_flag /
// wait_flag pair is race_mutation_long_test.cc): the kernels are race-free at the mutant shapes,
// and deleting the guards named below is reported. The RMSNorm VECTOR -> MTE2 guard of the
// ping-pong buffers is the case issue 8 names: today's comparisons pass without it.
#include <gtest/gtest.h>

#include "testbench/support/repo_config.h"
#include "testbench/support/sync_mutation.h"

namespace npu::test {
namespace {

TEST(RaceKernels, ShippedKernelsAreRaceFreeAtTheMutantShapes) {
  for (const char* k : {"linear", "rmsnorm", "rmsnorm_linear", "linear_w8a8", "rmsnorm_linear_quant", "linear_mxfp8"}) {
    const isa::Program p = load_kernel(k, mutant_config(k));
    for (int s = 0; s < mutant_shapes(k); ++s) EXPECT_EQ(run_mutant(k, p, s), "") << k << " shape " << s;
  }
}

// Every mutant of `kernel` whose name contains each of `parts`: none may pass silently, and
// at least one must be reported as a race (the others may deadlock or fault, e.g. a deleted
// preset set_flag together with an in-loop wait_flag).
void expect_reported(const std::string& kernel, const std::vector<std::string>& parts) {
  int n = 0, races = 0;
  for (const SyncMutant& m : flag_pair_mutants(load_kernel(kernel, mutant_config(kernel)))) {
    bool match = true;
    for (const std::string& s : parts) match &= m.name.find(s) != std::string::npos;
    if (!match) continue;
    ++n;
    std::string msg;
    RunVerdict v = judge_mutant(kernel, m.program, &msg);
    EXPECT_NE(v, RunVerdict::Clean) << m.name;
    races += v == RunVerdict::Race;
  }
  EXPECT_GT(n, 0);
  EXPECT_GT(races, 0);
}

TEST(RaceKernels, RmsNormPingPongReuseGuardIsReported) {
  expect_reported("rmsnorm", {"VECTOR -> MTE2", "at lib/rmsnorm_macros.inc", "wait_flag at lib/rmsnorm_macros.inc"});
}

TEST(RaceKernels, LinearL0HandOffGuardIsReported) {
  expect_reported("linear", {"MTE1 -> CUBE id 0"});
}

TEST(RaceKernels, RmsNormLinearFixPipeGuardIsReported) {
  expect_reported("rmsnorm_linear", {"CUBE -> FIXP id 0"});
}

}  // namespace
}  // namespace npu::test
