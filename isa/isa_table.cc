#include <cstring>

#include "isa/isa.h"

namespace npu::isa {
namespace {

constexpr uint8_t enum_bits(EnumType t) {
  // Enough bits for every keyword of the enum (checked against enum_count by a test).
  switch (t) {
    case EnumType::Dtype: return 4;
    case EnumType::Pipe:
    case EnumType::PipeSel:
    case EnumType::RoundMode:
    case EnumType::VecOp:
    case EnumType::SpecialReg: return 3;
    case EnumType::CacheHint:
    case EnumType::QuantMode: return 2;
    case EnumType::MxType: return 1;
    case EnumType::None: break;
  }
  return 0;
}

constexpr FieldDef fd(std::string_view n, FieldKind k, int bits, EnumType e = EnumType::None,
                      FieldSyntax s = FieldSyntax::Operand, int64_t dflt = 0) {
  return FieldDef{n, k, static_cast<uint8_t>(bits), e, s, dflt};
}

#define RD(n) fd(#n, FieldKind::RegDst, 5)
#define RS(n) fd(#n, FieldKind::RegSrc, 5)
#define OPT_RS(n, dreg) fd(#n, FieldKind::RegSrc, 5, EnumType::None, FieldSyntax::Optional, dreg)
#define RI(n, b) fd(#n, FieldKind::RegOrImm, b)
#define URI(n, b) fd(#n, FieldKind::URegOrImm, b)
#define OPT_RI(n, b, d) fd(#n, FieldKind::RegOrImm, b, EnumType::None, FieldSyntax::Optional, d)
#define IMM(n, b) fd(#n, FieldKind::Imm, b)
#define UIMM(n, b) fd(#n, FieldKind::UImm, b)
#define OPT_UIMM(n, b, d) fd(#n, FieldKind::UImm, b, EnumType::None, FieldSyntax::Optional, d)
#define TGT(n) fd(#n, FieldKind::Target, 20)
#define PARAM(n) fd(#n, FieldKind::Param, 8)
#define SFX(n, e) fd(#n, FieldKind::Enum, enum_bits(EnumType::e), EnumType::e, FieldSyntax::Suffix)
#define EN(n, e) fd(#n, FieldKind::Enum, enum_bits(EnumType::e), EnumType::e)
#define OPT_EN(n, e, d) \
  fd(#n, FieldKind::Enum, enum_bits(EnumType::e), EnumType::e, FieldSyntax::Optional, d)

template <typename... F>
constexpr InstrDef make(Op op, std::string_view mn, PipeRule p, TimingClass t, CoreMask c,
                        ArchMask a, std::string_view summary, F... fields) {
  InstrDef d{op, mn, p, t, c, a, summary, {fields...}, static_cast<int>(sizeof...(F))};
  return d;
}

constexpr std::array<InstrDef, kNumOps> kTable = {{
#define INSN(id, mn, pipe, timing, cores, arch, summary, ...)                              \
  make(Op::id, mn, PipeRule::pipe, TimingClass::timing, CoreMask::cores, ArchMask::arch, \
       summary, ##__VA_ARGS__),
#include "isa/instructions.def"
#undef INSN
}};

// Compile-time table checks: ops in enum order, every word fits in 128 bits.
constexpr bool table_ok() {
  for (int i = 0; i < kNumOps; ++i) {
    if (static_cast<int>(kTable[i].op) != i) return false;
    if (kTable[i].encoded_bits() > kInstrBits) return false;
  }
  return kNumOps <= (1 << kOpcodeBits);
}
static_assert(table_ok(), "isa/instructions.def: op order or a 128-bit word overflow");

}  // namespace

const std::array<InstrDef, kNumOps>& table() { return kTable; }
const InstrDef& def(Op op) { return kTable[static_cast<int>(op)]; }

const InstrDef* find_mnemonic(std::string_view mn) {
  for (const auto& d : kTable)
    if (d.mnemonic == mn) return &d;
  return nullptr;
}

int InstrDef::num_suffixes() const {
  int n = 0;
  for (int i = 0; i < nfields; ++i) n += fields[i].syntax == FieldSyntax::Suffix;
  return n;
}

int InstrDef::field_index(std::string_view name) const {
  for (int i = 0; i < nfields; ++i)
    if (fields[i].name == name) return i;
  return -1;
}

Pipe pipe_of(const Instr& in) {
  const InstrDef& d = def(in.op);
  switch (d.pipe) {
    case PipeRule::FromField0: return static_cast<Pipe>(in.f[0].value);
    case PipeRule::FromField1: return static_cast<Pipe>(in.f[1].value);
    default: return static_cast<Pipe>(static_cast<int>(d.pipe));
  }
}

std::string_view timing_class_name(TimingClass c) {
  switch (c) {
#define CASE(x) case TimingClass::x: return #x;
    CASE(ScalarAlu) CASE(ScalarMul) CASE(ScalarDiv) CASE(ScalarFp) CASE(ScalarBranch) CASE(End)
    CASE(Sync) CASE(DmaGmUb) CASE(DmaUbGm) CASE(DmaGmL1) CASE(DmaL1L0a) CASE(DmaL1L0b)
    CASE(DmaL1Fb) CASE(DmaUbL1) CASE(DmaL1Ub) CASE(Mmad) CASE(MmadMx) CASE(Fix) CASE(FixUb)
    CASE(VecBinary) CASE(VecDiv) CASE(VecScalar) CASE(VecUnary) CASE(VecTranscend) CASE(VecCast)
    CASE(VecCopy) CASE(VecReduce) CASE(VecReduceMax) CASE(VecBroadcast)
#undef CASE
  }
  return "?";
}

}  // namespace npu::isa
