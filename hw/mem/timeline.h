#pragma once
// Resource timelines: how a shared unit (L2 slice port, HBM channel, core link, MSHR) models
// bandwidth and queueing at transaction cost instead of per-cycle arbitration.
//
// Requests reach a resource in call order, which under loosely-timed TLM is not time order:
// one initiator may already have booked its whole DMA into the future when another initiator
// asks for an earlier time. A plain "free at t" counter would queue the second one behind all
// of that, serialising streams that really share the unit. So a Timeline keeps the booked busy
// intervals and places a request in the earliest gap, at or after its arrival, that is long
// enough. Intervals that end before the current simulation time are dropped (nothing can arrive
// earlier than now), so the set stays small. Times are plain integer ticks (sc_time values).
// The set is a sorted flat vector (a few intervals, searched by binary search): no node
// allocation per booking on the memory system's hot path.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace npu::hw {

class Timeline {
 public:
  // Books [start, start + duration) at the earliest start >= earliest that fits in a gap.
  uint64_t reserve(uint64_t earliest, uint64_t duration);
  // Work-conserving booking for data transfers: uses every idle tick from `earliest` on, across
  // gaps, until `duration` ticks are served, and returns the end. Bandwidth is shared the way
  // interleaved packets share a link; no gap too short for a whole request is lost. With
  // `pieces`, appends the [start, end) intervals it booked (for tracing the real occupancy).
  uint64_t fill(uint64_t earliest, uint64_t duration,
                std::vector<std::pair<uint64_t, uint64_t>>* pieces = nullptr);
  // Earliest t >= earliest at which the resource is idle (a gap of any length). Inline: the
  // MSHR pool asks every server on each miss.
  uint64_t first_free(uint64_t earliest) const {
    const auto it = upper_bound(earliest);
    if (it == live_begin()) return earliest;
    const uint64_t end = std::prev(it)->second;  // inside a busy interval: its end (never touching)
    return end > earliest ? end : earliest;
  }
  // Marks [start, end) busy, merging with whatever it overlaps (for occupancy whose length is
  // known only after the start was chosen, e.g. an MSHR held until its fill returns).
  void occupy(uint64_t start, uint64_t end);
  // Drops intervals that end at or before now.
  void retire(uint64_t now);

  // The last booked interval ({0, 0} when idle for ever): first_free(t) for t >= its start is
  // max(t, its end).
  std::pair<uint64_t, uint64_t> last() const { return busy_.empty() ? Interval{0, 0} : busy_.back(); }
  uint64_t busy_ticks() const { return busy_ticks_; }  // total booked time ever (for utilisation)
  size_t intervals() const { return busy_.size() - head_; }

 private:
  using Interval = std::pair<uint64_t, uint64_t>;  // [start, end)
  using Iter = std::vector<Interval>::iterator;
  using ConstIter = std::vector<Interval>::const_iterator;
  Iter begin() { return busy_.begin() + std::ptrdiff_t(head_); }
  ConstIter live_begin() const { return busy_.cbegin() + std::ptrdiff_t(head_); }
  // The first live interval starting after t (std::map::upper_bound on the start). Bookings
  // mostly arrive in time order, so t at or after the last start (the answer is the end) is
  // tested before the binary search.
  Iter upper_bound(uint64_t t) {
    return busy_.empty() || t >= busy_.back().first ? busy_.end() : search(t);
  }
  ConstIter upper_bound(uint64_t t) const {
    return busy_.empty() || t >= busy_.back().first ? busy_.cend() : search(t);
  }
  Iter search(uint64_t t);
  ConstIter search(uint64_t t) const;
  void insert_merged(uint64_t start, uint64_t end);
  std::vector<Interval> busy_;  // [head_, size()): by start, disjoint, non-touching; [0, head_) retired
  size_t head_ = 0;
  uint64_t busy_ticks_ = 0;
};

// A pool of n identical servers (the MSHRs of a slice): a request takes the server that is idle
// earliest at or after its arrival, and holds it until a time the caller learns later.
// Each server's last interval is mirrored in a flat array, so the scan in acquire mostly reads
// one contiguous array instead of every server's interval vector.
class ServerPool {
 public:
  explicit ServerPool(uint32_t n) : servers_(n), last_(n, {0, 0}) {}
  struct Grant {
    uint32_t server;
    uint64_t start;
  };
  Grant acquire(uint64_t earliest) const;
  void hold(const Grant& g, uint64_t end) {
    Timeline& t = servers_[g.server];
    t.retire(retire_at_);
    t.occupy(g.start, end);
    last_[g.server] = t.last();
  }
  // Intervals that end at or before `now` may be dropped from here on. They never change a
  // result (every request arrives at or after now), so each server drops them only when it is
  // next held: a slice's 32 MSHRs are not walked on every request (that walk was 10 retires per
  // line on the README job, measured with callgrind; docs/performance.md).
  void retire(uint64_t now) { retire_at_ = now; }
  uint32_t size() const { return static_cast<uint32_t>(servers_.size()); }

 private:
  // Server i, whose last interval is `last` (= last_[i]: the caller's copy of the array pointer
  // saves a reload per server in acquire's loop).
  uint64_t first_free(size_t i, const std::pair<uint64_t, uint64_t>& last, uint64_t earliest) const {
    if (earliest >= last.first) return earliest > last.second ? earliest : last.second;
    return servers_[i].first_free(earliest);
  }
  std::vector<Timeline> servers_;
  std::vector<std::pair<uint64_t, uint64_t>> last_;  // servers_[i].last()
  uint64_t retire_at_ = 0;
};

}  // namespace npu::hw
