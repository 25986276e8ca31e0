#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "testbench/support/mem_bench.h"

#include <systemc>

#include "hw/config/loader.h"
#include "testbench/support/paths.h"

namespace npu::test {

hw::HwConfig small_mem_config() { return hw::load_config(source_path("testbench/configs/test_mem.yaml")); }

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
