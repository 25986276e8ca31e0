// Timing of the L2 / HBM / interconnect through GmPort, with cycle counts derived by hand from
// small_mem_config() (testbench/support/mem_bench.cc):
//   NoC latency 5, core links 128 B/cycle; slice port 64 B/cycle; read hit 20, write hit 10;
//   HBM channel 32 B/cycle + latency 100; 512 B lines; 2 slices, 8 sets, 4 ways; 2 channels.
// A full line therefore costs: link 512/128 = 4, slice port 512/64 = 8, HBM channel 512/32 = 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "testbench/support/mem_bench.h"

namespace npu::test {
namespace {

using isa::CacheHint;
constexpr uint64_t kLine = 512;
// Lines that share slice 0, set 0: global line n with n % 2 == 0 (slice) and (n / 2) % 8 == 0
// (set), i.e. every 16th line: addresses k * 8192. They all live in HBM channel 0.
constexpr uint64_t kSameSet = 16 * kLine;

TEST(MemL2, ReadMissThenHitLatency) {
  MemBench b(small_mem_config(), 1);
  double miss = 0, hit = 0;
  b.thread([&] {
    auto& p = b.mem().port(0);
    double t0 = b.now_cycles();
    p.transfer({0, kLine}, false, CacheHint::Normal);
    miss = b.now_cycles() - t0;
    t0 = b.now_cycles();
    p.transfer({0, kLine}, false, CacheHint::Normal);
    hit = b.now_cycles() - t0;
  });
  b.run();
  // Miss: NoC 5 + HBM transfer 16 + HBM latency 100 + slice port 8 + read link 4 = 133.
  EXPECT_EQ(miss, 133);
  // Hit: NoC 5 + slice port 8 + read hit 20 + read link 4 = 37.
  EXPECT_EQ(hit, 37);
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.read_misses, 1u);
  EXPECT_EQ(c.read_hits, 1u);
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), kLine);
}

TEST(MemL2, MultiLineReadUsesWindowAndOneWait) {
  MemBench b(small_mem_config(), 1);
  hw::GmPort::Result r;
  b.thread([&] { r = b.mem().port(0).transfer({0, 2 * kLine}, false, CacheHint::Normal); });
  b.run();
  // Line 0 -> slice 0, channel 0; line 1 -> slice 1, channel 1: both issued at 0, independent
  // up to the shared read link. Line 0 done at 133 (above); line 1's data reaches the link at
  // 129 too, but the link is busy [129,133): it crosses [133,137) -> 137.
  EXPECT_EQ(cycles(b.mem(), r.end), 137);
  EXPECT_EQ(r.requests, 2u);
}

TEST(MemL2, PrefetchMissAlsoFetchesTheNextLineOffTheRequestersPath) {
  for (uint32_t lines : {1u, 0u}) {
    hw::HwConfig cfg = small_mem_config();
    cfg.l2.prefetch_lines = lines;
    MemBench b(cfg, 1);
    double miss = 0, next = 0;
    b.thread([&] {
      auto& p = b.mem().port(0);
      double t0 = b.now_cycles();
      p.transfer({0, kLine}, false, CacheHint::Prefetch);
      miss = b.now_cycles() - t0;
      t0 = b.now_cycles();
      p.transfer({kLine, kLine}, false, CacheHint::Normal);
      next = b.now_cycles() - t0;
    });
    b.run();
    // The miss costs what a normal one does (133, above): line 1's prefetch uses slice 1 and
    // HBM channel 1 (from the miss's MSHR grant at 5, in L2 at 5 + 16 + 100 = 121).
    EXPECT_EQ(miss, 133) << lines;
    auto c = b.mem().l2_total();
    EXPECT_EQ(c.prefetch_accesses, 1u);
    if (lines == 1) {
      EXPECT_EQ(next, 37);  // a plain hit (the fill landed at 121 < 133)
      EXPECT_EQ(c.prefetch_fills, 1u);
      EXPECT_EQ(c.read_misses, 1u);
      EXPECT_EQ(c.read_hits, 1u);
      EXPECT_EQ(c.accesses(), 2u);  // the fill is not a requester access
      EXPECT_EQ(b.mem().hbm().total_bytes_read(), 2 * kLine);
    } else {
      EXPECT_EQ(next, 133);  // l2.prefetch_lines 0: prefetch is normal, line 1 misses
      EXPECT_EQ(c.prefetch_fills, 0u);
      EXPECT_EQ(c.read_misses, 2u);
    }
  }
}

