#include "testbench/support/w8a8_case.h"

#include <gtest/gtest.h>

#include "cli/lib/run_report.h"
#include "isa/error.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/kernel_perf.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

std::string W8a8Shape::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) + "_bd" +
         std::to_string(block_dim) + (variant ? "_sqrtdiv" : "");
}

namespace {

std::vector<std::string> shape_vars(const W8a8Shape& s) {
  return {"M=" + std::to_string(s.M), "K=" + std::to_string(s.K), "N=" + std::to_string(s.N),
          "SEED=" + std::to_string(s.seed)};
}

double int8_cube_cycles(const hw::HwConfig& cfg, const W8a8Shape& s, int cores) {
  return double(s.M) * s.N * s.K / (double(cfg.cube.m0) * cfg.cube.n0 * cfg.cube.k0_s8 * cores);
}

}  // namespace

cli::RunResult run_w8a8(const std::string& config, const W8a8Shape& s, bool iss) {
  return run_shipped_case("linear_w8a8", s.block_dim, config, shape_vars(s), iss);
}

cli::RunResult run_rlq(const std::string& config, const W8a8Shape& s, bool iss) {
  if (!s.variant) return run_shipped_case("rmsnorm_linear_quant", s.block_dim, config, shape_vars(s), iss);
  return run_shipped_case("rmsnorm_linear_quant", s.block_dim, config, shape_vars(s), iss,
                          {{"variant: 0", "variant: 1"}, {"variant: rsqrt", "variant: sqrt_div"}});
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
         int8_cube_cycles(cfg, s, cfg.chip.clusters);
}

double w8a8_lower_bound(const hw::HwConfig& cfg, const W8a8Shape& s) {
  const double in = (double(s.M) * s.K + 4.0 * s.M + double(s.N) * s.K + 4.0 * s.N) / hbm_bytes_per_cycle(cfg);
  const double cube = int8_cube_cycles(cfg, s, s.block_dim);
  return double(cfg.launch.overhead_cycles) + (in > cube ? in : cube);
}

double rlq_hbm_roofline(const hw::HwConfig& cfg, const W8a8Shape& s) {
  const double M = double(s.M), K = double(s.K), N = double(s.N);
  const double bytes = 2 * M * K + 2 * K + N * K + 4 * N + 2 * M * N + M * K + 4 * M + 4 * M * N;
  return double(cfg.launch.overhead_cycles) + bytes / hbm_bytes_per_cycle(cfg);
}

double rlq_lower_bound(const hw::HwConfig& cfg, const W8a8Shape& s) {
  const double in = (2.0 * s.M * s.K + 2.0 * s.K + double(s.N) * s.K + 4.0 * s.N) / hbm_bytes_per_cycle(cfg);
  const double cube = int8_cube_cycles(cfg, s, s.block_dim);
  return double(cfg.launch.overhead_cycles) + (in > cube ? in : cube);
}

namespace {

W8a8Perf measure(const std::string& kernel, const std::string& config, const W8a8Shape& s) {
  const hw::HwConfig cfg = load_repo_config(config);
  const bool rlq = kernel == "rmsnorm_linear_quant";
  const cli::RunResult r = rlq ? run_rlq(config, s, false) : run_w8a8(config, s, false);
  EXPECT_EQ(r.exit_code, cli::kExitPass) << cli::format_report(r);
  W8a8Perf p;
  p.cycles = double(total_cycles(r));
  p.hbm_roofline = rlq ? rlq_hbm_roofline(cfg, s) : w8a8_hbm_roofline(cfg, s);
  p.cube_peak = w8a8_cube_peak(cfg, s);
  EXPECT_GE(p.cycles, rlq ? rlq_lower_bound(cfg, s) : w8a8_lower_bound(cfg, s)) << s.name() << ": below the lower bound";
  std::printf("%s %s on %s: %.0f cycles; HBM roofline %.0f (%.1f %%), int8 cube peak %.0f (%.1f %%)\n",
              kernel.c_str(), s.name().c_str(), config.c_str(), p.cycles, p.hbm_roofline,
              100 * p.hbm_roofline / p.cycles, p.cube_peak, 100 * p.cube_peak / p.cycles);
  return p;
}

}  // namespace

W8a8Perf measure_w8a8(const std::string& config, const W8a8Shape& s) { return measure("linear_w8a8", config, s); }
W8a8Perf measure_rlq(const std::string& config, const W8a8Shape& s) {
  return measure("rmsnorm_linear_quant", config, s);
}

}  // namespace npu::test
