#include "testbench/support/w8a8_case.h"

#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "isa/error.h"
#include "testbench/support/kernel_harness.h"
#include "testbench/support/kernel_perf.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

std::string W8a8Shape::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) + "_bd" +
         std::to_string(block_dim);
}

cli::RunResult run_w8a8(const std::string& config, const W8a8Shape& s, bool iss) {
  return run_shipped_case("linear_w8a8", s.block_dim, config,
                          {"M=" + std::to_string(s.M), "K=" + std::to_string(s.K), "N=" + std::to_string(s.N),
                           "SEED=" + std::to_string(s.seed)},
                          iss);
}

uint64_t total_cycles(const cli::RunResult& r) {
  if (!r.sim.total_cycles) throw Error("run has no cycle count");
  return *r.sim.total_cycles;
}

double w8a8_hbm_roofline(const hw::HwConfig& cfg, const W8a8Shape& s) {
  const double bytes = double(s.M) * s.K + 4.0 * s.M + double(s.N) * s.K + 4.0 * s.N + 2.0 * s.M * s.N + 4.0 * s.M * s.N;
  return double(cfg.launch.overhead_cycles) + bytes / hbm_bytes_per_cycle(cfg);  // no core starts before the launch cost
}

double w8a8_cube_peak(const hw::HwConfig& cfg, const W8a8Shape& s) {
  return double(cfg.launch.overhead_cycles) +  // as every bound here: no core starts before the launch cost
         double(s.M) * s.N * s.K / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_s8 * cfg.chip.clusters);
}

double w8a8_lower_bound(const hw::HwConfig& cfg, const W8a8Shape& s) {
  const double in = (double(s.M) * s.K + 4.0 * s.M + double(s.N) * s.K + 4.0 * s.N) / hbm_bytes_per_cycle(cfg);
  const double cube = double(s.M) * s.N * s.K / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_s8 * s.block_dim);
  return double(cfg.launch.overhead_cycles) + (in > cube ? in : cube);
}

W8a8Perf measure_w8a8(const std::string& config, const W8a8Shape& s) {
  const hw::HwConfig cfg = load_repo_config(config);
  const cli::RunResult r = run_w8a8(config, s, false);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  W8a8Perf p;
  p.cycles = double(total_cycles(r));
  p.hbm_roofline = w8a8_hbm_roofline(cfg, s);
  p.cube_peak = w8a8_cube_peak(cfg, s);
  EXPECT_GE(p.cycles, w8a8_lower_bound(cfg, s)) << s.name() << ": below the lower bound";
  std::printf("linear_w8a8 %s on %s: %.0f cycles; HBM roofline %.0f (%.1f %%), int8 cube peak %.0f (%.1f %%)\n",
              s.name().c_str(), config.c_str(), p.cycles, p.hbm_roofline, 100 * p.hbm_roofline / p.cycles,
              p.cube_peak, 100 * p.cube_peak / p.cycles);
  return p;
}

}  // namespace npu::test
