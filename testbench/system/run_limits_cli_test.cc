// `npusim run` on kernels that never end (testbench/system/data/run_loop.s): the run limits end
// them with exit 2 and a message naming the key and the option, on both backends; a slow HBM is
// not taken for a hang.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string config() { return source_path("configs/ascend910b.yaml"); }

// The loop kernel on one cluster (2 AIVs): n iterations (0 = forever) of a vector op (mode 0)
// or a set_flag / wait_flag pair (mode 1).
std::string write_loop_case(const ScratchDir& s) {
  std::ofstream(s.path("loop.yaml")) << "kernel: " << source_path("testbench/system/data/run_loop.s") << "\n"
                                     << "block_dim: 1\n"
                                        "vars: {N: 0, MODE: 0}\n"
                                        "params: {n: N, mode: MODE}\n"
                                        "tensors:\n"
                                        "  y: {dtype: f32, shape: [64], role: output}\n";
  return s.path("loop.yaml");
}

class RunLimitsCli : public ::testing::TestWithParam<std::string> {};  // "" or "--iss"

TEST_P(RunLimitsCli, EndlessVectorLoopEndsAtTheInstructionLimit) {
  ScratchDir s;
  CliResult r = run_npusim("run " + write_loop_case(s) + " " + GetParam() + " --config " + config() +
                               " --max-instructions 5000 --out " + s.path("out"),
                           s);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("run limit: the run needs more than sim.max_instructions = 5000 instructions "
                               "(raise it with --set sim.max_instructions=N or --max-instructions N)"));
  // Both AIVs, named alone or as one group when they stopped in the same state.
  EXPECT_THAT(r.err, AnyOf(HasSubstr("cluster0.aiv{0..1}"), AllOf(HasSubstr("cluster0.aiv0"), HasSubstr("cluster0.aiv1"))));
  EXPECT_THAT(r.err, HasSubstr("pc "));
  EXPECT_FALSE(std::filesystem::exists(s.path("out")));
}

TEST_P(RunLimitsCli, EndlessFlagLoopEndsAtTheInstructionLimitSetByKey) {
  ScratchDir s;
  CliResult r = run_npusim("run " + write_loop_case(s) + " " + GetParam() + " --config " + config() +
                               " --var MODE=1 --set sim.max_instructions=5000",
                           s);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("run limit: the run needs more than sim.max_instructions = 5000 instructions"));
  EXPECT_THAT(r.err, AnyOf(HasSubstr("cluster0.aiv{0..1}"), HasSubstr("cluster0.aiv1")));
}

TEST_P(RunLimitsCli, AFiniteLoopUnderTheLimitCompletes) {
  // Per AIV: a 4-instruction prologue, 100 iterations of bne, vadds, jmp, add, bne, and `end`:
  // 505, so 1010 for the two AIVs, below 5000.
  ScratchDir s;
  CliResult r = run_npusim("run " + write_loop_case(s) + " " + GetParam() + " --config " + config() +
                               " --var N=100 --max-instructions 5000 -q",
                           s);
  EXPECT_EQ(r.status, 3) << r.err;  // completes; the loop case has no golden: NOT CHECKED
}

INSTANTIATE_TEST_SUITE_P(Backends, RunLimitsCli, ::testing::Values("", "--iss"),
                         [](const auto& info) { return info.param.empty() ? "SystemC" : "Iss"; });

TEST(RunLimitsCliSystemC, EndlessLoopsEndAtTheCycleLimit) {
  for (const char* mode : {"0", "1"}) {
    ScratchDir s;
    CliResult r = run_npusim("run " + write_loop_case(s) + " --config " + config() + " --var MODE=" + mode +
                                 " --max-cycles 20000",
                             s);
    EXPECT_EQ(r.status, 2) << mode;
    EXPECT_THAT(r.err, HasSubstr("run limit: the run needs more than sim.max_cycles = 20000 cycles (raise it "
                                 "with --set sim.max_cycles=N or --max-cycles N)"))
        << mode;
    EXPECT_THAT(r.err, HasSubstr("Where each core was:\n2 AIVs (cluster0.aiv{0..1}):\n")) << mode;
  }
}

TEST(RunLimitsCliSystemC, SlowHbmIsNotReportedAsAHang) {
  // 0.001 GB/s over 32 channels at 1.8 GHz: a 512-byte row read takes ~3e7 cycles, longer than
  // the 2e7-cycle watchdog, with nothing retiring meanwhile. The DMA is moving, so the run
  // completes (far below the default sim.max_cycles).
  ScratchDir s;
  CliResult r = run_npusim("run " + source_path("testbench/system/data/run_rmsnorm.yaml") + " --config " + config() +
                               " --set hbm.bandwidth_gbps=0.001 --out " + s.path("out"),
                           s);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("no instruction retired")));
  const std::string stats = slurp(s.path("out/stats.json"));
  const size_t at = stats.find("\"total_cycles\": ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GT(std::stoull(stats.substr(at + 16)), 20000000u);  // beyond the watchdog period
}

TEST(RunLimitsCliSystemC, TheWatchdogNamesItsKey) {
  ScratchDir s;
  std::ofstream(s.path("spin.s")) << ".kernel spin\n.param y, gm, f32\n.aiv\nloop:\n    jmp loop\n    end\n";
  std::ofstream(s.path("spin.yaml")) << "kernel: spin.s\nblock_dim: 1\ntensors:\n  y: {dtype: f32, shape: [8], role: output}\n";
  CliResult r = run_npusim("run " + s.path("spin.yaml") + " --config " + config() + " --set sim.watchdog_cycles=10000", s);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("watchdog: no instruction retired for 10000 cycles"));
  EXPECT_THAT(r.err, HasSubstr("raise it with --set sim.watchdog_cycles=N"));
}

}  // namespace
}  // namespace npu::test
