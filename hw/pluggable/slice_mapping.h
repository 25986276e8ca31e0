#pragma once
// Which target (L2 slice, HBM channel) serves a unit of the address space (an L2 line, an HBM
// interleave chunk), and the registry of these interleave mappings. The caller cuts the units
// into rows of `targets` consecutive columns; a mapping permutes the columns of each row:
// slice_of(column, row) must be a permutation of [0, targets) for every row, and column_of its
// inverse. modulo is the identity (unit n -> n % targets); a hash mixes higher bits of the row
// into the choice, so strides that are multiples of a row no longer land on one target.
// L2Geometry (hw/mem/mem_types.h) and Hbm::channel_of are the two callers.
//
// Adding a mapping is one file, hw/pluggable/<name>_mapping.cc, defining
//   void register_<name>_mapping(SliceMappingRegistry& r)
// (like a replacement policy; see replacement_policy.h). Its parameters become the optional
// config keys l2.slice_mapping_params.<name>.<param> and hbm.channel_mapping_params.<name>.<param>.
#include <cstdint>

#include "base/registry.h"

namespace npu::hw {

class SliceMapping {
 public:
  virtual ~SliceMapping() = default;
  // The target of column `column` (< targets) of row `row`.
  virtual uint32_t slice_of(uint32_t column, uint64_t row) const = 0;
  // The inverse: the column of `row` that lands on `slice`.
  virtual uint32_t column_of(uint32_t slice, uint64_t row) const = 0;
};

struct SliceShape {
  uint32_t slices = 1;  // targets: L2 slices or HBM channels
};

using SliceMappingRegistry = Registry<SliceMapping, SliceShape>;

// Every registered mapping, in file-name order.
SliceMappingRegistry& slice_mappings();

}  // namespace npu::hw
