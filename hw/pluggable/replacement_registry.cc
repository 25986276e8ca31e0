#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {

// replacement_policies.inc is generated from hw/pluggable/*_policy.cc: NPUSIM_REGISTER(lru_policy) ...
#define NPUSIM_REGISTER(stem) void register_##stem(ReplacementRegistry&);
#include "replacement_policies.inc"
#undef NPUSIM_REGISTER

ReplacementRegistry& replacement_policies() {
  static ReplacementRegistry registry = [] {
    ReplacementRegistry r("L2 replacement policy");
#define NPUSIM_REGISTER(stem) register_##stem(r);
#include "replacement_policies.inc"
#undef NPUSIM_REGISTER
    return r;
  }();
  return registry;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, const PolicyShape& shape,
                                                           const ParamValues& params) {
  if (shape.sets == 0 || shape.ways == 0) throw Error("replacement policy needs at least one set and one way");
  return replacement_policies().make(name, shape, params);
}

}  // namespace npu::hw
