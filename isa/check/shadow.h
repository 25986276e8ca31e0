#pragma once
// Shadow state of one address space (a local buffer of one core, or GM) for the race checker:
// an interval map from byte ranges to the last write and the reads since, each stamped with its
// thread's vector-clock epoch (FastTrack). Adjacent ranges with the same state are merged, so
// the map stays as small as the kernel's access pattern, not its byte count.
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace npu::check {

using Clock = std::vector<uint32_t>;  // one entry per thread (core x pipe)

// One access of an instruction: its thread (core x pipe), the thread's epoch, the pc.
struct Epoch {
  uint32_t thread = 0, clock = 0, pc = 0;
  bool ordered_before(const Clock& c) const { return clock <= c[thread]; }
  friend bool operator==(const Epoch& a, const Epoch& b) {
    return a.thread == b.thread && a.clock == b.clock && a.pc == b.pc;
  }
};

// A conflicting earlier access found by Shadow::access: bytes [lo, hi) of the new access.
struct Conflict {
  Epoch earlier;
  bool earlier_write = false;
  uint64_t lo = 0, hi = 0;
};

class Shadow {
 public:
  // The access [lo, hi) by `e` (whose thread's clock is `now`): reports (to `conflict`) every
  // earlier access it is not ordered after that conflicts with it (a write conflicts with reads
  // and writes, a read with writes), then records it.
  void access(uint64_t lo, uint64_t hi, bool write, const Epoch& e, const Clock& now,
              const std::function<void(const Conflict&)>& conflict);
  size_t segments() const { return map_.size(); }

 private:
  struct Seg {
    uint64_t end = 0;
    bool has_write = false;
    Epoch write;
    std::vector<Epoch> reads;  // mutually unordered reads since the write
    bool same_state(const Seg& o) const {
      return has_write == o.has_write && (!has_write || write == o.write) && reads == o.reads;
    }
  };
  using Map = std::map<uint64_t, Seg>;
  Map::iterator split(uint64_t at);  // a segment boundary at `at`; returns the segment from `at`
  void coalesce(uint64_t lo, uint64_t hi);
  Map map_;  // start -> segment; segments never overlap
};

}  // namespace npu::check
