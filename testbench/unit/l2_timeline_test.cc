// Resource timelines, the region table and stat groups: plain C++ pieces of the memory system.
#include <gtest/gtest.h>

#include "hw/mem/region_table.h"
#include "hw/mem/stats.h"
#include "hw/mem/timeline.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

TEST(Timeline, BooksBackToBackAndFillsGaps) {
  Timeline t;
  EXPECT_EQ(t.reserve(0, 10), 0u);     // [0,10)
  EXPECT_EQ(t.reserve(0, 10), 10u);    // queued behind: [10,20)
  EXPECT_EQ(t.reserve(50, 10), 50u);   // [50,60), leaves the gap [20,50)
  EXPECT_EQ(t.reserve(5, 30), 20u);    // fits the gap: [20,50)
  EXPECT_EQ(t.intervals(), 1u);        // all merged into [0,60)
  EXPECT_EQ(t.reserve(25, 5), 60u);    // no gap left before 60
  EXPECT_EQ(t.busy_ticks(), 65u);
  EXPECT_EQ(t.reserve(100, 10), 100u);
  EXPECT_EQ(t.reserve(61, 40), 110u);  // the gap [65,100) is too short for 40
  t.retire(66);                        // [0,65) ended
  EXPECT_EQ(t.intervals(), 1u);        // [100,150)
  EXPECT_EQ(t.first_free(120), 150u);
  EXPECT_EQ(t.first_free(70), 70u);
}

TEST(Timeline, FillServesAcrossGapsWorkConserving) {
  Timeline t;
  EXPECT_EQ(t.reserve(10, 10), 10u);  // [10,20)
  EXPECT_EQ(t.reserve(30, 10), 30u);  // [30,40)
  // 25 ticks from 0: [0,10) gives 10, [20,30) gives 10, then 5 after 40 -> ends at 45.
  EXPECT_EQ(t.fill(0, 25), 45u);
  EXPECT_EQ(t.intervals(), 1u);       // [0,45) all busy
  EXPECT_EQ(t.busy_ticks(), 45u);
  EXPECT_EQ(t.fill(44, 0), 45u);      // zero work: the first idle tick
  EXPECT_EQ(t.fill(50, 7), 57u);      // an idle timeline serves at once
  EXPECT_EQ(t.fill(47, 5), 59u);      // 3 ticks in [47,50), then 2 after [50,57): ends at 59
  EXPECT_EQ(t.fill(45, 2), 47u);      // the last idle ticks before 47
}

TEST(ServerPool, TakesTheEarliestIdleServer) {
  ServerPool p(2);
  auto a = p.acquire(0);
  p.hold(a, 100);
  auto b = p.acquire(0);
  EXPECT_NE(a.server, b.server);
  EXPECT_EQ(b.start, 0u);
  p.hold(b, 50);
  auto c = p.acquire(10);  // both busy: server b frees first, at 50
  EXPECT_EQ(c.server, b.server);
  EXPECT_EQ(c.start, 50u);
}

TEST(RegionTable, LookupOverrideAndErrors) {
  RegionTable r;
  uint32_t x = r.add("x", 0x1000, 0x100);
  uint32_t y = r.add("y", 0x0, 0x800, isa::CacheHint::NoneCacheable);
  EXPECT_EQ(r.lookup(0x1000), x);
  EXPECT_EQ(r.lookup(0x10ff), x);
  EXPECT_EQ(r.lookup(0x1100), RegionTable::kNone);
  EXPECT_EQ(r.lookup(0x7ff), y);
  EXPECT_EQ(r.lookup(0x800), RegionTable::kNone);
  EXPECT_EQ(r.effective(y, isa::CacheHint::Normal), isa::CacheHint::NoneCacheable);
  EXPECT_EQ(r.effective(x, isa::CacheHint::Prefetch), isa::CacheHint::Prefetch);
  r.set_override("x", isa::CacheHint::NoneCacheable);
  EXPECT_EQ(r.effective(x, isa::CacheHint::Normal), isa::CacheHint::NoneCacheable);
  EXPECT_EQ(r.name(x), "x");
  try {
    r.add("z", 0x10f0, 0x20);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "GM region 'z' overlaps region 'x'");
  }
  try {
    r.set_override("w", std::nullopt);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "no GM region named 'w'");
  }
}

TEST(StatGroup, CountersFormulasChildrenSnapshot) {
  uint64_t hits = 3, misses = 1, bytes = 4096;
  StatGroup root("mem"), child("ch0");
  root.add("hits", &hits, "count", "hits");
  root.add("misses", &misses, "count", "misses");
  root.add_formula("hit_rate", [&] { return ratio(double(hits), double(hits + misses)); }, "ratio",
                   "hits / accesses");
  child.add("bytes", &bytes, "byte", "bytes moved");
  root.add_child(&child);
  hits = 6;  // formulas and counters are read at dump time
  const StatRecord r = root.snapshot();
  ASSERT_EQ(r.values.size(), 3u);
  EXPECT_EQ(r.values[0].name, "hits");
  EXPECT_EQ(r.values[0].unit, "count");
  EXPECT_EQ(std::get<uint64_t>(r.values[0].value), 6u);  // counters stay integers
  EXPECT_DOUBLE_EQ(std::get<double>(r.values[2].value), 6.0 / 7.0);
  ASSERT_EQ(r.children.size(), 1u);
  EXPECT_EQ(r.children[0].name, "ch0");
  EXPECT_EQ(std::get<uint64_t>(r.children[0].values[0].value), 4096u);
  EXPECT_EQ(r, root.snapshot());
  misses = 2;
  EXPECT_FALSE(r == root.snapshot());
  misses = 1;
  EXPECT_EQ(root.value("misses"), 1.0);
  try {
    root.add("hits", &hits, "count", "again");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "stat group 'mem': duplicate stat 'hits'");
  }
}

}  // namespace
}  // namespace npu::hw
