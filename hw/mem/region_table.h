#pragma once
// Named GM regions (tensors of a case) with an optional cache-policy override each. The override
// replaces the DMA instruction's hint for every access to that region, so a case can flip one
// tensor to none_cacheable without editing the kernel. Region ids also key the per-tensor L2
// statistics. Id 0 means "no region".
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/types.h"

namespace npu::hw {

class RegionTable {
 public:
  static constexpr uint32_t kNone = 0;

  // Adds [base, base + bytes) named `name`; returns its id (1, 2, ...). Overlap with an existing
  // region, an empty range or a duplicate name throws npu::Error.
  uint32_t add(const std::string& name, uint64_t base, uint64_t bytes,
               std::optional<isa::CacheHint> override_hint = std::nullopt);
  void set_override(uint32_t id, std::optional<isa::CacheHint> hint);
  void set_override(const std::string& name, std::optional<isa::CacheHint> hint);

  uint32_t lookup(uint64_t addr) const;  // the region holding addr, or kNone
  // As lookup, and [*lo, *hi): the addresses around addr with the same answer (a DMA's lines
  // then look up once per region, not once per line).
  uint32_t lookup(uint64_t addr, uint64_t* lo, uint64_t* hi) const;
  uint32_t id_of(const std::string& name) const;  // throws if unknown
  isa::CacheHint effective(uint32_t id, isa::CacheHint dma_hint) const {
    return id != kNone && regions_[id - 1].override_hint ? *regions_[id - 1].override_hint : dma_hint;
  }
  // "" for kNone ("(none)" in dumps), the region's name otherwise.
  const std::string& name(uint32_t id) const;
  uint32_t size() const { return static_cast<uint32_t>(regions_.size()); }

 private:
  struct Region {
    std::string name;
    uint64_t base, bytes;
    std::optional<isa::CacheHint> override_hint;
  };
  std::vector<Region> regions_;      // id - 1
  std::vector<uint32_t> by_base_;    // ids sorted by base
};

}  // namespace npu::hw
