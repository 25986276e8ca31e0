// kernels/mla_prolog.s at issue 13's reference shape (kernels/cases/mla_prolog_bf16*.yaml as
// shipped: t 16, h 4096, q_lora_rank 1024, 64 heads of 512, rope 64, 24 clusters of
// configs/ascend910b.yaml): golden and ISS == SystemC for both weight layouts, and the level
// the kernel reaches against its HBM roofline.
#include <cstdio>

#include "testbench/kernels/mla_prolog_run.h"
#include "testbench/support/kernel_perf.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

// HBM roofline: every tensor the prolog must move, once, at 1600 GB/s / 1.8 GHz = 888.9 B/cycle
// (configs/ascend910b.yaml hbm.bandwidth_gbps, chip.clock_ghz), plus the 1800-cycle launch
// (launch.overhead_cycles: no core starts before it). bf16 bytes:
//   weights 2 * (4096*1024 + 1024*32768 + 4096*512) = 79,691,776
//   x 2*16*4096 = 131,072; gammas 2 * (1024 + 512) = 3,072; cos, sin 2 * 2*16*64 = 4,096
//   q 2*16*64*512 = 1,048,576; kv 2*16*512 = 16,384; qr 2*16*1024 = 32,768
//   sum 80,927,744 B / 888.89 = 91,044 cycles + 1800 = 92,844 cycles.
// The qa / kva / qb hand-offs stay in L2 (1.1 MiB, written once, read once) and are not counted.
// The figures come from the config: `hbm_bytes_per_cycle` (hbm.bandwidth_gbps / chip.clock_ghz)
// and launch.overhead_cycles.
const double kRooflineCycles = 80927744.0 / hbm_bytes_per_cycle(repo_config("ascend910b")) +
                               double(repo_config("ascend910b").launch.overhead_cycles);

// max_ratio: the level reached (cycles / roofline), measured when the kernel was written, with
// a little slack; the bound asserts that level. Issue 13's target is 1.25x.
void expect_reference(const char* case_file, double max_ratio) {
  const cli::RunResult sc = expect_mla_prolog_on_both(case_file, {}, 0, "ascend910b");
  ASSERT_TRUE(sc.sim.total_cycles.has_value());
  const double cycles = double(*sc.sim.total_cycles);
  std::printf("[perf] %s: %.0f cycles, HBM roofline %.0f cycles, %.1f %%\n", case_file, cycles,
              kRooflineCycles, 100 * kRooflineCycles / cycles);
  // Every weight byte is read from HBM once (no re-read, cached or not).
  ASSERT_TRUE(sc.sim.hbm.has_value());
  EXPECT_GE(double(sc.sim.hbm->bytes_read()), 79691776.0);
  EXPECT_LE(double(sc.sim.hbm->bytes_read()), 1.02 * 80927744.0);
  EXPECT_LE(cycles, max_ratio * kRooflineCycles);
  EXPECT_GE(cycles, kRooflineCycles);
}

// lib/gemm_kn.inc keeps L1 NZ, as the cube's tile loads read it on the hardware: ND weights are
// converted on the way in (mov_gm_l1_nz, one row per burst, mte.gm_l1_nz's startup per DMA).
// [K, N]: 103485 cycles = 1.11x (89.7 %; 99736 = 1.07x when the model let the tile loads read
// ND rows from L1 without the conversion). The 24 weight streams' phase on the 32 HBM channels
// moves such counts by a few per cent (docs/mla-prolog.md, "Knobs").
TEST(MlaPrologReference, WeightsKN) { expect_reference("mla_prolog_bf16.yaml", 1.14); }
// [N, K]: 101448 cycles = 1.09x; each AIC takes its K chunks in an order rotated by block_idx
// (lib/gemm_kn.inc; 122706 = 1.32x before: the chunks of all AICs at the same k sat on the same
// few HBM channels).
TEST(MlaPrologReference, WeightsNKBTrans) { expect_reference("mla_prolog_bf16_btrans.yaml", 1.12); }
// kernels/mla_prolog_nz.s, the weights kept NZ in GM (as CANN's MlaProlog takes them): a chunk
// is one burst per column block, no conversion. [K, N] 100250 cycles = 1.08x, [N, K] 100378.
TEST(MlaPrologReference, WeightsNzKN) { expect_reference("mla_prolog_bf16_nz.yaml", 1.10); }
TEST(MlaPrologReference, WeightsNzNKBTrans) { expect_reference("mla_prolog_bf16_nz_btrans.yaml", 1.10); }

}  // namespace
}  // namespace npu::test
