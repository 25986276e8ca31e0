#include "isa/isa_doc_units.h"

#include <fmt/format.h>

#include <cctype>

namespace npu::isa {
namespace {

// The local buffer an offset operand of a data-moving class points into ("" = not an offset).
struct BufferOperand {
  TimingClass cls;
  const char* field;
  const char* buffer;  // the buffers.<name> config section
};
constexpr BufferOperand kBufferOperands[] = {
    {TimingClass::DmaGmUb, "dst", "ub"},   {TimingClass::DmaUbGm, "src", "ub"},   {TimingClass::DmaGmL1, "dst", "l1"},
    {TimingClass::DmaGmL1Nz, "dst", "l1"},
    {TimingClass::DmaL1L0a, "dst", "l0a"}, {TimingClass::DmaL1L0a, "src", "l1"}, {TimingClass::DmaL1L0b, "dst", "l0b"},
    {TimingClass::DmaL1L0b, "src", "l1"},  {TimingClass::DmaL1Fb, "dst", "fixpipe"}, {TimingClass::DmaL1Fb, "src", "l1"},
    {TimingClass::DmaUbL1, "dst", "l1"},   {TimingClass::DmaUbL1, "src", "ub"},   {TimingClass::DmaL1Ub, "dst", "ub"},
    {TimingClass::DmaL1Ub, "src", "l1"},   {TimingClass::Mmad, "c", "l0c"},       {TimingClass::Mmad, "a", "l0a"},
    {TimingClass::Mmad, "b", "l0b"},       {TimingClass::MmadMx, "c", "l0c"},     {TimingClass::MmadMx, "a", "l0a"},
    {TimingClass::MmadMx, "b", "l0b"},     {TimingClass::MmadMx, "sa", "l0a"},    {TimingClass::MmadMx, "sb", "l0b"},
    {TimingClass::Fix, "src", "l0c"},      {TimingClass::FixUb, "src", "l0c"},    {TimingClass::FixUb, "dst", "ub"},
};

const char* buffer_of(const InstrDef& d, const FieldDef& f) {
  for (const BufferOperand& b : kBufferOperands)
    if (b.cls == d.timing && f.name == b.field) return b.buffer;
  // Vector instructions work in UB: every address-like operand is a UB offset.
  if (timing_class_def(d.timing).family == TimingFamily::Vector)
    for (const char* n : {"dst", "src", "src0", "src1", "s", "v"})
      if (f.name == n) return "ub";
  return nullptr;
}

// Units of operands by name (the table's naming convention), when they are not buffer offsets.
struct NamedUnit {
  const char* name;
  const char* unit;
};
constexpr NamedUnit kNamedUnits[] = {
    {"count", "elements (of the instruction's dtype)"},
    {"rows", "elements (rows)"},
    {"cols", "elements (columns)"},
    {"m", "elements (rows of A and C)"},
    {"n", "elements (columns of B and C)"},
    {"k", "elements (the reduced dimension)"},
    {"nburst", "bursts"},
    {"burst", "bytes per burst"},
    {"bytes", "bytes"},
    {"src_stride", "bytes between burst / row starts"},
    {"dst_stride", "bytes between burst / row starts"},
    {"stride", "bytes between row starts"},
    {"scalar", "fp32 bit pattern for float dtypes, else an integer"},
    {"scale", "qscalar: fp32 bit pattern; qvector: FixPipe buffer byte offset"},
    {"id", "flag number"},
    {"mode", "cross-core scope (0 launch, 1 cluster AIVs, 2 AIC <-> AIV)"},
    {"sub", "AIV index within the cluster"},
    {"trans", "0 or 1"},
    {"nz", "0 (ND source) or 1 (NZ source, src_stride = its C0 stride)"},
    {"init", "0 (accumulate) or 1 (overwrite)"},
    {"relu", "0 or 1"},
    {"sat", "0 or 1"},
    {"target", "code label"},
    {"param", "kernel parameter name"},
};

// The path key of a data-moving class ("mte.gm_ub"); "" otherwise.
std::string path_key(const InstrDef& d) {
  const TimingClassDef& t = timing_class_def(d.timing);
  return t.family == TimingFamily::Dma || t.family == TimingFamily::Fix ? std::string(t.config_key) : "";
}

bool gm_class(TimingClass c) {
  return c == TimingClass::DmaGmUb || c == TimingClass::DmaUbGm || c == TimingClass::DmaGmL1 ||
         c == TimingClass::DmaGmL1Nz || c == TimingClass::Fix;
}

bool has_field(const InstrDef& d, const char* name) {
  for (int i = 0; i < d.nfields; ++i)
    if (d.fields[i].name == name) return true;
  return false;
}

}  // namespace

std::string operand_unit(const InstrDef& d, const FieldDef& f) {
  if (const char* b = buffer_of(d, f))
  {
    std::string shown = b == std::string("fixpipe") ? "FB" : b;
    for (char& c : shown) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return fmt::format("bytes: {} offset, aligned to `buffers.{}.align`", shown, b);
  }
  if ((f.name == "dst" || f.name == "src") && f.kind == FieldKind::RegSrc && gm_class(d.timing))
    return "bytes: GM address (register)";
  for (const NamedUnit& u : kNamedUnits)
    if (f.name == u.name) return u.unit;
  if (f.kind == FieldKind::Enum) return "keyword";
  return timing_class_def(d.timing).family == TimingFamily::Scalar ? "64-bit value" : "-";
}

std::string operand_range(const FieldDef& f) {
  const auto bits = static_cast<unsigned>(f.bits);
  auto urange = [&] { return fmt::format("0 .. {}", bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1); };
  auto srange = [&] {
    return bits >= 64 ? std::string("any 64-bit value")
                      : fmt::format("{} .. {}", -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1);
  };
  switch (f.kind) {
    case FieldKind::RegDst:
    case FieldKind::RegSrc: return fmt::format("r0 .. r{}", kNumRegs - 1);
    case FieldKind::RegOrImm: return srange() + ", or a register";
    case FieldKind::URegOrImm: return urange() + ", or a register";
    case FieldKind::Imm: return srange();
    case FieldKind::UImm: return urange();
    default: return "-";
  }
}

std::string cost_formula(const InstrDef& d) {
  const TimingClassDef& t = timing_class_def(d.timing);
  const std::string key(t.config_key);
  switch (t.family) {
    case TimingFamily::Scalar: return fmt::format("`{}` cycles on the scalar unit", key);
    case TimingFamily::End: return "no cycles of its own: the core ends once every pipe has drained";
    case TimingFamily::Sync: return "`scalar.sync` cycles to issue; a wait holds its pipe until the flag is there";
    case TimingFamily::Cube:
      return fmt::format("`cube.startup` + ceil(m / `cube.m0`) * ceil(n / `cube.n0`) * ceil(k / k0) cycles on CUBE, k0 = {}",
                         d.timing == TimingClass::MmadMx ? "`cube.k0.fp8`"
                                                         : "`cube.k0.b16` (bf16, f16), `cube.k0.s8` (s8), `cube.k0.f32` (f32)");
    case TimingFamily::Vector: {
      const bool rows = has_field(d, "rows");
      const char* size = has_field(d, "sdt") ? "size(sdt)" : "size(dt)";
      return fmt::format(
          "max(`vector.min_cycles`, ceil(`vector.startup` + {}repeats * `{}.<{}>`)) cycles, repeats = {}",
          d.op == Op::VRAMAX ? "2 * " : "", key, has_field(d, "sdt") ? "sdt" : "dt",
          rows ? fmt::format("rows * ceil(cols * {} / `vector.repeat_bytes`) (a row never shares a repeat)", size)
               : fmt::format("ceil(count * {} / `vector.repeat_bytes`)", size));
    }
    case TimingFamily::Dma:
    case TimingFamily::Fix: {
      std::string bytes = has_field(d, "nburst") ? "nburst * burst"
                          : has_field(d, "bytes") ? "bytes"
                          : has_field(d, "m")     ? "m * n * size(ddt)"
                                                  : "rows * cols * size(dt)";
      std::string s = fmt::format("max(`{0}.min_cycles`, `{0}.startup` + ceil({1} / `{0}.bytes_per_cycle`)) cycles",
                                  path_key(d), bytes);
      if (has_field(d, "trans")) s += fmt::format(" (trans = 1: at `{}.trans_bytes_per_cycle`)", path_key(d));
      if (gm_class(d.timing))
        s += ", overlapped with the GM transfer through L2 and HBM (its line requests, docs/machine.md); DMAs of "
             "one pipe run one after another";
      return s;
    }
  }
  return "-";
}

}  // namespace npu::isa
