#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {

// Generated from the implementation files' names: register_listed() calls each register_<stem>.
#define NPUSIM_REGISTRY SliceMappingRegistry
#include "slice_mappings.inc"

SliceMappingRegistry& slice_mappings() {
  static SliceMappingRegistry registry("interleave mapping", register_listed);
  return registry;
}

}  // namespace npu::hw
