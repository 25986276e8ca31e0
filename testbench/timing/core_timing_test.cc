// Exact cycle counts of single instructions on the SystemC model, with the derivation of each
// number from test_config() (core_test_support.h: 1 GHz, so cycles = ns).
//
// Common prologue: the scalar unit dispatches the instruction in ScalarConfig::dispatch = 1 cycle,
// so the pipe starts at cycle 1 (cycle 2 after an `ldp`, 1 cycle); `end` waits for the pipes to
// drain and the core ends at the cycle the last instruction retires. So
//   total = 1 (+1 with ldp) + instruction cycles.
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/core/timing.h"
#include "hw/top/run.h"
#include "testbench/timing/core_test_support.h"

namespace npu::coretest {
namespace {

using isa::Dtype;
using isa::Pipe;

uint64_t run_aic(const Code& aic, std::vector<int64_t> params = {}) {
  hw::HwConfig cfg = test_config();
  isa::Program p = make_program("t", static_cast<int>(params.size()), &aic, nullptr);
  sem::GlobalMemory gm(cfg.hbm.size);
  return hw::run_systemc(cfg, p, gm, params, 1).total_cycles;
}
// One AIV per cluster here, so a single core runs (with two, both would fetch the same lines).
uint64_t run_aiv(const Code& aiv, std::vector<int64_t> params = {}) {
  hw::HwConfig cfg = test_config();
  cfg.chip.aiv_per_cluster = 1;
  isa::Program p = make_program("t", static_cast<int>(params.size()), nullptr, &aiv);
  sem::GlobalMemory gm(cfg.hbm.size);
  return hw::run_systemc(cfg, p, gm, params, 1).total_cycles;
}

// One instruction then `end`.
uint64_t one_aic(Op op, std::vector<Opd> ops) { return run_aic(Code()(op, std::move(ops))(Op::END)); }
uint64_t one_aiv(Op op, std::vector<Opd> ops) { return run_aiv(Code()(op, std::move(ops))(Op::END)); }

// ---------------------------------------------------------------- cube
// cycles = startup 2 + ceil(m/16) * ceil(n/16) * ceil(k/k0); m=32, k=64, n=48: 2 * 3 * ceil(64/k0).
TEST(CoreTiming, MmadBf16) {
  // k0 = 16: 2 + 2*3*4 = 26; total 1 + 26 = 27
  EXPECT_EQ(one_aic(Op::MMAD, {Dtype::BF16, 0, 0, 0, 32, 64, 48, 1}), 27u);
}
TEST(CoreTiming, MmadF16) {
  EXPECT_EQ(one_aic(Op::MMAD, {Dtype::F16, 0, 0, 0, 32, 64, 48, 1}), 27u);  // as bf16
}
TEST(CoreTiming, MmadS8) {
  // k0 = 32: 2 + 2*3*2 = 14; total 15
  EXPECT_EQ(one_aic(Op::MMAD, {Dtype::S8, 0, 0, 0, 32, 64, 48, 1}), 15u);
}
TEST(CoreTiming, MmadF32) {
  // k0 = 8: 2 + 2*3*8 = 50; total 51
  EXPECT_EQ(one_aic(Op::MMAD, {Dtype::F32, 0, 0, 0, 32, 64, 48, 1}), 51u);
}
TEST(CoreTiming, MmadPartialFractal) {
  // m=1, n=1, k=1 still costs one fractal: 2 + 1 = 3; total 4
  EXPECT_EQ(one_aic(Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 1, 1, 1}), 4u);
}

// ---------------------------------------------------------------- launch
// launch.* (test_config: both 0, as every other test here assumes). Cluster c's cores start at
// overhead + c * skew; the launch ends when the last core does.
TEST(CoreTiming, LaunchOverheadAndClusterSkew) {
  hw::HwConfig cfg = test_config();
  cfg.launch.overhead_cycles = 100;
  cfg.launch.core_skew_cycles = 7;
  const Code aic = Code()(Op::MMAD, {Dtype::BF16, 0, 0, 0, 32, 64, 48, 1})(Op::END);
  isa::Program p = make_program("t", 0, &aic, nullptr);
  sem::GlobalMemory gm(cfg.hbm.size);
  // Each AIC alone takes 27 (MmadBf16). Three blocks: cluster 2 starts at 100 + 2 * 7 = 114 and
  // ends at 114 + 27 = 141; one block ends at 100 + 27 = 127.
  EXPECT_EQ(hw::run_systemc(cfg, p, gm, {}, 3).total_cycles, 141u);
  EXPECT_EQ(hw::run_systemc(cfg, p, gm, {}, 1).total_cycles, 127u);
}

// ---------------------------------------------------------------- vector
// cycles = ceil(startup 2 + passes * repeats * cycles_per_repeat), repeats = ceil(bytes / 256)
// (row ops: rows * ceil(row bytes / 256)).
TEST(CoreTiming, VecBinary) {
  // vadd.f32 1024 elements = 4096 B = 16 repeats x 2 = 32 + 2 = 34; total 35
  EXPECT_EQ(one_aiv(Op::VADD, {Dtype::F32, 0, 0, 0, 1024}), 35u);
}
TEST(CoreTiming, VecDiv) {
  // vdiv.f32 128 elements = 512 B = 2 repeats x 4 = 8 + 2 = 10; total 11
  EXPECT_EQ(one_aiv(Op::VDIV, {Dtype::F32, 0, 0, 0, 128}), 11u);
}
TEST(CoreTiming, VecScalar) {
  // vmuls.f32 640 elements = 2560 B = 10 repeats x 1 + 2 = 12; total 13
  EXPECT_EQ(one_aiv(Op::VMULS, {Dtype::F32, 0, 0, 0x3f800000, 640}), 13u);
}
TEST(CoreTiming, VecUnary) {
  // vabs.s16 256 elements = 512 B = 2 repeats x 1 + 2 = 4; total 5
  EXPECT_EQ(one_aiv(Op::VABS, {Dtype::S16, 0, 0, 256}), 5u);
}
TEST(CoreTiming, VecTranscendPerDtype) {
  // vexp.f16 1000 elements = 2000 B = 8 repeats x 4 (f16 entry) + 2 = 34; total 35
  EXPECT_EQ(one_aiv(Op::VEXP, {Dtype::F16, 0, 0, 1000}), 35u);
  // vexp.f32 1000 elements = 4000 B = 16 repeats x 2 (default) + 2 = 34; total 35
  EXPECT_EQ(one_aiv(Op::VEXP, {Dtype::F32, 0, 0, 1000}), 35u);
}
TEST(CoreTiming, VecRsqrtOnePass) {
  // vrsqrt.f32 64 elements = 1 repeat; VecUnary: 1 pass x 1 + 2 = 3; total 4
  EXPECT_EQ(one_aiv(Op::VRSQRT, {Dtype::F32, 0, 0, 64}), 4u);
}
TEST(CoreTiming, VecCast) {
  // vcast f32 -> f16, 128 elements: source f32 = 512 B = 2 repeats x 1 + 2 = 4; total 5
  EXPECT_EQ(one_aiv(Op::VCAST, {Dtype::F32, Dtype::F16, 0, 0, 1024, 128}), 5u);
}
TEST(CoreTiming, VecCopyAndDup) {
  // vdup.f32 64 elements = 1 repeat x 1 + 2 = 3; total 4
  EXPECT_EQ(one_aiv(Op::VDUP, {Dtype::F32, 0, 0, 64}), 4u);
  // vcopy.s8 1000 elements = 1000 B = 4 repeats x 1 + 2 = 6; total 7
  EXPECT_EQ(one_aiv(Op::VCOPY, {Dtype::S8, 0, 1024, 1000}), 7u);
  // vprot.bf16 500 elements = 1000 B: the same 4 repeats x 1 (VecCopy) + 2 = 6; total 7
  EXPECT_EQ(one_aiv(Op::VPROT, {Dtype::BF16, 0, 1024, 500}), 7u);
}
TEST(CoreTiming, VecReducePerRow) {
  // vrsum.f32 rows 4, cols 100, stride 512: row = 400 B = 2 repeats; 8 repeats x 3 (f32) + 2 = 26; total 27
  EXPECT_EQ(one_aiv(Op::VRSUM, {Dtype::F32, 8192, 0, 4, 100, 512}), 27u);
  // vramax.f16 rows 2, cols 128, stride 256: 2 repeats x 2 passes x 7 (VecReduceMax) + 2 = 30; total 31
  EXPECT_EQ(one_aiv(Op::VRAMAX, {Dtype::F16, 8192, 0, 2, 128, 256}), 31u);
}
TEST(CoreTiming, VecBroadcast) {
  // vrow.mul.f32 rows 3, cols 64, stride 256: 3 repeats x 2 + 2 = 8; total 9
  EXPECT_EQ(one_aiv(Op::VROW, {static_cast<int64_t>(isa::VecOp::Mul), Dtype::F32, 0, 0, 4096, 3, 64, 256}), 9u);
}

// FLOPs (traces) come from the table's flops column: vector arithmetic counts one per element
// (row ops: rows x cols), the cube two per multiply-accumulate, moves and casts none.
// ldub runs on the scalar unit as an ALU op (scalar.cycles.alu = 1 here; no public latency
// figure for the scalar's UB read): 3 ldub + end = 3 cycles, as 3 movs.
TEST(CoreTiming, LdubCostsAnAluCycle) {
  const uint64_t three_ldub = run_aiv(Code()(Op::LDUB, {R(1), 0})(Op::LDUB, {R(2), 4})(Op::LDUB, {R(3), 8})(Op::END));
  const uint64_t three_mov = run_aiv(Code()(Op::MOV, {R(1), 0})(Op::MOV, {R(2), 4})(Op::MOV, {R(3), 8})(Op::END));
  EXPECT_EQ(three_ldub, three_mov);
  EXPECT_EQ(three_ldub, 3u);
}

TEST(CoreTiming, FlopsFollowTheTable) {
  auto flops = [](Op op, std::vector<int64_t> v) {
    sem::DispatchedInstr di;
    di.in.op = op;
    std::copy(v.begin(), v.end(), di.v.begin());
    return hw::flops_of(di, sem::shape_of(di));
  };
  const int64_t f32 = static_cast<int64_t>(Dtype::F32), f16 = static_cast<int64_t>(Dtype::F16);
  EXPECT_EQ(flops(Op::VADD, {f32, 0, 0, 0, 100}), 100u);
  EXPECT_EQ(flops(Op::VEXP, {f16, 0, 0, 100}), 100u);
  EXPECT_EQ(flops(Op::VRSUM, {f32, 0, 0, 4, 8, 32}), 32u);
  EXPECT_EQ(flops(Op::VCAST, {f32, f16, 0, 0, 0, 100, 1}), 0u);
  EXPECT_EQ(flops(Op::VCOPY, {f32, 0, 0, 100}), 0u);
  EXPECT_EQ(flops(Op::MMAD, {f16, 0, 0, 0, 2, 3, 4, 1}), 2u * 2 * 3 * 4);
  EXPECT_EQ(flops(Op::MOV_GM_UB, {0, 0, 1, 64, 0, 0, 0}), 0u);
}

// ---------------------------------------------------------------- local MTE paths
// cycles = startup + ceil(bytes / bytes_per_cycle)
TEST(CoreTiming, L1ToL0aSizes) {
  // 16 x 64 bf16 = 2048 B: 2 + 2048/256 = 10; total 11
  EXPECT_EQ(one_aic(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 16, 64, 128}), 11u);
  // 64 x 256 bf16 = 32768 B: 2 + 128 = 130; total 131
  EXPECT_EQ(one_aic(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 64, 256, 512}), 131u);
}
TEST(CoreTiming, L1ToL0bSizes) {
  // 16 x 64 bf16 = 2048 B: 2 + 2048/128 = 18; total 19
  EXPECT_EQ(one_aic(Op::MOV_L1_L0B, {Dtype::BF16, 0, 0, 16, 64, 128}), 19u);
  // 32 x 100 bf16 = 6400 B: 2 + 50 = 52; total 53 (transposed, with no trans rate: the same)
  EXPECT_EQ(one_aic(Op::MOV_L1_L0B, {Dtype::BF16, 0, 0, 32, 100, 224, 1}), 53u);
}
TEST(CoreTiming, L1ToL0NzSourceCostsAsNd) {
  // nz = 1 reads the tile from an NZ matrix (C0 stride 16 x 32 = 512 B): the same bytes on the
  // same path, so the same cost as ND: L0A 16 x 64 bf16 = 2048 B 2 + 8 = 10, total 11; L0B
  // (transposed) 2 + 16 = 18, total 19.
  EXPECT_EQ(one_aic(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 16, 64, 512, 0, 1}), 11u);
  EXPECT_EQ(one_aic(Op::MOV_L1_L0B, {Dtype::BF16, 0, 0, 16, 64, 512, 1, 1}), 19u);
}
TEST(CoreTiming, L1ToL0bTransposedRate) {
  // mte.l1_l0b.trans_bytes_per_cycle 64 (half of 128): the transposed 6400 B tile above costs
  // 2 + 6400/64 = 102; total 103. Untransposed it keeps 128 B/cycle: total 53.
  hw::HwConfig cfg = test_config();
  cfg.mte.l1_l0b.trans_bytes_per_cycle = 64;
  for (const auto& [trans, want] : {std::pair<int64_t, uint64_t>{1, 103}, {0, 53}}) {
    const Code aic = Code()(Op::MOV_L1_L0B, {Dtype::BF16, 0, 0, 32, 100, 224, trans})(Op::END);
    isa::Program p = make_program("t", 0, &aic, nullptr);
    sem::GlobalMemory gm(cfg.hbm.size);
    EXPECT_EQ(hw::run_systemc(cfg, p, gm, {}, 1).total_cycles, want) << "trans " << trans;
  }
}
TEST(CoreTiming, L1ToFbSizes) {
  // 128 B: 15 + 4 = 19; total 20
  EXPECT_EQ(one_aic(Op::MOV_L1_FB, {0, 0, 128}), 20u);
  // 1000 B: 15 + ceil(31.25) = 47; total 48
  EXPECT_EQ(one_aic(Op::MOV_L1_FB, {0, 0, 1000}), 48u);
}

