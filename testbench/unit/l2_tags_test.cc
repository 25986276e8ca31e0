// The plain functional core of an L2 slice: tags, valid/dirty bits, victims, region owners.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "hw/mem/l2_tags.h"
#include "hw/config/l2_rules.h"
#include "hw/mem/mem_types.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

using isa::CacheHint;

L2Tags make(uint32_t sets, uint32_t ways, const char* policy = "lru") {
  return L2Tags(sets, ways, 512, make_replacement_policy(policy, PolicyShape{sets, ways, 1}));
}

// Tags are kept as 32-bit keys (tag + 1): the largest tag that fits is found again after an
// invalidation and a refill; one beyond it is refused with an error, never stored truncated.
TEST(L2Tags, LargestTagRoundTripsAndBeyondIsRefused) {
  L2Tags t = make(1, 2);  // one set: tag = block
  const uint64_t top = 0xFFFFFFFEull;
  t.insert(top, L2Access{CacheHint::Normal, 1, false}, false);
  t.insert(0, L2Access{CacheHint::Normal, 2, false}, false);
  EXPECT_EQ(t.find(top), 0);
  EXPECT_EQ(t.find(0), 1);
  EXPECT_EQ(t.find(top - 1), -1);
  EXPECT_TRUE(t.invalidate(top).valid);
  EXPECT_EQ(t.find(top), -1);
  t.insert(top, L2Access{CacheHint::Normal, 3, false}, false);
  EXPECT_EQ(t.find(top), 0);
  EXPECT_EQ(t.region(top, 0), 3u);
  EXPECT_EQ(t.find(top + 1), -1);
  EXPECT_THROW(t.insert(top + 1, L2Access{CacheHint::Normal, 4, false}, false), Error);
  EXPECT_EQ(t.valid_lines(), 2u);
}

TEST(L2Tags, FillsInvalidWaysFirstThenEvictsLru) {
  L2Tags t = make(2, 2);
  // Blocks 0, 2, 4 map to set 0 (block % 2); 1 to set 1.
  EXPECT_EQ(t.find(0), -1);
  EXPECT_FALSE(t.insert(0, L2Access{CacheHint::Normal, 7, false}, false).evicted.valid);
  EXPECT_FALSE(t.insert(1, L2Access{CacheHint::Normal, 7, false}, false).evicted.valid);
  EXPECT_FALSE(t.insert(2, L2Access{CacheHint::Normal, 8, false}, true).evicted.valid);
  EXPECT_EQ(t.valid_lines(), 3u);
  EXPECT_EQ(t.find(0), 0);
  EXPECT_EQ(t.find(2), 1);
  t.touch(0, 0, L2Access{});  // 0 is now more recent than 2
  L2Tags::Fill f = t.insert(4, L2Access{CacheHint::Normal, 9, false}, false);
  EXPECT_EQ(f.way, 1u);
  EXPECT_TRUE(f.evicted.valid);
  EXPECT_TRUE(f.evicted.dirty);
  EXPECT_EQ(f.evicted.block, 2u);
  EXPECT_EQ(f.evicted.region, 8u);
  EXPECT_EQ(t.find(2), -1);
  EXPECT_EQ(t.region(4, 1), 9u);
  EXPECT_EQ(t.valid_lines(), 3u);
}

TEST(L2Tags, DirtyBitsAndInvalidate) {
  L2Tags t = make(4, 2);
  t.insert(5, L2Access{CacheHint::Normal, 1, false}, false);
  uint32_t w = uint32_t(t.find(5));
  EXPECT_FALSE(t.dirty(5, w));
  t.set_dirty(5, w, true);
  EXPECT_EQ(t.dirty_lines(), 1u);
  L2Tags::Evicted e = t.invalidate(5);
  EXPECT_TRUE(e.valid && e.dirty);
  EXPECT_EQ(e.block, 5u);
  EXPECT_EQ(t.find(5), -1);
  EXPECT_EQ(t.valid_lines(), 0u);
  EXPECT_FALSE(t.invalidate(5).valid);
}

// An L2 of 512 B lines.
L2Config l2_config(uint64_t size, uint32_t ways, uint32_t slices) {
  L2Config c;
  c.size = size;
  c.ways = ways;
  c.line = 512;
  c.slices = slices;
  return c;
}

TEST(L2Geometry, MapsLinesToSlicesSetsAndBack) {
  L2Config c = l2_config(32 * 1024, 4, 2);
  L2Geometry g = L2Geometry::from(c);
  EXPECT_EQ(g.sets, 16u);
  EXPECT_EQ(g.sets_of(0), 8u);
  EXPECT_EQ(g.sets_of(1), 8u);
  // Address 0x2a00 = line 21: slice 1, block 10 (set 2).
  EXPECT_EQ(g.slice_of(0x2a00), 1u);
  EXPECT_EQ(g.block_of(0x2a00), 10u);
  EXPECT_EQ(g.block_addr(1, 10), 0x2a00u);
  EXPECT_EQ(g.line_base(0x2a7f), 0x2a00u);
}

TEST(L2Geometry, EverySliceMappingPermutesEachRowAndInverts) {
  // What L2Geometry and Hbm rely on (slice_mapping.h): each row's columns land on distinct
  // targets, and column_of inverts slice_of.
  for (const auto& e : slice_mappings().entries())
    for (uint32_t targets : {1u, 3u, 8u, 24u, 32u}) {
      auto m = slice_mappings().make(e.name, SliceShape{targets});
      for (uint64_t row : {0ull, 1ull, 2ull, 5ull, 63ull, 1000ull, 123456789ull}) {
        std::vector<bool> used(targets, false);
        for (uint32_t c = 0; c < targets; ++c) {
          const uint32_t s = m->slice_of(c, row);
          ASSERT_LT(s, targets) << e.name;
          EXPECT_FALSE(used[s]) << e.name << " row " << row;
          used[s] = true;
          EXPECT_EQ(m->column_of(s, row), c) << e.name;
        }
      }
    }
}

