// Several simulations in one process (hw::SimContext) and their determinism: the same mixed
// workload run twice gives identical times and statistics.
#include <gtest/gtest.h>

#include <string>

#include "testbench/support/mem_bench.h"

namespace npu::test {
namespace {

using isa::CacheHint;

struct Outcome {
  double end = 0;
  hw::StatRecord stats;
  double evictions = 0, writebacks = 0;
};

// Three ports: a reader and a writer sharing a tensor, and a none_cacheable streamer, on a
// random-replacement L2 small enough to evict (dirty write-backs included).
Outcome mixed_run() {
  hw::HwConfig cfg = small_mem_config();
  cfg.l2.replacement = "random";
  MemBench b(cfg, 3);
  b.mem().regions().add("a", 0, 64 * 1024);
  b.mem().regions().add("s", 1 << 20, 64 * 1024);
  b.thread([&] {
    for (int i = 0; i < 3; ++i) b.mem().port(0).transfer({0, 48 * 1024}, false, CacheHint::Normal);
  });
  b.thread([&] {
    std::vector<hw::GmRange> rows;
    for (int r = 0; r < 32; ++r) rows.push_back({uint64_t(r) * 1024 + 256, 384});  // 2-D strided
    for (int i = 0; i < 3; ++i) b.mem().port(1).transfer(rows, true, CacheHint::Normal);
  });
  b.thread([&] {
    b.mem().port(2).transfer({1 << 20, 64 * 1024}, false, CacheHint::NoneCacheable);
    b.mem().port(2).transfer({1 << 20, 16 * 1024}, true, CacheHint::Prefetch);
  });
  Outcome o;
  o.end = b.run();
  o.stats = b.mem().stats().snapshot();
  o.evictions = double(b.mem().l2_total().evictions);
  o.writebacks = double(b.mem().l2_total().dirty_writebacks);
  return o;
}

TEST(MemSimKernel, TwoSimulationsInOneProcessAreIdentical) {
  Outcome a = mixed_run();
  Outcome b = mixed_run();
  EXPECT_GT(a.end, 0);
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.stats, b.stats);
  EXPECT_GT(a.evictions, 0);  // the workload does exercise replacement and write-back
  EXPECT_GT(a.writebacks, 0);
}

TEST(MemSimKernel, ManyFreshContexts) {
  // Each MemBench elaborates and runs in its own context; time restarts at zero each time.
  for (int i = 0; i < 5; ++i) {
    MemBench b(small_mem_config(), 1);
    double t = 0;
    b.thread([&] {
      b.mem().port(0).transfer({0, 512}, false, CacheHint::Normal);
      t = b.now_cycles();
    });
    b.run();
    EXPECT_EQ(t, 133) << "run " << i;  // the miss of MemL2.ReadMissThenHitLatency
  }
}

}  // namespace
}  // namespace npu::test
