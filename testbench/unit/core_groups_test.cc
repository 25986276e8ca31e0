// sem::CoreGroups and core_ranges (isa/sem/core_groups.h): the grouping of the deadlock / hang
// reports. Expected names written by hand from the CoreId lists.
#include <gtest/gtest.h>

#include "isa/sem/core_groups.h"

namespace npu::sem {
namespace {

CoreId aiv(int cluster, int sub) { return CoreId{cluster, isa::CoreType::Aiv, sub}; }
CoreId aic(int cluster) { return CoreId{cluster, isa::CoreType::Aic, 0}; }

TEST(CoreGroups, RangesNameEveryCore) {
  EXPECT_EQ(core_ranges({aiv(3, 1)}), "cluster3.aiv1");
  EXPECT_EQ(core_ranges({aiv(0, 0), aiv(0, 1), aiv(1, 0), aiv(1, 1), aiv(2, 0), aiv(2, 1)}), "cluster{0..2}.aiv{0..1}");
  // A gap in the clusters; a cluster with only one sub-core is named apart.
  EXPECT_EQ(core_ranges({aiv(0, 0), aiv(0, 1), aiv(1, 0), aiv(1, 1), aiv(3, 0), aiv(3, 1), aiv(4, 1)}),
            "cluster{0..1,3}.aiv{0..1}, cluster4.aiv1");
  EXPECT_EQ(core_ranges({aic(0), aic(1), aic(2), aic(5), aic(7), aic(8)}), "cluster{0..2,5,7..8}.aic");
}

TEST(CoreGroups, NamesReadBackAsCoreIds) {
  EXPECT_EQ(core_id_from_name("cluster3.aiv1"), aiv(3, 1));
  EXPECT_EQ(core_id_from_name("cluster12.aic"), aic(12));
  for (const char* bad : {"cluster.aic", "cluster3.aiv", "cluster03.aic", "cluster3.aic1", "core3.aic", "cluster3.cube"})
    EXPECT_EQ(core_id_from_name(bad), std::nullopt) << bad;
}

TEST(CoreGroups, SameTypeAndStateGroupInFirstSeenOrder) {
  CoreGroups g;
  g.add(aiv(0, 0), "MTE2 waits");
  g.add(aic(0), "MTE2 waits");  // another core type: its own group
  g.add(aiv(0, 1), "ready");
  g.add(aiv(1, 0), "MTE2 waits");
  g.add(aic(1), "MTE2 waits");
  const auto groups = g.groups();
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0], std::make_pair(std::string("2 AIVs (cluster{0..1}.aiv0)"), std::string("MTE2 waits")));
  EXPECT_EQ(groups[1], std::make_pair(std::string("2 AICs (cluster{0..1}.aic)"), std::string("MTE2 waits")));
  EXPECT_EQ(groups[2], std::make_pair(std::string("cluster0.aiv1"), std::string("ready")));
}

}  // namespace
}  // namespace npu::sem
