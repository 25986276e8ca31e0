#pragma once
// Run a kernel launch on the SystemC model.
//
//   sem::GlobalMemory gm(cfg.hbm.size);   // inputs written, tensors registered as regions
//   hw::RunResult r = hw::run_systemc(cfg, program, gm, params, block_dim);
//   r.total_cycles, r.stats (typed records, hw/top/sim_stats.h)
//
// Each call builds a fresh SystemC context (hw/mem/sim_kernel.h), elaborates the chip
// (hw/top/chip_top.h), runs until every core has executed `end`, and tears it down. GM contents
// after the run are bit-identical to the functional ISS (isa/iss) for a correctly synchronised
// kernel, because both execute the same semantics (isa/sem).
//
// Deterministic: the same inputs give bit-identical GM contents and statistics.
//
// Errors (npu::Error, nothing aborts):
//   kernel fault   the semantics' text: core, PC, instruction, address
//   deadlock       "deadlock at cycle N: ..." when nothing is left to happen (the event queue is
//                  empty) while some core has not ended, with a report of who waits on what
//   watchdog       "watchdog: no instruction retired for W cycles ..." (W = sim.watchdog_cycles;
//                  "retired" = a pipe instruction completed, an instruction was dispatched, or a
//                  core ended; a scalar-only loop does not count as progress, a pipe executing
//                  an instruction does: a slow transfer is not a hang), same report
//   run limit      "run limit: the run needs more than sim.max_instructions = N instructions ..."
//                  or "... sim.max_cycles = N cycles ..." (isa/run_limits.h), with a report
//                  of where each core was: ends loops that keep retiring pipe work
//   bad launch     block_dim outside 1..clusters, wrong parameter count, no code section
//
// timing_only: skip the data effects (sem::execute): no GM or local-buffer contents change and no
// out-of-bounds checks happen, but scalar semantics and synchronisation run as usual, so cycles
// are identical to a full run. Control flow never depends on GM data in this ISA (the scalar unit
// cannot read GM or local buffers), so every kernel is supported; a kernel whose *timing* would
// depend on data (none today) would not be.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/host_phases.h"
#include "hw/config/hw_config.h"
#include "hw/mem/l2_tags.h"
#include "hw/top/sim_stats.h"
#include "hw/top/trace_options.h"
#include "isa/check/race.h"
#include "isa/program.h"
#include "isa/sem/gm.h"

namespace npu::hw {

// What the L2 holds between the launches of a sequence (slice by slice: tags, dirty bits and
// replacement state). Empty before the first launch.
struct L2Contents {
  std::vector<L2Tags> slices;
};

// How far a run has got (RunOptions::progress): the simulated cycle, the instructions issued so
// far, and how many of the launch's cores have executed `end`.
struct RunProgress {
  uint64_t cycle = 0, instructions = 0;
  int cores_ended = 0, cores_total = 0;
};

struct RunOptions {
  bool timing_only = false;
  // Multi-launch (warm L2): when set, a non-empty carry replaces the L2's initial contents (and
  // l2.warm's preload), and the L2's final contents are left in it. Same config every launch.
  L2Contents* l2_carry = nullptr;
  // Per-tensor cache policy: GM region name -> hint replacing the DMA's (docs/machine.md section 5).
  std::map<std::string, isa::CacheHint> cache_policy;
  // With l2.warm: the regions to preload into L2 before the run (empty = every region).
  std::vector<std::string> warm_regions;
  // Waveform / timeline / CSV files and per-label statistics (hw/top/trace_session.h). With
  // nothing requested (the default) the model runs without an observer. The files are written
  // also when the run ends in a fault or deadlock; label statistics go into stats["labels"]
  // (SimStats::labels).
  TraceOptions trace;
  // The race checker (isa/check/race.h): off by default on the model (it costs time); Error
  // ends the run at the first race or leftover flag, Warn returns them in race_findings. Not
  // with timing_only (there are no data effects to check).
  check::RaceMode race = check::RaceMode::Off;
  // Called between slices of at most kProgressSliceCycles simulated cycles, and once at the end,
  // with how far the run has got (the CLI's progress line). Slicing the run changes no result:
  // the simulation only pauses and goes on.
  std::function<void(const RunProgress&)> progress;
  // Host time per phase (elaboration, simulation, statistics, teardown): `npusim bench`.
  HostPhases* host_phases = nullptr;
  // Leave the elaborated model (modules, coroutines, local buffers, the SystemC context) for the
  // process's end to free instead of tearing it down: for the last simulation of a process about
  // to exit (`npusim run` of one launch), where the teardown was ~9 ms of the README job's ~0.1 s.
  // Kept reachable from a static list, so leak checkers do not report it. Another run_systemc in
  // the same process still works (it makes a new context), but each kept model stays in memory.
  bool keep_model_at_exit = false;
};
inline constexpr uint64_t kProgressSliceCycles = 100000;

struct RunResult {
  uint64_t total_cycles = 0;   // cycle at which the last core ended (= *stats.total_cycles)
  SimStats stats;              // everything measured (instructions(), macs(), time_us(), ...)
  std::vector<std::string> race_findings;  // RunOptions::race == Warn
};

RunResult run_systemc(const HwConfig& hw, const isa::Program& program, sem::GlobalMemory& gm,
                      const std::vector<int64_t>& params, int block_dim, const RunOptions& opt = {});

}  // namespace npu::hw