// Every line of the first `lines` maps to a distinct (slice, block) inside its slice's sets and
// back, for any size (slices dividing the sets or not) and every mapping.
void expect_bijective(const L2Config& c, uint64_t lines) {
  L2Geometry g = L2Geometry::from(c);
  std::set<std::pair<uint32_t, uint64_t>> seen;
  std::vector<uint64_t> per_slice(g.slices, 0);
  for (uint64_t n = 0; n < lines; ++n) {
    const uint64_t a = n * g.line;
    const uint32_t s = g.slice_of(a);
    const uint64_t b = g.block_of(a);
    ASSERT_LT(s, g.slices);
    EXPECT_TRUE(seen.insert({s, b}).second) << c.slice_mapping << " line " << n;
    EXPECT_EQ(g.block_addr(s, b), a) << c.slice_mapping << " line " << n;
    ++per_slice[s];
  }
  // One pass over all sets puts sets_of(s) lines in slice s.
  if (lines == g.sets) {
    for (uint32_t s = 0; s < g.slices; ++s) EXPECT_EQ(per_slice[s], g.sets_of(s)) << s;
  }
}

TEST(L2Geometry, AnySizeAtTheConfiguredWaysAndLine) {
  // 910B's associativity and slices at 1 MiB: 1 MiB / (24 * 512) = 85.33 -> 85 sets, 21 slices
  // with 3 and 11 with 2 (85 = 32 * 2 + 21).
  L2Config c = l2_config(1 << 20, 24, 32);
  L2Geometry g = L2Geometry::from(c);
  EXPECT_EQ(g.sets, 85u);
  EXPECT_EQ(g.sets_of(0), 3u);
  EXPECT_EQ(g.sets_of(20), 3u);
  EXPECT_EQ(g.sets_of(21), 2u);
  EXPECT_EQ(l2_geometry_note(c),
            "85 sets x 24 ways x 512 B = 1020KiB (l2.size 1MiB / 12KiB = 85.33 sets, rounded to the "
            "nearest: -0.39 %); slices 0-20 hold 3 sets, slices 21-31 hold 2");
  for (const char* m : {"modulo", "xor"}) {
    c.slice_mapping = m;
    expect_bijective(c, 85);
    expect_bijective(c, 85 * 7 + 13);
  }
  // 6 MiB and 48 MiB divide evenly: 512 and 4096 sets, 16 and 128 per slice.
  c.size = 6ull << 20;
  EXPECT_EQ(l2_geometry_note(c), "512 sets x 24 ways x 512 B = 6MiB; 16 sets in each of 32 slices");
  c.size = 48ull << 20;
  EXPECT_EQ(L2Geometry::from(c).sets_of(31), 128u);
  // 24 slices at 192 MiB: 16384 sets, 683 in slices 0-15, 682 in 16-23.
  c.size = 192ull << 20;
  c.slices = 24;
  g = L2Geometry::from(c);
  EXPECT_EQ(g.sets_of(15), 683u);
  EXPECT_EQ(g.sets_of(16), 682u);
  c.slice_mapping = "modulo";
  expect_bijective(c, 3 * 16384 + 5);
  c.slice_mapping = "xor";
  expect_bijective(c, 3 * 16384 + 5);
}

TEST(L2Geometry, ModuloIsPlainInterleavingWhenSlicesDivideTheSets) {
  L2Config c = l2_config(192ull << 20, 24, 32);
  L2Geometry g = L2Geometry::from(c);
  for (uint64_t n : {0ull, 1ull, 31ull, 32ull, 16383ull, 16384ull, 999999ull}) {
    EXPECT_EQ(g.slice_of(n * 512), n % 32);
    EXPECT_EQ(g.block_of(n * 512), n / 32);
  }
}

TEST(L2Geometry, XorSpreadsAStrideOfOneRowOverTheSlices) {
  // Lines 32 apart (a 16 KiB stride) all sit in slice 0 under modulo; the hash spreads them.
  L2Config c = l2_config(192ull << 20, 24, 32);
  c.slice_mapping = "xor";
  L2Geometry g = L2Geometry::from(c);
  std::set<uint32_t> slices;
  for (uint64_t k = 0; k < 32; ++k) slices.insert(g.slice_of(k * 32 * 512));
  EXPECT_EQ(slices.size(), 32u);  // rows 0..31 fold to 0..31: every slice once
  EXPECT_EQ(g.slice_of(0x0), 0u);
  EXPECT_EQ(g.slice_of(3 * 32 * 512 + 1 * 512), 1u ^ 3u);  // row 3, column 1
}

TEST(L2Geometry, RejectsMoreSlicesThanSets) {
  L2Config c = l2_config(1000, 4, 2);
  try {
    L2Geometry::from(c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "invalid L2 configuration: l2.size 1000 holds 1 set(s) of l2.ways * l2.line = 4 * 512 "
                 "bytes, fewer than l2.slices = 2 (every slice needs a set): raise l2.size or lower "
                 "l2.slices or l2.ways");
  }
}

}  // namespace
}  // namespace npu::hw
