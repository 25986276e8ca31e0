// Least recently used: each line carries the value of a counter bumped on every insert or hit;
// the victim is the way with the smallest stamp (lowest way on a tie).
#include <vector>

#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {
namespace {

class LruPolicy final : public ReplacementPolicy {
 public:
  LruPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(static_cast<size_t>(sets) * ways, 0) {}
  std::string_view name() const override { return "lru"; }
  void reset(uint32_t set, uint32_t way, const L2Access&) override { stamp_[size_t(set) * ways_ + way] = ++clock_; }
  void touch(uint32_t set, uint32_t way, const L2Access&) override { stamp_[size_t(set) * ways_ + way] = ++clock_; }
  void invalidate(uint32_t set, uint32_t way) override { stamp_[size_t(set) * ways_ + way] = 0; }
  uint32_t victim(uint32_t set, const L2Access&) override {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    uint32_t best = 0;
    for (uint32_t w = 1; w < ways_; ++w)
      if (s[w] < s[best]) best = w;
    return best;
  }

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;  // sets * ways; 0 = invalid / oldest
};

}  // namespace

void register_lru_policy(ReplacementRegistry& r) {
  r.add({"lru", "least recently used (victim: the line hit or inserted longest ago)", {},
         [](const PolicyShape& s, const ParamValues&) { return std::make_unique<LruPolicy>(s.sets, s.ways); }});
}

}  // namespace npu::hw
