// Cost of tracing (docs/performance.md, "Tracing overhead"): the `npusim bench` workloads
// (hw/top/bench.h) run untraced and with each kind of trace output, timing-only so the data
// effects do not dilute the figures. Host times are printed, never asserted (no wall-clock
// assertions); what is asserted is that tracing changes no simulated figure.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "cli/lib/sim_stats_json.h"
#include "hw/config/loader.h"
#include "hw/top/bench.h"
#include "hw/top/run.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/trace_test_support.h"

namespace npu::test {
namespace {

struct Mode {
  const char* name;
  bool labels, csv, json, vcd;
};

TEST(TraceOverhead, BenchWorkloads) {
  const hw::HwConfig cfg = load_repo_config("ascend910b");
  const Mode modes[] = {{"off", false, false, false, false},  {"labels", true, false, false, false},
                        {"csv", false, true, false, false},    {"json", false, false, true, false},
                        {"vcd", false, false, false, true},    {"all", true, true, true, true}};
  std::printf("%-12s %-8s %12s %10s %9s %12s\n", "workload", "trace", "sim cycles", "host s", "x off", "file bytes");
  for (const hw::BenchWorkload& w : hw::bench_workloads(cfg, 1)) {
    double off_s = 0;
    uint64_t off_cycles = 0;
    nlohmann::json off_stats;
    for (const Mode& m : modes) {
      double best = 1e30;
      uint64_t cycles = 0, bytes = 0;
      nlohmann::json stats;
      for (int rep = 0; rep < 3; ++rep) {
        sem::GlobalMemory gm(cfg.hbm.size);
        if (w.gm_bytes) gm.fill(0, 1, w.gm_bytes);
        hw::RunOptions opt;
        opt.timing_only = true;
        opt.trace.label_stats = m.labels;
        if (m.csv) opt.trace.csv_path = temp_path("overhead.csv");
        if (m.json) opt.trace.json_path = temp_path("overhead.json");
        if (m.vcd) opt.trace.vcd_path = temp_path("overhead.vcd");
        const auto t0 = std::chrono::steady_clock::now();
        hw::RunResult r = hw::run_systemc(cfg, w.program, gm, w.params, w.block_dim, opt);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, s);
        cycles = r.total_cycles;
        r.stats.labels.clear();
        stats = cli::sim_stats_json(r.stats);
        bytes = 0;
        for (const std::string* p : {&opt.trace.csv_path, &opt.trace.json_path, &opt.trace.vcd_path})
          if (!p->empty()) bytes += std::filesystem::file_size(*p);
      }
      if (std::string(m.name) == "off") {
        off_s = best;
        off_cycles = cycles;
        off_stats = stats;
      }
      EXPECT_EQ(cycles, off_cycles) << w.name << " " << m.name;
      EXPECT_EQ(stats, off_stats) << w.name << " " << m.name << ": tracing changed the statistics";
      std::printf("%-12s %-8s %12llu %10.3f %9.2f %12llu\n", w.name.substr(0, 12).c_str(), m.name,
                  static_cast<unsigned long long>(cycles), best, off_s > 0 ? best / off_s : 0.0,
                  static_cast<unsigned long long>(bytes));
    }
  }
}

}  // namespace
}  // namespace npu::test
