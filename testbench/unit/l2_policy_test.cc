// Replacement policies on their own and through L2Tags.
#include <gtest/gtest.h>

#include <vector>

#include "hw/mem/l2_tags.h"
#include "hw/mem/srrip_policy.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

// Runs a block sequence through a 1-set, 4-way L2Tags; returns the number of hits.
int hits(const char* policy, const std::vector<uint64_t>& seq, uint64_t seed = 1) {
  L2Tags t(1, 4, 512, make_replacement_policy(policy, 1, 4, seed));
  int h = 0;
  for (uint64_t b : seq) {
    int w = t.find(b);
    if (w >= 0) {
      ++h;
      t.touch(b, uint32_t(w));
    } else {
      t.insert(b, 0, false);
    }
  }
  return h;
}

// A B A B C D E F A B (A=0, B=1, ...).
const std::vector<uint64_t> kScan = {0, 1, 0, 1, 2, 3, 4, 5, 0, 1};

TEST(ReplacementPolicy, LruLosesHotLinesToAScan) {
  // Misses A B, hits A B; C D fill; E evicts A (least recent), F evicts B; A, B miss: 2 hits.
  EXPECT_EQ(hits("lru", kScan), 2);
}

TEST(ReplacementPolicy, SrripKeepsHotLinesAcrossAScan) {
  // A, B inserted at RRPV 2, hit -> 0; C, D at 2. E: no RRPV 3, age all: A1 B1 C3 D3 -> evict
  // C (way 2), E at 2. F: D has 3 -> evict D. A and B still present: hits. Total 4.
  EXPECT_EQ(hits("srrip", kScan), 4);
}

TEST(ReplacementPolicy, SrripAgesUntilAVictimAppears) {
  SrripPolicy p(1, 2);
  p.reset(0, 0);
  p.reset(0, 1);
  p.touch(0, 0);  // RRPV: way0 0, way1 2
  EXPECT_EQ(p.victim(0), 1u);  // one ageing step: way0 1, way1 3
  EXPECT_EQ(p.rrpv(0, 0), 1);
  EXPECT_EQ(p.rrpv(0, 1), 3);
  p.invalidate(0, 0);
  EXPECT_EQ(p.rrpv(0, 0), 3);
}

TEST(ReplacementPolicy, LruCyclicThrashes) {
  // Five blocks cycled through four ways: LRU always evicts the next one needed.
  std::vector<uint64_t> seq;
  for (int r = 0; r < 4; ++r)
    for (uint64_t b = 0; b < 5; ++b) seq.push_back(b);
  EXPECT_EQ(hits("lru", seq), 0);
}

TEST(ReplacementPolicy, RandomIsSeededAndDeterministic) {
  std::vector<uint64_t> seq;
  for (int r = 0; r < 50; ++r)
    for (uint64_t b = 0; b < 6; ++b) seq.push_back(b);
  EXPECT_EQ(hits("random", seq, 42), hits("random", seq, 42));
  auto p = make_replacement_policy("random", 1, 4, 42);
  auto q = make_replacement_policy("random", 1, 4, 42);
  auto other = make_replacement_policy("random", 1, 4, 43);
  std::vector<uint32_t> a, b, c;
  for (int i = 0; i < 32; ++i) {
    a.push_back(p->victim(0));
    b.push_back(q->victim(0));
    c.push_back(other->victim(0));
    EXPECT_LT(a.back(), 4u);
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(ReplacementPolicy, SelectedByNameUnknownIsAnError) {
  EXPECT_EQ(make_replacement_policy("lru", 2, 2, 0)->name(), "lru");
  EXPECT_EQ(make_replacement_policy("srrip", 2, 2, 0)->name(), "srrip");
  EXPECT_EQ(make_replacement_policy("random", 2, 2, 0)->name(), "random");
  try {
    make_replacement_policy("fifo", 2, 2, 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown L2 replacement policy 'fifo' (known: lru, srrip, random)");
  }
}

}  // namespace
}  // namespace npu::hw
