#include "testbench/support/repo_config.h"

#include <map>

#include "hw/config/kernel_symbols.h"
#include "hw/config/loader.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"

namespace npu::test {

hw::HwConfig load_repo_config(const std::string& name, const std::vector<std::string>& overrides) {
  return hw::load_config(source_dir() + "/configs/" + name + ".yaml", overrides);
}

const hw::HwConfig& repo_config(const std::string& name) {
  static std::map<std::string, hw::HwConfig> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, load_repo_config(name)).first;
  return it->second;
}

const isa::Program& load_kernel(const std::string& name, const hw::HwConfig& cfg) {
  const isa::AsmTarget target = hw::asm_target(cfg);
  std::string key = name + "/" + std::string(isa::arch_name(target.arch));
  for (const isa::TargetSymbol& t : target.symbols) key += "/" + std::to_string(t.value);
  static std::map<std::string, isa::Program> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const std::string path = source_dir() + "/kernels/" + name + ".s";
  isa::AsmResult r = isa::assemble_file(path, target);
  if (!r.program) throw Error("assembling " + path + " failed:\n" + r.format_diags());
  return cache.emplace(key, std::move(*r.program)).first->second;
}

}  // namespace npu::test
