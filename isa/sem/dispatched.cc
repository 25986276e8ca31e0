#include "isa/sem/dispatched.h"

#include "isa/error.h"

namespace npu::sem {

int64_t DispatchedInstr::operator[](std::string_view name) const {
  int i = in.d().field_index(name);
  if (i < 0)
    throw Error("internal: " + std::string(in.d().mnemonic) + " has no operand '" +
                std::string(name) + "'");
  return v[i];
}

void DispatchedInstr::wrong_view(isa::Op want) const {
  throw Error("internal: the operands of " + std::string(in.d().mnemonic) + " read as " +
              std::string(isa::def(want).mnemonic) + "'s");
}

void read_operands(const CoreState& core, const isa::Instr& in, int64_t* v) {
  const isa::InstrDef& d = in.d();
  for (int i = 0; i < d.nfields; ++i) {
    const isa::Operand& o = in.f[i];
    if (o.is_reg && d.fields[i].kind != isa::FieldKind::RegDst)
      v[i] = static_cast<int64_t>(core.reg(static_cast<int>(o.value)));
    else
      v[i] = o.value;
  }
}

DispatchedInstr resolve(const CoreState& core, const isa::Instr& in, uint32_t pc) {
  DispatchedInstr di;
  di.in = in;
  di.pc = pc;
  di.pipe = isa::pipe_of(in);
  read_operands(core, in, di.v.data());
  return di;
}

}  // namespace npu::sem
