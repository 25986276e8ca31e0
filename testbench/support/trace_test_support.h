#pragma once
// Shared by the trace tests (testbench/system/trace_*_test.cc): run the flagship kernels
// (kernels/*.s) on small shapes with tracing on, and read the files back (a small VCD reader;
// the Chrome trace is plain JSON).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/top/run.h"

namespace npu::test {

// Kernels of kernels/ that exist in this tree (linear, rmsnorm, rmsnorm_linear).
std::vector<std::string> traced_kernels();

// Runs kernels/<name>.s with a small shape (zero inputs; timing does not depend on data) on
// `cfg` with block_dim clusters and the given trace options.
hw::RunResult run_traced(const std::string& name, const hw::HwConfig& cfg, const hw::TraceOptions& trace,
                         int block_dim = 2);

struct VcdSignal {
  std::string name;   // full dotted name: "cluster0.aic.MTE2.busy"
  int width = 1;
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (time, value), in file order
};
struct VcdFile {
  std::string timescale;                      // "1 ps"
  std::vector<std::string> comments;
  std::map<std::string, VcdSignal> signals;   // by full name
  uint64_t last_time = 0;
};
// Throws npu::Error on a malformed file.
VcdFile read_vcd(const std::string& path);
// Time during which the signal is nonzero (until its last change; a signal still nonzero at
// the end counts up to `end`).
uint64_t vcd_nonzero_time(const VcdSignal& s, uint64_t end);

// A fresh path in the test's temporary directory.
std::string temp_path(const std::string& name);
std::string read_text(const std::string& path);

}  // namespace npu::test
