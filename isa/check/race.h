#pragma once
// The race (missing-synchronisation) checker, shared by the ISS and the SystemC model.
//
// Happens-before, vector-clock style: every (core, pipe) of the launch is a thread (the scalar
// unit is the thread of pipe SCALAR). Edges:
//   - program order within a pipe;
//   - dispatch: an instruction is ordered after everything its scalar unit had done (or
//     acquired) when it dispatched it;
//   - set_flag src,dst,id -> the wait_flag that consumes it (a flag fires once per wait);
//   - barrier: the scalar unit is ordered after every instruction of the drained pipes;
//   - cross-core flags: the k-th unit cc_wait takes from a core's counter `id` is ordered after
//     the sets that released the k-th unit into it (mode 0: every set of the group, mode 1: both
//     AIVs' sets, mode 2: the AIC's set, or every AIV set of the cluster towards the AIC);
//   - the end of the launch (nothing runs after it).
// Footprints are the semantics' own checked accesses (sem::Access, isa/sem/execute.h). Every
// local buffer of every core and GM have a shadow (isa/check/shadow.h); an access that is not
// ordered after a conflicting earlier one (write/write, write/read, read/write) is a race.
// At the end, flags left fired and cross-core counters left non-zero are reported too.
//
// Mode Error: the first race throws npu::Error (the run ends with exit status 2), as do
// leftovers at finish(). Mode Warn: findings are collected (up to kMaxFindings) and the run goes on.
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "isa/check/shadow.h"
#include "isa/program.h"
#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"
#include "isa/sem/execute.h"
#include "isa/sem/gm.h"
#include "isa/sem/sync.h"

namespace npu::check {

enum class RaceMode : uint8_t { Off, Warn, Error };
// "off", "warn", "error"; throws npu::Error for anything else.
RaceMode parse_race_mode(std::string_view s);
const char* race_mode_name(RaceMode m);

class RaceChecker : public sem::CrossCoreObserver {
 public:
  static constexpr size_t kMaxFindings = 50;

  // cores: every core of the launch; gm (optional) names the tensors in messages.
  RaceChecker(const isa::Program& program, const std::vector<sem::CoreId>& cores, RaceMode mode,
              const sem::GlobalMemory* gm = nullptr);

  // The scalar unit of `core` pushed di into the queue of di.pipe.
  void dispatched(const sem::CoreId& core, const sem::DispatchedInstr& di);
  // A sync op (set_flag, wait_flag, cc_set, cc_wait) completed on unit di.pipe (SCALAR: the
  // scalar unit). For cc_set: after CrossCoreHub::set (whose releases this observes).
  void synced(const sem::CoreId& core, const sem::DispatchedInstr& di);
  // A barrier of the scalar unit of `core` completed: the pipes `sel` have drained.
  void barrier(const sem::CoreId& core, isa::PipeSel sel);
  // The data effect of di (on pipe di.pipe) made these accesses (ExecContext::accesses).
  void executed(const sem::CoreId& core, const sem::DispatchedInstr& di, const std::vector<sem::Access>& accesses);
  // End of the launch: reports flags left fired and cross-core counters left non-zero.
  void finish(const std::vector<const sem::CoreState*>& cores, const sem::CrossCoreHub& hub);

  void cc_released(int mode, int id, const std::vector<sem::CoreId>& from,
                   const std::vector<sem::CoreId>& to) override;

  // Warn mode: every finding so far (races and leftovers), one message each.
  const std::vector<std::string>& findings() const { return findings_; }
  uint64_t races() const { return races_; }  // races seen (also beyond kMaxFindings)

 private:
  struct FlagInfo {
    Clock clock;            // of the last set_flag
    uint32_t sets = 0, waits = 0, last_set_pc = 0;
  };
  struct PipeThread {
    std::deque<std::shared_ptr<const Clock>> dispatched;  // snapshots of the scalar clock
    std::shared_ptr<const Clock> joined;                  // the last snapshot joined
  };

  int core_index(const sem::CoreId& c) const;
  uint32_t thread_of(int core, isa::Pipe p) const { return static_cast<uint32_t>(core * isa::kNumPipes + static_cast<int>(p)); }
  uint32_t begin(int core, isa::Pipe p);  // thread of (core, p), ordered after its dispatch
  void join(uint32_t thread, const Clock& c);
  void release(uint32_t thread);  // after publishing the thread's clock: a new epoch
  void changed_scalar(int core) { scalar_snapshot_[core].reset(); }
  void access(int core, uint32_t thread, const sem::DispatchedInstr& di, const sem::Access& a);
  void report(std::string message);
  std::string instr_text(uint32_t thread, uint32_t pc) const;
  std::string space_text(const sem::Access& a, uint64_t lo, uint64_t hi) const;

  const isa::Program& program_;
  std::vector<sem::CoreId> cores_;
  std::map<std::tuple<int, int, int>, int> index_;
  RaceMode mode_;
  const sem::GlobalMemory* gm_;

  std::vector<Clock> clocks_;                                // per thread
  std::vector<PipeThread> pipes_;                            // per thread
  std::vector<std::shared_ptr<const Clock>> scalar_snapshot_;  // per core (null: stale)
  std::vector<FlagInfo> flags_;                              // per core x sem::kNumFlags
  // Cross-core: clocks of the sets not yet released, per (core, mode, id); released units not
  // yet waited for, per (core, id); releases reported by the hub during the current cc_set.
  std::map<std::tuple<int, int, int>, std::deque<Clock>> cc_sets_;
  std::map<std::pair<int, int>, std::deque<Clock>> cc_units_;
  struct Release {
    int mode, id;
    std::vector<sem::CoreId> from, to;
  };
  std::vector<Release> pending_;

  Shadow gm_shadow_;
  std::vector<Shadow> local_;  // per core x sem::kNumBuffers
  std::vector<std::string> findings_;
  // Static pairs reported (core type, pipe, pc of both): one message per pair of instructions,
  // however many cores run them.
  std::set<std::tuple<int, int, uint32_t, int, int, uint32_t>> seen_;
  uint64_t races_ = 0;
};

}  // namespace npu::check
