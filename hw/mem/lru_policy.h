#pragma once
// Least recently used: each line carries the value of a counter bumped on every insert or hit;
// the victim is the way with the smallest stamp (lowest way on a tie).
#include <vector>

#include "hw/mem/replacement_policy.h"

namespace npu::hw {

class LruPolicy final : public ReplacementPolicy {
 public:
  LruPolicy(uint32_t sets, uint32_t ways);
  std::string_view name() const override { return "lru"; }
  void reset(uint32_t set, uint32_t way) override;
  void touch(uint32_t set, uint32_t way) override;
  void invalidate(uint32_t set, uint32_t way) override;
  uint32_t victim(uint32_t set) override;

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;  // sets * ways; 0 = invalid / oldest
};

}  // namespace npu::hw
