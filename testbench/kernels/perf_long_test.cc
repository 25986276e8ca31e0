// Long tier: cycle counts of the flagship kernels on the SystemC model with configs/ascend910b.yaml
// (24 clusters), timing-only (no data effects, same cycles as a full run; see hw/top/run.h).
// Targets (task brief): linear at M=16, K=4096, N=1536 reaches >= 80 % of the HBM roofline;
// linear at M=N=K=2048 keeps the cube >= 80 % busy.
//   HBM roofline cycles = bytes moved once (x + W + y) / (hbm.bandwidth_gbps / chip.clock_ghz)
//   cube utilisation     = macs / (clusters * m0 * n0 * k0_b16 * cycles)
#include <gtest/gtest.h>

#include <cstdio>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"

namespace npu::test {
namespace {

const hw::HwConfig& b910() {
  static const hw::HwConfig cfg = load_repo_config("ascend910b");
  return cfg;
}

double hbm_roofline_cycles(const hw::HwConfig& cfg, double bytes) {
  return bytes / (cfg.hbm.bandwidth_gbps / cfg.chip.clock_ghz);
}

double cube_util(const hw::HwConfig& cfg, double macs, double cycles) {
  const double per_cycle = double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_b16 * cfg.chip.clusters;
  return macs / (per_cycle * cycles);
}

TEST(KernelPerf, LinearDecodeHbmRoofline) {
  const auto& cfg = b910();
  LinearCase c;
  c.M = 16;
  c.K = 4096;
  c.N = 1536;
  c.block_dim = cfg.chip.clusters;
  KernelOutcome r = run_linear(Engine::SystemC, cfg, c, false, true);
  const double bytes = 2.0 * (c.M * c.K + c.N * c.K + c.M * c.N);
  const double roof = hbm_roofline_cycles(cfg, bytes);
  const double eff = roof / double(r.info.cycles);
  std::printf("[perf] linear %s on %s: %llu cycles, HBM roofline %.0f cycles, %.1f %%\n",
              c.name().c_str(), cfg.chip.name.c_str(), (unsigned long long)r.info.cycles, roof, 100 * eff);
  EXPECT_GE(eff, 0.80);
}

TEST(KernelPerf, LinearSquareCubeUtilisation) {
  const auto& cfg = b910();
  LinearCase c;
  c.M = c.K = c.N = 2048;
  c.block_dim = cfg.chip.clusters;
  KernelOutcome r = run_linear(Engine::SystemC, cfg, c, false, true);
  const double util = cube_util(cfg, double(c.M) * c.N * c.K, double(r.info.cycles));
  std::printf("[perf] linear %s on %s: %llu cycles, cube utilisation %.1f %%\n", c.name().c_str(),
              cfg.chip.name.c_str(), (unsigned long long)r.info.cycles, 100 * util);
  EXPECT_GE(util, 0.80);
}

TEST(KernelPerf, RmsNormLinearDecode) {
  const auto& cfg = b910();
  RmsNormLinearCase c;
  c.M = 16;
  c.K = 4096;
  c.N = 1536;
  c.block_dim = cfg.chip.clusters;
  KernelOutcome r = run_rmsnorm_linear(Engine::SystemC, cfg, c, false, true);
  const double bytes = 2.0 * (2 * c.M * c.K + c.K + c.N * c.K + c.M * c.N);
  const double roof = hbm_roofline_cycles(cfg, bytes);
  std::printf("[perf] rmsnorm_linear %s on %s: %llu cycles, HBM roofline %.0f cycles, %.1f %%\n",
              c.name().c_str(), cfg.chip.name.c_str(), (unsigned long long)r.info.cycles, roof,
              100 * roof / double(r.info.cycles));
  EXPECT_GT(r.info.cycles, 0u);
}

}  // namespace
}  // namespace npu::test
