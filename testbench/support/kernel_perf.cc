#include "testbench/support/kernel_perf.h"

namespace npu::test {

double hbm_bytes_per_cycle(const hw::HwConfig& cfg) { return cfg.hbm.bandwidth_gbps / cfg.chip.clock_ghz; }

double cube_peak_cycles(const hw::HwConfig& cfg, double macs, int cores) {
  return macs / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_b16 * cores);
}

double cube_utilisation(const hw::HwConfig& cfg, double macs, double cycles) {
  return macs / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_b16 * cfg.chip.clusters * cycles);
}

namespace {
PerfBound make(const hw::HwConfig& cfg, double macs, int cores, double bytes) {
  PerfBound b;
  b.compute = macs > 0 ? cube_peak_cycles(cfg, macs, cores) : 0;
  b.hbm = bytes / hbm_bytes_per_cycle(cfg);
  b.launch = double(cfg.launch.overhead_cycles);
  return b;
}
}  // namespace

PerfBound lower_bound(const hw::HwConfig& cfg, const RmsNormCase& c) {
  const double es = 2;  // bf16 / fp16
  double bytes = es * c.rows * c.D;
  if (c.has_gamma) bytes += es * c.D;
  if (c.has_beta) bytes += es * c.D;
  return make(cfg, 0, c.block_dim, bytes);
}

PerfBound lower_bound(const hw::HwConfig& cfg, const LinearCase& c) {
  return make(cfg, double(c.M) * c.N * c.K, c.block_dim, 2.0 * (c.M * c.K + c.N * c.K));
}

PerfBound lower_bound(const hw::HwConfig& cfg, const RmsNormLinearCase& c) {
  return make(cfg, double(c.M) * c.N * c.K, c.block_dim, 2.0 * (c.M * c.K + c.K + c.N * c.K));
}

PerfBound roofline(const hw::HwConfig& cfg, const LinearCase& c) {
  // x + W + y
  return make(cfg, double(c.M) * c.N * c.K, cfg.chip.clusters, 2.0 * (c.M * c.K + c.N * c.K + c.M * c.N));
}

PerfBound roofline(const hw::HwConfig& cfg, const RmsNormLinearCase& c) {
  // x + xn (written once) + gamma + W + y
  return make(cfg, double(c.M) * c.N * c.K, cfg.chip.clusters,
              2.0 * (2 * c.M * c.K + c.K + c.N * c.K + c.M * c.N));
}

}  // namespace npu::test