TEST(MemL2, PrefetchSkipsPresentAndNoneCacheableLines) {
  MemBench b(small_mem_config(), 1);
  b.mem().regions().add("w", kLine, kLine, CacheHint::NoneCacheable);  // line 1
  b.thread([&] {
    auto& p = b.mem().port(0);
    p.transfer({0, kLine}, false, CacheHint::Prefetch);       // miss; next line 1: none_cacheable tensor
    p.transfer({5 * kLine, kLine}, false, CacheHint::Normal);  // line 5 now present
    p.transfer({4 * kLine, kLine}, false, CacheHint::Prefetch);  // miss; next line 5 present
  });
  b.run();
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.read_misses, 3u);
  EXPECT_EQ(c.prefetch_fills, 0u);
  EXPECT_FALSE(b.mem().slice_of(kLine).contains(kLine));
}

TEST(MemL2, NoneCacheableReadMissBypasses) {
  MemBench b(small_mem_config(), 1);
  double full = 0, part = 0;
  b.thread([&] {
    auto& p = b.mem().port(0);
    double t0 = b.now_cycles();
    p.transfer({0, kLine}, false, CacheHint::NoneCacheable);
    full = b.now_cycles() - t0;
    t0 = b.now_cycles();
    p.transfer({kLine * 4, 128}, false, CacheHint::NoneCacheable);
    part = b.now_cycles() - t0;
  });
  b.run();
  // Full line: same path as a miss: 5 + 16 + 100 + 8 + 4 = 133.
  EXPECT_EQ(full, 133);
  // 128 B: 5 + HBM 128/32 = 4 + 100 + port 128/64 = 2 + link 128/128 = 1 = 112.
  EXPECT_EQ(part, 112);
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.bypass_reads, 2u);
  EXPECT_EQ(c.read_misses, 0u);
  EXPECT_EQ(c.read_hits, 0u);
  EXPECT_EQ(c.none_cacheable_accesses, 2u);
  EXPECT_FALSE(b.mem().slice_of(0).contains(0));
  EXPECT_EQ(b.mem().slice(0).tags().valid_lines() + b.mem().slice(1).tags().valid_lines(), 0u);
  // Only the requested bytes were read from HBM.
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), kLine + 128);
}

TEST(MemL2, NoneCacheableWriteUpdatesPresentLine) {
  MemBench b(small_mem_config(), 1);
  double clean_wt = 0;
  b.thread([&] {
    auto& p = b.mem().port(0);
    p.transfer({0, kLine}, false, CacheHint::Normal);  // line 0 present, clean
    double t0 = b.now_cycles();
    p.transfer({0, kLine}, true, CacheHint::NoneCacheable);
    clean_wt = b.now_cycles() - t0;
    p.transfer({0, 256}, true, CacheHint::Normal);          // write hit: line dirty
    p.transfer({0, 128}, true, CacheHint::NoneCacheable);   // merged line written through
  });
  b.run();
  // Write-through of a clean present line: write link 4 + NoC 5 + slice port 8, then HBM write
  // 512/32 = 16 + latency 100: 4 + 5 + 8 + 16 + 100 = 133.
  EXPECT_EQ(clean_wt, 133);
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.bypass_writes, 2u);
  EXPECT_EQ(c.writethrough_updates, 2u);
  EXPECT_EQ(c.write_hits, 1u);
  EXPECT_TRUE(b.mem().slice_of(0).contains(0));
  EXPECT_FALSE(b.mem().slice_of(0).is_dirty(0));  // not left stale, not left dirty
  // HBM writes: 512 (first write-through) + 512 (the dirty line, merged, written whole).
  EXPECT_EQ(b.mem().hbm().total_bytes_written(), 2 * kLine);
}

