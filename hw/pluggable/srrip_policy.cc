// Static RRIP (Jaleel et al., "High Performance Cache Replacement Using Re-Reference Interval
// Prediction", ISCA 2010), hit-priority: each line has an rrpv_bits-bit re-reference prediction
// value; insert at insert_rrpv (the paper: 2^M - 2, "long", with M = 2), a hit sets 0, the victim
// is the lowest way at the largest RRPV; if none, every line of the set ages by one and the
// search repeats. Scan-resistant where LRU is not.
#include <string>
#include <vector>

#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {
namespace {

class SrripPolicy final : public ReplacementPolicy {
 public:
  SrripPolicy(uint32_t sets, uint32_t ways, uint8_t max_rrpv, uint8_t insert_rrpv)
      : ways_(ways), max_(max_rrpv), insert_(insert_rrpv), rrpv_(static_cast<size_t>(sets) * ways, max_rrpv) {}
  std::string_view name() const override { return "srrip"; }
  void reset(uint32_t set, uint32_t way, const L2Access&) override { rrpv_[size_t(set) * ways_ + way] = insert_; }
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

 private:
  uint32_t ways_;
  uint8_t max_, insert_;
  std::vector<uint8_t> rrpv_;
};

std::unique_ptr<ReplacementPolicy> make_srrip(const PolicyShape& s, const ParamValues& p) {
  const int bits = static_cast<int>(p.at("rrpv_bits"));
  const int max = (1 << bits) - 1;
  const int insert = static_cast<int>(p.at("insert_rrpv"));
  if (insert > max)
    throw Error("srrip: insert_rrpv " + std::to_string(insert) + " exceeds the largest RRPV " +
                std::to_string(max) + " of rrpv_bits " + std::to_string(bits));
  return std::make_unique<SrripPolicy>(s.sets, s.ways, static_cast<uint8_t>(max), static_cast<uint8_t>(insert));
}

}  // namespace

void register_srrip_policy(ReplacementRegistry& r) {
  r.add({"srrip", "static re-reference interval prediction, hit priority (scan-resistant)",
         {{"rrpv_bits", ParamSpec::Type::Int, 1, 7, 2,
           "Bits of each line's re-reference prediction value (Jaleel et al. 2010 use 2)."},
          {"insert_rrpv", ParamSpec::Type::Int, 0, 127, 2,
           "RRPV of an inserted line, at most 2^rrpv_bits - 1 (the paper: 2^rrpv_bits - 2)."}},
         make_srrip});
}

}  // namespace npu::hw
