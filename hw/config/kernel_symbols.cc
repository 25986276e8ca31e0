#include "hw/config/kernel_symbols.h"

#include <functional>

#include "hw/config/buffer_table.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

struct Row {
  std::string name, description;
  std::function<int64_t(const HwConfig&)> value;
};

// One row per constant: the one place that names it, says what it is and reads it (the
// buffers' rows from their table, hw/config/buffer_table.h).
const std::vector<Row>& rows() {
  static const std::vector<Row> r = [] {
    std::vector<Row> v = {
        {"CFG_ARCH", "architecture: 2 for a2 (chip.arch a2), 5 for a5",
         [](const HwConfig& c) { return c.chip.arch == isa::Arch::A5 ? 5 : 2; }},
        {"CFG_AIV_PER_CLUSTER", "AIVs per cluster (chip.aiv_per_cluster)",
         [](const HwConfig& c) { return c.chip.aiv_per_cluster; }},
    };
    for (const BufferRow& b : kBufferRows) {
      const std::string key = std::string("buffers.") + b.key;
      const auto size = b.size;
      const auto align = b.align;
      v.push_back({std::string("CFG_") + b.symbol + "_BYTES", std::string(b.what) + ", bytes (" + key + ".size)",
                   [size](const HwConfig& c) { return static_cast<int64_t>(c.buffers.*size); }});
      v.push_back({std::string("CFG_") + b.symbol + "_ALIGN",
                   std::string(b.what) + " address alignment, bytes (" + key + ".align)",
                   [align](const HwConfig& c) { return static_cast<int64_t>(c.buffers.*align); }});
    }
    const std::vector<Row> rest = {
        {"CFG_VEC_REPEAT_BYTES", "bytes one vector repeat processes (vector.repeat_bytes)",
         [](const HwConfig& c) { return c.vector.repeat_bytes; }},
        {"CFG_CUBE_M0", "rows of the cube's fractal tile (cube.m0)", [](const HwConfig& c) { return c.cube.m0; }},
        {"CFG_CUBE_N0", "columns of the cube's fractal tile (cube.n0)", [](const HwConfig& c) { return c.cube.n0; }},
        {"CFG_CUBE_K0_B16", "k per cube cycle for bf16 / fp16 inputs (cube.k0.b16)",
         [](const HwConfig& c) { return c.cube.k0_b16; }},
        {"CFG_CUBE_K0_S8", "k per cube cycle for int8 inputs (cube.k0.s8)",
         [](const HwConfig& c) { return c.cube.k0_s8; }},
        {"CFG_L2_LINE", "L2 line, bytes (l2.line): a GM write of a partial line may need a line fill",
         [](const HwConfig& c) { return c.l2.line; }},
    };
    v.insert(v.end(), rest.begin(), rest.end());
    return v;
  }();
  return r;
}

}  // namespace

const std::vector<KernelSymbolDef>& kernel_symbol_defs() {
  static const std::vector<KernelSymbolDef> defs = [] {
    std::vector<KernelSymbolDef> d;
    for (const Row& r : rows()) d.push_back({r.name.c_str(), r.description.c_str()});
    return d;
  }();
  return defs;
}

std::vector<isa::TargetSymbol> kernel_symbols(const HwConfig& cfg) {
  std::vector<isa::TargetSymbol> out;
  for (const Row& r : rows()) out.push_back(isa::TargetSymbol{r.name, r.value(cfg)});
  return out;
}

isa::AsmTarget asm_target(const HwConfig& cfg) { return isa::AsmTarget{cfg.chip.arch, cfg.chip.name, kernel_symbols(cfg)}; }

void check_kernel_target(const isa::Program& prog, const HwConfig& cfg) {
  const std::string why = isa::mismatched_target(prog, kernel_symbols(cfg), cfg.chip.name);
  if (!why.empty()) throw Error(why);
}

}  // namespace npu::hw
