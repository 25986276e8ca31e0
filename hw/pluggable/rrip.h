#pragma once
// Re-reference interval prediction (Jaleel et al., "High Performance Cache Replacement Using
// Re-Reference Interval Prediction", ISCA 2010), hit priority, shared by the RRIP-family
// policies (srrip_policy.cc, pacman_policy.cc): each line has an rrpv_bits-bit re-reference
// prediction value; a hit sets 0; the victim is the lowest way at the largest RRPV, and if none
// is there every line of the set ages by one and the search repeats. A policy of the family
// says only at which RRPV a line is inserted.
#include <string>
#include <vector>

#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {

class RripPolicy : public ReplacementPolicy {
 public:
  RripPolicy(uint32_t sets, uint32_t ways, uint8_t max_rrpv)
      : ways_(ways), max_(max_rrpv), rrpv_(static_cast<size_t>(sets) * ways, max_rrpv) {}
  void reset(uint32_t set, uint32_t way, const L2Access& a) override { rrpv_[size_t(set) * ways_ + way] = insertion(a); }
  void touch(uint32_t set, uint32_t way, const L2Access&) override { rrpv_[size_t(set) * ways_ + way] = 0; }
  void invalidate(uint32_t set, uint32_t way) override { rrpv_[size_t(set) * ways_ + way] = max_; }
  uint32_t victim(uint32_t set, const L2Access&) override {
    uint8_t* r = &rrpv_[size_t(set) * ways_];
    for (;;) {
      for (uint32_t w = 0; w < ways_; ++w)
        if (r[w] >= max_) return w;
      for (uint32_t w = 0; w < ways_; ++w) ++r[w];
    }
  }
  uint8_t rrpv(uint32_t set, uint32_t way) const { return rrpv_[size_t(set) * ways_ + way]; }

 protected:
  virtual uint8_t insertion(const L2Access& a) const = 0;
  uint8_t max_rrpv() const { return max_; }

 private:
  uint32_t ways_;
  uint8_t max_;
  std::vector<uint8_t> rrpv_;
};

// The largest RRPV of rrpv_bits bits.
inline uint8_t rrip_max(int bits) { return static_cast<uint8_t>((1 << bits) - 1); }
// An insertion RRPV `value` of parameter `param`; throws npu::Error naming the policy and the
// parameter when it exceeds the largest RRPV (the loader blames the parameter's key).
inline uint8_t rrip_checked(const std::string& policy, const std::string& param, int value, int bits) {
  const int max = rrip_max(bits);
  if (value > max)
    throw Error(policy + ": " + param + " " + std::to_string(value) + " exceeds the largest RRPV " +
                std::to_string(max) + " of rrpv_bits " + std::to_string(bits));
  return static_cast<uint8_t>(value);
}

}  // namespace npu::hw
