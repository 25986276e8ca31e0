#pragma once
// Test harness for the memory system: a fresh SystemC context, a MemSystem built from a
// HwConfig, and any number of scripted SC_THREADs that drive its GmPorts.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/mem/mem_system.h"
#include "hw/mem/sim_kernel.h"

namespace npu::test {

// testbench/configs/test_mem.yaml through the strict loader: small, round figures so tests can
// derive cycle counts by hand (1 GHz: 1 cycle = 1 ns): L2 32 KB = 2 slices x 8 sets x 4 ways x
// 512 B lines, LRU, read hit 20, write hit 10 cycles, slice port 64 B/cycle, 4 MSHRs/slice; HBM
// 2 channels x 32 B/cycle, latency 100, interleave 512; NoC 128 B/cycle each way per core,
// latency 5; 4 outstanding lines per GmPort.
hw::HwConfig small_mem_config();

class MemBench {
 public:
  MemBench(const hw::HwConfig& cfg, uint32_t ports);
  ~MemBench();
  hw::MemSystem& mem() { return *mem_; }
  // Adds a thread that runs `body` from time 0 (call before run()).
  void thread(std::function<void()> body);
  // Runs the simulation to the end; returns the final time in cycles.
  double run();
  double now_cycles() const;

 private:
  hw::SimContext ctx_;  // first: outlives the modules
  std::unique_ptr<hw::MemSystem> mem_;
  std::vector<std::function<void()>> bodies_;
};

// Cycles of an absolute SystemC time under the bench's clock.
double cycles(const hw::MemSystem& mem, sc_core::sc_time t);

}  // namespace npu::test