TEST(MemL2, WriteAllocateAndDirtyWriteBack) {
  MemBench b(small_mem_config(), 1);
  double full_miss = 0, part_miss = 0, victim_read = 0;
  b.thread([&] {
    auto& p = b.mem().port(0);
    double t0 = b.now_cycles();
    p.transfer({0 * kSameSet, kLine}, true, CacheHint::Normal);
    full_miss = b.now_cycles() - t0;
    p.transfer({1 * kSameSet, kLine}, true, CacheHint::Normal);
    p.transfer({2 * kSameSet, kLine}, true, CacheHint::Normal);
    t0 = b.now_cycles();
    p.transfer({3 * kSameSet, 128}, true, CacheHint::Normal);  // partial: fetches the line
    part_miss = b.now_cycles() - t0;
    t0 = b.now_cycles();
    p.transfer({4 * kSameSet, kLine}, false, CacheHint::Normal);  // evicts line 0 (LRU, dirty)
    victim_read = b.now_cycles() - t0;
  });
  b.run();
  // Full-line write miss: link 4 + NoC 5 + port 8 + write hit 10 = 27 (no HBM read).
  EXPECT_EQ(full_miss, 27);
  // Partial write miss: link 1 + NoC 5 = 6 at the slice; the line is fetched through an MSHR:
  // HBM 16 + 100 -> 122; the data (port 2, done at 8) merges at 122; + write hit 10 = 132.
  EXPECT_EQ(part_miss, 132);
  // The read miss that evicts a dirty line still costs 133: the write-back is off its path.
  EXPECT_EQ(victim_read, 133);
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.write_misses, 4u);
  EXPECT_EQ(c.read_misses, 1u);
  EXPECT_EQ(c.evictions, 1u);
  EXPECT_EQ(c.dirty_writebacks, 1u);
  EXPECT_FALSE(b.mem().slice_of(0).contains(0));
  // HBM: read the partial line's fill and the last read; wrote back one dirty line.
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), 2 * kLine);
  EXPECT_EQ(b.mem().hbm().total_bytes_written(), kLine);
  EXPECT_EQ(b.mem().hbm().bytes_written(0), kLine);
}

TEST(MemL2, HitUnderMissWaitsForTheFill) {
  MemBench b(small_mem_config(), 2);
  double end[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    b.thread([&, i] {
      b.mem().port(i).transfer({0, kLine}, false, CacheHint::Normal);
      end[i] = b.now_cycles();
    });
  b.run();
  // Both ports read line 0 at time 0. Whichever reaches the slice first misses (done 133).
  // The other arrives at 5 too, finds the line allocated but its fill due at 121: it waits,
  // takes the slice port [129,137) (the first request's data holds [121,129)), + read hit 20
  // = 157, then its own link 4 -> 161.
  EXPECT_EQ(std::min(end[0], end[1]), 133);
  EXPECT_EQ(std::max(end[0], end[1]), 161);
  auto c = b.mem().l2_total();
  EXPECT_EQ(c.read_misses, 1u);
  EXPECT_EQ(c.read_hits, 1u);
  EXPECT_EQ(c.hits_under_miss, 1u);
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), kLine);
}

// A B A B C D E F A B in one 4-way set: LRU keeps the two most recent scan lines and loses A,
// B (2 hits); SRRIP promoted A and B on their hits (RRPV 0) and evicts the scan lines instead
// (4 hits). The tag-level derivation is in testbench/unit/l2_policy_test.cc.
uint64_t hits_for(const std::string& policy) {
  hw::HwConfig cfg = small_mem_config();
  cfg.l2.replacement = policy;
  MemBench b(cfg, 1);
  b.thread([&] {
    for (int line : {0, 1, 0, 1, 2, 3, 4, 5, 0, 1})
      b.mem().port(0).transfer({line * kSameSet, kLine}, false, CacheHint::Normal);
  });
  b.run();
  return b.mem().l2_total().read_hits;
}

TEST(MemL2, LruVersusSrripHits) {
  EXPECT_EQ(hits_for("lru"), 2u);
  EXPECT_EQ(hits_for("srrip"), 4u);
}

