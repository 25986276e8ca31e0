#pragma once
// Counters of one unit (the scalar unit or a pipe) of a core, and what it is doing right now
// (for the deadlock / watchdog report). Plain integers bumped on the hot path; registered once in
// a StatGroup; derived figures (utilisation) are formulas evaluated at dump time.
//
// Cycles are whole core cycles. busy: time spent executing instructions (for a GM path including
// the memory part). Stall reasons:
//   flag_wait   wait_flag / cc_wait blocked (a pipe, or the scalar unit for SCALAR-side sync)
//   memory      a GM transfer ended after the path's own time (L2/HBM/link latency, contention)
//   queue_full  the scalar unit could not dispatch: the target pipe's queue was full
//   barrier     the scalar unit waited at `barrier` or at `end` for pipes to drain
#include <cstdint>
#include <string>

#include "hw/mem/stats.h"
#include "isa/sem/dispatched.h"

namespace npu::hw {

struct UnitCounters {
  uint64_t instructions = 0;
  uint64_t busy_cycles = 0;
  uint64_t stall_flag_wait = 0, stall_memory = 0, stall_queue_full = 0, stall_barrier = 0;
  uint64_t macs = 0;  // CUBE only: m * n * k of every mmad
};

// What a unit is doing, for reports.
enum class UnitWait : uint8_t {
  Idle,       // pipe: queue empty
  Busy,       // executing `cur` (a timed wait)
  Flag,       // wait_flag on `cur`
  CrossCore,  // cc_wait on `cur`
  QueueFull,  // scalar: `cur` waits for room in the queue of pipe `pipe`
  Barrier,    // scalar: barrier `cur` waits for pipes to drain
  Drain,      // scalar: `end`, waiting for every pipe to drain
  Ended,      // scalar: the core has ended
};

struct UnitStatus {
  UnitWait what = UnitWait::Idle;
  sem::DispatchedInstr cur;
  bool has_cur = false;
};

class UnitStats {
 public:
  // total_cycles: the launch's total, for the utilisation formula (read at dump time).
  UnitStats(const std::string& name, const uint64_t* total_cycles, bool cube);
  UnitCounters c;
  const StatGroup& group() const { return group_; }

 private:
  const uint64_t* total_;
  StatGroup group_;
};

}  // namespace npu::hw
