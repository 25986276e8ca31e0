// set_flag / wait_flag / barrier / queue-full on the SystemC model: exact cycles with their
// derivation (test_config(), 1 GHz; see core_timing_test.cc for the single-instruction figures:
// a cold 512 B GM->UB read issued by a DMA starting at cycle 2 ends at 128; vadd.f32 of 64
// elements takes 4 cycles, vdup.f32 of 64 takes 3; ScalarConfig::sync = 1).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hw/top/run.h"
#include "isa/error.h"
#include "testbench/timing/core_test_support.h"

namespace npu::coretest {
namespace {

using isa::Dtype;
using isa::Pipe;
using ::testing::HasSubstr;

hw::RunResult run_aiv1(const Code& aiv, std::vector<int64_t> params = {}, hw::HwConfig cfg = test_config(),
                       const hw::RunOptions& opt = {}) {
  cfg.chip.aiv_per_cluster = 1;
  isa::Program p = make_program("t", static_cast<int>(params.size()), nullptr, &aiv);
  sem::GlobalMemory gm(cfg.hbm.size);
  return hw::run_systemc(cfg, p, gm, params, 1, opt);
}

const hw::UnitCounters& pipe_stats(const hw::RunResult& r, int core, Pipe pipe) {
  const hw::PipeRecord* p = r.stats.cores.at(core).pipe(pipe);
  if (!p) throw std::runtime_error("core has no such pipe");
  return p->counters;
}

// A 512-byte GM -> UB load at 0, then vadd.f32 of 64 elements of it into `dst`, with or
// without the MTE2 -> VECTOR flag pair between them.
Code dma_then_vadd(int64_t dst, bool flags) {
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0});
  if (flags) c(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0})(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 0});
  c(Op::VADD, {Dtype::F32, dst, 0, 0, 64})(Op::END);
  return c;
}

TEST(SyncFlags, WaitFlagOrdersVectorAfterDma) {
  // ldp 1 + dispatch: DMA [2,128); set_flag queued in MTE2 fires at 128, retires 129.
  // wait_flag reaches VECTOR at 4 and blocks until 128 (flag_wait 124), + sync 1 -> 129;
  // vadd [129,133). Without the flags the vadd would run at 5..9 and the total would be 128.
  hw::RunResult r = run_aiv1(dma_then_vadd(256, true), {0});
  EXPECT_EQ(r.total_cycles, 133u);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Vector).stall_flag_wait, 124);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Vector).busy_cycles, 5);   // wait_flag 1 + vadd 4
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Mte2).busy_cycles, 127);   // DMA 126 + set_flag 1
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Mte2).stall_memory, 108);  // 128 - (2 + own 18)
}

TEST(SyncFlags, WithoutFlagsPipesOverlap) {
  EXPECT_EQ(run_aiv1(dma_then_vadd(1024, false), {0}).total_cycles, 128u);
}

// The race checker on the model (off by default there): the unguarded program above reads UB
// [0, 256) in the vadd (cycles 5..9) before the DMA's data lands (128); with the flags it is clean.
TEST(SyncFlags, RaceCheckerOnTheModel) {
  const Code racy = dma_then_vadd(1024, false);
  hw::RunOptions opt;
  opt.race = check::RaceMode::Error;
  try {
    run_aiv1(racy, {0}, test_config(), opt);
    ADD_FAILURE() << "no race reported";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("race on UB [0, 256) of cluster0.aiv0:\n  cluster0.aiv0 MTE2 pc 1 (mov_gm_ub"));
    EXPECT_THAT(e.what(), HasSubstr("cluster0.aiv0 VECTOR pc 2 (vadd.f32"));
  }
  opt.race = check::RaceMode::Warn;
  hw::RunResult w = run_aiv1(racy, {0}, test_config(), opt);
  EXPECT_EQ(w.race_findings.size(), 1u);
  EXPECT_EQ(w.total_cycles, 128u);  // checking changes no timing
  opt.race = check::RaceMode::Error;
  EXPECT_EQ(run_aiv1(dma_then_vadd(1024, true), {0}, test_config(), opt).total_cycles, 133u);
}

TEST(SyncFlags, ScalarWaitsOnFlag) {
  // set_flag MTE2 -> SCALAR fires at 128 (MTE2 retires it at 129); the scalar unit executes
  // wait_flag itself from cycle 3, resumes at 128, + sync 1 -> 129; dispatches vdup (1) -> VECTOR
  // [130,133).
  Code c;
  c(Op::LDP, {R(1), 0})
   (Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})
   (Op::SET_FLAG, {Pipe::Mte2, Pipe::Scalar, 2})
   (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Scalar, 2})
   (Op::VDUP, {Dtype::F32, 1024, 0, 64})
   (Op::END);
  hw::RunResult r = run_aiv1(c, {0});
  EXPECT_EQ(r.total_cycles, 133u);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Scalar).stall_flag_wait, 125);  // 3 -> 128
}

