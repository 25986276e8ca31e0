#pragma once
// What one `npusim run` produced, as typed records: the simulator's statistics (hw::SimStats,
// from either backend), the roofline figures derived from them, the numerics verdict of every
// output, and what was run. The report (run_report.h) and stats.json (run_stats_json.h, the only
// place JSON is made; docs/stats.md) are both written from it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/lib/run_backend.h"
#include "hw/top/sim_stats.h"
#include "isa/types.h"
#include "golden/compare.h"
#include "golden/tensor.h"

namespace npu::cli {

// stats.json's layout version (docs/stats.md): raised when a field changes meaning or goes away.
inline constexpr int kStatsSchemaVersion = 2;

// Exit status of `npusim run` (README "What a run gives you"): every compared output passed; some
// compared output failed; bad input / kernel fault / hang; nothing was compared (no output has
// a golden), so the run says nothing about correctness.
inline constexpr int kExitPass = 0, kExitCompareFail = 1, kExitBadInput = 2, kExitNotChecked = 3;

enum class Verdict { Pass, Fail, NotChecked };
const char* verdict_name(Verdict v);  // "PASS", "FAIL", "NOT CHECKED"
int verdict_exit_code(Verdict v);     // kExitPass, kExitCompareFail, kExitNotChecked

enum class Backend { Iss, SystemC };
const char* backend_name(Backend b);  // "iss", "systemc"

struct RunInfo {
  std::string case_path, kernel_path, kernel_name, description;
  std::string config_path;                  // the hardware config used
  std::vector<std::string> config_overrides;  // --set KEY=VALUE, in order
  std::vector<std::string> var_overrides;     // --var NAME=VALUE
  std::vector<std::string> cache_overrides;   // --cache TENSOR=POLICY
  std::string command_line;                   // how npusim was started ("" when not from the CLI)
  Backend backend = Backend::SystemC;
  std::string race_check;  // "error", "warn", "off"
  int block_dim = 1;
};

struct TensorRecord {
  std::string name;
  isa::Dtype dtype = isa::Dtype::F32;
  std::vector<int64_t> shape;
  std::string role;  // "input", "output", "workspace"
  uint64_t base = 0, bytes = 0;  // GM placement
  std::optional<isa::CacheHint> cache;  // the case's (or --cache) policy; none = the kernel's hints
  std::string init;  // inputs (and non-zero initial contents): how they were made; else ""
};

// A unit's share of its roofline over the run (busiest core's busy / total cycles for a pipe).
struct UnitUse {
  std::string unit;  // "CUBE (aic)", "MTE2 (aiv)", "HBM", "L2"
  double utilization = 0;
};

enum class FlopsSource { None, Case, CubeMacs };

struct Roofline {
  double peak_tflops = 0;  // chip bf16 peak = 2 * clusters * m0 * n0 * k0_b16 * clock
  std::optional<double> flops;  // the case's `flops`, else 2 * the CUBE pipes' MACs
  FlopsSource flops_source = FlopsSource::None;
  std::optional<double> achieved_tflops, fraction_of_peak;  // timed runs with flops
  std::vector<UnitUse> units;  // timed runs, highest utilisation first
  const UnitUse* bound() const { return units.empty() ? nullptr : &units.front(); }
};

struct OutputVerdict {
  std::string tensor;
  std::string golden_output;  // "" when no golden output is bound to it
  bool compared = false;
  golden::CompareResult result;
};

struct RunResult {
  int exit_code = kExitPass;  // verdict_exit_code(verdict())
  RunInfo info;
  double hbm_peak_gbps = 0;  // the config's hbm.bandwidth_gbps
  hw::SimStats sim;          // what the backend measured (a launch sequence: its totals)
  std::vector<LaunchRecord> launches;  // a launch sequence: each launch's own figures; else empty
  bool l2_cold_between_launches = false;
  Roofline roofline;
  std::vector<TensorRecord> tensors;     // case order
  std::vector<OutputVerdict> verdicts;   // output tensors, case order
  std::map<std::string, golden::Tensor> outputs;     // final contents of the output tensors
  std::map<std::string, golden::Tensor> references;  // the golden of each compared output tensor
  std::map<std::string, golden::Tensor> inputs;      // initial contents (case_data.h has_initial_contents)
  std::vector<std::string> warnings;  // --race warn: the race checker's findings

  Verdict verdict() const;  // NotChecked when no output was compared, else Pass / Fail
  bool all_pass() const;    // verdict() == Pass
  int compared() const;   // outputs with a golden
  int passed() const;
};

}  // namespace npu::cli
