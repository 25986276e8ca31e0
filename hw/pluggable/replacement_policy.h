#pragma once
// L2 replacement policy interface (gem5 style: reset / touch / invalidate / victim) and the
// registry of policies. A policy keeps its own per-line state, apart from the tags (L2Tags); the
// tags ask it for a victim only when every way of the set is valid (an invalid way is always
// filled first). Every call sees the access that caused it (hint, region, read or write), so a
// policy may, say, insert prefetched lines at a distant re-reference prediction.
//
// Adding a policy is one file, hw/pluggable/<name>_policy.cc, defining
//   void register_<name>_policy(ReplacementRegistry& r)
// that calls r.add({name, description, params, factory}) (see docs/architecture.md, "Adding a
// replacement policy"); the build finds it by its file name. Its parameters become the optional
// config keys l2.replacement_params.<name>.<param>.
#include <cstdint>
#include <string_view>

#include "base/registry.h"
#include "isa/types.h"

namespace npu::hw {

// What the policy may know of the access: the effective cache hint (after a per-tensor
// override), the region (tensor) id (0 = none), the direction, and whether it is a prefetch
// fill (a line the L2 brought in on its own after a prefetch-hinted miss, no requester waits).
struct L2Access {
  isa::CacheHint hint = isa::CacheHint::Normal;
  uint32_t region = 0;
  bool write = false;
  bool prefetch_fill = false;
};

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  virtual std::string_view name() const = 0;
  virtual void reset(uint32_t set, uint32_t way, const L2Access& a) = 0;  // a line was inserted
  virtual void touch(uint32_t set, uint32_t way, const L2Access& a) = 0;  // a line was hit
  virtual void invalidate(uint32_t set, uint32_t way) = 0;                // a line was dropped
  // The way to evict from a full set for access a. May update state (SRRIP ages the set).
  virtual uint32_t victim(uint32_t set, const L2Access& a) = 0;
};

// What a factory is built for: one slice's tags. `seed` is l2.random_seed made distinct per
// slice, for policies that draw random numbers (deterministically).
struct PolicyShape {
  uint32_t sets = 1, ways = 1;
  uint64_t seed = 1;
};

using ReplacementRegistry = Registry<ReplacementPolicy, PolicyShape>;

// Every registered policy, in file-name order. Mutable only to register more (tests do).
ReplacementRegistry& replacement_policies();

// replacement_policies().make(name, shape, params), after checking the shape (sets, ways >= 1).
std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, const PolicyShape& shape,
                                                           const ParamValues& params = {});

}  // namespace npu::hw
