#pragma once
// Static RRIP with 2-bit re-reference prediction values (Jaleel et al., ISCA 2010, hit-priority):
// insert at RRPV 2 ("long"), a hit sets 0, the victim is the lowest way with RRPV 3; if none,
// every line of the set ages by one and the search repeats. Scan-resistant where LRU is not.
#include <vector>

#include "hw/mem/replacement_policy.h"

namespace npu::hw {

class SrripPolicy final : public ReplacementPolicy {
 public:
  static constexpr uint8_t kMaxRrpv = 3, kInsertRrpv = 2;
  SrripPolicy(uint32_t sets, uint32_t ways);
  std::string_view name() const override { return "srrip"; }
  void reset(uint32_t set, uint32_t way) override;
  void touch(uint32_t set, uint32_t way) override;
  void invalidate(uint32_t set, uint32_t way) override;
  uint32_t victim(uint32_t set) override;
  uint8_t rrpv(uint32_t set, uint32_t way) const { return rrpv_[size_t(set) * ways_ + way]; }

 private:
  uint32_t ways_;
  std::vector<uint8_t> rrpv_;
};

}  // namespace npu::hw
