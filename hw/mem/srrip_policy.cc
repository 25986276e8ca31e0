#include "hw/mem/srrip_policy.h"

namespace npu::hw {

SrripPolicy::SrripPolicy(uint32_t sets, uint32_t ways)
    : ways_(ways), rrpv_(static_cast<size_t>(sets) * ways, kMaxRrpv) {}

void SrripPolicy::reset(uint32_t set, uint32_t way) { rrpv_[size_t(set) * ways_ + way] = kInsertRrpv; }
void SrripPolicy::touch(uint32_t set, uint32_t way) { rrpv_[size_t(set) * ways_ + way] = 0; }
void SrripPolicy::invalidate(uint32_t set, uint32_t way) { rrpv_[size_t(set) * ways_ + way] = kMaxRrpv; }

uint32_t SrripPolicy::victim(uint32_t set) {
  uint8_t* r = &rrpv_[size_t(set) * ways_];
  for (;;) {
    for (uint32_t w = 0; w < ways_; ++w)
      if (r[w] >= kMaxRrpv) return w;
    for (uint32_t w = 0; w < ways_; ++w) ++r[w];
  }
}

}  // namespace npu::hw
