// Round-robin interleave: unit n goes to target n % targets (every row in column order).
#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {
namespace {

class ModuloMapping final : public SliceMapping {
 public:
  uint32_t slice_of(uint32_t column, uint64_t) const override { return column; }
  uint32_t column_of(uint32_t slice, uint64_t) const override { return slice; }
};

}  // namespace

void register_modulo_mapping(SliceMappingRegistry& r) {
  r.add({"modulo", "unit n on target n % targets (round-robin interleave)", {},
         [](const SliceShape&, const ParamValues&) { return std::make_unique<ModuloMapping>(); }});
}

}  // namespace npu::hw
