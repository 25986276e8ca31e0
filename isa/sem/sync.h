#pragma once
// Synchronisation semantics (docs/machine.md section 3), shared by the ISS and the SystemC model.
//
// Local flags: set_flag src,dst,id is executed at the head of pipe src (every earlier src
// instruction has completed) and fires the flag; firing a flag that is already fired and not
// yet consumed is a fault ("set twice"). wait_flag src,dst,id at the head of pipe dst blocks
// until the flag has fired, then consumes it.
//
// Cross-core flags (ids 0..15, counting, one counter per core and id; Ascend C
// CrossCoreSetFlag / CrossCoreWaitFlag): cc_wait blocks while the core's counter is 0, then
// subtracts 1. cc_set (when it reaches the head of its pipe) contributes to a release group:
//   mode 0: group = every core of the setter's type in the launch; when every member has set
//           once, every member's counter gains 1 (a barrier over all AICs or all AIVs).
//   mode 1: group = the AIVs of the setter's cluster (AIV only); when both have set, both
//           counters gain 1.
//   mode 2: AIC <-> AIV of one cluster. An AIC set adds 1 to each AIV of its cluster; an AIV set
//           contributes to the cluster's AIV group, and once every AIV of the cluster has set,
//           the AIC's counter gains 1.
// Sets beyond one per member accumulate (a member may set twice before the others set once).
// Faults: mode 1 from an AIC, mode 2 in a launch without the other core type, mode > 2.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"

namespace npu::sem {

inline constexpr int kCrossCoreIds = 16;

// set_flag at the head of its src pipe. Fault if the flag is already fired.
void fire_flag(CoreState& core, const DispatchedInstr& di);
// wait_flag at the head of its dst pipe: true (and the flag consumed) if it has fired.
bool try_consume_flag(CoreState& core, const DispatchedInstr& di);
// "MTE2 -> VECTOR id 0"
std::string flag_name(isa::Pipe src, isa::Pipe dst, int id);

// The local flag a set_flag or wait_flag names (its src, dst and id operands).
struct FlagRef {
  isa::Pipe src, dst;
  int id;
};
FlagRef flag_ref(const DispatchedInstr& di);
// The cross-core flag id of a cc_set or cc_wait.
int cc_flag_id(const DispatchedInstr& di);

// Told of every release of cross-core flag units (the race checker, isa/check/race.h): one
// set of `mode` and `id` by each core of `from` (its oldest unreleased one) made the counter
// `id` of every core of `to` gain 1.
class CrossCoreObserver {
 public:
  virtual ~CrossCoreObserver() = default;
  virtual void cc_released(int mode, int id, const std::vector<CoreId>& from, const std::vector<CoreId>& to) = 0;
};

class CrossCoreHub {
 public:
  // The cores of a launch: `clusters` clusters, each with an AIC if has_aic and
  // aiv_per_cluster AIVs if has_aiv.
  CrossCoreHub(int clusters, bool has_aic, bool has_aiv, int aiv_per_cluster);

  // cc_set reached the head of its pipe on `core` (di: the cc_set). Faults as described above.
  void set(const CoreState& core, const DispatchedInstr& di);
  // cc_wait at the head of its pipe: true (counter decremented) if the counter was > 0.
  bool try_wait(const CoreState& core, const DispatchedInstr& di);

  int counter(const CoreId& core, int id) const;
  void set_observer(CrossCoreObserver* obs) { observer_ = obs; }
  // For deadlock reports: why `core` cannot pass cc_wait id, e.g.
  // "cross-core flag 3 is 0; pending mode 2 group of cluster0 AIVs: set by cluster0.aiv0, waiting for cluster0.aiv1".
  std::string explain_wait(const CoreId& core, int id) const;

 private:
  int index(const CoreId& c) const;  // -1 if the core is not in the launch
  std::vector<CoreId> members(int mode_group, const CoreId& setter) const;
  void contribute(int group_kind, const CoreId& setter, int id,
                  const std::vector<CoreId>& group, const std::vector<CoreId>& targets);

  int clusters_, aiv_per_cluster_;
  bool has_aic_, has_aiv_;
  std::vector<std::vector<int>> counters_;  // [core index][id]
  // Pending sets of a release group: key (group kind, cluster or -1, core type, id) ->
  // per-member count of sets not yet released, in group-member order.
  std::map<std::tuple<int, int, int, int>, std::vector<int>> pending_;
  CrossCoreObserver* observer_ = nullptr;
};

}  // namespace npu::sem
