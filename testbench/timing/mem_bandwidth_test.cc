// Aggregate HBM bandwidth as 1, 2, 4, 8 requesters stream through their GmPorts at once.
// Config (below): 4 HBM channels x 32 B/cycle = 128 B/cycle peak; each core's read link 64
// B/cycle; 4 slices x 128 B/cycle ports (never the bottleneck); 16 MSHRs per slice; 32 lines
// outstanding per port. Each requester reads N = 256 distinct lines (128 KB), all misses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "testbench/support/mem_bench.h"

namespace npu::test {
namespace {

constexpr uint64_t kLine = 512, kLines = 256;

hw::HwConfig bw_config() {
  hw::HwConfig c = small_mem_config();
  c.l2.size = 512 * 1024;  // 4 slices x 64 sets x 4 ways x 512 B
  c.l2.slices = 4;
  c.l2.slice_bytes_per_cycle = 128;
  c.l2.mshrs_per_slice = 16;
  c.hbm.channels = 4;
  c.hbm.bandwidth_gbps = 128;  // 32 B per cycle per channel at 1 GHz
  c.hbm.latency = 100;
  c.noc.aiv_read_bytes_per_cycle = 64;
  c.noc.latency = 5;
  c.mte.max_outstanding = 32;
  return c;
}

struct StreamRun {
  double end = 0;        // cycles
  double bytes_per_cycle = 0;
  uint64_t syncs = 0;
};

}  // namespace
StreamRun stream(uint32_t requesters, sc_core::sc_time quantum = sc_core::SC_ZERO_TIME) {
  MemBench b(bw_config(), requesters);
  for (uint32_t r = 0; r < requesters; ++r)
    b.thread([&b, r, quantum] {
      hw::GmPort::Options opt;
      opt.quantum = quantum;
      b.mem().port(r).transfer({r * kLines * kLine, kLines * kLine}, false, isa::CacheHint::Normal, opt);
    });
  StreamRun run;
  run.end = b.run();
  run.bytes_per_cycle = double(requesters * kLines * kLine) / run.end;
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), requesters * kLines * kLine);
  for (uint32_t r = 0; r < requesters; ++r)
    run.syncs += static_cast<uint64_t>(b.mem().port(r).stats().value("syncs"));
  return run;
}

namespace {
TEST(MemBandwidth, OneRequesterIsLinkBound) {
  // Line k of the single stream crosses the 64 B/cycle read link in [125 + 8k, 133 + 8k):
  // line 0's data is at the link at 5 (NoC) + 16 (channel) + 100 (latency) + 4 (slice port)
  // = 125, and every later line's data is ready before the link frees (channel k % 4 serves a
  // line every 32 link cycles but needs only 16; the 32-line window covers the 133-cycle round
  // trip). End = 133 + 8 * (N - 1) = 125 + 8 * 256 = 2173 cycles: 131072 / 2173 = 60.3 B/cycle.
  StreamRun r = stream(1);
  EXPECT_EQ(r.end, 2173);
  EXPECT_EQ(r.syncs, 0u);  // one wait per DMA
}

TEST(MemBandwidth, AggregateRisesThenPlateausAtChannelPeak) {
  // Bounds for R requesters: each channel must move R * N / 4 lines at 16 cycles each, the
  // first starting at 5 and the last followed by latency 100 + slice port 4 + link 8, so
  // end >= 4 * R * N + 117 (<= 128 B/cycle); each link gives end >= 125 + 8N (<= R * 64).
  // Measured (deterministic): R=1 60.32, R=2 113.68, R=4 119.92, R=8 123.42 B/cycle. Below
  // the bound by channel conflicts of the lock-step streams (line k of every stream maps to
  // channel k % 4) and by the tail where the last stream runs alone at its link rate.
  std::vector<double> bw;
  for (uint32_t req : {1u, 2u, 4u, 8u}) {
    StreamRun r = stream(req);
    const double bound = std::max(4.0 * req * kLines + 117, 125.0 + 8 * kLines);
    std::printf("requesters %u: end %.0f cycles (bound %.0f), %.2f B/cycle\n", req, r.end, bound,
                r.bytes_per_cycle);
    EXPECT_GE(r.end, bound) << req << " requesters";
    EXPECT_LE(r.end, bound * 1.065) << req << " requesters";  // within 6.5 % of the bound
    bw.push_back(r.bytes_per_cycle);
  }
  EXPECT_GT(bw[1], 1.85 * bw[0]);  // 2 streams: nearly twice one (link bound -> HBM bound)
  EXPECT_GT(bw[2], bw[1]);
  EXPECT_GT(bw[3], bw[2]);
  EXPECT_LT(bw[3], 1.04 * bw[2]);  // plateau: 8 streams gain < 4 % over 4
  EXPECT_GT(bw[3], 0.96 * 128.0);  // at the configured peak channels x channel_bytes_per_cycle
  EXPECT_LE(bw[3], 128.0);
}

TEST(MemBandwidth, QuantumSyncsGiveSameSingleStreamTiming) {
  // Alone, a stream's timing does not depend on how often it synchronises.
  StreamRun r = stream(1, sc_core::sc_time(100, sc_core::SC_NS));
  EXPECT_EQ(r.end, 2173);
  EXPECT_GT(r.syncs, 10u);
}

}  // namespace
}  // namespace npu::test