TEST(MemL2, UnknownPolicyIsAnError) {
  hw::HwConfig cfg = small_mem_config();
  cfg.l2.replacement = "plru";
  try {
    MemBench b(cfg, 1);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown L2 replacement policy 'plru' (known: lru, pacman, random, srrip)");
  }
}

// Reads tensor x (8 KB = 16 lines) twice; returns the L2 counters of region x.
hw::L2Counters two_passes(std::optional<CacheHint> override_x) {
  MemBench b(small_mem_config(), 1);
  const uint32_t x = b.mem().regions().add("x", 0, 16 * kLine);
  b.mem().regions().add("y", 16 * kLine, 4 * kLine);
  if (override_x) b.mem().regions().set_override("x", override_x);
  b.thread([&] {
    for (int pass = 0; pass < 2; ++pass) {
      b.mem().port(0).transfer({0, 16 * kLine}, false, CacheHint::Normal);
      b.mem().port(0).transfer({16 * kLine, 4 * kLine}, false, CacheHint::Normal);
    }
  });
  b.run();
  // y (4 lines, one pass misses, one hits) is the same either way.
  hw::L2Counters y = b.mem().l2_region_total(b.mem().regions().id_of("y"));
  EXPECT_EQ(y.read_misses, 4u);
  EXPECT_EQ(y.read_hits, 4u);
  return b.mem().l2_region_total(x);
}

TEST(MemL2, RegionOverrideFlipsTensorToNoneCacheable) {
  // 16 + 4 lines fit in the 64-line L2 (each set gets at most 2 of them), so pass 2 hits.
  hw::L2Counters normal = two_passes(std::nullopt);
  EXPECT_EQ(normal.read_misses, 16u);
  EXPECT_EQ(normal.read_hits, 16u);
  EXPECT_EQ(normal.bypass_reads, 0u);
  hw::L2Counters flipped = two_passes(CacheHint::NoneCacheable);
  EXPECT_EQ(flipped.read_misses, 0u);
  EXPECT_EQ(flipped.read_hits, 0u);
  EXPECT_EQ(flipped.bypass_reads, 32u);
  EXPECT_EQ(flipped.none_cacheable_accesses, 32u);
}

TEST(MemL2, WarmStartPreloadsLines) {
  hw::HwConfig cfg = small_mem_config();
  cfg.l2.warm = true;
  MemBench b(cfg, 1);
  b.mem().regions().add("w", 0, 4 * kLine);
  b.mem().preload({{0, 4 * kLine}});
  double t = 0;
  b.thread([&] {
    b.mem().port(0).transfer({0, kLine}, false, CacheHint::Normal);
    t = b.now_cycles();
  });
  b.run();
  EXPECT_EQ(t, 37);  // a hit (see ReadMissThenHitLatency)
  EXPECT_EQ(b.mem().l2_total().read_hits, 1u);
  EXPECT_EQ(b.mem().slice(0).tags().valid_lines() + b.mem().slice(1).tags().valid_lines(), 4u);
  EXPECT_EQ(b.mem().hbm().total_bytes_read(), 0u);
}

// A child group of g by name (the memory system's statistics tree).
const hw::StatGroup& child(const hw::StatGroup& g, const std::string& name) {
  for (const hw::StatGroup* c : g.children())
    if (c->name() == name) return *c;
  throw Error("no stat group '" + name + "' in '" + g.name() + "'");
}

