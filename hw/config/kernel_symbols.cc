#include "hw/config/kernel_symbols.h"

#include <functional>

#include "isa/error.h"

namespace npu::hw {
namespace {

struct Row {
  KernelSymbolDef def;
  std::function<int64_t(const HwConfig&)> value;
};

// One row per constant: the one place that names it, says what it is and reads it.
const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {{"CFG_ARCH", "architecture: 2 for a2 (chip.arch a2), 5 for a5"},
       [](const HwConfig& c) { return c.chip.arch == isa::Arch::A5 ? 5 : 2; }},
      {{"CFG_AIV_PER_CLUSTER", "AIVs per cluster (chip.aiv_per_cluster)"},
       [](const HwConfig& c) { return c.chip.aiv_per_cluster; }},
      {{"CFG_UB_BYTES", "Unified Buffer of one AIV, bytes (buffers.ub.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.ub); }},
      {{"CFG_UB_ALIGN", "UB address alignment, bytes (buffers.ub.align)"},
       [](const HwConfig& c) { return c.buffers.ub_align; }},
      {{"CFG_L1_BYTES", "L1 of one AIC, bytes (buffers.l1.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.l1); }},
      {{"CFG_L1_ALIGN", "L1 address alignment, bytes (buffers.l1.align)"},
       [](const HwConfig& c) { return c.buffers.l1_align; }},
      {{"CFG_L0A_BYTES", "L0A, bytes (buffers.l0a.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.l0a); }},
      {{"CFG_L0A_ALIGN", "L0A address alignment, bytes (buffers.l0a.align)"},
       [](const HwConfig& c) { return c.buffers.l0a_align; }},
      {{"CFG_L0B_BYTES", "L0B, bytes (buffers.l0b.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.l0b); }},
      {{"CFG_L0B_ALIGN", "L0B address alignment, bytes (buffers.l0b.align)"},
       [](const HwConfig& c) { return c.buffers.l0b_align; }},
      {{"CFG_L0C_BYTES", "L0C, bytes (buffers.l0c.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.l0c); }},
      {{"CFG_L0C_ALIGN", "L0C address alignment, bytes (buffers.l0c.align)"},
       [](const HwConfig& c) { return c.buffers.l0c_align; }},
      {{"CFG_BT_BYTES", "bias table, bytes (buffers.bias_table.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.bias_table); }},
      {{"CFG_BT_ALIGN", "bias table address alignment, bytes (buffers.bias_table.align)"},
       [](const HwConfig& c) { return c.buffers.bias_table_align; }},
      {{"CFG_FB_BYTES", "FixPipe buffer (quant parameters), bytes (buffers.fixpipe.size)"},
       [](const HwConfig& c) { return static_cast<int64_t>(c.buffers.fixpipe); }},
      {{"CFG_FB_ALIGN", "FixPipe buffer address alignment, bytes (buffers.fixpipe.align)"},
       [](const HwConfig& c) { return c.buffers.fixpipe_align; }},
      {{"CFG_VEC_REPEAT_BYTES", "bytes one vector repeat processes (vector.repeat_bytes)"},
       [](const HwConfig& c) { return c.vector.repeat_bytes; }},
      {{"CFG_CUBE_M0", "rows of the cube's fractal tile (cube.m0)"},
       [](const HwConfig& c) { return c.cube.m0; }},
      {{"CFG_CUBE_N0", "columns of the cube's fractal tile (cube.n0)"},
       [](const HwConfig& c) { return c.cube.n0; }},
      {{"CFG_CUBE_K0_B16", "k per cube cycle for bf16 / fp16 inputs (cube.k0.b16)"},
       [](const HwConfig& c) { return c.cube.k0_b16; }},
      {{"CFG_CUBE_K0_S8", "k per cube cycle for int8 inputs (cube.k0.s8)"},
       [](const HwConfig& c) { return c.cube.k0_s8; }},
      {{"CFG_L2_LINE", "L2 line, bytes (l2.line): a GM write of a partial line may need a line fill"},
       [](const HwConfig& c) { return c.l2.line; }},
  };
  return r;
}

}  // namespace

const std::vector<KernelSymbolDef>& kernel_symbol_defs() {
  static const std::vector<KernelSymbolDef> defs = [] {
    std::vector<KernelSymbolDef> d;
    for (const Row& r : rows()) d.push_back(r.def);
    return d;
  }();
  return defs;
}

std::vector<isa::TargetSymbol> kernel_symbols(const HwConfig& cfg) {
  std::vector<isa::TargetSymbol> out;
  for (const Row& r : rows()) out.push_back(isa::TargetSymbol{r.def.name, r.value(cfg)});
  return out;
}

isa::AsmTarget asm_target(const HwConfig& cfg) { return isa::AsmTarget{cfg.chip.arch, cfg.chip.name, kernel_symbols(cfg)}; }

void check_kernel_target(const isa::Program& prog, const HwConfig& cfg) {
  const std::string why = isa::mismatched_target(prog, kernel_symbols(cfg), cfg.chip.name);
  if (!why.empty()) throw Error(why);
}

}  // namespace npu::hw
