#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "testbench/support/mem_bench.h"

#include <systemc>

namespace npu::test {

hw::HwConfig small_mem_config() {
  hw::HwConfig c;
  c.chip.clock_ghz = 1.0;
  c.l2.size = 32 * 1024;
  c.l2.ways = 4;
  c.l2.line = 512;
  c.l2.slices = 2;
  c.l2.replacement = "lru";
  c.l2.read_hit_latency = 20;
  c.l2.write_hit_latency = 10;
  c.l2.slice_bytes_per_cycle = 64;
  c.l2.mshrs_per_slice = 4;
  c.l2.random_seed = 7;
  c.hbm.size = 1ull << 30;
  c.hbm.channels = 2;
  c.hbm.bandwidth_gbps = 64;  // 32 B per cycle per channel at 1 GHz
  c.hbm.latency = 100;
  c.hbm.interleave = 512;
  c.noc.aiv_read_bytes_per_cycle = 128;
  c.noc.aiv_write_bytes_per_cycle = 128;
  c.noc.aic_read_bytes_per_cycle = 128;  // AIC ports as AIV ones: the hand derivations use one rate
  c.noc.aic_write_bytes_per_cycle = 128;
  c.noc.latency = 5;
  c.mte.max_outstanding = 4;
  return c;
}

MemBench::MemBench(const hw::HwConfig& cfg, uint32_t ports)
    : mem_(std::make_unique<hw::MemSystem>("mem", cfg, ports)) {}

MemBench::~MemBench() { mem_.reset(); }

void MemBench::thread(std::function<void()> body) { bodies_.push_back(std::move(body)); }

double MemBench::run() {
  for (size_t i = 0; i < bodies_.size(); ++i)
    sc_core::sc_spawn(bodies_[i], ("driver" + std::to_string(i)).c_str());
  sc_core::sc_start();
  npu::hw::resync_sanitizer_stack();
  return now_cycles();
}

double MemBench::now_cycles() const { return cycles(*mem_, sc_core::sc_time_stamp()); }

double cycles(const hw::MemSystem& mem, sc_core::sc_time t) { return mem.clock().cycles(t.value()); }

}  // namespace npu::test
