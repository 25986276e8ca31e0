#pragma once
// The one interface through which the SystemC model reports what it executes, for waveforms,
// instruction timelines, per-instruction CSV and per-label statistics (hw/top/trace_session.h).
// Tracing is an observer (STYLE.md point 9): the model holds a TraceObserver* in its
// LaunchState and tests it with one branch per instruction; nullptr (the default) means off, and
// nothing else of tracing runs.
//
// Header-only and free of SystemC: the layer that calls it (hw/core) owns it, and hw/top implements it.
//
// Contract of on_instr: called once per instruction per unit that spends cycles on it, at a
// simulation time no later than start * period, except for a GM path, whose record comes once
// its transfer is issued (GmPort::issue may wait, mte.quantum_cycles): that pipe calls
// before_gm_issue at the instruction's start, which holds the observer's time-ordered outputs
// until the record arrives. The stall precedes `start` (flag / cross-core wait, queue full,
// barrier: [start - stall, start)) except for Memory, which lies inside [start, end).
#include <cstdint>

#include "isa/isa.h"
#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"

namespace npu::hw {

enum class StallReason : uint8_t { None, FlagWait, CrossCore, Memory, QueueFull, Barrier };

inline const char* stall_reason_name(StallReason r) {
  switch (r) {
    case StallReason::None: return "";
    case StallReason::FlagWait: return "flag_wait";
    case StallReason::CrossCore: return "cross_core";
    case StallReason::Memory: return "memory";
    case StallReason::QueueFull: return "queue_full";
    case StallReason::Barrier: return "barrier";
  }
  return "";
}

// One unit's share of one instruction. Cycles are absolute core cycles; [start, end) is the
// time the unit is busy with it (its busy_cycles in the statistics), end >= start.
struct InstrRecord {
  const sem::CoreId* core = nullptr;
  isa::Pipe unit = isa::Pipe::Scalar;           // who spent the cycles (SCALAR or a pipe)
  uint32_t pc = 0;
  const isa::Instr* in = nullptr;               // always set
  const sem::DispatchedInstr* di = nullptr;     // pipe and sync instructions, and dispatches
  bool dispatch = false;                        // SCALAR pushing di into the queue of di->pipe;
                                                // the instruction enters the queue at `end`
  uint64_t start = 0, end = 0;
  uint64_t stall = 0;
  StallReason reason = StallReason::None;
  // GM paths: the transfer's first issue and last completion (cycles, rounded up); has_gm false
  // for everything else. Its L2 / HBM traffic is what happened between before_gm_issue() and
  // this call.
  bool has_gm = false;
  uint64_t gm_start = 0, gm_end = 0;
};

class TraceObserver {
 public:
  virtual ~TraceObserver() = default;
  // Pipe `pipe` of `core` starts a GM transfer now; its on_instr (has_gm) follows once the
  // transfer is issued. The memory counters that move in between belong to it (shared evenly
  // with the other transfers being issued at the same time, if any).
  virtual void before_gm_issue(const sem::CoreId& core, isa::Pipe pipe) = 0;
  virtual void on_instr(const InstrRecord& r) = 0;
};

}  // namespace npu::hw
