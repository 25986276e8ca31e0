#pragma once
// Which L2 slice holds a line (address -> slice), and the registry of mappings. A mapping must
// send the `slices` consecutive lines of every aligned group to distinct slices (a permutation
// per group, as a modulo or an XOR hash of higher line bits does), so that line / slices stays a
// unique slice-local block number and (slice, block) gives the line back for write-backs.
//
// Adding a mapping is one file, hw/pluggable/<name>_mapping.cc, defining
//   void register_<name>_mapping(SliceMappingRegistry& r)
// (like a replacement policy; see replacement_policy.h). Its parameters become the optional
// config keys l2.slice_mapping_params.<name>.<param>.
#include <cstdint>

#include "base/registry.h"

namespace npu::hw {

class SliceMapping {
 public:
  virtual ~SliceMapping() = default;
  virtual uint32_t slice_of(uint64_t line) const = 0;
  // The inverse: the line held by `slice` as slice-local block `block` (= line / slices).
  virtual uint64_t line_of(uint32_t slice, uint64_t block) const = 0;
};

struct SliceShape {
  uint32_t slices = 1;
};

using SliceMappingRegistry = Registry<SliceMapping, SliceShape>;

// Every registered mapping, in file-name order.
SliceMappingRegistry& slice_mappings();

}  // namespace npu::hw