TEST(SyncFlags, BarrierWaitsForDrain) {
  // barrier all at cycle 2 waits for the DMA (until 128), + sync 1 = 129; vdup dispatched at 130,
  // [130,133).
  Code c;
  c(Op::LDP, {R(1), 0})
   (Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})
   (Op::BARRIER, {static_cast<int64_t>(isa::PipeSel::All)})
   (Op::VDUP, {Dtype::F32, 1024, 0, 64})
   (Op::END);
  hw::RunResult r = run_aiv1(c, {0});
  EXPECT_EQ(r.total_cycles, 133u);
  // barrier stall 2 -> 128 = 126, plus the end's drain wait: vdup dispatched at 130, end at 130
  // waits until 133 = 3.
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Scalar).stall_barrier, 129);
}

TEST(SyncFlags, QueueFullStallsScalar) {
  // Six vadd.f32 of 1024 elements (34 cycles each) into a VECTOR queue of depth 4.
  // Pushes at 1 (taken at once), 2, 3, 4, 5: the queue then holds 4; the sixth waits from 5 until
  // VECTOR takes the second at 35 (queue_full 30), dispatch 1 -> pushed at 36.
  // VECTOR runs back to back: 1 + 6 x 34 = 205.
  Code c;
  for (int i = 0; i < 6; ++i) c(Op::VADD, {Dtype::F32, 0, 0, 0, 1024});
  c(Op::END);
  hw::RunResult r = run_aiv1(c);
  EXPECT_EQ(r.total_cycles, 205u);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Scalar).stall_queue_full, 30);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Vector).instructions, 6);
}

TEST(SyncFlags, DeeperQueueNoStall) {
  hw::HwConfig cfg = test_config();
  cfg.scalar.queue_depth.fill(8);
  Code c;
  for (int i = 0; i < 6; ++i) c(Op::VADD, {Dtype::F32, 0, 0, 0, 1024});
  c(Op::END);
  hw::RunResult r = run_aiv1(c, {}, cfg);
  EXPECT_EQ(r.total_cycles, 205u);
  EXPECT_EQ(pipe_stats(r, 0, Pipe::Scalar).stall_queue_full, 0);
}

TEST(SyncFlags, SetTwiceIsAFault) {
  Code c;
  c(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0})(Op::SET_FLAG, {Pipe::Mte2, Pipe::Vector, 0})(Op::END);
  try {
    run_aiv1(c);
    FAIL() << "expected a fault";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cluster0.aiv0 pc 1 ("));
    EXPECT_THAT(e.what(), HasSubstr("flag MTE2 -> VECTOR id 0 set twice without a wait_flag in between"));
  }
}

TEST(SyncFlags, DeadlockReportsWhoWaitsOnWhat) {
  // VECTOR waits for a flag nobody sets; the scalar unit waits at `end`. Nothing is pending
  // after cycle 1: deadlock.
  Code c;
  c(Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Vector, 5})(Op::END);
  try {
    run_aiv1(c);
    FAIL() << "expected a deadlock";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_THAT(m, HasSubstr("deadlock at cycle 1: no event is pending, yet 1 core(s) have not ended"));
    EXPECT_THAT(m, HasSubstr("  VECTOR: waits at pc 0 ("));
    EXPECT_THAT(m, HasSubstr(") for flag MTE2 -> VECTOR id 5 (not fired)"));
    EXPECT_THAT(m, HasSubstr("  SCALAR: waits at end (pc 1) for every pipe to drain"));
  }
}

TEST(SyncFlags, WatchdogOnScalarSpin) {
  // `jmp 0` forever: time advances (scalar cycles) but nothing retires in a pipe.
  hw::HwConfig cfg = test_config();
  cfg.sim.watchdog_cycles = 20000;
  Code c;
  c(Op::JMP, {0})(Op::END);
  try {
    run_aiv1(c, {}, cfg);
    FAIL() << "expected the watchdog";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("watchdog: no instruction retired for 20000 cycles (cycle 20000) and no pipe "
                                    "is executing one (sim.watchdog_cycles; raise it with --set "
                                    "sim.watchdog_cycles=N)"));
    EXPECT_THAT(e.what(), HasSubstr("  SCALAR: running scalar code at pc 0"));
  }
}

TEST(SyncFlags, OutOfBoundsFaultNamesCorePcAddress) {
  // UB is 192 KiB = 196608 B: vadd of 64 f32 (256 B) at dst 196576 is out of bounds.
  Code c;
  c(Op::NOP)(Op::VADD, {Dtype::F32, 196576, 0, 0, 64})(Op::END);
  try {
    run_aiv1(c);
    FAIL() << "expected a fault";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cluster0.aiv0 pc 1 ("));
    EXPECT_THAT(e.what(), HasSubstr("196576"));
    EXPECT_THAT(e.what(), HasSubstr("out of bounds"));
  }
}

}  // namespace
}  // namespace npu::coretest