TEST(MemL2, StatsHaveTotalsSlicesChannelsAndRegions) {
  MemBench b(small_mem_config(), 1);
  const uint32_t t = b.mem().regions().add("t", 0, 2 * kLine);
  b.thread([&] {
    b.mem().port(0).transfer({0, 2 * kLine}, false, CacheHint::Normal);
    b.mem().port(0).transfer({0, 2 * kLine}, false, CacheHint::Normal);
  });
  b.run();
  const hw::StatGroup& s = b.mem().stats();
  EXPECT_EQ(child(s, "l2").value("read_hits"), 2);
  EXPECT_EQ(child(s, "l2").value("read_misses"), 2);
  EXPECT_EQ(child(s, "l2").value("hit_rate"), 0.5);
  EXPECT_EQ(child(child(s, "l2"), "l2_slice0").value("read_hits"), 1);
  EXPECT_EQ(child(child(s, "hbm"), "ch0").value("bytes_read"), kLine);
  EXPECT_EQ(child(child(s, "hbm"), "ch1").value("bytes_read"), kLine);
  EXPECT_EQ(child(child(s, "hbm"), "ch0").value("busy_cycles"), 16);
  EXPECT_EQ(b.mem().l2_region_total(t).read_hits, 2u);
  EXPECT_EQ(child(child(s, "noc"), "port0").value("bytes_read"), 4 * kLine);
  EXPECT_EQ(child(child(s, "gm_ports"), "gm_port0").value("transfers"), 2);
}

// MemSystem's modules call each other directly (LineRequest); their TLM sockets stay bound and
// serve the same requests with the same code (each b_transport wraps the direct body). Four
// ports contending with every hint, partial and whole lines, reads and posted writes and a
// quantum: every transfer's times, the final time, every L2 counter and the HBM traffic agree.
TEST(MemL2, DirectCallsAndTlmSocketsGiveTheSameTiming) {
  struct Run {
    std::vector<uint64_t> times;
    double end = 0;
    hw::L2Counters l2;
    std::vector<uint64_t> hbm;
  };
  auto run = [](bool sockets) {
    hw::HwConfig cfg = small_mem_config();
    cfg.l2.prefetch_lines = 1;
    MemBench b(cfg, 4);
    if (sockets) b.mem().route_through_sockets();
    Run out;
    std::vector<std::vector<uint64_t>> per(4);
    for (uint32_t p = 0; p < 4; ++p)
      b.thread([&b, &per, p] {
        hw::GmPort& port = b.mem().port(p);
        const CacheHint hints[] = {CacheHint::Normal, CacheHint::Prefetch, CacheHint::NoneCacheable};
        for (uint64_t k = 0; k < 24; ++k) {
          const uint64_t addr = (p * 37 + k * 11) % 160 * kLine + (k % 3) * 96;  // 2.5x the L2, partial lines
          const uint64_t bytes = k % 4 == 0 ? 3 * kLine : 700 + 64 * k;
          hw::GmPort::Options o;
          if (p == 3) o.quantum = sc_core::sc_time::from_value(b.mem().clock().ticks(40));
          const hw::GmPort::Result r = port.transfer({addr, bytes}, /*write=*/(k + p) % 3 == 0, hints[(k + p) % 3], o);
          per[p].insert(per[p].end(), {r.start.value(), r.end.value(), r.handed_off.value(), r.requests});
        }
      });
    out.end = b.run();
    for (auto& v : per) out.times.insert(out.times.end(), v.begin(), v.end());
    out.l2 = b.mem().l2_total();
    for (uint32_t c = 0; c < b.mem().hbm().channels(); ++c)
      out.hbm.insert(out.hbm.end(), {b.mem().hbm().bytes_read(c), b.mem().hbm().bytes_written(c), b.mem().hbm().requests(c)});
    return out;
  };
  const Run direct = run(false), sockets = run(true);
  EXPECT_EQ(direct.times, sockets.times);
  EXPECT_EQ(direct.end, sockets.end);
  EXPECT_EQ(direct.hbm, sockets.hbm);
  for (const hw::L2Counters::Field& f : hw::L2Counters::fields())
    EXPECT_EQ(direct.l2.*f.member, sockets.l2.*f.member) << f.name;
  // The scenario exercises what it claims to.
  EXPECT_GT(direct.l2.read_misses, 0u);
  EXPECT_GT(direct.l2.read_hits, 0u);
  EXPECT_GT(direct.l2.write_misses + direct.l2.write_hits, 0u);
  EXPECT_GT(direct.l2.bypass_reads + direct.l2.bypass_writes, 0u);
  EXPECT_GT(direct.l2.prefetch_fills, 0u);
  EXPECT_GT(direct.l2.evictions, 0u);
  EXPECT_GT(direct.l2.dirty_writebacks, 0u);
}

}  // namespace
}  // namespace npu::test
