#pragma once
// A small harness for the flagship kernels (kernels/*.s): assemble a kernel, place tensors in
// GM as named regions, bind the kernel parameters by name, run the launch on the functional ISS
// or on the SystemC model (hw/top/run.h), and read the outputs back as golden::Tensor.
//
//   hw::HwConfig cfg = test::load_repo_config("tiny");
//   const isa::Program& prog = test::load_kernel("linear", cfg);  // kernels/linear.s
//   test::GmImage gm(cfg);
//   gm.place("x", x); gm.place("w", w); gm.alloc("y", Dtype::BF16, {M, N});
//   auto params = test::bind_params(prog, {{"x", gm.addr("x")}, ..., {"M", M}});
//   test::run_kernel(test::Engine::Iss, cfg, prog, gm.gm(), params, block_dim);
//   golden::Tensor y = gm.read("y");
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "testbench/support/paths.h"
#include <vector>

#include "hw/top/sim_stats.h"

#include "hw/config/hw_config.h"
#include "isa/program.h"
#include "isa/sem/gm.h"
#include "golden/tensor.h"

namespace npu::test {

// configs/<name>.yaml of the repository.
hw::HwConfig load_repo_config(const std::string& name, const std::vector<std::string>& overrides = {});
// Assembles kernels/<name>.s for `cfg` (its arch and CFG_ constants, hw/config/kernel_symbols.h)
// once per distinct target; throws npu::Error with the diagnostics.
const isa::Program& load_kernel(const std::string& name, const hw::HwConfig& cfg);

// GM contents of one launch: tensors placed as named regions, 64 KiB aligned.
class GmImage {
 public:
  explicit GmImage(const hw::HwConfig& cfg);
  // Writes t into a fresh region `name`; returns its base address.
  uint64_t place(const std::string& name, const golden::Tensor& t);
  // A zero-filled region for an output tensor of the given dtype and shape.
  uint64_t alloc(const std::string& name, num::Dtype dtype, std::vector<int64_t> shape);
  uint64_t addr(const std::string& name) const;  // throws for unknown names
  golden::Tensor read(const std::string& name) const;  // with the dtype/shape it was created with
  sem::GlobalMemory& gm() { return *gm_; }

 private:
  struct Entry {
    uint64_t base;
    num::Dtype dtype;
    std::vector<int64_t> shape;
  };
  std::unique_ptr<sem::GlobalMemory> gm_;
  std::map<std::string, Entry> tensors_;
  uint64_t next_ = 0x10000;
};

// Parameter values in program.params order from a name -> value map (fp32 parameters take
// their bit pattern, see f32_bits). Throws for a missing or unknown name.
std::vector<int64_t> bind_params(const isa::Program& prog, const std::map<std::string, int64_t>& values);
int64_t f32_bits(float f);

enum class Engine { Iss, SystemC };
const char* engine_name(Engine e);

struct KernelRunInfo {
  uint64_t cycles = 0;        // SystemC: total cycles; ISS: 0 (no time)
  uint64_t instructions = 0;  // ISS: steps; SystemC: retired instructions
  uint64_t macs = 0;          // SystemC only
  hw::SimStats stats;         // SystemC statistics
};

// Runs the launch; kernel faults, deadlocks and bad launches throw npu::Error.
KernelRunInfo run_kernel(Engine engine, const hw::HwConfig& cfg, const isa::Program& prog,
                         sem::GlobalMemory& gm, const std::vector<int64_t>& params, int block_dim,
                         bool timing_only = false);

}  // namespace npu::test
