// Replacement policies on their own and through L2Tags.
#include <gtest/gtest.h>

#include <vector>

#include "hw/mem/l2_tags.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

const L2Access kRead{};

// Runs a block sequence through a 1-set, 4-way L2Tags; returns the number of hits.
int hits(const char* policy, const std::vector<uint64_t>& seq, uint64_t seed = 1, const ParamValues& params = {}) {
  L2Tags t(1, 4, 512, make_replacement_policy(policy, PolicyShape{1, 4, seed}, params));
  int h = 0;
  for (uint64_t b : seq) {
    int w = t.find(b);
    if (w >= 0) {
      ++h;
      t.touch(b, uint32_t(w), kRead);
    } else {
      t.insert(b, kRead, false);
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

TEST(ReplacementPolicy, SrripInsertRrpvIsAParameter) {
  // insert_rrpv 0: A, B, C, D all at RRPV 0. E: age three times (all 3), evict way 0 (A), E at
  // 0. F: B, C, D at 3 -> evict B. A and B then miss: 2 hits, no scan resistance left.
  EXPECT_EQ(hits("srrip", kScan, 1, {{"insert_rrpv", 0}}), 2);
  // rrpv_bits 3 (max 7), insert at 6: the same order of events as the default, 4 hits.
  EXPECT_EQ(hits("srrip", kScan, 1, {{"rrpv_bits", 3}, {"insert_rrpv", 6}}), 4);
}

TEST(ReplacementPolicy, SrripParameterRulesAreErrors) {
  try {
    make_replacement_policy("srrip", PolicyShape{}, {{"rrpv_bits", 1}});  // insert_rrpv 2 > max 1
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "srrip: insert_rrpv 2 exceeds the largest RRPV 1 of rrpv_bits 1");
  }
  EXPECT_THROW(make_replacement_policy("srrip", PolicyShape{}, {{"rrpv_bits", 8}}), Error);   // range 1..7
  EXPECT_THROW(make_replacement_policy("srrip", PolicyShape{}, {{"rrpv_bitz", 2}}), Error);   // unknown
  EXPECT_THROW(make_replacement_policy("lru", PolicyShape{}, {{"rrpv_bits", 2}}), Error);     // not lru's
}

TEST(ReplacementPolicy, SrripAgesUntilAVictimAppears) {
  auto p = make_replacement_policy("srrip", PolicyShape{1, 2, 1});
  p->reset(0, 0, kRead);
  p->reset(0, 1, kRead);
  p->touch(0, 0, kRead);             // RRPV: way0 0, way1 2
  EXPECT_EQ(p->victim(0, kRead), 1u);  // one ageing step: way0 1, way1 3
  p->reset(0, 1, kRead);             // way0 1, way1 2
  EXPECT_EQ(p->victim(0, kRead), 1u);  // one step: way0 2, way1 3 (the ageing persisted)
  p->reset(0, 1, kRead);             // way0 2, way1 2
  EXPECT_EQ(p->victim(0, kRead), 0u);  // one step: 3, 3 -> the lowest way
  p->reset(0, 0, kRead);             // way0 2, way1 3
  p->invalidate(0, 0);               // way0 3
  EXPECT_EQ(p->victim(0, kRead), 0u);  // no ageing needed
}

// Demand reads and prefetch fills (L2Access::prefetch_fill) through a 1-set, 4-way L2Tags:
// a fill of a present line does nothing; returns the demand hits.
struct Step {
  uint64_t block;
  bool prefetch_fill;
};
int demand_hits(const char* policy, const std::vector<Step>& seq, const ParamValues& params = {}) {
  L2Tags t(1, 4, 512, make_replacement_policy(policy, PolicyShape{1, 4, 1}, params));
  const L2Access fill{isa::CacheHint::Prefetch, 0, false, true};
  int h = 0;
  for (const Step& s : seq) {
    const int w = t.find(s.block);
    if (s.prefetch_fill) {
      if (w < 0) t.insert(s.block, fill, false);
    } else if (w >= 0) {
      ++h;
      t.touch(s.block, uint32_t(w), kRead);
    } else {
      t.insert(s.block, kRead, false);
    }
  }
  return h;
}

// A B A B, two useless prefetch fills X Y, then demand C D E F G and A B again.
const std::vector<Step> kPrefetchPollution = {{0, false}, {1, false}, {0, false}, {1, false},
                                              {10, true}, {11, true}, {2, false}, {3, false},
                                              {4, false}, {5, false}, {6, false}, {0, false},
                                              {1, false}};

TEST(ReplacementPolicy, PacmanInsertsPrefetchFillsDistantAndKeepsDemandLines) {
  // srrip (fills at 2 like demand): A0 B0 X2 Y2; C: age -> A1 B1 X3 Y3, evict X, C2; D evicts
  // Y (A1 B1 C2 D2); E: age -> A2 B2 C3 D3, evict C; F evicts D (A2 B2 E2 F2); G: age -> all 3,
  // evict A (way 0); A then evicts B (3), B misses: 2 hits (the first A B only).
  EXPECT_EQ(demand_hits("srrip", kPrefetchPollution), 2);
  // pacman (fills at 3): A0 B0 X3 Y3; C evicts X, D evicts Y without ageing (A0 B0 C2 D2); E:
  // age -> A1 B1 C3 D3, evict C; F evicts D (A1 B1 E2 F2); G: age -> A2 B2 E3 F3, evict E; A and
  // B hit: 4 hits.
  EXPECT_EQ(demand_hits("pacman", kPrefetchPollution), 4);
  // With prefetch fills inserted like demand lines it is SRRIP again.
  EXPECT_EQ(demand_hits("pacman", kPrefetchPollution, {{"prefetch_insert_rrpv", 2}}), 2);
  // Demand-only traffic is SRRIP's: the scan of SrripKeepsHotLinesAcrossAScan.
  EXPECT_EQ(hits("pacman", kScan), hits("srrip", kScan));
}

TEST(ReplacementPolicy, PacmanParameterRulesAreErrors) {
  try {
    make_replacement_policy("pacman", PolicyShape{}, {{"rrpv_bits", 1}, {"insert_rrpv", 1}});  // fills 3 > 1
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "pacman: prefetch_insert_rrpv 3 exceeds the largest RRPV 1 of rrpv_bits 1");
  }
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
  auto p = make_replacement_policy("random", PolicyShape{1, 4, 42});
  auto q = make_replacement_policy("random", PolicyShape{1, 4, 42});
  auto other = make_replacement_policy("random", PolicyShape{1, 4, 43});
  std::vector<uint32_t> a, b, c;
  for (int i = 0; i < 32; ++i) {
    a.push_back(p->victim(0, kRead));
    b.push_back(q->victim(0, kRead));
    c.push_back(other->victim(0, kRead));
    EXPECT_LT(a.back(), 4u);
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(ReplacementPolicy, SelectedByNameUnknownIsAnError) {
  for (const char* name : {"lru", "pacman", "srrip", "random"})
    EXPECT_EQ(make_replacement_policy(name, PolicyShape{2, 2, 0})->name(), name);
  try {
    make_replacement_policy("fifo", PolicyShape{2, 2, 0});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown L2 replacement policy 'fifo' (known: lru, pacman, random, srrip)");
  }
}

}  // namespace
}  // namespace npu::hw
