// TickQueue (hw/top/tick_queue.h): items leave in (tick, push order), as from a binary heap over
// (tick, sequence number), whatever mix of pushes and pops the recorder makes: ticks on and off
// bucket boundaries, far ahead (the overflow heap), before the oldest pending bucket, and pops
// up to times that go back.
#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "hw/top/tick_queue.h"

namespace npu::hw {
namespace {

struct Item {
  uint64_t tick;
  uint64_t serial;  // push order, to check the order of equal ticks
};

// The definition: a heap over (tick, push order).
struct Reference {
  using Key = std::pair<uint64_t, uint64_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap;
  void push(const Item& i) { heap.push({i.tick, i.serial}); }
  void pop_until(uint64_t upto, std::vector<uint64_t>& out) {
    while (!heap.empty() && heap.top().first <= upto) {
      out.push_back(heap.top().second);
      heap.pop();
    }
  }
};

TEST(TickQueue, PopsInTickThenPushOrder) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    const uint64_t width = 1 + rng() % 600;
    TickQueue<Item> q(width, 16);  // a small ring: overflow is exercised
    Reference ref;
    std::vector<uint64_t> got, want;
    uint64_t now = 0, serial = 0;
    for (int step = 0; step < 400; ++step) {
      const int what = int(rng() % 10);
      if (what < 6) {  // push: mostly near now, some on a boundary, some far ahead, some before
        uint64_t tick = now + rng() % (4 * width);
        if (rng() % 4 == 0) tick = tick / width * width;
        if (rng() % 10 == 0) tick = now + width * (16 + rng() % 64);
        if (rng() % 10 == 0 && now > 0) tick = now - rng() % std::min<uint64_t>(now, 3 * width);
        const Item it{tick, serial++};
        q.push(it);
        ref.push(it);
      } else {  // pop up to a time: usually forward, sometimes back (a lowered hold)
        uint64_t upto = now + rng() % (3 * width);
        if (rng() % 5 == 0) upto = now > width ? now - rng() % width : 0;
        q.pop_until(upto, [&](const Item& i) { got.push_back(i.serial); });
        ref.pop_until(upto, want);
        now = std::max(now, upto);
        ASSERT_EQ(got, want) << "round " << round << " step " << step;
      }
    }
    q.pop_until(UINT64_MAX, [&](const Item& i) { got.push_back(i.serial); });
    ref.pop_until(UINT64_MAX, want);
    EXPECT_EQ(got, want) << "round " << round;
    EXPECT_TRUE(q.empty());
  }
}

}  // namespace
}  // namespace npu::hw
