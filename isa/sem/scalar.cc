#include "isa/sem/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "isa/error.h"
#include "isa/sem/fault.h"

namespace npu::sem {
namespace {

using isa::Op;

float as_f32(uint64_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint64_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

int64_t ftoi(float f) {
  if (std::isnan(f)) return 0;
  double t = std::trunc(static_cast<double>(f));
  if (t >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  if (t < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(t);
}

}  // namespace

bool is_sync_op(Op op) {
  return op == Op::SET_FLAG || op == Op::WAIT_FLAG || op == Op::CC_SET || op == Op::CC_WAIT;
}

bool is_scalar_op(Op op) {
  return isa::def(op).pipe == isa::PipeRule::Scalar;  // includes barrier and end
}

bool is_data_op(Op op) { return !is_scalar_op(op) && !is_sync_op(op); }

const isa::Instr& fetch(const CoreState& core, const isa::CodeSection& code) {
  if (core.pc >= code.code.size()) {
    isa::Instr nop;
    fault(core.id, core.pc, nop,
          "pc is past the end of the code (" + std::to_string(code.code.size()) +
              " instructions): the program ran off its end without `end`");
  }
  return code.code[core.pc];
}

ScalarOutcome step_scalar(CoreState& core, const isa::Instr& in) {
  const isa::InstrDef& d = in.d();
  ScalarOutcome out;
  out.next_pc = core.pc + 1;
  auto bad = [&](const std::string& what) { fault(core.id, core.pc, in, what); };

  if (d.cores == isa::CoreMask::AicOnly && core.id.type != isa::CoreType::Aic)
    bad("instruction is only available on the AIC");
  if (d.cores == isa::CoreMask::AivOnly && core.id.type != isa::CoreType::Aiv)
    bad("instruction is only available on the AIV");
  if (d.arch == isa::ArchMask::A5Only && core.arch != isa::Arch::A5)
    bad("instruction is only available on a5 (this chip is " +
        std::string(isa::arch_name(core.arch)) + ")");

  if (!is_scalar_op(in.op)) {
    out.di = resolve(core, in, core.pc);
    out.pipe = out.di.pipe;
    if (!isa::core_has_pipe(core.id.type, out.pipe))
      bad("pipe " + std::string(isa::pipe_name(out.pipe)) + " does not exist on the " +
          std::string(core.id.type == isa::CoreType::Aic ? "AIC" : "AIV"));
    if (is_sync_op(in.op)) {
      // wait_flag queues in its dst pipe; check the src pipe exists too (and vice versa).
      if (in.op == Op::SET_FLAG || in.op == Op::WAIT_FLAG) {
        for (int i = 0; i < 2; ++i) {
          auto p = static_cast<isa::Pipe>(in.f[i].value);
          if (!isa::core_has_pipe(core.id.type, p))
            bad("pipe " + std::string(isa::pipe_name(p)) + " does not exist on the " +
                std::string(core.id.type == isa::CoreType::Aic ? "AIC" : "AIV"));
        }
      }
      out.kind = out.pipe == isa::Pipe::Scalar ? ScalarOutcome::Kind::SyncScalar
                                               : ScalarOutcome::Kind::Dispatch;
    } else {
      out.kind = ScalarOutcome::Kind::Dispatch;
    }
    return out;
  }

  // Operand values: register contents or immediates.
  auto val = [&](int i) -> uint64_t {
    const isa::Operand& o = in.f[i];
    return o.is_reg ? core.reg(static_cast<int>(o.value)) : static_cast<uint64_t>(o.value);
  };
  auto sval = [&](int i) { return static_cast<int64_t>(val(i)); };
  auto rd = [&]() { return static_cast<int>(in.f[0].value); };

  switch (in.op) {
    case Op::NOP: break;
    case Op::END: out.kind = ScalarOutcome::Kind::End; break;
    case Op::BARRIER:
      out.kind = ScalarOutcome::Kind::Barrier;
      out.barrier = static_cast<isa::PipeSel>(in.f[0].value);
      break;
    case Op::MOV: core.set_reg(rd(), val(1)); break;
    case Op::ADD: core.set_reg(rd(), val(1) + val(2)); break;
    case Op::SUB: core.set_reg(rd(), val(1) - val(2)); break;
    case Op::MUL: core.set_reg(rd(), val(1) * val(2)); break;
    case Op::DIV:
    case Op::REM: {
      int64_t a = sval(1), b = sval(2);
      if (b == 0) bad("division by zero (" + std::to_string(a) + " / 0)");
      int64_t r;
      if (b == -1)  // INT64_MIN / -1 overflows: wrap
        r = in.op == Op::DIV ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : 0;
      else
        r = in.op == Op::DIV ? a / b : a % b;
      core.set_reg(rd(), static_cast<uint64_t>(r));
      break;
    }
    case Op::AND: core.set_reg(rd(), val(1) & val(2)); break;
    case Op::OR: core.set_reg(rd(), val(1) | val(2)); break;
    case Op::XOR: core.set_reg(rd(), val(1) ^ val(2)); break;
    case Op::SHL: core.set_reg(rd(), val(1) << (val(2) & 63)); break;
    case Op::SHR: core.set_reg(rd(), val(1) >> (val(2) & 63)); break;
    case Op::SRA: core.set_reg(rd(), static_cast<uint64_t>(sval(1) >> (val(2) & 63))); break;
    case Op::MIN: core.set_reg(rd(), static_cast<uint64_t>(std::min(sval(1), sval(2)))); break;
    case Op::MAX: core.set_reg(rd(), static_cast<uint64_t>(std::max(sval(1), sval(2)))); break;
    case Op::FADD: core.set_reg(rd(), f32_bits(as_f32(val(1)) + as_f32(val(2)))); break;
    case Op::FSUB: core.set_reg(rd(), f32_bits(as_f32(val(1)) - as_f32(val(2)))); break;
    case Op::FMUL: core.set_reg(rd(), f32_bits(as_f32(val(1)) * as_f32(val(2)))); break;
    case Op::FDIV: core.set_reg(rd(), f32_bits(as_f32(val(1)) / as_f32(val(2)))); break;
    case Op::FSQRT: core.set_reg(rd(), f32_bits(std::sqrt(as_f32(val(1))))); break;
    case Op::ITOF: core.set_reg(rd(), f32_bits(static_cast<float>(sval(1)))); break;
    case Op::FTOI: core.set_reg(rd(), static_cast<uint64_t>(ftoi(as_f32(val(1))))); break;
    case Op::LDP: {
      int64_t idx = in.f[1].value;
      if (idx < 0 || idx >= static_cast<int64_t>(core.params.size()))
        bad("kernel parameter " + std::to_string(idx) + " does not exist (" +
            std::to_string(core.params.size()) + " parameters)");
      core.set_reg(rd(), static_cast<uint64_t>(core.params[idx]));
      break;
    }
    case Op::GETSR: {
      int64_t v = 0;
      switch (static_cast<isa::SpecialReg>(in.f[1].value)) {
        case isa::SpecialReg::BlockIdx: v = core.block_idx; break;
        case isa::SpecialReg::BlockDim: v = core.block_dim; break;
        case isa::SpecialReg::SubblockIdx: v = core.subblock_idx; break;
        case isa::SpecialReg::CoreType: v = core.core_type; break;
        case isa::SpecialReg::SubblockDim: v = core.subblock_dim; break;
      }
      core.set_reg(rd(), static_cast<uint64_t>(v));
      break;
    }
    case Op::BEQ:
    case Op::BNE:
    case Op::BLT:
    case Op::BGE: {
      int64_t a = sval(0), b = sval(1);
      bool taken = in.op == Op::BEQ   ? a == b
                   : in.op == Op::BNE ? a != b
                   : in.op == Op::BLT ? a < b
                                      : a >= b;
      if (taken) out.next_pc = static_cast<uint32_t>(in.f[2].value);
      break;
    }
    case Op::JMP: out.next_pc = static_cast<uint32_t>(in.f[0].value); break;
    default: bad("internal: not a scalar instruction");
  }
  return out;
}

}  // namespace npu::sem
