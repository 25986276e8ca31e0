#pragma once
// The ISA table (built from isa/instructions.def) and the decoded-instruction type that the
// encoder, assembler, disassembler, ISS and SystemC model all share.
#include <array>
#include <cstdint>
#include <string_view>

#include "isa/types.h"

namespace npu::isa {

// Each Op's value is its opcode (the second column of instructions.def).
enum class Op : uint8_t {
#define INSN(id, opcode, ...) id = opcode,
#include "isa/instructions.def"
#undef INSN
};

inline constexpr int kNumOps = 0
#define INSN(id, ...) +1
#include "isa/instructions.def"
#undef INSN
    ;

inline constexpr int kNumRegs = 32;      // r0 is hard-wired to zero
inline constexpr int kInstrBits = 128;   // every instruction is one 128-bit word
inline constexpr int kOpcodeBits = 8;
inline constexpr int kMaxFields = 12;

// Where the pipe of an instruction comes from.
enum class PipeRule : uint8_t { Scalar, Mte1, Mte2, Mte3, Cube, Vector, Fixp, FromField0, FromField1 };

// How long an instruction takes is chosen by its timing class (isa/timing_classes.def; the
// numbers are in configs/*.yaml).
enum class TimingClass : uint8_t {
#define TIMING_CLASS(name, ...) name,
#include "isa/timing_classes.def"
#undef TIMING_CLASS
};

inline constexpr int kNumTimingClasses = 0
#define TIMING_CLASS(...) +1
#include "isa/timing_classes.def"
#undef TIMING_CLASS
    ;

// Which formula and configuration section a timing class takes its duration from.
enum class TimingFamily : uint8_t { Scalar, End, Sync, Dma, Cube, Fix, Vector };

struct TimingClassDef {
  TimingClass cls;
  std::string_view name;        // "VecBinary": the config map key of Vector classes
  TimingFamily family;
  std::string_view config_key;  // where its numbers live in the configuration ("" for End)
  std::string_view doc;
};

const std::array<TimingClassDef, kNumTimingClasses>& timing_classes();
const TimingClassDef& timing_class_def(TimingClass c);
std::string_view timing_class_name(TimingClass c);

// Which dtypes a dtype field may name (rules in isa/dtype_rules.h; each DT field of
// instructions.def names one).
enum class DtypeRule : uint8_t {
  Any,         // not a dtype field, or every dtype
  ConvSource,  // the source of a conversion rule: checked with the destination's rule
  VecArith, VecFloat, VecCopy, Cast, Mmad, Tile,
  FixConv,     // FixPipe conversion: destinations depend on the source dtype
};

// FLOPs an instruction counts in traces and reports.
enum class Flops : uint8_t { Zero, OnePerElement, TwoPerMac };

enum class FieldKind : uint8_t {
  RegDst,    // register written by the instruction (5 bits)
  RegSrc,    // register read (5 bits)
  RegOrImm,  // register read, or a signed immediate of `bits` bits (1 flag bit + payload)
  URegOrImm, // register read, or an unsigned immediate of `bits` bits
  Imm,       // signed immediate
  UImm,      // unsigned immediate
  Target,    // branch target: absolute instruction index, written as a label
  Param,     // kernel parameter index, written as the parameter's name
  Enum,      // keyword of `etype`
};

enum class FieldSyntax : uint8_t { Suffix, Operand, Optional };

struct FieldDef {
  std::string_view name;
  FieldKind kind;
  uint8_t bits;            // payload bits (registers: 5; enums: enough for every keyword)
  EnumType etype;
  FieldSyntax syntax;
  int64_t default_value;   // Optional fields: value when omitted (a register number for RegSrc)
  DtypeRule dtypes;        // dtype fields: the dtypes it may name

  // Bits this field occupies in the encoding.
  constexpr int width() const {
    switch (kind) {
      case FieldKind::RegOrImm:
      case FieldKind::URegOrImm: return 1 + (bits > 5 ? bits : 5);
      default: return bits;
    }
  }
  constexpr bool may_be_register() const {
    return kind == FieldKind::RegDst || kind == FieldKind::RegSrc || kind == FieldKind::RegOrImm ||
           kind == FieldKind::URegOrImm;
  }
};

struct InstrDef {
  Op op;
  std::string_view mnemonic;
  PipeRule pipe;
  TimingClass timing;
  CoreMask cores;
  ArchMask arch;
  Flops flops;
  std::string_view summary;
  std::array<FieldDef, kMaxFields> fields;
  int nfields;

  constexpr int encoded_bits() const {
    int b = kOpcodeBits;
    for (int i = 0; i < nfields; ++i) b += fields[i].width();
    return b;
  }
  int num_suffixes() const;
  int field_index(std::string_view name) const;  // -1 if absent
};

// The table, in instructions.def order. def(op) needs a valid op (is_valid_op).
const InstrDef& def(Op op);
const std::array<InstrDef, kNumOps>& table();
bool is_valid_op(Op op);                     // some row has this opcode
inline int opcode(Op op) { return static_cast<int>(op); }
// Hash of everything an encoded word's meaning depends on (opcodes, mnemonics, fields, enum
// keywords): object files carry it, so a file built for another ISA is refused on load.
uint64_t isa_fingerprint();
// Find by mnemonic (nullptr if unknown).
const InstrDef* find_mnemonic(std::string_view mnemonic);

// One operand of a decoded instruction: a register number or an immediate/keyword/target value.
struct Operand {
  bool is_reg = false;
  int64_t value = 0;
  friend bool operator==(const Operand& a, const Operand& b) {
    return a.is_reg == b.is_reg && a.value == b.value;
  }
};

// A decoded instruction: the op and its operands in table order.
struct Instr {
  Op op = Op::NOP;
  std::array<Operand, kMaxFields> f{};
  const InstrDef& d() const { return def(op); }
  friend bool operator==(const Instr& a, const Instr& b) { return a.op == b.op && a.f == b.f; }
};

// Pipe an instruction is queued in (resolves FromField0/1 from the operands).
Pipe pipe_of(const Instr& in);

}  // namespace npu::isa
