#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {

// Generated from the implementation files' names: register_listed() calls each register_<stem>.
#define NPUSIM_REGISTRY ReplacementRegistry
#include "replacement_policies.inc"

ReplacementRegistry& replacement_policies() {
  static ReplacementRegistry registry("L2 replacement policy", register_listed);
  return registry;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, const PolicyShape& shape,
                                                           const ParamValues& params) {
  if (shape.sets == 0 || shape.ways == 0) throw Error("replacement policy needs at least one set and one way");
  return replacement_policies().make(name, shape, params);
}

}  // namespace npu::hw
