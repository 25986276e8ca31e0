// npusim bench [--config FILE] [--set k=v]... [--scale N] [--repeat N] [--large] [--json FILE]:
// how fast the simulator runs on this host. Two kinds of workload, each in full and in
// timing-only mode:
//   - the SystemC model alone (hw/top/bench.h): one core streaming GM, every core of the chip
//     streaming HBM, a compute-bound mmad loop;
//   - whole `npusim run` jobs (run_case: inputs, golden, simulation, comparison, report): the
//     README job (kernels/cases/rmsnorm_linear.yaml) and, with --large, linear M = 2048,
//     K = N = 4096 (kernels/cases/linear_bf16.yaml);
//   - the README job as a process of its own (`npusim run CASE -q`, bench_process.h): what a
//     user's command costs, with loading and the first touch of every page.
// A first row measures the host's fp32 FMA peak on one thread (hw::host_fma_peak), the yardstick
// of the mmad row's MACs/s.
// Figures: wall and CPU seconds (medians of --repeat runs), simulated cycles/s, instructions/s,
// GM line requests/s, functional MACs/s, host ns per GM line.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/file_io.h"
#include "base/host_phases.h"
#include "cli/lib/bench_process.h"
#include "cli/lib/commands.h"
#include "cli/lib/run_case.h"
#include "hw/config/loader.h"
#include "hw/top/bench.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

struct CaseWorkload {
  std::string name, file;
  std::vector<std::string> vars;
};

// One `npusim run` job (no output files, no report printed).
hw::BenchResult bench_case(const CaseWorkload& w, const std::string& src, const std::string& config,
                           const std::vector<std::string>& sets, bool timing_only, HostPhases* phases) {
  RunOptions o;
  o.host_phases = phases;
  o.case_path = src + "/kernels/cases/" + w.file;
  o.config_path = config;
  o.sets = sets;
  o.vars = w.vars;
  o.timing_only = timing_only;
  const RunResult r = run_case(o);
  phases->finish();
  if (!timing_only && r.exit_code != kExitPass) throw Error(w.name + ": the outputs do not match the golden");
  hw::BenchResult b;
  b.name = w.name;
  b.timing_only = timing_only;
  b.cycles = r.sim.total_cycles.value_or(0);
  b.instructions = r.sim.instructions();
  b.macs = r.sim.macs();
  b.gm_lines = hw::gm_lines_of(r.sim);
  return b;
}

// --json: the results, one object per run.
nlohmann::json bench_json(const std::vector<hw::BenchResult>& results) {
  nlohmann::json j = nlohmann::json::array();
  for (const hw::BenchResult& b : results)
    j.push_back({{"workload", b.name}, {"timing_only", b.timing_only}, {"host_only", b.host_only}, {"cycles", b.cycles},
                 {"instructions", b.instructions}, {"macs", b.macs}, {"gm_lines", b.gm_lines},
                 {"host_seconds", b.host_seconds}, {"cpu_seconds", b.cpu_seconds}, {"repeats", b.repeats},
                 {"cpu_ns_per_gm_line", b.gm_lines ? 1e9 * b.cpu_seconds / double(b.gm_lines) : 0.0},
                 {"cycles_per_second", b.cycles_per_second()},
                 {"instructions_per_second", b.instructions_per_second()},
                 {"gm_lines_per_second", b.lines_per_second()}, {"macs_per_second", b.macs_per_second()}});
  return j;
}

// The main thread's time per phase of a case workload: the median over the repeats of each
// phase's wall and CPU milliseconds (every repeat marks the same phases in the same order).
struct PhaseRow {
  std::string workload;
  bool timing_only = false;
  std::vector<HostPhases::Phase> median;
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

PhaseRow phase_medians(const std::string& workload, bool timing_only, const std::vector<HostPhases>& runs) {
  PhaseRow row{workload, timing_only, {}};
  const std::vector<HostPhases::Phase>& first = runs.front().phases();
  for (size_t i = 0; i < first.size(); ++i) {
    std::vector<double> wall, cpu;
    for (const HostPhases& r : runs)
      if (i < r.phases().size() && r.phases()[i].name == first[i].name) {
        wall.push_back(r.phases()[i].wall_s);
        cpu.push_back(r.phases()[i].cpu_s);
      }
    row.median.push_back({first[i].name, median_of(wall), median_of(cpu)});
  }
  return row;
}

std::string phase_table(const std::vector<PhaseRow>& rows) {
  std::string out = "\nmain thread by phase (median ms; a phase waiting for the golden's thread has wall without cpu)\n";
  for (const PhaseRow& r : rows) {
    out += fmt::format("{} ({})\n", r.workload, r.timing_only ? "timing" : "full");
    double wall = 0, cpu = 0;
    for (const HostPhases::Phase& p : r.median) {
      out += fmt::format("  {:<24} {:9.2f} wall {:9.2f} cpu\n", p.name, 1e3 * p.wall_s, 1e3 * p.cpu_s);
      wall += p.wall_s;
      cpu += p.cpu_s;
    }
    out += fmt::format("  {:<24} {:9.2f} wall {:9.2f} cpu\n", "(sum)", 1e3 * wall, 1e3 * cpu);
  }
  return out;
}

nlohmann::json phases_json(const std::vector<PhaseRow>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const PhaseRow& r : rows) {
    nlohmann::json ph = nlohmann::json::array();
    for (const HostPhases::Phase& p : r.median) ph.push_back({{"phase", p.name}, {"wall_seconds", p.wall_s}, {"cpu_seconds", p.cpu_s}});
    j.push_back({{"workload", r.workload}, {"timing_only", r.timing_only}, {"main_thread_phases", ph}});
  }
  return j;
}

