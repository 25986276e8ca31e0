#pragma once
// Shared by the core/sync timing tests and the co-simulation tests: a small config with round
// numbers (1 GHz, so a cycle is 1000 ps) and a way to write programs as isa::Instr
// values without the assembler.
#include <cstdint>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "hw/config/loader.h"
#include "isa/isa.h"
#include "isa/program.h"
#include "testbench/support/paths.h"

namespace npu::coretest {

using isa::Op;

// The test machine (testbench/configs/test_core.yaml, every figure the derivations in the tests'
// comments use), loaded through the strict loader like any config.
inline hw::HwConfig test_config() { return hw::load_config(test::source_path("testbench/configs/test_core.yaml")); }

// An operand: an immediate / enum value / target, or a register (R(n)).
struct Opd {
  bool reg = false;
  int64_t v = 0;
  Opd(int64_t x) : v(x) {}  // NOLINT: implicit on purpose
  Opd(isa::Pipe p) : v(static_cast<int64_t>(p)) {}
  Opd(isa::Dtype d) : v(static_cast<int64_t>(d)) {}
};
inline Opd R(int n) {
  Opd o(n);
  o.reg = true;
  return o;
}

// Operands in table order (suffixes first); omitted trailing operands take their defaults.
inline isa::Instr I(Op op, std::vector<Opd> ops = {}) {
  isa::Instr in;
  in.op = op;
  const isa::InstrDef& d = isa::def(op);
  for (int i = 0; i < d.nfields; ++i) {
    if (i < static_cast<int>(ops.size())) {
      in.f[i].is_reg = ops[i].reg || d.fields[i].kind == isa::FieldKind::RegDst ||
                       d.fields[i].kind == isa::FieldKind::RegSrc;
      in.f[i].value = ops[i].v;
    } else {
      in.f[i].is_reg = d.fields[i].kind == isa::FieldKind::RegSrc;
      in.f[i].value = d.fields[i].default_value;
    }
  }
  return in;
}

struct Code {
  std::vector<isa::Instr> v;
  int pc() const { return static_cast<int>(v.size()); }
  Code& operator()(Op op, std::vector<Opd> ops = {}) {
    v.push_back(I(op, std::move(ops)));
    return *this;
  }
};

// Kernel parameters are all GM addresses or integers named p0, p1, ...
inline isa::Program make_program(const std::string& name, int nparams, const Code* aic, const Code* aiv) {
  isa::Program p;
  p.name = name;
  for (int i = 0; i < nparams; ++i) p.params.push_back({"p" + std::to_string(i), isa::ParamKind::Int, {}});
  if (aic) {
    p.aic.present = true;
    p.aic.code = aic->v;
  }
  if (aiv) {
    p.aiv.present = true;
    p.aiv.code = aiv->v;
  }
  return p;
}

}  // namespace npu::coretest
