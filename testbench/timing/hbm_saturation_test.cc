// Aggregate HBM bandwidth on the full chip model (configs/ascend910b.yaml): as 1, 2, 4, ... 24
// clusters stream GM at once, the achieved bandwidth rises, then saturates at the configured
// HBM figure (hbm.bandwidth_gbps) and never exceeds it. Each AIC reads its own 2 MiB slice of a
// none_cacheable tensor into L1 with 64 KiB DMAs, so every byte comes from HBM.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/asm/assembler.h"
#include "testbench/support/kernel_harness.h"

namespace npu::test {
namespace {

constexpr int64_t kBytesPerCore = 2 << 20;
constexpr int64_t kDmaBytes = 64 << 10;

const char* kStreamKernel = R"(
.kernel hbm_stream
.param src, gm
.param bytes_per_core, int
.aic
    ldp     r1, src
    ldp     r2, bytes_per_core
    getsr   r3, block_idx
    mul     r4, r2, r3
    add     r1, r1, r4            # this core's slice
    mov     r5, 0                 # bytes issued
loop:
    and     r6, r5, 0x3FFFF       # ring of 4 x 64 KiB L1 buffers
    mov_gm_l1 r6, r1, 1, 0x10000, 0x10000, 0x10000, none_cacheable
    add     r1, r1, 0x10000
    add     r5, r5, 0x10000
    blt     r5, r2, loop
    end
)";

struct Point {
  int clusters;
  double bytes_per_cycle;
};

Point stream(int clusters) {
  hw::HwConfig cfg = load_repo_config("ascend910b");
  auto res = isa::assemble(kStreamKernel, "hbm_stream.s");
  if (!res.program) throw std::runtime_error(res.format_diags());
  GmImage gm(cfg);
  gm.alloc("src", num::Dtype::U8, {kBytesPerCore * cfg.chip.clusters});
  auto params = bind_params(*res.program, {{"src", gm.addr("src")}, {"bytes_per_core", kBytesPerCore}});
  KernelRunInfo info = run_kernel(Engine::SystemC, cfg, *res.program, gm.gm(), params, clusters,
                                  /*timing_only=*/true);
  const double read = double(info.stats.hbm->bytes_read());
  EXPECT_EQ(read, double(kBytesPerCore) * clusters) << "every byte must come from HBM";
  return {clusters, read / double(info.cycles)};
}

TEST(HbmSaturation, RisesThenPlateausAtConfiguredBandwidth) {
  hw::HwConfig cfg = load_repo_config("ascend910b");
  const double peak = cfg.hbm.channel_bytes_per_cycle(cfg.chip.clock_ghz) * cfg.hbm.channels;  // B/cycle
  std::vector<Point> pts;
  for (int c : {1, 2, 4, 8, 16, 24}) pts.push_back(stream(c));
  for (const Point& p : pts)
    std::printf("clusters %2d: %7.1f B/cycle (%5.1f %% of the configured %.1f)\n", p.clusters,
                p.bytes_per_cycle, 100 * p.bytes_per_cycle / peak, peak);
  for (size_t i = 0; i < pts.size(); ++i) {
    EXPECT_LE(pts[i].bytes_per_cycle, peak * 1.0001) << pts[i].clusters << " clusters";
    if (i > 0)  // more streams never lose bandwidth (small decoupling noise allowed)
      EXPECT_GE(pts[i].bytes_per_cycle, pts[i - 1].bytes_per_cycle * 0.97) << pts[i].clusters;
  }
  // One core is limited by its own link, far below the chip's HBM.
  EXPECT_LT(pts.front().bytes_per_cycle, peak * 0.3);
  // With every cluster streaming, HBM is the limit: within 5 % of the configured figure.
  EXPECT_GE(pts.back().bytes_per_cycle, peak * 0.95);
}

}  // namespace
}  // namespace npu::test
