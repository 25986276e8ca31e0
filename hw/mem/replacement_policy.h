#pragma once
// Replacement policy interface (gem5 style: reset / touch / invalidate / victim). A policy keeps
// its own per-line state, apart from the tags (L2Tags); the tags ask it for a victim only when
// every way of the set is valid (an invalid way is always filled first).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace npu::hw {

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  virtual std::string_view name() const = 0;
  virtual void reset(uint32_t set, uint32_t way) = 0;       // a line was inserted
  virtual void touch(uint32_t set, uint32_t way) = 0;       // a line was hit
  virtual void invalidate(uint32_t set, uint32_t way) = 0;  // a line was dropped
  // The way to evict from a full set. May update state (SRRIP ages the set).
  virtual uint32_t victim(uint32_t set) = 0;
};

// By name from L2Config::replacement: "lru", "srrip", "random" (seeded). Unknown -> npu::Error.
std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, uint32_t sets,
                                                           uint32_t ways, uint64_t seed);

}  // namespace npu::hw
