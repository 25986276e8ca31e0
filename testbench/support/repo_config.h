#pragma once
// The repository's shipped configs and kernels as the product loads them: configs/<name>.yaml
// through the strict loader, kernels/<name>.s through the assembler for a config's target.
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/program.h"
#include "testbench/support/paths.h"

namespace npu::test {

// configs/<name>.yaml of the repository.
hw::HwConfig load_repo_config(const std::string& name, const std::vector<std::string>& overrides = {});
// The same, loaded once per test executable (shared by its tests).
const hw::HwConfig& repo_config(const std::string& name);
inline const hw::HwConfig& tiny_config() { return repo_config("tiny"); }
inline const hw::HwConfig& ascend910b_config() { return repo_config("ascend910b"); }
// Assembles kernels/<name>.s for `cfg` (its arch and CFG_ constants, hw/config/kernel_symbols.h)
// once per distinct target; throws npu::Error with the diagnostics.
const isa::Program& load_kernel(const std::string& name, const hw::HwConfig& cfg);

}  // namespace npu::test
