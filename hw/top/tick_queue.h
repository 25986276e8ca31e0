#pragma once
// TickQueue<T>: items (T has a `uint64_t tick`) taken out in (tick, push order), for a recorder
// whose items arrive a little ahead of the simulation's time and leave as time reaches them.
//
// A calendar queue: a ring of buckets, each `width` ticks (a cycle), covering the next
// `buckets` x width ticks from the oldest item that may still be pending; an item further
// ahead waits in an overflow heap until its bucket comes into the ring. Pushing into the ring is
// an append, and a bucket whose items share one tick (the usual case: cycle boundaries) leaves
// in push order without a sort, where a binary heap over every pending item pays log(n)
// compares per item each way (the VCD recorder holds thousands).
#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

namespace npu::hw {

template <class T>
class TickQueue {
 public:
  // width: ticks per bucket (> 0); buckets: a power of two.
  explicit TickQueue(uint64_t width, size_t buckets = 4096) : width_(width ? width : 1), ring_(buckets) {}

  void push(const T& item) {
    // An item before the oldest pending bucket joins that bucket: everything still queued is
    // later than it, and the bucket's sort by tick puts it first.
    const uint64_t b = std::max(item.tick / width_, cursor_);
    next_due_ = std::min(next_due_, item.tick);
    if (b < cursor_ + ring_.size()) {
      ring_[b & (ring_.size() - 1)].push_back(Entry{item, seq_++});
      ++in_ring_;
    } else {
      overflow_.push(Entry{item, seq_++});
    }
  }
  bool empty() const { return in_ring_ == 0 && overflow_.empty(); }

  // Calls f(item) for every item with tick <= upto, in (tick, push order); they leave the queue.
  template <class F>
  void pop_until(uint64_t upto, F&& f) {
    if (upto < next_due_) return;  // the usual call: nothing due yet
    // The oldest bucket may hold items from before its own ticks (push), so it is looked at
    // even when upto is before it.
    const uint64_t last = std::max(upto / width_, cursor_);
    while (!empty()) {
      if (in_ring_ == 0) cursor_ = std::max(cursor_, std::min(last, overflow_.top().item.tick / width_));
      std::vector<Entry>& bucket = ring_[cursor_ & (ring_.size() - 1)];
      // Overflow items of this bucket were pushed before any ring item of it (the ring took the
      // bucket only once the cursor came within reach), so they go first, then sort by tick.
      if (!overflow_.empty() && overflow_.top().item.tick / width_ == cursor_) {
        std::vector<Entry> early;
        while (!overflow_.empty() && overflow_.top().item.tick / width_ == cursor_) {
          early.push_back(overflow_.top());
          overflow_.pop();
        }
        in_ring_ += early.size();
        bucket.insert(bucket.begin(), early.begin(), early.end());
      }
      if (!std::is_sorted(bucket.begin(), bucket.end(), by_tick))
        std::stable_sort(bucket.begin(), bucket.end(), by_tick);
      size_t n = 0;
      while (n < bucket.size() && bucket[n].item.tick <= upto) f(bucket[n++].item);
      in_ring_ -= n;
      if (n < bucket.size()) {  // the rest are after upto, in this bucket
        bucket.erase(bucket.begin(), bucket.begin() + static_cast<std::ptrdiff_t>(n));
        next_due_ = bucket.front().item.tick;  // later buckets hold only later ticks
        return;
      }
      bucket.clear();
      if (cursor_ == last) {
        next_due_ = (cursor_ + 1) * width_;  // a bound: the rest are in later buckets
        return;
      }
      ++cursor_;
    }
    cursor_ = std::max(cursor_, upto / width_);
    next_due_ = UINT64_MAX;
  }

 private:
  struct Entry {
    T item;
    uint64_t seq;
    bool operator>(const Entry& o) const { return item.tick != o.item.tick ? item.tick > o.item.tick : seq > o.seq; }
  };
  static bool by_tick(const Entry& a, const Entry& b) { return a.item.tick < b.item.tick; }

  uint64_t width_;
  std::vector<std::vector<Entry>> ring_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> overflow_;
  uint64_t cursor_ = 0, seq_ = 0;  // cursor_: the oldest bucket that may hold items
  uint64_t next_due_ = UINT64_MAX;  // no pending item is before it
  size_t in_ring_ = 0;
};

}  // namespace npu::hw
