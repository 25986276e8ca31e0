#include "isa/sem/execute.h"

#include "isa/sem/exec_util.h"
#include "isa/sem/scalar.h"

namespace npu::sem {

void execute(const DispatchedInstr& di, ExecContext& ctx) {
  detail::Exec x(di, ctx);
  if (!is_data_op(di.op())) x.bad("internal: execute() called for a scalar or sync instruction");
  // A register used for an unsigned register-or-immediate operand must hold a value the
  // immediate form could hold (sizes, counts, offsets): this bounds every loop below.
  const isa::InstrDef& d = di.in.d();
  for (int i = 0; i < d.nfields; ++i) {
    const isa::FieldDef& f = d.fields[i];
    if (f.kind != isa::FieldKind::URegOrImm || !di.in.f[i].is_reg) continue;
    uint64_t max = (uint64_t{1} << f.bits) - 1;
    if (static_cast<uint64_t>(di.v[i]) > max)
      x.bad("operand " + std::string(f.name) + " = r" + std::to_string(di.in.f[i].value) + " = " +
            std::to_string(di.v[i]) + " is out of range (0.." + std::to_string(max) + ")");
  }
  switch (d.timing) {
    case isa::TimingClass::DmaGmUb: case isa::TimingClass::DmaUbGm: case isa::TimingClass::DmaGmL1:
    case isa::TimingClass::DmaL1L0a: case isa::TimingClass::DmaL1L0b: case isa::TimingClass::DmaL1Fb:
    case isa::TimingClass::DmaUbL1: case isa::TimingClass::DmaL1Ub:
      return detail::exec_dma(x);
    case isa::TimingClass::Mmad: case isa::TimingClass::MmadMx: return detail::exec_cube(x);
    case isa::TimingClass::Fix: case isa::TimingClass::FixUb: return detail::exec_fix(x);
    default: return detail::exec_vector(x);
  }
}

}  // namespace npu::sem
