#include "hw/mem/lru_policy.h"

namespace npu::hw {

LruPolicy::LruPolicy(uint32_t sets, uint32_t ways)
    : ways_(ways), stamp_(static_cast<size_t>(sets) * ways, 0) {}

void LruPolicy::reset(uint32_t set, uint32_t way) { stamp_[size_t(set) * ways_ + way] = ++clock_; }
void LruPolicy::touch(uint32_t set, uint32_t way) { stamp_[size_t(set) * ways_ + way] = ++clock_; }
void LruPolicy::invalidate(uint32_t set, uint32_t way) { stamp_[size_t(set) * ways_ + way] = 0; }

uint32_t LruPolicy::victim(uint32_t set) {
  const uint64_t* s = &stamp_[size_t(set) * ways_];
  uint32_t best = 0;
  for (uint32_t w = 1; w < ways_; ++w)
    if (s[w] < s[best]) best = w;
  return best;
}

}  // namespace npu::hw
