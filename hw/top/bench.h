#pragma once
// Simulator speed benchmarks (`npusim bench`): how fast the SystemC model runs on this host.
// Three workloads, each built as an isa::Program here (no assembler needed):
//   stream1   one AIV copies a GM array through UB (double-buffered MTE2 -> MTE3), the other
//             cores of the launch end at once
//   streamall every AIV of every cluster of the config copies its own array at once (contention)
//   mmad      one AIC runs a loop of mmad.bf16 128 x 128 x 128 (compute-bound)
// Each is run in full mode and in timing-only mode (hw::RunOptions::timing_only).
// Figures per run: simulated cycles, host seconds (wall and CPU), simulated cycles / s, retired
// instructions / s, GM line requests / s and functional MACs / s (MACs of every mmad executed,
// 0 for the streaming workloads). `npusim bench` adds whole `npusim run` jobs and writes the
// results as JSON (cli/lib/cmd_bench.cc).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/top/sim_stats.h"
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
  bool host_only = false;     // a measurement of the host alone (host_fma_peak), no simulation
  uint64_t cycles = 0, instructions = 0, macs = 0;
  uint64_t gm_lines = 0;      // line requests of every GM port (gm_lines_of)
  double host_seconds = 0;    // wall time (median over the repeats)
  double cpu_seconds = 0;     // user + sys of the process, every thread (median over the repeats)
  int repeats = 1;
  double per_second(uint64_t n) const { return host_seconds > 0 ? double(n) / host_seconds : 0; }
  double cycles_per_second() const { return per_second(cycles); }
  double instructions_per_second() const { return per_second(instructions); }
  double macs_per_second() const { return per_second(macs); }
  double lines_per_second() const { return per_second(gm_lines); }
};

// Process CPU time so far (user + sys, all threads), seconds.
double process_cpu_seconds();
// Line requests over every GM port of a run (the gm_ports group's "requests" counters).
uint64_t gm_lines_of(const SimStats& stats);
// Runs `once` (which fills everything but the times) `repeats` times and keeps the median wall
// and CPU seconds: the host is shared and noisy, the simulated figures are deterministic.
BenchResult measure(int repeats, const std::function<BenchResult()>& once);

// The host's fp32 FMA peak on one thread: 12 independent chains of vfmadd231ps (enough to cover
// the FMA latency on two pipes) on the widest registers the CPU has, 16-lane AVX-512 or 8-lane
// AVX2 + FMA (as the functional cube, unless NPUSIM_NO_SIMD is set), `scale` x 2^26 iterations,
// macs = the lane FMAs done (call only where host_fma_available: AVX2 + FMA). The yardstick for
// the functional cube's MACs/s (the mmad workload; issue 12: >= 50 % of this).
bool host_fma_available();
BenchResult host_fma_peak(int scale);

// scale multiplies the work of every workload (1 = the default sizes).
std::vector<BenchWorkload> bench_workloads(const HwConfig& hw, int scale = 1);
BenchResult run_bench(const HwConfig& hw, const BenchWorkload& w, bool timing_only);
std::string bench_table(const std::vector<BenchResult>& results);

}  // namespace npu::hw
