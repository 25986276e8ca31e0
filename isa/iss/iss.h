#pragma once
// The functional instruction-set simulator: runs every core of a launch on the shared
// semantics (isa/sem) with a deterministic schedule and no notion of time.
//
// Launch: block_dim clusters; each has its AIC if the program has an AIC section and
// aiv_per_cluster AIVs if it has an AIV section. Each core has a scalar unit and one
// unbounded in-order queue per pipe. Schedule: round-robin over cores (cluster order, AIC
// first, then AIVs) and, within a core, over its units (scalar, then pipes in isa::Pipe
// order); a unit that is not blocked executes exactly one instruction per visit.
// wait_flag / cc_wait block their pipe, barrier blocks the scalar unit until the named pipes
// have drained, `end` finishes the core once every pipe has drained. Dispatching an
// instruction into a pipe queue is the scalar unit's action for that visit.
// A round in which no unit progresses while some core has not ended is a deadlock: npu::Error
// with a report of every blocked unit (core, pipe, pc, instruction, what it waits for). More
// than sim.max_instructions instructions issued by the scalar units (IssStats::issued: every
// executed instruction once, dispatched or not) ends the run the same way, as a hang.
//
// The race checker (isa/check/race.h) is on by default (RaceMode::Error): a missing
// set_flag/wait_flag, barrier or cross-core flag between two conflicting accesses, or a flag
// left set at the end, ends the run with npu::Error; in Warn mode the findings are returned
// in IssStats::race_findings instead.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "isa/check/race.h"
#include "isa/machine.h"
#include "isa/program.h"
#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"
#include "isa/sem/gm.h"
#include "isa/sem/sync.h"

namespace npu::iss {

struct CoreStats {
  sem::CoreId id;
  // Instructions executed per pipe (index isa::Pipe). SCALAR counts the instructions the
  // scalar unit executed itself (ALU, branches, barrier, end, sync ops on SCALAR); a
  // dispatched instruction counts once, in its pipe.
  std::array<uint64_t, isa::kNumPipes> instrs{};
  uint64_t total() const;
};

struct IssStats {
  std::vector<CoreStats> cores;  // launch order
  uint64_t steps = 0;            // unit actions: instructions executed (any unit) + dispatches
  uint64_t issued = 0;           // instructions the scalar units moved past (the run limit's count)
  uint64_t rounds = 0;           // scheduler rounds
  std::vector<std::string> race_findings;  // RaceMode::Warn: the race checker's findings
};

class Iss {
 public:
  // params: kernel parameter values in program.params order. Throws npu::Error when the launch
  // is invalid (block_dim < 1, wrong parameter count, no code section).
  Iss(const isa::MachineDesc& machine, const isa::Program& program, sem::GlobalMemory& gm,
      std::vector<int64_t> params, int block_dim);
  ~Iss();

  void set_race_mode(check::RaceMode m) { race_mode_ = m; }      // default Error
  IssStats run();

  const sem::CoreState& core(int i) const;

 private:
  struct Core;
  bool step_scalar_unit(Core& c);
  bool step_pipe(Core& c, int pipe);
  bool run_sync(Core& c, const sem::DispatchedInstr& di);
  std::string blocked_report() const;

  const isa::MachineDesc machine_;
  const isa::Program& program_;
  sem::GlobalMemory& gm_;
  int block_dim_;
  std::vector<std::unique_ptr<Core>> cores_;
  std::unique_ptr<sem::CrossCoreHub> hub_;
  check::RaceMode race_mode_ = check::RaceMode::Error;
  std::unique_ptr<check::RaceChecker> race_;  // during run(), unless RaceMode::Off
  IssStats stats_;
};

}  // namespace npu::iss