// The same job as `npusim run CASE -q` in a process of its own, `repeats` times: the medians of
// the child's wall and CPU time, its simulated figures those of `in_process` (deterministic), its
// main thread's phases with what follows the last one ("exit": the report, destructors, the
// process's end) as one more.
hw::BenchResult bench_case_process(const CaseWorkload& w, const std::string& src, const std::string& config,
                                   const std::vector<std::string>& sets, bool timing_only, int repeats,
                                   const hw::BenchResult& in_process, PhaseRow* phase_row) {

  std::vector<std::string> args = {"run", src + "/kernels/cases/" + w.file, "-q", "--config", config};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  for (const std::string& v : w.vars) args.insert(args.end(), {"--var", v});
  if (timing_only) args.push_back("--timing-only");
  std::vector<double> wall, cpu;
  std::vector<HostPhases> runs;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    const ProcessRun r = run_bench_child(args);
    if (r.exit_code != kExitPass && !(timing_only && r.exit_code == kExitNotChecked))
      throw Error(w.name + " as a process: `npusim run` exited with status " + std::to_string(r.exit_code));
    wall.push_back(r.wall_s);
    cpu.push_back(r.cpu_s);
    runs.emplace_back();
    double sum = 0;
    for (const HostPhases::Phase& p : r.phases) {
      runs.back().add(p);
      sum += p.wall_s;
    }
    runs.back().add({"exit", std::max(0.0, r.wall_s - sum), 0.0});
  }
  hw::BenchResult b = in_process;
  b.name = w.name + " (process)";
  b.host_seconds = median_of(wall);
  b.cpu_seconds = median_of(cpu);
  b.repeats = int(wall.size());
  *phase_row = phase_medians(b.name, timing_only, runs);
  return b;
}

}  // namespace

void register_bench(CLI::App& app) {
  struct Opts {
    std::string config;
    std::vector<std::string> sets;
    int scale = 1, repeat = 1;
    bool large = false;
    std::string json;
  };
  auto opts = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("bench", "Measure simulator speed (cycles/s, instructions/s, lines/s, MACs/s)");
  cmd->add_option("--config", opts->config, "Hardware configuration YAML or shipped config name (default: as for `npusim run`)");
  cmd->add_option("--set", opts->sets, "Override a config key (repeatable)");
  cmd->add_option("--scale", opts->scale, "Multiply the work of the model-only workloads")->check(CLI::Range(1, 1000));
  cmd->add_option("--repeat", opts->repeat, "Run every workload N times, report the median times")
      ->check(CLI::Range(1, 100));
  cmd->add_flag("--large", opts->large, "Add linear M=2048 K=N=4096 with golden (tens of CPU seconds)");
  cmd->add_option("--json", opts->json, "Also write the figures as JSON to this file");
  cmd->callback([opts] {
    try {
      const std::string src = data_dir();  // the shipped cases (kernels/cases)
      const std::string path = resolve_config_path(opts->config);
      const hw::HwConfig cfg = hw::load_config(path, opts->sets);
      std::vector<hw::BenchResult> results;
      if (hw::host_fma_available())
        results.push_back(hw::measure(opts->repeat, [&] { return hw::host_fma_peak(opts->scale); }));
      for (const hw::BenchWorkload& w : hw::bench_workloads(cfg, opts->scale))
        for (bool timing_only : {false, true})
          results.push_back(hw::measure(opts->repeat, [&] { return hw::run_bench(cfg, w, timing_only); }));
      std::vector<CaseWorkload> cases = {{"run: README rmsnorm_linear 16x4096x1536", "rmsnorm_linear.yaml", {}}};
      if (opts->large)
        cases.push_back({"run: linear 2048x4096x4096", "linear_bf16.yaml", {"M=2048", "K=4096", "N=4096"}});
      std::vector<PhaseRow> phase_rows;
      for (const CaseWorkload& w : cases)
        for (bool timing_only : {false, true}) {
          std::vector<HostPhases> runs;
          results.push_back(hw::measure(opts->repeat, [&] {
            runs.emplace_back();
            return bench_case(w, src, path, opts->sets, timing_only, &runs.back());
          }));
          phase_rows.push_back(phase_medians(w.name, timing_only, runs));
        }
      // The README job as a user runs it: a fresh process each time.
      const size_t readme_rows = results.size() - cases.size() * 2;  // its full and timing rows
      for (bool timing_only : {false, true}) {
        const hw::BenchResult in_process = results[readme_rows + (timing_only ? 1 : 0)];
        phase_rows.emplace_back();
        results.push_back(bench_case_process(cases.front(), src, path, opts->sets, timing_only, opts->repeat, in_process,
                                             &phase_rows.back()));
      }
      std::cout << "config " << cfg.chip.name << " (" << path << "), " << cfg.chip.clusters << " clusters; "
                << "times: median of " << opts->repeat << " run(s), cpu = user + sys of all threads\n"
                << hw::bench_table(results) << phase_table(phase_rows);
      if (!opts->json.empty()) {
        nlohmann::json j = bench_json(results);
        for (const nlohmann::json& p : phases_json(phase_rows))
          for (nlohmann::json& r : j)
            if (r["workload"] == p["workload"] && r["timing_only"] == p["timing_only"])
              r["main_thread_phases"] = p["main_thread_phases"];
        write_file_atomic(opts->json, j.dump(2) + "\n");
      }
    } catch (const npu::Error& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace npu::cli
