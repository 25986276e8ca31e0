#pragma once
// The two ways `npusim run` executes a launch: the functional ISS (--iss; no time) and the
// SystemC model (cycles, pipes, L2, HBM). Both take GM already holding the inputs, with one
// region per tensor, and leave the results in it.
#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/top/sim_stats.h"
#include "hw/top/run.h"
#include "hw/top/trace_options.h"
#include "isa/check/race.h"
#include "isa/program.h"
#include "isa/sem/gm.h"

namespace npu::cli {

struct RegionSpec {
  std::string name;
  uint64_t base = 0, bytes = 0;
  std::optional<isa::CacheHint> cache;  // the case's override (the ISS ignores it)
};

struct SimRequest {
  const hw::HwConfig* hw = nullptr;
  const isa::Program* program = nullptr;
  sem::GlobalMemory* gm = nullptr;  // regions already registered, inputs written
  std::vector<int64_t> params;      // program.params order
  int block_dim = 1;
  std::vector<RegionSpec> regions;  // same tensors as gm->regions(), with cache overrides
  hw::TraceOptions trace;           // SystemC only: trace files and per-label statistics
  check::RaceMode race = check::RaceMode::Off;  // the race checker (isa/check/race.h)
  hw::L2Contents* l2_carry = nullptr;  // SystemC only: L2 contents carried between launches
  bool timing_only = false;         // SystemC only: no data effects (hw::RunOptions::timing_only)
  std::function<void(const hw::RunProgress&)> progress;  // SystemC only (hw::RunOptions)
  // A launch sequence (run_launches.h): called as launch k (1-based) of n starts.
  std::function<void(size_t k, size_t n)> launch_started;
  HostPhases* host_phases = nullptr;  // SystemC only (hw::RunOptions)
  bool keep_model_at_exit = false;    // SystemC only (hw::RunOptions): the process ends after this run
};

// One launch of a launch sequence (run_launches.h) and what it measured.
struct LaunchRecord {
  size_t launch = 0;  // position in the sequence
  size_t entry = 0;   // the case's `launches` entry it came from
  int repeat = 0;     // which repeat of that entry
  std::string kernel_path, kernel_name;
  int block_dim = 0;
  hw::SimStats sim;
};

// What a backend reports: its statistics as typed records (the ISS: instruction counts only).
struct SimOutcome {
  hw::SimStats stats;
  std::vector<std::string> race_findings;  // RaceMode::Warn
  std::vector<LaunchRecord> launches;  // a launch sequence (run_launches.h): one per launch; else empty
};

// Throws npu::Error for a kernel fault, deadlock or hang (with the simulator's report).
SimOutcome run_on_iss(const SimRequest& req);
// Throws npu::Error likewise, and when this build has no SystemC run API yet.
SimOutcome run_on_systemc(const SimRequest& req);

}  // namespace npu::cli
