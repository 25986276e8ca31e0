// MTE2 double buffering hides the DMA behind cube compute: total ~ max(DMA, cube), not the sum.
// test_config(), 1 GHz. Four tiles; each: one cold 512 B GM -> L1 line (tile i at GM i * 512:
// slice i % 2, HBM channel i % 2, all idle when used) and one mmad.bf16 m=1, n=1, k=4095.
//   DMA  = startup 10 + HBM 8 + latency 100 + slice port 4 + core link 4 = 126 cycles
//   mmad = 2 + 1 * 1 * ceil(4095 / 16) = 258 cycles
//   flags: set_flag fires when it reaches the head of its pipe; every sync op then takes 1 cycle.
#include <gtest/gtest.h>

#include "hw/top/run.h"
#include "testbench/timing/core_test_support.h"

namespace npu::coretest {
namespace {

using isa::Dtype;
using isa::Pipe;

constexpr int kTiles = 4;

// buffers = 2: ping-pong (flag id = tile % 2, both "buffer free" flags primed by CUBE);
// buffers = 1: the next load waits until the previous mmad has finished.
hw::RunResult run_tiles(int buffers) {
  Code c;
  c(Op::LDP, {R(1), 0});
  for (int b = 0; b < buffers; ++b) c(Op::SET_FLAG, {Pipe::Cube, Pipe::Mte2, b});
  for (int i = 0; i < kTiles; ++i) {
    const int b = i % buffers;
    c(Op::WAIT_FLAG, {Pipe::Cube, Pipe::Mte2, b})
     (Op::ADD, {R(2), R(1), i * 512})
     (Op::MOV_GM_L1, {b * 512, R(2), 1, 512, 0, 0})
     (Op::SET_FLAG, {Pipe::Mte2, Pipe::Cube, b})
     (Op::WAIT_FLAG, {Pipe::Mte2, Pipe::Cube, b})
     (Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 4095, 1, 1})
     (Op::SET_FLAG, {Pipe::Cube, Pipe::Mte2, b});
  }
  for (int b = 0; b < buffers; ++b) c(Op::WAIT_FLAG, {Pipe::Cube, Pipe::Mte2, b});
  c(Op::END);
  hw::HwConfig cfg = test_config();
  isa::Program p = make_program("overlap", 1, &c, nullptr);
  sem::GlobalMemory gm(cfg.hbm.size);
  return hw::run_systemc(cfg, p, gm, {0}, 1);
}

TEST(CoreOverlap, DoubleBufferingHidesDma) {
  // MTE2: load 0 [6,132) (dispatched at 6 after ldp, 2 primes, wait, add); its flag fires at 132.
  // CUBE: mmad 0 [133,391); meanwhile load 1 [134,260) is already done.
  // mmad 1 [393,651); load 2 waits for buffer 0 (freed at 391): [392,518).
  // mmad 2 [653,911); load 3 waits for buffer 1 (freed at 651): [652,778).
  // mmad 3 [913,1171); its set_flag retires at 1172; MTE2's final waits end at 1172.
  // = first DMA 132 + 4 x 258 + 8 cycles of flags; the sum DMA + cube would be 4 x (126 + 258).
  hw::RunResult r = run_tiles(2);
  EXPECT_EQ(r.total_cycles, 1172u);
  EXPECT_LT(r.total_cycles, uint64_t{kTiles} * (126 + 258));
  EXPECT_EQ(r.stats.cores[0].pipe(isa::Pipe::Cube)->counters.macs, 4u * 4095);
}

TEST(CoreOverlap, SingleBufferSerialises) {
  // One prime fewer: load 0 is dispatched at 5: [5,131), mmad 0 [132,390), load 1 [391,517),
  // mmad 1 [518,776), load 2 [777,903), mmad 2 [904,1162), load 3 [1163,1289),
  // mmad 3 [1290,1548), its set_flag retires at 1549; MTE2's last wait passes at 1548 -> 1549.
  // = 4 x (126 + 258) + 13 cycles of dispatch and flags: the sum.
  hw::RunResult r = run_tiles(1);
  EXPECT_EQ(r.total_cycles, 1549u);
}

}  // namespace
}  // namespace npu::coretest
