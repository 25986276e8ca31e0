// The L2 cache protocol (l2_access) on its own: no SystemC, no time, only tags and outcomes.
#include <gtest/gtest.h>

#include "hw/mem/l2_protocol.h"

namespace npu::hw {
namespace {

using isa::CacheHint;
using Kind = L2Outcome::Kind;

const L2Access kRead{CacheHint::Normal, 1, false};
const L2Access kWrite{CacheHint::Normal, 1, true};
const L2Access kNcRead{CacheHint::NoneCacheable, 1, false};
const L2Access kNcWrite{CacheHint::NoneCacheable, 1, true};

// One set of two ways, LRU: small enough to evict on the third block.
L2Tags two_way() { return L2Tags(1, 2, 512, make_replacement_policy("lru", PolicyShape{1, 2, 1})); }

TEST(L2Protocol, ReadMissAllocatesAndFetchesThenHits) {
  L2Tags t = two_way();
  L2Outcome o = l2_access(t, 7, kRead, false);
  EXPECT_EQ(o.kind, Kind::ReadMiss);
  EXPECT_FALSE(o.present);
  EXPECT_TRUE(o.fetch);
  EXPECT_FALSE(o.evicted.valid);
  EXPECT_EQ(t.find(7), int(o.way));
  EXPECT_FALSE(t.dirty(7, o.way));
  EXPECT_EQ(t.region(7, o.way), 1u);
  o = l2_access(t, 7, kRead, false);
  EXPECT_EQ(o.kind, Kind::ReadHit);
  EXPECT_TRUE(o.present);
  EXPECT_FALSE(o.fetch);
}

TEST(L2Protocol, OnlyAPrefetchReadMissAsksForTheNextLines) {
  L2Tags t = two_way();
  const L2Access pf_read{CacheHint::Prefetch, 1, false};
  EXPECT_FALSE(l2_access(t, 1, kRead, false).prefetch_next);
  L2Outcome o = l2_access(t, 2, pf_read, false);
  EXPECT_EQ(o.kind, Kind::ReadMiss);
  EXPECT_TRUE(o.prefetch_next);
  EXPECT_FALSE(l2_access(t, 2, pf_read, false).prefetch_next);  // a hit
  EXPECT_FALSE(l2_access(t, 3, L2Access{CacheHint::Prefetch, 1, true}, true).prefetch_next);  // a write
  // The fill itself: absent -> allocated clean for its region; present -> nothing.
  L2Tags u = two_way();
  std::optional<L2Tags::Fill> f = l2_prefetch(u, 9, 4);
  ASSERT_TRUE(f);
  EXPECT_EQ(u.find(9), int(f->way));
  EXPECT_FALSE(u.dirty(9, f->way));
  EXPECT_EQ(u.region(9, f->way), 4u);
  EXPECT_FALSE(l2_prefetch(u, 9, 4));
}

TEST(L2Protocol, WritesAllocateDirtyFetchingOnlyPartialLines) {
  L2Tags t = two_way();
  L2Outcome full = l2_access(t, 1, kWrite, true);
  EXPECT_EQ(full.kind, Kind::WriteMiss);
  EXPECT_FALSE(full.fetch);
  EXPECT_TRUE(t.dirty(1, full.way));
  L2Outcome part = l2_access(t, 2, kWrite, false);
  EXPECT_EQ(part.kind, Kind::WriteMiss);
  EXPECT_TRUE(part.fetch);
  L2Outcome hit = l2_access(t, 2, kWrite, false);
  EXPECT_EQ(hit.kind, Kind::WriteHit);
  EXPECT_EQ(hit.way, part.way);
  // A third block evicts the least recent line, 1, which is dirty: the shell writes it back.
  L2Outcome o = l2_access(t, 3, kRead, false);
  EXPECT_TRUE(o.evicted.valid);
  EXPECT_TRUE(o.evicted.dirty);
  EXPECT_EQ(o.evicted.block, 1u);
  EXPECT_EQ(o.way, full.way);
}

TEST(L2Protocol, NoneCacheableReadsBypassAndLeaveReplacementAlone) {
  L2Tags t = two_way();
  l2_access(t, 1, kRead, false);
  l2_access(t, 2, kRead, false);  // LRU order: 1 (oldest), 2
  EXPECT_EQ(l2_access(t, 1, kNcRead, false).kind, Kind::ReadHit);  // no touch: 1 stays oldest
  L2Outcome miss = l2_access(t, 5, kNcRead, false);
  EXPECT_EQ(miss.kind, Kind::BypassRead);
  EXPECT_FALSE(miss.fetch);
  EXPECT_LT(t.find(5), 0);  // nothing allocated
  EXPECT_EQ(l2_access(t, 3, kRead, false).evicted.block, 1u);
}

TEST(L2Protocol, NoneCacheableWritesGoThroughCleaningADirtyLine) {
  L2Tags t = two_way();
  L2Outcome absent = l2_access(t, 4, kNcWrite, false);
  EXPECT_EQ(absent.kind, Kind::BypassWrite);
  EXPECT_FALSE(absent.present);
  EXPECT_LT(t.find(4), 0);
  const uint32_t way = l2_access(t, 4, kWrite, true).way;  // now present and dirty
  L2Outcome dirty = l2_access(t, 4, kNcWrite, false);
  EXPECT_TRUE(dirty.present);
  EXPECT_TRUE(dirty.write_whole_line);  // the merged line goes to HBM
  EXPECT_FALSE(t.dirty(4, way));
  L2Outcome clean = l2_access(t, 4, kNcWrite, false);
  EXPECT_TRUE(clean.present);
  EXPECT_FALSE(clean.write_whole_line);  // only the written bytes
}

}  // namespace
}  // namespace npu::hw
