// Lines interleaved round-robin: line n lives in slice n % slices.
#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {
namespace {

class ModuloMapping final : public SliceMapping {
 public:
  explicit ModuloMapping(uint32_t slices) : slices_(slices) {}
  uint32_t slice_of(uint64_t line) const override { return static_cast<uint32_t>(line % slices_); }
  uint64_t line_of(uint32_t slice, uint64_t block) const override { return block * slices_ + slice; }

 private:
  uint32_t slices_;
};

}  // namespace

void register_modulo_mapping(SliceMappingRegistry& r) {
  r.add({"modulo", "line n in slice n % l2.slices (round-robin interleave)", {},
         [](const SliceShape& s, const ParamValues&) { return std::make_unique<ModuloMapping>(s.slices); }});
}

}  // namespace npu::hw
