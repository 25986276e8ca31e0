#pragma once
// The functional core of one L2 slice: tags of sets x ways lines, with valid and dirty bits and
// the region (tensor) id of the access that brought each line in (for per-region statistics).
// Knows nothing of time. Replacement state lives in the ReplacementPolicy, apart from the tags.
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/mem/divisor.h"
#include "hw/pluggable/replacement_policy.h"

namespace npu::hw {

class L2Tags {
 public:
  struct Evicted {
    bool valid = false;  // false: an invalid way was filled, nothing left
    bool dirty = false;
    uint64_t block = 0;
    uint32_t region = 0;
  };
  struct Fill {
    uint32_t way = 0;
    Evicted evicted;
  };

  // Blocks are slice-local line numbers (L2Geometry::block_of).
  L2Tags(uint32_t sets, uint32_t ways, uint32_t line_bytes, std::unique_ptr<ReplacementPolicy> policy);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_bytes() const { return line_; }
  const ReplacementPolicy& policy() const { return *policy_; }
  uint32_t set_of(uint64_t block) const { return static_cast<uint32_t>(sets_div_.mod(block)); }

  // The way holding block, or -1. No replacement update (call touch on a hit).
  int find(uint64_t block) const;
  void touch(uint64_t block, uint32_t way, const L2Access& a) { policy_->touch(set_of(block), way, a); }
  // Installs block (which must be absent) for access a (the line's region is a.region): an
  // invalid way if any, else the policy's victim.
  Fill insert(uint64_t block, const L2Access& a, bool dirty);
  // Drops block if present; returns what was dropped.
  Evicted invalidate(uint64_t block);

  bool dirty(uint64_t block, uint32_t way) const { return line(block, way).dirty; }
  void set_dirty(uint64_t block, uint32_t way, bool d) { line_mut(block, way).dirty = d; }
  uint32_t region(uint64_t block, uint32_t way) const { return line(block, way).region; }
  uint64_t valid_lines() const { return valid_count_; }
  uint64_t dirty_lines() const;
  // Index of (block's set, way) in [0, sets * ways): for per-line side tables of the timing shell.
  size_t slot(uint64_t block, uint32_t way) const { return size_t(set_of(block)) * ways_ + way; }

 private:
  struct Line {  // a way's bits beside its key (keys_ says whether it is valid and its tag)
    uint32_t region = 0;
    bool dirty = false;
  };
  const Line& line(uint64_t block, uint32_t way) const { return lines_[slot(block, way)]; }
  Line& line_mut(uint64_t block, uint32_t way) { return lines_[slot(block, way)]; }

  uint32_t sets_, ways_, line_;
  Divisor sets_div_;  // sets_
  std::unique_ptr<ReplacementPolicy> policy_;
  std::vector<Line> lines_;
  // The tags, a set's ways side by side: tag + 1 for a valid line, 0 for an invalid one. 4 bytes
  // a way, so find scans a 24-way set in 1.5 host cache lines (the tags of a 192 MB L2 are 1.5 MB).
  std::vector<uint32_t> keys_;
  uint64_t valid_count_ = 0;
};

}  // namespace npu::hw
