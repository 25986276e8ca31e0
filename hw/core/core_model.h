#pragma once
// One AIC or AIV core: its architectural state (sem::CoreState), the bounded in-order queue of
// each pipe, the scalar unit and one PipeUnit per pipe of the core type (each an sc_module with
// one SC_THREAD), and the events that wake them:
//   changed_     a pipe took an instruction from its queue or retired one (room, drain)
//   flag_fired_  a set_flag fired on this core (wakes wait_flag)
//   the launch's cc_changed (wakes cc_wait)
// Pipes of the core types (docs/machine.md section 2):
//   AIC: SCALAR, MTE2 (GM->L1), MTE1 (L1->L0A/L0B, a5 L1->UB), CUBE, FIXP (L0C->GM, L1->FB)
//   AIV: SCALAR, MTE2 (GM->UB), VECTOR, MTE3 (UB->GM, a5 UB->L1)
// Queue depth = ScalarConfig::queue_depth[pipe]: instructions dispatched and not yet started
// (the one a pipe is executing has left its queue).
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/core/launch_state.h"
#include "hw/core/unit_stats.h"
#include "hw/mem/gm_port.h"
#include "isa/program.h"
#include "isa/sem/core_state.h"
#include "isa/sem/execute.h"

namespace npu::hw {

class ScalarUnit;
class PipeUnit;

class CoreModel : public sc_core::sc_module {
 public:
  // gm_ports[pipe]: the GmPort of each GM-facing pipe (AIC MTE2 and FIXP, AIV MTE2 and MTE3);
  // nullptr elsewhere. total_cycles is read by the utilisation formulas at dump time.
  CoreModel(sc_core::sc_module_name name, const sem::CoreId& id, LaunchState& launch,
            const isa::CodeSection& code, std::vector<int64_t> params,
            std::array<GmPort*, isa::kNumPipes> gm_ports, const uint64_t* total_cycles);
  ~CoreModel() override;

  LaunchState& launch;
  sem::CoreState state;
  const isa::CodeSection& code;
  sem::ExecContext exec;  // peers (a5 paths) are set by the chip top after construction
  std::vector<sem::Access> accesses;  // of the last data effect, when race checking (exec.accesses)

  bool has_pipe(isa::Pipe p) const { return isa::core_has_pipe(state.id.type, p); }

  // ---- pipe queues (used by the scalar unit and the pipes)
  struct Queue {
    std::deque<sem::DispatchedInstr> q;
    uint32_t depth = 1;
    bool busy = false;              // the pipe is executing an instruction
    uint64_t writes_acked = 0;      // tick the pipe's last posted GM write is acknowledged
    sc_core::sc_event work;         // something was pushed
    // Empty, idle and no posted write unacknowledged (a barrier or `end` waits for the writes).
    bool drained() const { return q.empty() && !busy && writes_acked <= CycleClock::now(); }
  };
  Queue& queue(isa::Pipe p) { return queues_[static_cast<int>(p)]; }
  const Queue& queue(isa::Pipe p) const { return queues_[static_cast<int>(p)]; }
  bool drained(isa::PipeSel sel) const;
  sc_core::sc_event& changed() { return changed_; }
  GmPort* gm_port(isa::Pipe p) const { return gm_ports_[static_cast<int>(p)]; }

  // Executes a sync instruction (set_flag, wait_flag, cc_set, cc_wait) on the calling unit,
  // blocking (with the stall counted as flag_wait) until it can complete, then spending
  // ScalarConfig::sync cycles. set_flag and cc_set first wait until the unit's posted GM writes
  // are acknowledged (counted as a memory stall), so whoever they release sees the data.
  // Call from the unit's SC_THREAD.
  void run_sync(const sem::DispatchedInstr& di, UnitCounters& c, UnitStatus& status);

  // ---- end of the core
  bool ended() const { return state.ended; }
  uint64_t end_tick = 0, end_cycle = 0;

  // ---- stats and reports
  const StatGroup& stats() const { return stats_; }
  UnitStats& unit_stats(isa::Pipe p) { return *unit_stats_[static_cast<int>(p)]; }
  const UnitStats* unit_stats_if(isa::Pipe p) const { return unit_stats_[static_cast<int>(p)].get(); }
  // Who waits on what: this core's units, one line each, without the core's name (ChipTop adds it).
  std::string blocked_report() const;
  // A pipe is executing a timed instruction (a transfer or a computation, not a blocked wait):
  // the core is progressing, however slowly, although nothing retires.
  bool pipe_executing() const;

 private:
  friend class ScalarUnit;
  friend class PipeUnit;
  std::array<Queue, isa::kNumPipes> queues_;
  std::array<GmPort*, isa::kNumPipes> gm_ports_;
  sc_core::sc_event changed_{"changed"}, flag_fired_{"flag_fired"};
  std::array<std::unique_ptr<UnitStats>, isa::kNumPipes> unit_stats_;
  std::array<UnitStatus, isa::kNumPipes> status_;
  std::unique_ptr<ScalarUnit> scalar_;
  std::vector<std::unique_ptr<PipeUnit>> pipes_;
  StatGroup stats_;
};

}  // namespace npu::hw
