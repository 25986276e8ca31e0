#include "isa/sem/scalar.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/error.h"
#include "isa/sem/fault.h"

namespace npu::sem {
namespace {

using isa::Op;
namespace ops = isa::ops;

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


// One scalar instruction being executed: its operands with registers read (as resolve() reads
// them for a pipe), read through the typed views of isa/operands.h.
struct Scalar {
  CoreState& core;
  const isa::Instr& in;
  ScalarOutcome& out;
  std::array<int64_t, isa::kMaxFields> v{};

  template <class View>
  View as() const { return View(v.data()); }
  [[noreturn]] void bad(const std::string& what) const { fault(core.id, core.pc, in, what); }
};

// The semantics of each scalar-unit instruction, one function per instruction, found by
// step_scalar() from the table; a scalar instruction without one fails to link.
template <Op op>
void run(Scalar& x);

// rd = f(rs1, src) on 64-bit patterns (the integer ALU forms).
template <class V, class F>
void alu(Scalar& x, F f) {
  const V o = x.as<V>();
  x.core.set_reg(o.rd, f(static_cast<uint64_t>(o.rs1), static_cast<uint64_t>(o.src)));
}
// rd = f(rs1, src) on signed 64-bit values.
template <class V, class F>
void alu_signed(Scalar& x, F f) {
  alu<V>(x, [f](uint64_t a, uint64_t b) {
    return static_cast<uint64_t>(f(static_cast<int64_t>(a), static_cast<int64_t>(b)));
  });
}
// rd = f(rs1, src) on the low 32 bits as fp32.
template <class V, class F>
void fp(Scalar& x, F f) {
  alu<V>(x, [f](uint64_t a, uint64_t b) { return f32_bits(f(as_f32(a), as_f32(b))); });
}
// div / rem: signed, toward zero; division by zero faults; INT64_MIN / -1 wraps.
template <class V>
void divide(Scalar& x, bool quotient) {
  const V o = x.as<V>();
  const int64_t a = static_cast<int64_t>(o.rs1), b = o.src;
  if (b == 0) x.bad("division by zero (" + std::to_string(a) + " / 0)");
  int64_t r;
  if (b == -1)  // INT64_MIN / -1 overflows: wrap
    r = quotient ? static_cast<int64_t>(0 - static_cast<uint64_t>(a)) : 0;
  else
    r = quotient ? a / b : a % b;
  x.core.set_reg(o.rd, static_cast<uint64_t>(r));
}
// Branch to target when taken(rs1, src), signed.
template <class V, class F>
void branch(Scalar& x, F taken) {
  const V o = x.as<V>();
  if (taken(static_cast<int64_t>(o.rs1), o.src)) x.out.next_pc = static_cast<uint32_t>(o.target);
}

template <> void run<Op::NOP>(Scalar&) {}
template <> void run<Op::END>(Scalar& x) { x.out.kind = ScalarOutcome::Kind::End; }
template <> void run<Op::BARRIER>(Scalar& x) {
  x.out.kind = ScalarOutcome::Kind::Barrier;
  x.out.barrier = x.as<ops::BARRIER>().pipe;
}
template <> void run<Op::MOV>(Scalar& x) {
  const auto o = x.as<ops::MOV>();
  x.core.set_reg(o.rd, static_cast<uint64_t>(o.src));
}
template <> void run<Op::ADD>(Scalar& x) { alu<ops::ADD>(x, [](uint64_t a, uint64_t b) { return a + b; }); }
template <> void run<Op::SUB>(Scalar& x) { alu<ops::SUB>(x, [](uint64_t a, uint64_t b) { return a - b; }); }
template <> void run<Op::MUL>(Scalar& x) { alu<ops::MUL>(x, [](uint64_t a, uint64_t b) { return a * b; }); }
template <> void run<Op::DIV>(Scalar& x) { divide<ops::DIV>(x, true); }
template <> void run<Op::REM>(Scalar& x) { divide<ops::REM>(x, false); }
template <> void run<Op::AND>(Scalar& x) { alu<ops::AND>(x, [](uint64_t a, uint64_t b) { return a & b; }); }
template <> void run<Op::OR>(Scalar& x) { alu<ops::OR>(x, [](uint64_t a, uint64_t b) { return a | b; }); }
template <> void run<Op::XOR>(Scalar& x) { alu<ops::XOR>(x, [](uint64_t a, uint64_t b) { return a ^ b; }); }
template <> void run<Op::SHL>(Scalar& x) { alu<ops::SHL>(x, [](uint64_t a, uint64_t b) { return a << (b & 63); }); }
template <> void run<Op::SHR>(Scalar& x) { alu<ops::SHR>(x, [](uint64_t a, uint64_t b) { return a >> (b & 63); }); }
template <> void run<Op::SRA>(Scalar& x) {
  alu<ops::SRA>(x, [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63)); });
}
template <> void run<Op::MIN>(Scalar& x) { alu_signed<ops::MIN>(x, [](int64_t a, int64_t b) { return std::min(a, b); }); }
template <> void run<Op::MAX>(Scalar& x) { alu_signed<ops::MAX>(x, [](int64_t a, int64_t b) { return std::max(a, b); }); }
template <> void run<Op::FADD>(Scalar& x) { fp<ops::FADD>(x, [](float a, float b) { return a + b; }); }
template <> void run<Op::FSUB>(Scalar& x) { fp<ops::FSUB>(x, [](float a, float b) { return a - b; }); }
template <> void run<Op::FMUL>(Scalar& x) { fp<ops::FMUL>(x, [](float a, float b) { return a * b; }); }
template <> void run<Op::FDIV>(Scalar& x) { fp<ops::FDIV>(x, [](float a, float b) { return a / b; }); }
template <> void run<Op::FSQRT>(Scalar& x) {
  const auto o = x.as<ops::FSQRT>();
  x.core.set_reg(o.rd, f32_bits(std::sqrt(as_f32(o.rs1))));
}
template <> void run<Op::ITOF>(Scalar& x) {
  const auto o = x.as<ops::ITOF>();
  x.core.set_reg(o.rd, f32_bits(static_cast<float>(static_cast<int64_t>(o.rs1))));
}
template <> void run<Op::FTOI>(Scalar& x) {
  const auto o = x.as<ops::FTOI>();
  x.core.set_reg(o.rd, static_cast<uint64_t>(ftoi(as_f32(o.rs1))));
}
template <> void run<Op::LDP>(Scalar& x) {
  const auto o = x.as<ops::LDP>();
  const int64_t idx = o.param;
  if (idx < 0 || idx >= static_cast<int64_t>(x.core.params.size()))
    x.bad("kernel parameter " + std::to_string(idx) + " does not exist (" +
          std::to_string(x.core.params.size()) + " parameters)");
  x.core.set_reg(o.rd, static_cast<uint64_t>(x.core.params[idx]));
}
template <> void run<Op::LDUB>(Scalar& x) {
  const auto o = x.as<ops::LDUB>();
  const ZeroedBytes& ub = x.core.buffer(Buffer::Ub);
  const uint64_t off = static_cast<uint64_t>(o.src);
  if (off % 4 != 0) x.bad("UB offset " + std::to_string(off) + " is not 4-byte aligned");
  if (off + 4 > ub.size())
    x.bad("UB offset " + std::to_string(off) + " + 4 bytes is past the UB's " +
          std::to_string(ub.size()) + " bytes");
  int32_t v;
  std::memcpy(&v, ub.data() + off, 4);  // little-endian, as every buffer's bytes
  x.core.set_reg(o.rd, static_cast<uint64_t>(static_cast<int64_t>(v)));
}
template <> void run<Op::GETSR>(Scalar& x) {
  const auto o = x.as<ops::GETSR>();
  const CoreState& c = x.core;
  int64_t v = 0;
  switch (o.sreg) {
    case isa::SpecialReg::BlockIdx: v = c.block_idx; break;
    case isa::SpecialReg::BlockDim: v = c.block_dim; break;
    case isa::SpecialReg::SubblockIdx: v = c.subblock_idx; break;
    case isa::SpecialReg::CoreType: v = c.core_type; break;
    case isa::SpecialReg::SubblockDim: v = c.subblock_dim; break;
  }
  x.core.set_reg(o.rd, static_cast<uint64_t>(v));
}
template <> void run<Op::BEQ>(Scalar& x) { branch<ops::BEQ>(x, [](int64_t a, int64_t b) { return a == b; }); }
template <> void run<Op::BNE>(Scalar& x) { branch<ops::BNE>(x, [](int64_t a, int64_t b) { return a != b; }); }
template <> void run<Op::BLT>(Scalar& x) { branch<ops::BLT>(x, [](int64_t a, int64_t b) { return a < b; }); }
template <> void run<Op::BGE>(Scalar& x) { branch<ops::BGE>(x, [](int64_t a, int64_t b) { return a >= b; }); }
template <> void run<Op::JMP>(Scalar& x) { x.out.next_pc = static_cast<uint32_t>(x.as<ops::JMP>().target); }

using RunFn = void (*)(Scalar&);

template <Op op, isa::PipeRule pipe>
constexpr RunFn run_fn() {
  if constexpr (pipe == isa::PipeRule::Scalar) return &run<op>;
  else return nullptr;
}

// Indexed by opcode; nullptr for instructions that go to a pipe.
constexpr std::array<RunFn, 1 << isa::kOpcodeBits> make_run_table() {
  std::array<RunFn, 1 << isa::kOpcodeBits> t{};
#define INSN(id, opcode, mn, pipe, ...) t[opcode] = run_fn<Op::id, isa::PipeRule::pipe>();
#include "isa/instructions.def"
#undef INSN
  return t;
}
constexpr std::array<RunFn, 1 << isa::kOpcodeBits> kRun = make_run_table();

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

  Scalar x{core, in, out};
  read_operands(core, in, x.v.data());
  const RunFn fn = kRun[isa::opcode(in.op)];
  if (!fn) bad("internal: not a scalar instruction");
  fn(x);
  return out;
}

}  // namespace npu::sem
