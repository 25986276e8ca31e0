#pragma once
// The two ways `npusim run` executes a launch: the functional ISS (--iss; no time) and the
// SystemC model (cycles, pipes, L2, HBM). Both take GM already holding the inputs, with one
// region per tensor, and leave the results in it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/config/hw_config.h"
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
  bool timing_only = false;         // SystemC only: no data effects (hw::RunOptions::timing_only)
};

// What a backend reports. Timed runs fill total_cycles; every JSON part is copied into
// stats.json under the same key (null when the backend has nothing to say).
struct SimOutcome {
  std::string mode;                     // "iss" or "systemc"
  std::optional<uint64_t> total_cycles;
  nlohmann::json cores = nlohmann::json::array();
  // Per core: {"name": "cluster0.aic", "type": "aic", "pipes": {"MTE2": {"instructions": n,
  //   "busy_cycles": c, "utilization": u, ...}, ...}}; untimed runs give instructions only.
  nlohmann::json l2;      // {"hit_rate", "read_hits", ..., "bypass_reads", "bypass_writes", "regions": {...}}
  nlohmann::json hbm;     // {"bytes_read", "bytes_written", "gbps", "bytes_per_cycle", ...}
  nlohmann::json extra;   // other top-level stats.json keys (noc, gm_ports, iss, ...)
  std::vector<std::string> race_findings;  // RaceMode::Warn
};

// Throws npu::Error for a kernel fault, deadlock or hang (with the simulator's report).
SimOutcome run_on_iss(const SimRequest& req);
// Throws npu::Error likewise, and when this build has no SystemC run API yet.
SimOutcome run_on_systemc(const SimRequest& req);

}  // namespace npu::cli
