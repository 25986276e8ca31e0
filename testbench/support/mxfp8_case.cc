#include "testbench/support/mxfp8_case.h"

#include "testbench/support/kernel_perf.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

std::string MxShape::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) + "_KC" +
         std::to_string(KC) + (via_l1 ? "_l1" : "_gm") + "_bd" + std::to_string(block_dim);
}

cli::RunResult run_mxfp8(const MxShape& s, bool iss) {
  return run_shipped_case("linear_mxfp8", s.block_dim, "ascend950",
                          {"M=" + std::to_string(s.M), "K=" + std::to_string(s.K), "N=" + std::to_string(s.N),
                           "KC=" + std::to_string(s.KC), "VIA_L1=" + std::to_string(s.via_l1)},
                          iss);
}

double mxfp8_hbm_roofline(const hw::HwConfig& cfg, const MxShape& s) {
  const double bytes = 2.0 * s.M * s.K + double(s.N) * s.K + double(s.N) * (s.K / 32) + 2.0 * s.M * s.N;
  return double(cfg.launch.overhead_cycles) + bytes / hbm_bytes_per_cycle(cfg);
}

double mxfp8_lower_bound(const hw::HwConfig& cfg, const MxShape& s) {
  const double cube = double(s.M) * s.N * s.K / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_fp8 * s.block_dim);
  const double hbm = mxfp8_hbm_roofline(cfg, s);
  const double launch = double(cfg.launch.overhead_cycles);
  return hbm > launch + cube ? hbm : launch + cube;
}

}  // namespace npu::test
