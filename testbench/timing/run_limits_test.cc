// The run limits and the watchdog on the SystemC model: loops that keep the pipes retiring work
// end at sim.max_instructions / sim.max_cycles with a report of where each core was; a transfer
// that is slow but moving is progress, not a hang (test_config(), 1 GHz).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hw/top/run.h"
#include "isa/error.h"
#include "testbench/timing/core_test_support.h"
#include "testbench/support/thrown_message.h"

namespace npu::coretest {

namespace {

using isa::Dtype;
using isa::Pipe;
using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string run_error(const Code& aiv, const hw::HwConfig& cfg) {
  isa::Program p = make_program("t", 1, nullptr, &aiv);
  sem::GlobalMemory gm(cfg.hbm.size);
  return npu::test::thrown_message([&] { hw::run_systemc(cfg, p, gm, {0}, 1); }, "");
}

// Endless loops whose every iteration retires pipe work: the watchdog never fires.
Code vector_loop() {
  Code c;
  c(Op::VADDS, {Dtype::F32, 0, 0, R(0), 64})(Op::JMP, {0})(Op::END);
  return c;
}
Code flag_loop() {
  Code c;
  c(Op::SET_FLAG, {Pipe::Vector, Pipe::Mte3, 0})(Op::WAIT_FLAG, {Pipe::Vector, Pipe::Mte3, 0})(Op::JMP, {0})(Op::END);
  return c;
}

TEST(RunLimits, LoopsEndAtTheInstructionLimit) {
  hw::HwConfig cfg = test_config();
  cfg.sim.max_instructions = 1000;
  for (const Code& c : {vector_loop(), flag_loop()}) {
    const std::string m = run_error(c, cfg);
    EXPECT_THAT(m, HasSubstr("run limit: the run needs more than sim.max_instructions = 1000 instructions "
                             "(raise it with --set sim.max_instructions=N or --max-instructions N). "
                             "Where each core was:\n"));
    // One entry when both AIVs stopped in the same state (the flag loop), else one per core.
    EXPECT_THAT(m, AnyOf(HasSubstr("was:\n2 AIVs (cluster0.aiv{0..1}):\n"),
                         AllOf(HasSubstr("was:\ncluster0.aiv0:\n"), HasSubstr("\ncluster0.aiv1:\n"))));
    EXPECT_THAT(m, HasSubstr("  SCALAR: running scalar code at pc "));
  }
}

TEST(RunLimits, LoopsEndAtTheCycleLimit) {
  hw::HwConfig cfg = test_config();
  cfg.sim.max_cycles = 5000;
  for (const Code& c : {vector_loop(), flag_loop()}) {
    const std::string m = run_error(c, cfg);
    EXPECT_THAT(m, HasSubstr("run limit: the run needs more than sim.max_cycles = 5000 cycles (raise it with "
                             "--set sim.max_cycles=N or --max-cycles N) (cycle "));
    EXPECT_THAT(m, HasSubstr("Where each core was:\n2 AIVs (cluster0.aiv{0..1}):\n  SCALAR: "));
  }
}

TEST(RunLimits, AKernelEndingAtTheLimitPasses) {
  // vadds; end: 2 instructions per AIV, 4 in all; the budget is exactly that.
  hw::HwConfig cfg = test_config();
  cfg.sim.max_instructions = 4;
  Code c;
  c(Op::VADDS, {Dtype::F32, 0, 0, R(0), 64})(Op::END);
  EXPECT_EQ(run_error(c, cfg), "");
  cfg.sim.max_instructions = 3;
  EXPECT_THAT(run_error(c, cfg), HasSubstr("sim.max_instructions = 3 "));
}

TEST(RunLimits, SlowTransferIsProgressNotAHang) {
  // One 512 B GM->UB read on an HBM channel of 0.01 B/cycle: 51,200 cycles of transfer, far
  // beyond the 2,000-cycle watchdog, while nothing retires. The MTE2 pipe is executing, so the
  // run completes.
  hw::HwConfig cfg = test_config();
  cfg.sim.watchdog_cycles = 2000;
  cfg.hbm.bandwidth_gbps = 0.02;  // 0.01 B per cycle per channel (2 channels at 1 GHz)
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})(Op::END);
  isa::Program p = make_program("t", 1, nullptr, &c);
  sem::GlobalMemory gm(cfg.hbm.size);
  gm.add_region("x", 0x1000, 512);
  hw::RunResult r = hw::run_systemc(cfg, p, gm, {0x1000}, 1);
  EXPECT_GT(r.total_cycles, 51200u);
}

TEST(RunLimits, SlowTransferBeyondTheCycleLimitIsReportedAsSuch) {
  hw::HwConfig cfg = test_config();
  cfg.sim.watchdog_cycles = 2000;
  cfg.sim.max_cycles = 10000;
  cfg.hbm.bandwidth_gbps = 0.02;  // 0.01 B per cycle per channel (2 channels at 1 GHz)
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})(Op::END);
  const std::string m = run_error(c, cfg);
  EXPECT_THAT(m, HasSubstr("sim.max_cycles = 10000 cycles"));
  EXPECT_THAT(m, HasSubstr("MTE2: executing pc 1 (mov_gm_ub"));
  EXPECT_THAT(m, Not(HasSubstr("watchdog")));
}

}  // namespace
}  // namespace npu::coretest
