#pragma once
// Simulator speed benchmarks (`npusim bench`): how fast the SystemC model runs on this host.
// Three workloads, each built as an isa::Program here (no assembler needed):
//   stream1   one AIV copies a GM array through UB (double-buffered MTE2 -> MTE3), the other
//             cores of the launch end at once
//   streamall every AIV of every cluster of the config copies its own array at once (contention)
//   mmad      one AIC runs a loop of mmad.bf16 128 x 128 x 128 (compute-bound)
// Each is run in full mode and in timing-only mode (hw::RunOptions::timing_only).
// Figures per run: simulated cycles, host seconds, simulated cycles / s, retired instructions / s,
// functional MACs / s (MACs of every mmad executed, 0 for the streaming workloads).
#include <cstdint>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/program.h"

namespace npu::hw {

struct BenchWorkload {
  std::string name;
  isa::Program program;
  std::vector<int64_t> params;
  int block_dim = 1;
  uint64_t gm_bytes = 0;  // GM the workload touches (inputs + outputs), for the GlobalMemory
};

struct BenchResult {
  std::string name;
  bool timing_only = false;
  uint64_t cycles = 0, instructions = 0, macs = 0;
  double host_seconds = 0;
  double cycles_per_second() const { return host_seconds > 0 ? double(cycles) / host_seconds : 0; }
  double instructions_per_second() const { return host_seconds > 0 ? double(instructions) / host_seconds : 0; }
  double macs_per_second() const { return host_seconds > 0 ? double(macs) / host_seconds : 0; }
};

// scale multiplies the work of every workload (1 = the default sizes).
std::vector<BenchWorkload> bench_workloads(const HwConfig& hw, int scale = 1);
BenchResult run_bench(const HwConfig& hw, const BenchWorkload& w, bool timing_only);
std::string bench_table(const std::vector<BenchResult>& results);

}  // namespace npu::hw
