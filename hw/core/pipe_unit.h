#pragma once
// One pipe of a core (MTE1, MTE2, MTE3, CUBE, VECTOR, FIXP): an SC_THREAD that executes its
// queue in order, one timed wait per instruction.
//
// Data instructions: duration from hw/core/timing.h. A GM path (mov_gm_ub, mov_gm_l1,
// mov_ub_gm, fix) starts its GmPort transfer `startup` cycles after the instruction starts,
// issuing line requests at the path's bytes_per_cycle; the instruction ends at
//   max(start + startup + ceil(bytes / bytes_per_cycle), last line's completion)
// rounded up to a cycle boundary; the excess over the first term is counted as the memory stall.
// The data effect (sem::execute) happens at the END of the instruction, so a set_flag behind it
// fires only after the data has landed; sources are read at that same moment. In timing-only
// mode it is skipped.
// Sync instructions: CoreModel::run_sync (set_flag fires when it reaches the head of the pipe,
// i.e. once every earlier instruction of the pipe has completed).
#include <systemc>

#include "hw/core/unit_stats.h"
#include "isa/types.h"

namespace npu::hw {

class CoreModel;

class PipeUnit : public sc_core::sc_module {
 public:
  PipeUnit(sc_core::sc_module_name name, CoreModel& core, isa::Pipe pipe);
  isa::Pipe pipe() const { return pipe_; }

 private:
  void run();
  void execute_data(const sem::DispatchedInstr& di, UnitCounters& c);

  CoreModel& core_;
  isa::Pipe pipe_;
};

}  // namespace npu::hw
