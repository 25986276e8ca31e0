#pragma once
// Performance bounds of the flagship kernels (kernels/*.s) on a config, for cycle checks:
//
//   lower bound  max(compute at peak, input bytes / HBM bandwidth): no correct run can be faster
//                (L2 starts cold, so every input byte crosses HBM at least once; the cube does at
//                most m0 * n0 * k0 MACs per cycle on each of the launch's block_dim AICs). Outputs
//                are not counted: a write-back L2 may keep them.
//   roofline     the efficiency reference: max(compute at peak on all clusters, bytes of
//                every tensor moved once (inputs, workspaces and outputs) / HBM bandwidth).
//
// Both start after the launch overhead (launch.overhead_cycles): no core runs before it.
// HBM bytes per cycle = hbm.bandwidth_gbps / chip.clock_ghz (e.g. 1600 / 1.8 = 888.9 on ascend910b).
#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"

namespace npu::test {

struct PerfBound {
  double compute = 0;    // cycles of the cube at peak (0 for vector-only kernels)
  double hbm = 0;        // cycles of the counted bytes at the HBM bandwidth
  double launch = 0;     // launch.overhead_cycles: before any core starts
  double cycles() const { return launch + (compute > hbm ? compute : hbm); }
};

double hbm_bytes_per_cycle(const hw::HwConfig& cfg);
// Cube cycles at peak for `macs` bf16 MACs on `cores` AICs.
double cube_peak_cycles(const hw::HwConfig& cfg, double macs, int cores);

PerfBound lower_bound(const hw::HwConfig& cfg, const RmsNormCase& c);
PerfBound lower_bound(const hw::HwConfig& cfg, const LinearCase& c);
PerfBound lower_bound(const hw::HwConfig& cfg, const RmsNormLinearCase& c);

PerfBound roofline(const hw::HwConfig& cfg, const LinearCase& c);
PerfBound roofline(const hw::HwConfig& cfg, const RmsNormLinearCase& c);

// macs / (clusters * m0 * n0 * k0_b16 * cycles): the fraction of the chip's cube peak used.
double cube_utilisation(const hw::HwConfig& cfg, double macs, double cycles);

}  // namespace npu::test
