// Aggregate HBM bandwidth on the full chip model (configs/ascend910b.yaml): as 1, 2, 4, ... 24
// clusters stream GM at once, the achieved bandwidth rises, then saturates at the configured
// HBM figure (hbm.bandwidth_gbps) and never exceeds it. Each AIC reads its own 2 MiB slice of a
// none_cacheable tensor into L1 with 64 KiB DMAs, so every byte comes from HBM.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"

namespace npu::test {
namespace {

constexpr int64_t kBytesPerCore = 2 << 20;
constexpr int64_t kDmaBytes = 64 << 10;

struct Point {
  int clusters;
  double bytes_per_cycle;
};

Point stream(int clusters) {
  hw::HwConfig cfg = load_repo_config("ascend910b");
  const std::string body = fmt::format("params: {{bytes_per_core: {}}}\ntensors:\n  src: {}\n", kBytesPerCore,
                                       tensor_yaml("u8", {kBytesPerCore * cfg.chip.clusters}, "init: zeros"));
  const cli::RunResult r = run_test_case(Engine::SystemC, cfg, test_case(source_path("testbench/timing/hbm_stream.s"),
                                                                         clusters, body), /*timing_only=*/true);
  const double read = double(r.sim.hbm->bytes_read());
  EXPECT_EQ(read, double(kBytesPerCore) * clusters) << "every byte must come from HBM";
  return {clusters, read / double(*r.sim.total_cycles)};
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
    if (i > 0) {  // more streams never lose bandwidth (small decoupling noise allowed)
      EXPECT_GE(pts[i].bytes_per_cycle, pts[i - 1].bytes_per_cycle * 0.97) << pts[i].clusters;
    }
  }
  // One core is limited by its own link, far below the chip's HBM.
  EXPECT_LT(pts.front().bytes_per_cycle, peak * 0.3);
  // With every cluster streaming, HBM is the limit: within 5 % of the configured figure.
  EXPECT_GE(pts.back().bytes_per_cycle, peak * 0.95);
}

}  // namespace
}  // namespace npu::test
