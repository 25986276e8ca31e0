// base/host_phases.h and base/huge_pages.h: the host-side helpers of `npusim bench` and of the
// large buffers (GM chunks, tensors).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "base/host_phases.h"
#include "base/huge_pages.h"

namespace npu {
namespace {

TEST(HostPhases, RecordsPhasesInOrderAndASleepAsWallTime) {
  HostPhases p;
  EXPECT_TRUE(p.phases().empty());
  p.mark("first");
  p.mark("sleep");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  p.finish();
  p.finish();  // a second finish adds nothing
  ASSERT_EQ(p.phases().size(), 2u);
  EXPECT_EQ(p.phases()[0].name, "first");
  EXPECT_EQ(p.phases()[1].name, "sleep");
  EXPECT_GE(p.phases()[1].wall_s, 0.02);  // a sleep lasts at least its time
  for (const HostPhases::Phase& ph : p.phases()) EXPECT_GE(ph.cpu_s, 0.0);
  mark_phase(nullptr, "ignored");  // no recorder: nothing to do, no crash
}

TEST(HugeChunk, IsAlignedZeroedAndOwned) {
  HugeChunk a;
  const auto base = reinterpret_cast<uintptr_t>(a.data());
  EXPECT_EQ(base % kHugePageBytes, 0u);
  for (size_t i = 0; i < kHugePageBytes; i += 4096) ASSERT_EQ(a.data()[i], 0) << i;
  a.data()[kHugePageBytes - 1] = 7;
  HugeChunk b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.data()[kHugePageBytes - 1], 7);
  std::vector<unsigned char> v;
  v.reserve(3 * kHugePageBytes);
  advise_huge_pages(v.data(), 3 * kHugePageBytes);  // a hint only: the contents are unaffected
  v.assign(3 * kHugePageBytes, 1);
  EXPECT_EQ(v[2 * kHugePageBytes], 1);
  advise_huge_pages(v.data(), 100);  // no whole huge page inside: nothing to do
}

}  // namespace
}  // namespace npu
