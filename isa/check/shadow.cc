#include "isa/check/shadow.h"

#include <algorithm>

namespace npu::check {

Shadow::Map::iterator Shadow::split(uint64_t at) {
  auto it = map_.upper_bound(at);
  if (it == map_.begin()) return it;
  auto prev = std::prev(it);
  if (prev->first == at) return prev;
  if (prev->second.end <= at) return it;
  Seg tail = prev->second;
  prev->second.end = at;
  return map_.emplace_hint(it, at, std::move(tail));
}

void Shadow::coalesce(uint64_t lo, uint64_t hi) {
  auto it = map_.lower_bound(lo);
  if (it != map_.begin()) --it;
  while (it != map_.end() && it->first <= hi) {
    auto next = std::next(it);
    if (next != map_.end() && next->first == it->second.end && next->first <= hi &&
        it->second.same_state(next->second)) {
      it->second.end = next->second.end;
      map_.erase(next);
    } else {
      it = next;
    }
  }
}

void Shadow::access(uint64_t lo, uint64_t hi, bool write, const Epoch& e, const Clock& now,
                    const std::function<void(const Conflict&)>& conflict) {
  if (lo >= hi) return;
  split(lo);
  split(hi);
  uint64_t cur = lo;
  auto it = map_.lower_bound(lo);
  while (cur < hi) {
    if (it == map_.end() || it->first > cur) {  // a gap: never accessed
      Seg fresh;
      fresh.end = it == map_.end() ? hi : std::min(hi, it->first);
      it = map_.emplace_hint(it, cur, std::move(fresh));
    }
    Seg& s = it->second;
    auto unordered = [&](const Epoch& x) { return x.thread != e.thread && !x.ordered_before(now); };
    if (s.has_write && unordered(s.write)) conflict(Conflict{s.write, true, it->first, s.end});
    if (write)
      for (const Epoch& r : s.reads)
        if (unordered(r)) conflict(Conflict{r, false, it->first, s.end});
    if (write) {
      s.has_write = true;
      s.write = e;
      s.reads.clear();
    } else {
      // A read ordered before this one adds nothing: a later write unordered with it is
      // unordered with this read too (and is reported against this one).
      s.reads.erase(std::remove_if(s.reads.begin(), s.reads.end(),
                                   [&](const Epoch& r) { return r.ordered_before(now); }),
                    s.reads.end());
      s.reads.push_back(e);
    }
    cur = s.end;
    ++it;
  }
  coalesce(lo, hi);
}

}  // namespace npu::check