// ---------------------------------------------------------------- GM MTE paths
// ldp r1 (1 cycle) + dispatch (1): the DMA starts at t0 = 2 and issues its first line at
// t0 + startup. Memory (hw/mem headers): a cold read line of 512 B: HBM channel 512/64 = 8
// cycles + latency 100, L2 slice port 512/128 = 4, core read link 512/128 = 4. Lines alternate
// slices and HBM channels. The DMA ends at max(t0 + own, last line done).
TEST(CoreTiming, GmToUbOneLineCold) {
  // issue 12; HBM [12,20) + 100 = 120; slice port -> 124; link -> 128. own = 2 + 10 + 8 = 20.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 128u);
}
TEST(CoreTiming, GmToUbSecondReadHits) {
  // second DMA of the same line starts at 128, issues at 138: hit, port [138,142) + 20 = 162,
  // link -> 166 (own end 128 + 18 = 146).
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 512, 0, 0})(Op::MOV_GM_UB, {512, R(1), 1, 512, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 166u);
}
TEST(CoreTiming, GmToUbEightLinesCold) {
  // 4096 B paced at 64 B/cycle: line i issued at 12 + 8i, its channel (i % 2) is free, done at
  // 12 + 8i + 8 + 100 + 4 + 4 = 128 + 8i; last (i = 7) 184. own = 2 + 10 + 64 = 76.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 1, 4096, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 184u);
}
TEST(CoreTiming, GmToL1EightLinesCold) {
  // 4096 B paced at 128 B/cycle: line i issued at 12 + 4i; each HBM channel gets a line every
  // 8 cycles (back to back), done at 120 + 4i + 4 (slice) + 4 (link, back to back) = 128 + 4i;
  // last 156. own = 2 + 10 + 32 = 44.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_L1, {0, R(1), 1, 4096, 0, 0})(Op::END);
  EXPECT_EQ(run_aic(c, {0}), 156u);
}
TEST(CoreTiming, GmToL1NzEightLinesCold) {
  // The 4096 B of GmToL1EightLinesCold as 8 ND rows of 512 B (contiguous in GM: the same lines)
  // converted to NZ (C0 stride 8 x 32 B). Only the path differs: mte.gm_l1_nz.startup 50
  // instead of 10, so every line is issued 40 cycles later, at 52 + 4i, and done at 168 + 4i;
  // last 196. own = 2 + 50 + 32 = 84.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_L1_NZ, {0, R(1), 8, 512, 512, 256})(Op::END);
  EXPECT_EQ(run_aic(c, {0}), 196u);
}
TEST(CoreTiming, GmToL1NzFloorHoldsThePipe) {
  // mte.gm_l1_nz.min_cycles 300 (the form of the GM_TO_L1_TRANS fit, a per-transfer cost of
  // back-to-back transfers): MTE2 holds each DMA max(300, 50 + 4096/128 = 82) = 300 cycles,
  // and its lines (done 194 cycles after the start at the latest, GmToL1NzEightLinesCold;
  // the second's are L2 hits) finish inside that: [2, 302), [302, 602); `end` at 602.
  hw::HwConfig cfg = test_config();
  cfg.mte.gm_l1_nz.min_cycles = 300;
  Code c;
  c(Op::LDP, {R(1), 0});
  for (int i = 0; i < 2; ++i) c(Op::MOV_GM_L1_NZ, {0, R(1), 8, 512, 512, 256});
  c(Op::END);
  isa::Program p = make_program("t", 1, &c, nullptr);
  sem::GlobalMemory gm(cfg.hbm.size);
  EXPECT_EQ(hw::run_systemc(cfg, p, gm, {0}, 1).total_cycles, 602u);
}
TEST(CoreTiming, GmToUbStridedBursts) {
  // 2 bursts of 256 B, 1024 B apart: two half-line reads of lines 0 and 2 (both slice 0, channel
  // 0). Issue 12 and 12 + 256/64 = 16. Line 0: HBM [12,20) -> 120, port 120 + 2 = 122, link
  // 122 + 2 = 124. Line 2: MSHR at 16, HBM channel 0 busy until 20: [20,28) -> 128, port -> 130,
  // link -> 132. own = 2 + 10 + 8 = 20.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_GM_UB, {0, R(1), 2, 256, 1024, 256})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 132u);
}
TEST(CoreTiming, UbToGmOneLine) {
  // own = 20 + 512/32 = 36 -> ends 38. Issue at 22, write link 4 -> 26, slice port -> 30, full-
  // line write miss installs dirty: + write_hit_latency 10 = 40.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 40u);
}
TEST(CoreTiming, UbToGmFourLines) {
  // 2048 B at 32 B/cycle: own = 20 + 64 = 84 -> ends 86; line i issued at 22 + 16i, done at
  // 22 + 16i + 4 + 4 + 10 = 40 + 16i, last 88.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_UB_GM, {R(1), 0, 1, 2048, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 88u);
}
// Posted writes: the pipe is free once the last line has crossed the write link; `end`, a
// barrier, set_flag and cc_set on the pipe wait for the L2's acknowledgement.
TEST(CoreTiming, UbToGmPostedBackToBack) {
  // First DMA as UbToGmOneLine: own ends 38, handed off 26, acked 40: the pipe is free at 38.
  // Second (the same line: a write hit costs the same) starts at 38: own ends 74, issue 58, link -> 62, slice port -> 66, + 10 = 76;
  // `end` waits for that acknowledgement. (Acknowledged writes: 40 + 36 -> 76, acked 78.)
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 76u);
}
TEST(CoreTiming, SetFlagWaitsForPostedWrites) {
  // The first DMA is acked at 40; set_flag waits for it and costs sync 1 -> 41; the second DMA
  // starts at 41: own ends 77, issue 61, link -> 65, slice -> 69, + 10 = 79. (A set_flag that did
  // not wait: 38 + 1 = 39, then 39 + 36 -> 75, acked 77.)
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::SET_FLAG, {Pipe::Mte3, Pipe::Vector, 0})
   (Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::WAIT_FLAG, {Pipe::Mte3, Pipe::Vector, 0})(Op::END);
  EXPECT_EQ(run_aiv(c, {0}), 79u);
}
TEST(CoreTiming, WritePathFloor) {
  // mte.ub_gm.min_cycles 100: the pipe holds each DMA max(100, 20 + 512/32 = 36) = 100 cycles.
  // First: [2, 102) (acked 40); second: [102, 202), issue 122, link -> 126, slice -> 130,
  // acked 140; `end` at the pipe's 202.
  hw::HwConfig cfg = test_config();
  cfg.chip.aiv_per_cluster = 1;
  cfg.mte.ub_gm.min_cycles = 100;
  Code c;
  c(Op::LDP, {R(1), 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::MOV_UB_GM, {R(1), 0, 1, 512, 0, 0})(Op::END);
  isa::Program p = make_program("t", 1, nullptr, &c);
  sem::GlobalMemory gm(cfg.hbm.size);
  EXPECT_EQ(hw::run_systemc(cfg, p, gm, {0}, 1).total_cycles, 202u);
}
TEST(CoreTiming, FixToGm) {
  // fix f32 -> f16 16 x 16 = 512 B (rows 32 B apart: one contiguous range). own = 5 + 512/64 = 13
  // -> 15. Issue at 7: link -> 11, slice port -> 15, full-line write miss + 10 = 25.
  Code c;
  c(Op::LDP, {R(1), 0})(Op::FIX, {Dtype::F32, Dtype::F16, R(1), 0, 16, 16, 32})(Op::END);
  EXPECT_EQ(run_aic(c, {0}), 25u);
}

// ---------------------------------------------------------------- pure cost functions
TEST(CoreTiming, PassesPerClass) {
  EXPECT_EQ(hw::vector_passes(Op::VRSQRT), 1);
  EXPECT_EQ(hw::vector_passes(Op::VRAMAX), 2);
  EXPECT_EQ(hw::vector_passes(Op::VADD), 1);
  EXPECT_EQ(hw::vector_passes(Op::VRSUM), 1);
}

}  // namespace
}  // namespace npu::coretest
