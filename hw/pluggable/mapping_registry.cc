#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {

// slice_mappings.inc is generated from hw/pluggable/*_mapping.cc: NPUSIM_REGISTER(modulo_mapping) ...
#define NPUSIM_REGISTER(stem) void register_##stem(SliceMappingRegistry&);
#include "slice_mappings.inc"
#undef NPUSIM_REGISTER

SliceMappingRegistry& slice_mappings() {
  static SliceMappingRegistry registry = [] {
    SliceMappingRegistry r("L2 slice mapping");
#define NPUSIM_REGISTER(stem) register_##stem(r);
#include "slice_mappings.inc"
#undef NPUSIM_REGISTER
    return r;
  }();
  return registry;
}

}  // namespace npu::hw
