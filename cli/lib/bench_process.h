#pragma once
// `npusim bench` times the README job as a whole process as well as in its own process: a fresh
// process pays what a user's `npusim run` pays and a repeat in one process does not (loading,
// first touch of every page of the heap, GM, local buffers; docs/performance.md). It spawns
// `npusim run CASE -q` with two variables set; the child records its main thread's phases and
// writes them to the named file, the first phase "process start" (from the spawn, the parent's
// steady-clock time in NPUSIM_BENCH_SPAWN_NS, to the run command).
#include <memory>
#include <string>
#include <vector>

#include "base/host_phases.h"

namespace npu::cli {

inline constexpr const char* kBenchPhasesFileEnv = "NPUSIM_BENCH_PHASES_FILE";
inline constexpr const char* kBenchSpawnEnv = "NPUSIM_BENCH_SPAWN_NS";

// In the child (`npusim run`): a recorder with the "process start" phase when the bench asked
// for one, else null.
std::unique_ptr<HostPhases> bench_child_phases();
// Writes p (finished) to the bench's file: one "name<TAB>wall seconds<TAB>cpu seconds" line each.
void write_bench_child_phases(HostPhases& p);

struct ProcessRun {
  double wall_s = 0, cpu_s = 0;  // the child's whole life; its user + sys (every thread)
  int exit_code = 0;
  std::vector<HostPhases::Phase> phases;  // as the child wrote them
};
// Runs this executable with `args` (after argv[0]) and the two variables; throws npu::Error when
// it cannot be started or ends by a signal.
ProcessRun run_bench_child(const std::vector<std::string>& args);

}  // namespace npu::cli
