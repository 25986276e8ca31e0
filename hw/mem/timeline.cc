#include "hw/mem/timeline.h"

#include <algorithm>

namespace npu::hw {

namespace {
constexpr auto kStartsAfter = [](uint64_t t, const std::pair<uint64_t, uint64_t>& iv) { return t < iv.first; };
}  // namespace

Timeline::Iter Timeline::search(uint64_t t) { return std::upper_bound(begin(), busy_.end(), t, kStartsAfter); }

Timeline::ConstIter Timeline::search(uint64_t t) const {
  return std::upper_bound(live_begin(), busy_.cend(), t, kStartsAfter);
}

uint64_t Timeline::reserve(uint64_t earliest, uint64_t duration) {
  uint64_t t = first_free(earliest);
  if (duration == 0) return t;
  auto it = upper_bound(t);
  while (it != busy_.end() && it->first < t + duration) {  // the gap before *it is too short
    t = it->second;
    ++it;
  }
  insert_merged(t, t + duration);
  busy_ticks_ += duration;
  return t;
}

uint64_t Timeline::fill(uint64_t earliest, uint64_t duration, std::vector<std::pair<uint64_t, uint64_t>>* pieces) {
  if (duration > 0 && (busy_.empty() || earliest >= busy_.back().first)) {
    // At or after the last booking (most requests: a stream books in time order): no search,
    // the same interval as the general path below (which it mirrors: first_free, then append
    // or merge with the last interval when they touch).
    const uint64_t t = busy_.empty() ? earliest : std::max(earliest, busy_.back().second);
    busy_ticks_ += duration;
    if (pieces) pieces->emplace_back(t, t + duration);
    if (!busy_.empty() && busy_.back().second >= t)
      busy_.back().second = t + duration;
    else
      busy_.emplace_back(t, t + duration);
    return t + duration;
  }
  uint64_t t = first_free(earliest);
  if (duration == 0) return t;
  busy_ticks_ += duration;
  while (true) {
    auto next = upper_bound(t);  // the first interval after the gap that starts at t
    const uint64_t gap_end = next == busy_.end() ? UINT64_MAX : next->first;
    if (gap_end - t >= duration) {
      if (pieces) pieces->emplace_back(t, t + duration);
      insert_merged(t, t + duration);
      return t + duration;
    }
    duration -= gap_end - t;
    const uint64_t resume = next->second;
    if (pieces) pieces->emplace_back(t, gap_end);
    insert_merged(t, gap_end);  // merges with *next
    t = resume;
  }
}

void Timeline::occupy(uint64_t start, uint64_t end) {
  if (end <= start) return;
  busy_ticks_ += end - start;
  insert_merged(start, end);
}

void Timeline::insert_merged(uint64_t start, uint64_t end) {
  auto first = upper_bound(start);  // the merged run is [first, last)
  if (first != begin()) {
    auto prev = std::prev(first);
    if (prev->second >= start) {  // overlaps or touches the previous interval
      start = prev->first;
      end = std::max(end, prev->second);
      first = prev;
    }
  }
  auto last = first;
  while (last != busy_.end() && last->first <= end) {
    end = std::max(end, last->second);
    ++last;
  }
  if (first == last) {
    busy_.insert(first, Interval{start, end});
  } else {
    *first = Interval{start, end};
    busy_.erase(first + 1, last);
  }
}

void Timeline::retire(uint64_t now) {
  while (head_ < busy_.size() && busy_[head_].second <= now) ++head_;
  if (head_ == busy_.size()) {
    busy_.clear();
    head_ = 0;
  } else if (head_ >= 32 && head_ * 2 >= busy_.size()) {  // compact now and then, amortised O(1)
    busy_.erase(busy_.begin(), busy_.begin() + std::ptrdiff_t(head_));
    head_ = 0;
  }
}

ServerPool::Grant ServerPool::acquire(uint64_t earliest) const {
  // first_free(earliest) >= earliest, and ties go to the lowest index: the first server idle at
  // `earliest` is the answer, and the rest need not be asked. The array's size and base are read
  // once, with a size_t index (measured: 540 -> 400 host instructions per call): the loop runs
  // over every MSHR of a slice on each miss.
  const size_t n = last_.size();
  const std::pair<uint64_t, uint64_t>* last = last_.data();
  Grant best{0, first_free(0, last[0], earliest)};
  for (size_t i = 1; i < n && best.start != earliest; ++i) {
    const uint64_t t = first_free(i, last[i], earliest);
    if (t < best.start) best = Grant{static_cast<uint32_t>(i), t};
  }
  return best;
}

}  // namespace npu::hw
