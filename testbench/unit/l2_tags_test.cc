// The plain functional core of an L2 slice: tags, valid/dirty bits, victims, region owners.
#include <gtest/gtest.h>

#include <vector>

#include "hw/mem/l2_tags.h"
#include "hw/mem/mem_types.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

using isa::CacheHint;

L2Tags make(uint32_t sets, uint32_t ways, const char* policy = "lru") {
  return L2Tags(sets, ways, 512, make_replacement_policy(policy, PolicyShape{sets, ways, 1}));
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

TEST(L2Geometry, MapsLinesToSlicesSetsAndBack) {
  L2Config c;
  c.size = 32 * 1024;
  c.ways = 4;
  c.line = 512;
  c.slices = 2;
  L2Geometry g = L2Geometry::from(c);
  EXPECT_EQ(g.sets, 8u);
  // Address 0x2a00 = line 21: slice 1, block 10 (set 2).
  EXPECT_EQ(g.slice_of(0x2a00), 1u);
  EXPECT_EQ(g.block_of(0x2a00), 10u);
  EXPECT_EQ(g.block_addr(1, 10), 0x2a00u);
  EXPECT_EQ(g.line_base(0x2a7f), 0x2a00u);
}

TEST(L2Geometry, EverySliceMappingPermutesEachGroupAndInverts) {
  // What L2Geometry relies on (slice_mapping.h): the `slices` lines of an aligned group land in
  // distinct slices, and line_of(slice_of(n), n / slices) == n.
  for (const auto& e : slice_mappings().entries())
    for (uint32_t slices : {1u, 3u, 8u}) {
      auto m = slice_mappings().make(e.name, SliceShape{slices});
      for (uint64_t group = 0; group < 64; ++group) {
        std::vector<bool> used(slices, false);
        for (uint64_t n = group * slices; n < (group + 1) * slices; ++n) {
          const uint32_t s = m->slice_of(n);
          ASSERT_LT(s, slices) << e.name;
          EXPECT_FALSE(used[s]) << e.name << " line " << n;
          used[s] = true;
          EXPECT_EQ(m->line_of(s, n / slices), n) << e.name;
        }
      }
    }
}

TEST(L2Geometry, RejectsSizeNotMultipleOfGeometry) {
  L2Config c;
  c.size = 1000;
  c.ways = 4;
  c.line = 512;
  c.slices = 2;
  try {
    L2Geometry::from(c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "invalid L2 configuration: l2.size 1000 is not a multiple of l2.ways * l2.line * "
                 "l2.slices = 4 * 512 * 2 = 4096");
  }
}

}  // namespace
}  // namespace npu::hw
