#include <fmt/format.h>

#include <cstring>
#include <string>

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
                      FieldSyntax s = FieldSyntax::Operand, int64_t dflt = 0,
                      DtypeRule dtypes = DtypeRule::Any) {
  return FieldDef{n, k, static_cast<uint8_t>(bits), e, s, dflt, dtypes};
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
#define DT(n, rule)                                                                        \
  fd(#n, FieldKind::Enum, enum_bits(EnumType::Dtype), EnumType::Dtype, FieldSyntax::Suffix, 0, \
     DtypeRule::rule)
#define EN(n, e) fd(#n, FieldKind::Enum, enum_bits(EnumType::e), EnumType::e)
#define OPT_EN(n, e, d) \
  fd(#n, FieldKind::Enum, enum_bits(EnumType::e), EnumType::e, FieldSyntax::Optional, d)

template <typename... F>
constexpr InstrDef make(Op op, std::string_view mn, PipeRule p, TimingClass t, CoreMask c,
                        ArchMask a, Flops fl, std::string_view summary, F... fields) {
  InstrDef d{op, mn, p, t, c, a, fl, summary, {fields...}, static_cast<int>(sizeof...(F))};
  return d;
}

constexpr std::array<InstrDef, kNumOps> kTable = {{
#define INSN(id, opcode, mn, pipe, timing, cores, arch, flops, summary, ...)                \
  make(Op::id, mn, PipeRule::pipe, TimingClass::timing, CoreMask::cores, ArchMask::arch, \
       Flops::flops, summary, ##__VA_ARGS__),
#include "isa/instructions.def"
#undef INSN
}};

constexpr int kNoRow = -1;

// kRow[opcode]: the table row of that opcode, or kNoRow.
constexpr std::array<int16_t, 1 << kOpcodeBits> make_rows() {
  std::array<int16_t, 1 << kOpcodeBits> r{};
  for (auto& x : r) x = kNoRow;
  for (int i = 0; i < kNumOps; ++i) r[static_cast<int>(kTable[i].op)] = static_cast<int16_t>(i);
  return r;
}
constexpr std::array<int16_t, 1 << kOpcodeBits> kRow = make_rows();

// Compile-time table checks: distinct opcodes, every word fits in 128 bits.
constexpr bool table_ok() {
  int rows = 0;
  for (int16_t r : kRow) rows += r != kNoRow;
  if (rows != kNumOps) return false;  // two rows share an opcode
  for (int i = 0; i < kNumOps; ++i)
    if (kTable[i].encoded_bits() > kInstrBits) return false;
  return true;
}
static_assert(table_ok(), "isa/instructions.def: duplicate opcode or a 128-bit word overflow");

constexpr std::array<TimingClassDef, kNumTimingClasses> kTimingClasses = {{
#define TIMING_CLASS(name, family, key, doc) \
  {TimingClass::name, #name, TimingFamily::family, key, doc},
#include "isa/timing_classes.def"
#undef TIMING_CLASS
}};

}  // namespace

const std::array<InstrDef, kNumOps>& table() { return kTable; }
const InstrDef& def(Op op) { return kTable[kRow[static_cast<int>(op)]]; }
bool is_valid_op(Op op) { return kRow[static_cast<int>(op)] != kNoRow; }

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

uint64_t isa_fingerprint() {
  // FNV-1a over the encoding-relevant content, in a fixed textual form.
  static const uint64_t h = [] {
    std::string s;
    for (const InstrDef& d : kTable) {
      s += std::to_string(static_cast<int>(d.op)) + " " + std::string(d.mnemonic);
      for (int i = 0; i < d.nfields; ++i) {
        const FieldDef& f = d.fields[i];
        s += fmt::format(" {}:{}:{}:{}", f.name, static_cast<int>(f.kind), f.bits, static_cast<int>(f.etype));
      }
      s += "\n";
    }
    for (int t = 1; t <= static_cast<int>(kLastEnumType); ++t)
      for (int v = 0; v < enum_count(static_cast<EnumType>(t)); ++v)
        s += std::string(keyword(static_cast<EnumType>(t), v)) + (v + 1 < enum_count(static_cast<EnumType>(t)) ? " " : "\n");
    uint64_t x = 1469598103934665603ull;
    for (unsigned char c : s) x = (x ^ c) * 1099511628211ull;
    return x;
  }();
  return h;
}

const std::array<TimingClassDef, kNumTimingClasses>& timing_classes() { return kTimingClasses; }
const TimingClassDef& timing_class_def(TimingClass c) { return kTimingClasses[static_cast<int>(c)]; }
std::string_view timing_class_name(TimingClass c) { return timing_class_def(c).name; }

}  // namespace npu::isa
