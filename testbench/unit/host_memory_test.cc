// base/host_phases.h and base/huge_pages.h: the host-side helpers of `npusim bench` and of the
// large buffers (GM chunks, tensors).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>
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

// allocate_zeroed: page-aligned zero blocks, never a freed block's dirty bytes again (the second
// round allocates after every block of the first was freed and written), blocks of many mappings
// and of a mapping of their own.
TEST(AllocateZeroed, BlocksAreZeroAlignedAndNeverReusedDirty) {
  const size_t sizes[] = {1, 4096, 100000, 512 << 10};
  for (int round = 0; round < 2; ++round) {
    std::vector<std::pair<unsigned char*, size_t>> blocks;
    auto take = [&](size_t n) {
      auto* p = static_cast<unsigned char*>(allocate_zeroed(n));
      ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u) << n;
      for (size_t i = 0; i < n; i += 997) ASSERT_EQ(p[i], 0) << "round " << round << " size " << n << " byte " << i;
      ASSERT_EQ(p[n - 1], 0);
      blocks.emplace_back(p, n);
    };
    for (int rep = 0; rep < 60; ++rep)  // 60 x ~620 KiB: blocks of two shared mappings
      for (size_t n : sizes) take(n);
    take(size_t(20) << 20);  // a mapping of its own
    for (auto& [p, n] : blocks) std::memset(p, 0xA5, n);  // dirty every block, then free them all
    for (auto& [p, n] : blocks) free_zeroed(p, n);
  }
  free_zeroed(nullptr, 10);  // nothing to free
}

}  // namespace
}  // namespace npu
