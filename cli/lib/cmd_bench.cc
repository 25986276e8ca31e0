// npusim bench [--config FILE] [--set k=v]... [--scale N] [--json FILE]: how fast the SystemC model
// runs on this host (hw/top/bench.h): simulated cycles/s, retired instructions/s and functional
// MACs/s for one core streaming GM, every core streaming GM, and a compute-bound mmad loop,
// each in full and in timing-only mode.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/file_io.h"
#include "cli/lib/commands.h"
#include "hw/config/loader.h"
#include "hw/top/bench.h"
#include "isa/error.h"

namespace npu::cli {

void register_bench(CLI::App& app) {
  struct Opts {
    std::string config;
    std::vector<std::string> sets;
    int scale = 1;
    std::string json;
  };
  auto opts = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("bench", "Measure simulator speed (cycles/s, instructions/s, MACs/s)");
  cmd->add_option("--config", opts->config, "Hardware configuration YAML (default: configs/ascend910b.yaml)");
  cmd->add_option("--set", opts->sets, "Override a config key (repeatable)");
  cmd->add_option("--scale", opts->scale, "Multiply the work of every workload")->check(CLI::Range(1, 1000));
  cmd->add_option("--json", opts->json, "Also write the figures as JSON to this file");
  cmd->callback([opts] {
    try {
      std::string path = opts->config;
      if (path.empty()) {
        const char* src = std::getenv("NPUSIM_SOURCE_DIR");
        path = std::string(src ? src : ".") + "/configs/ascend910b.yaml";
      }
      const hw::HwConfig cfg = hw::load_config(path, opts->sets);
      std::vector<hw::BenchResult> results;
      for (const hw::BenchWorkload& w : hw::bench_workloads(cfg, opts->scale))
        for (bool timing_only : {false, true}) results.push_back(hw::run_bench(cfg, w, timing_only));
      std::cout << "config " << cfg.chip.name << " (" << path << "), " << cfg.chip.clusters << " clusters\n"
                << hw::bench_table(results);
      if (!opts->json.empty()) {
        nlohmann::json j = nlohmann::json::array();
        for (const hw::BenchResult& b : results)
          j.push_back({{"workload", b.name}, {"timing_only", b.timing_only}, {"cycles", b.cycles},
                       {"instructions", b.instructions}, {"macs", b.macs}, {"host_seconds", b.host_seconds},
                       {"cycles_per_second", b.cycles_per_second()},
                       {"instructions_per_second", b.instructions_per_second()},
                       {"macs_per_second", b.macs_per_second()}});
        write_file_atomic(opts->json, j.dump(2) + "\n");
      }
    } catch (const npu::Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
