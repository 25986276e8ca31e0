#pragma once
// kernels/linear_w8a8.s and kernels/rmsnorm_linear_quant.s (AT-11) through the case pipeline
// users run (cli::run_case): the shipped cases kernels/cases/linear_w8a8.yaml and
// rmsnorm_linear_quant.yaml with the shape as --var overrides and block_dim replaced, on a
// repository config; plus the kernels' performance bounds, computed from the config.
#include <cstdint>
#include <string>

#include "cli/lib/run_case.h"
#include "hw/config/hw_config.h"

namespace npu::test {

struct W8a8Shape {
  int64_t M = 16, K = 4096, N = 1536;
  int block_dim = 24;
  uint64_t seed = 1;
  int variant = 0;           // rmsnorm_linear_quant only: 0 rsqrt, 1 sqrt + div
  std::string name() const;  // "M16_K4096_N1536_bd24" (+ "_sqrtdiv" for variant 1)
};

// Runs the case on configs/<config>.yaml (SystemC, or the ISS with the race checker on).
cli::RunResult run_w8a8(const std::string& config, const W8a8Shape& s, bool iss);
uint64_t total_cycles(const cli::RunResult& r);

// HBM roofline: every tensor once (x, x_scale, w, w_scale, y and the workspace t) at the HBM
// bandwidth; int8 cube peak: M*N*K MACs at clusters * m0 * n0 * k0.s8 per cycle. In cycles,
// each after launch.overhead_cycles (no core starts earlier; as testbench/support/kernel_perf.h).
double w8a8_hbm_roofline(const hw::HwConfig& cfg, const W8a8Shape& s);
double w8a8_cube_peak(const hw::HwConfig& cfg, const W8a8Shape& s);
// The lower bound no run may beat: the launch cost + max(inputs once through HBM, int8 cube peak
// on block_dim AICs).
double w8a8_lower_bound(const hw::HwConfig& cfg, const W8a8Shape& s);

// One SystemC run of the shape on configs/<config>.yaml with its bounds; the run must pass its
// golden and respect the lower bound (gtest expectations).
struct W8a8Perf {
  double cycles = 0, hbm_roofline = 0, cube_peak = 0;
};
W8a8Perf measure_w8a8(const std::string& config, const W8a8Shape& s);

// The same for kernels/cases/rmsnorm_linear_quant.yaml (AT-11; the golden's variant follows
// s.variant). Roofline: every tensor once (x, gamma, w, w_scale, y and the workspaces q,
// x_scale, t); lower bound: the launch cost + max(inputs once, int8 cube peak on block_dim AICs).
cli::RunResult run_rlq(const std::string& config, const W8a8Shape& s, bool iss);
double rlq_hbm_roofline(const hw::HwConfig& cfg, const W8a8Shape& s);
double rlq_lower_bound(const hw::HwConfig& cfg, const W8a8Shape& s);
W8a8Perf measure_rlq(const std::string& config, const W8a8Shape& s);

}  // namespace npu::test
