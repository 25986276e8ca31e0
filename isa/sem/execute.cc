#include "isa/sem/execute.h"

#include <array>

#include "isa/dtype_rules.h"
#include "isa/sem/exec_util.h"

namespace npu::sem {
namespace {

using ExecFn = void (*)(detail::Exec&);

// The semantics function of a data instruction; nullptr for scalar and sync ones (the scalar
// unit and sync.h run those), which have none.
template <isa::Op op, isa::PipeRule pipe>
constexpr ExecFn exec_fn() {
  if constexpr (pipe == isa::PipeRule::Scalar || pipe == isa::PipeRule::FromField0 ||
                pipe == isa::PipeRule::FromField1)
    return nullptr;
  else
    return &detail::exec<op>;
}

// Indexed by opcode.
constexpr std::array<ExecFn, 1 << isa::kOpcodeBits> make_exec_table() {
  std::array<ExecFn, 1 << isa::kOpcodeBits> t{};
#define INSN(id, opcode, mn, pipe, ...) t[opcode] = exec_fn<isa::Op::id, isa::PipeRule::pipe>();
#include "isa/instructions.def"
#undef INSN
  return t;
}
constexpr std::array<ExecFn, 1 << isa::kOpcodeBits> kExec = make_exec_table();

}  // namespace

void execute(const DispatchedInstr& di, ExecContext& ctx) {
  detail::Exec x(di, ctx);
  const ExecFn fn = kExec[isa::opcode(di.op())];
  if (!fn) x.bad("internal: execute() called for a scalar or sync instruction");
  // Dtype legality is the instruction table's (isa/dtype_rules.h), the one the assembler and
  // the object loader ask: a hand-encoded instruction gets no wider set.
  const std::string dtype_error = isa::first_dtype_error(di.in, x.core.arch);
  if (!dtype_error.empty()) x.bad(dtype_error);
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
  fn(x);
}

}  // namespace npu::sem
