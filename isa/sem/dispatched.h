#pragma once
// An instruction as the scalar unit hands it to a pipe: the Instr, its pc and every operand
// with registers already read (so later register writes by the scalar unit do not affect it).
#include <array>
#include <cstdint>
#include <string_view>

#include "isa/isa.h"
#include "isa/operands.h"
#include "isa/sem/core_state.h"

namespace npu::sem {

struct DispatchedInstr {
  isa::Instr in;
  uint32_t pc = 0;
  isa::Pipe pipe = isa::Pipe::Scalar;
  // v[i]: operand i's value. Register operands (RegSrc, and RegOrImm/URegOrImm naming a
  // register) hold the register's 64-bit contents read at dispatch; RegDst holds the register
  // number; immediates, enum values, targets and parameter indices hold the operand value.
  std::array<int64_t, isa::kMaxFields> v{};

  isa::Op op() const { return in.op; }
  // The typed operand view (isa/operands.h), e.g. di.as<isa::ops::VADD>().count; throws
  // npu::Error (internal) if this is another instruction. Valid while this object lives.
  template <class View>
  View as() const {
    if (in.op != View::kOp) wrong_view(View::kOp);
    return View(v.data());
  }
  // Value of the operand named `name` in the table (throws npu::Error if the op has none); the
  // views above are the fast, checked way.
  int64_t operator[](std::string_view name) const;
  uint64_t u(std::string_view name) const { return static_cast<uint64_t>((*this)[name]); }

 private:
  [[noreturn]] void wrong_view(isa::Op want) const;
};

// v[i] for every operand of `in` as DispatchedInstr::v describes (registers read from `core`).
void read_operands(const CoreState& core, const isa::Instr& in, int64_t* v);
// Reads the registers of `in` from `core` (what the scalar unit does at dispatch).
DispatchedInstr resolve(const CoreState& core, const isa::Instr& in, uint32_t pc);

}  // namespace npu::sem
