#include "testbench/support/kernel_harness.h"

#include <cstdlib>
#include <cstring>

#include "hw/config/kernel_symbols.h"
#include "hw/config/loader.h"
#include "hw/top/run.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/iss/iss.h"

namespace npu::test {

hw::HwConfig load_repo_config(const std::string& name, const std::vector<std::string>& overrides) {
  return hw::load_config(source_dir() + "/configs/" + name + ".yaml", overrides);
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

GmImage::GmImage(const hw::HwConfig& cfg) : gm_(std::make_unique<sem::GlobalMemory>(cfg.hbm.size)) {}

uint64_t GmImage::place(const std::string& name, const golden::Tensor& t) {
  uint64_t base = alloc(name, t.dtype(), t.shape());
  gm_->write(base, t.bytes().data(), t.bytes().size());
  return base;
}

uint64_t GmImage::alloc(const std::string& name, num::Dtype dtype, std::vector<int64_t> shape) {
  if (tensors_.count(name)) throw Error("GmImage: tensor '" + name + "' placed twice");
  golden::Tensor probe(dtype, shape);
  uint64_t bytes = probe.bytes().size();
  if (bytes == 0) bytes = 1;
  const uint64_t base = next_;
  gm_->add_region(name, base, bytes);
  next_ = (base + bytes + 0xFFFF) & ~uint64_t(0xFFFF);
  tensors_[name] = Entry{base, dtype, std::move(shape)};
  return base;
}

uint64_t GmImage::addr(const std::string& name) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) throw Error("GmImage: no tensor '" + name + "'");
  return it->second.base;
}

golden::Tensor GmImage::read(const std::string& name) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) throw Error("GmImage: no tensor '" + name + "'");
  golden::Tensor t(it->second.dtype, it->second.shape);
  gm_->read(it->second.base, t.bytes().data(), t.bytes().size());
  return t;
}

std::vector<int64_t> bind_params(const isa::Program& prog, const std::map<std::string, int64_t>& values) {
  std::vector<int64_t> out;
  for (const auto& p : prog.params) {
    auto it = values.find(p.name);
    if (it == values.end()) throw Error("kernel '" + prog.name + "': no value for parameter '" + p.name + "'");
    out.push_back(it->second);
  }
  for (const auto& [name, v] : values)
    if (prog.param_index(name) < 0) throw Error("kernel '" + prog.name + "' has no parameter '" + name + "'");
  return out;
}

int64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

const char* engine_name(Engine e) { return e == Engine::Iss ? "iss" : "systemc"; }

KernelRunInfo run_kernel(Engine engine, const hw::HwConfig& cfg, const isa::Program& prog,
                         sem::GlobalMemory& gm, const std::vector<int64_t>& params, int block_dim,
                         bool timing_only) {
  hw::check_kernel_target(prog, cfg);  // assembled for another config: refused, as by npusim run
  KernelRunInfo info;
  if (engine == Engine::Iss) {
    iss::Iss sim(cfg.machine(), prog, gm, params, block_dim);
    iss::IssStats st = sim.run();
    info.instructions = st.steps;
    return info;
  }
  hw::RunOptions opt;
  opt.timing_only = timing_only;
  hw::RunResult r = hw::run_systemc(cfg, prog, gm, params, block_dim, opt);
  info.cycles = r.total_cycles;
  info.instructions = r.stats.instructions();
  info.macs = r.stats.macs();
  info.stats = std::move(r.stats);
  return info;
}

}  // namespace npu::test
