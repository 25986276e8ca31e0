#pragma once
// What every core of one launch shares: the configuration, the clock, global memory, the
// cross-core flag hub (with the event that wakes cc_wait), the first fault, and the progress
// marks the run loop's watchdog reads. Created inside the launch's SimContext (it owns an
// sc_event), before the cores.
#include <cstdint>
#include <optional>
#include <string>

#include <systemc>

#include "hw/config/hw_config.h"
#include "hw/mem/cycle_clock.h"
#include "isa/sem/gm.h"
#include "isa/sem/sync.h"

namespace npu::hw {

class TraceObserver;  // hw/core/trace_observer.h
}  // namespace npu::hw
namespace npu::check {
class RaceChecker;  // isa/check/race.h
}  // namespace npu::check
namespace npu::hw {

class LaunchState {
 public:
  LaunchState(const HwConfig& hw, sem::GlobalMemory& gm, int block_dim, bool has_aic, bool has_aiv,
              bool timing_only)
      : hw(hw), clock(CycleClock::from_ghz(hw.chip.clock_ghz)), gm(gm), block_dim(block_dim),
        timing_only(timing_only), hub(block_dim, has_aic, has_aiv, hw.chip.aiv_per_cluster) {}

  const HwConfig& hw;
  const CycleClock clock;
  sem::GlobalMemory& gm;
  const int block_dim;
  // Skip the data effects (sem::execute): scalar semantics and synchronisation still run, so
  // control flow must not depend on GM data (it never can: GM is not readable by the scalar unit).
  const bool timing_only;

  sem::CrossCoreHub hub;
  sc_core::sc_event cc_changed{"cc_changed"};  // a cc_set happened somewhere

  // The first fault pauses the simulation (sc_pause: sc_start returns at the end of this delta
  // cycle, quietly); the run API then rethrows it as npu::Error and tears the model down, with
  // the report of where each core was when with_report (a run limit, not a located fault).
  void fail(const std::string& message, bool with_report = false) {
    if (error) return;
    error = message;
    error_wants_report = with_report;
    sc_core::sc_pause();
  }
  std::optional<std::string> error;
  bool error_wants_report = false;

  // Watchdog: something retired (a pipe instruction, a dispatch, the end of a core).
  void progress() { last_progress = CycleClock::now(); }
  uint64_t last_progress = 0;  // ticks

  // Run limit sim.max_instructions: instructions the scalar units moved past, every core.
  uint64_t issued = 0;

  // Tracing (hw/core/trace_observer.h): nullptr = off; each unit tests it once per instruction.
  TraceObserver* observer = nullptr;
  // Race checking (isa/check/race.h): nullptr = off; fed at dispatch, sync, barrier and data effects.
  check::RaceChecker* race = nullptr;

  int cores_total = 0, cores_ended = 0;
  uint64_t end_tick = 0;  // latest core end

  // Whole cycles -> ticks, and ticks rounded up to the next cycle boundary.
  uint64_t ticks(uint64_t cycles) const { return cycles * clock.period; }
  uint64_t ceil_cycle(uint64_t t) const { return (t + clock.period - 1) / clock.period * clock.period; }
};

}  // namespace npu::hw
