// Random replacement from a seeded std::mt19937_64 (its output sequence is fixed by the C++
// standard), reduced with a modulo rather than a distribution object (whose algorithm is
// implementation-defined): the same seed gives the same victims on every build.
#include <random>

#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {
namespace {

class RandomPolicy final : public ReplacementPolicy {
 public:
  RandomPolicy(uint32_t ways, uint64_t seed) : ways_(ways), rng_(seed) {}
  std::string_view name() const override { return "random"; }
  void reset(uint32_t, uint32_t, const L2Access&) override {}
  void touch(uint32_t, uint32_t, const L2Access&) override {}
  void invalidate(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t, const L2Access&) override { return static_cast<uint32_t>(rng_() % ways_); }

 private:
  uint32_t ways_;
  std::mt19937_64 rng_;
};

}  // namespace

void register_random_policy(ReplacementRegistry& r) {
  r.add({"random", "a uniformly drawn way, seeded by l2.random_seed (deterministic)", {},
         [](const PolicyShape& s, const ParamValues&) { return std::make_unique<RandomPolicy>(s.ways, s.seed); }});
}

}  // namespace npu::hw
