// Cross-core flags (cc_set / cc_wait) in the three modes, exact cycles (test_config(), 1 GHz).
// Figures used: mmad.bf16 32x64x48 = 26 cycles, 16x16x16 = 3; vdup.f32 of n elements =
// 2 + ceil(4n / 256); scalar alu 1, mul 2, dispatch 1, sync 1.
// AIV work is skewed per core with `count = 64 + 1024 * index` so the sets arrive at known,
// different times: 64 -> 3 cycles, 1088 -> 19, 2112 -> 35, 3136 -> 51.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hw/top/run.h"
#include "isa/error.h"
#include "testbench/timing/core_test_support.h"

namespace npu::coretest {
namespace {

using isa::Dtype;
using isa::Pipe;
using isa::SpecialReg;
using ::testing::HasSubstr;

hw::RunResult run(const Code* aic, const Code* aiv, int block_dim) {
  hw::HwConfig cfg = test_config();
  isa::Program p = make_program("t", 0, aic, aiv);
  sem::GlobalMemory gm(cfg.hbm.size);
  return hw::run_systemc(cfg, p, gm, {}, block_dim);
}

uint64_t end_cycle(const hw::RunResult& r, int core) { return r.stats.cores.at(core).end_cycle.value(); }

// r2 = 64 + 1024 * subblock_idx: getsr 1 + mul 2 + add 1 = 4 local cycles.
void skewed_vdup_by_sub(Code& c) {
  c(Op::GETSR, {R(1), static_cast<int64_t>(SpecialReg::SubblockIdx)})
   (Op::MUL, {R(2), R(1), 1024})
   (Op::ADD, {R(2), R(2), 64})
   (Op::VDUP, {Dtype::F32, 0, 0, R(2)});  // dispatched at 5
}

TEST(SyncCrossCore, Mode2AicReleasesBothAivs) {
  // AIC: mmad [1,27); cc_set queued in CUBE behind it fires at 27 (retires 28); end 28.
  // AIVs: cc_wait in VECTOR from 1 until 27, + sync -> 28; vdup (dispatched at 2) [28,31).
  Code aic, aiv;
  aic(Op::MMAD, {Dtype::BF16, 0, 0, 0, 32, 64, 48, 1})(Op::CC_SET, {Pipe::Cube, 2, 3})(Op::END);
  aiv(Op::CC_WAIT, {Pipe::Vector, 3})(Op::VDUP, {Dtype::F32, 0, 0, 64})(Op::END);
  hw::RunResult r = run(&aic, &aiv, 1);
  EXPECT_EQ(r.total_cycles, 31u);
  EXPECT_EQ(end_cycle(r, 0), 28u);  // cluster0.aic
  EXPECT_EQ(end_cycle(r, 1), 31u);  // cluster0.aiv0
  EXPECT_EQ(end_cycle(r, 2), 31u);  // cluster0.aiv1
  EXPECT_EQ(r.stats.cores[1].pipe(isa::Pipe::Vector)->counters.stall_flag_wait, 26u);
}

TEST(SyncCrossCore, Mode2AicWaitsForBothAivs) {
  // AIV0 vdup [5,8), cc_set at 8; AIV1 vdup [5,24), cc_set at 24 completes the group: the AIC's
  // counter becomes 1 at 24. AIC: cc_wait in CUBE from 1 to 24, + sync -> 25; mmad 16^3 [25,28).
  Code aic, aiv;
  aic(Op::CC_WAIT, {Pipe::Cube, 1})(Op::MMAD, {Dtype::BF16, 0, 0, 0, 16, 16, 16, 1})(Op::END);
  skewed_vdup_by_sub(aiv);
  aiv(Op::CC_SET, {Pipe::Vector, 2, 1})(Op::END);
  hw::RunResult r = run(&aic, &aiv, 1);
  EXPECT_EQ(r.total_cycles, 28u);
  EXPECT_EQ(end_cycle(r, 0), 28u);
  EXPECT_EQ(end_cycle(r, 1), 9u);   // vdup 8 + cc_set 1
  EXPECT_EQ(end_cycle(r, 2), 25u);  // vdup 24 + cc_set 1
}

TEST(SyncCrossCore, Mode1AivsOfACluster) {
  // AIV0: vdup [5,8), cc_set -> 9, cc_wait from 9 until AIV1's set at 24, + 1 -> 25, vdup [25,28).
  // AIV1: vdup [5,24), cc_set (group complete) -> 25, cc_wait passes -> 26, vdup [26,29).
  Code aiv;
  skewed_vdup_by_sub(aiv);
  aiv(Op::CC_SET, {Pipe::Vector, 1, 0})(Op::CC_WAIT, {Pipe::Vector, 0})(Op::VDUP, {Dtype::F32, 0, 0, 64})(Op::END);
  hw::RunResult r = run(nullptr, &aiv, 1);
  EXPECT_EQ(r.total_cycles, 29u);
  EXPECT_EQ(end_cycle(r, 0), 28u);
  EXPECT_EQ(end_cycle(r, 1), 29u);
}

TEST(SyncCrossCore, Mode0AllAivsOfTheLaunch) {
  // block_dim 2 -> 4 AIVs; index = 2 * block_idx + subblock_idx; r1 = 64 + 1024 * index takes
  // getsr 1 + getsr 1 + mul 2 + add 1 + mul 2 + add 1 = 8 cycles, vdup dispatched at 9:
  // ends 12, 28, 44, 60. The last cc_set (at 60) releases everyone: the three waiting wake at 60,
  // + sync -> 61, vdup 64 [61,64); the last one's cc_set retires at 61, its cc_wait passes -> 62,
  // vdup [62,65).
  Code aiv;
  aiv(Op::GETSR, {R(1), static_cast<int64_t>(SpecialReg::BlockIdx)})
     (Op::GETSR, {R(2), static_cast<int64_t>(SpecialReg::SubblockIdx)})
     (Op::MUL, {R(1), R(1), 2})
     (Op::ADD, {R(1), R(1), R(2)})
     (Op::MUL, {R(1), R(1), 1024})
     (Op::ADD, {R(1), R(1), 64})
     (Op::VDUP, {Dtype::F32, 0, 0, R(1)})
     (Op::CC_SET, {Pipe::Vector, 0, 7})
     (Op::CC_WAIT, {Pipe::Vector, 7})
     (Op::VDUP, {Dtype::F32, 0, 0, 64})
     (Op::END);
  hw::RunResult r = run(nullptr, &aiv, 2);
  EXPECT_EQ(r.total_cycles, 65u);
  EXPECT_EQ(end_cycle(r, 0), 64u);
  EXPECT_EQ(end_cycle(r, 1), 64u);
  EXPECT_EQ(end_cycle(r, 2), 64u);
  EXPECT_EQ(end_cycle(r, 3), 65u);
}

TEST(SyncCrossCore, DeadlockExplainsPendingGroup) {
  // Only AIV0 sets (AIV1 skips via a branch on subblock_idx): the AIC waits forever.
  Code aic, aiv;
  aic(Op::CC_WAIT, {Pipe::Cube, 4})(Op::END);
  aiv(Op::GETSR, {R(1), static_cast<int64_t>(SpecialReg::SubblockIdx)})
     (Op::BNE, {R(1), 0, 3})
     (Op::CC_SET, {Pipe::Vector, 2, 4})
     (Op::END);
  try {
    run(&aic, &aiv, 1);
    FAIL() << "expected a deadlock";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_THAT(m, HasSubstr("deadlock at cycle"));
    EXPECT_THAT(m, HasSubstr("cluster0.aic:\n"));
    EXPECT_THAT(m, HasSubstr("  CUBE: waits at pc 0 ("));
    EXPECT_THAT(m, HasSubstr("cross-core flag 4 is 0"));
    EXPECT_THAT(m, HasSubstr("cluster0.aiv0"));
  }
}

}  // namespace
}  // namespace npu::coretest
