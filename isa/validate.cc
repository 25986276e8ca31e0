#include "isa/validate.h"

#include <fmt/format.h>

#include <initializer_list>
#include <map>

#include "isa/disasm.h"
#include "isa/encoding.h"

namespace npu::isa {
namespace {

using D = Dtype;
using List = std::initializer_list<Dtype>;

const List kVecArith = {D::F32, D::F16, D::BF16, D::S32, D::S16};
const List kVecFloat = {D::F32, D::F16, D::BF16};
const List kVecCopy = {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8, D::U8};
const List kCast = {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8};
const List kCastA5 = {D::E4M3, D::E5M2};
const List kMmad = {D::BF16, D::F16, D::S8, D::F32};
const List kTile = {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8, D::U8};
const List kTileA5 = {D::E4M3, D::E5M2, D::E8M0};
const List kFixFromF32 = {D::BF16, D::F16, D::F32};
const List kFixFromS32 = {D::F32, D::BF16, D::F16, D::S32};
const List kEmpty = {};

bool in(const List& l, Dtype d) {
  for (Dtype x : l)
    if (x == d) return true;
  return false;
}

std::string names(const List& a, const List& b = kEmpty) {
  std::string s;
  for (const List* l : {&a, &b})
    for (Dtype d : *l) s += (s.empty() ? "" : ", ") + std::string(dtype_name(d));
  return s;
}

// The dtype list a one-dtype instruction accepts (nullptr: not a one-dtype instruction).
// Keyed on the op and the pipe, not on timing classes (those are free to change).
const List* dtypes_for(const InstrDef& d, bool a5, const List** extra) {
  *extra = &kEmpty;
  switch (d.op) {
    case Op::MMAD: return &kMmad;
    case Op::MOV_L1_L0A:
    case Op::MOV_L1_L0B:
      if (a5) *extra = &kTileA5;
      return &kTile;
    case Op::VEXP:
    case Op::VLN:
    case Op::VSQRT:
    case Op::VRSQRT:
    case Op::VREC: return &kVecFloat;
    case Op::VCOPY:
    case Op::VDUP: return &kVecCopy;
    default: break;
  }
  if (d.pipe == PipeRule::Vector && d.field_index("dt") >= 0) return &kVecArith;
  return nullptr;
}

std::string pipe_kw(int64_t v) { return std::string(keyword(EnumType::Pipe, static_cast<int>(v))); }

const char* core_upper(CoreType c) { return c == CoreType::Aic ? "AIC" : "AIV"; }

}  // namespace

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_char(c)) return false;
  return true;
}

bool is_register_spelling(std::string_view s) {
  return s.size() >= 2 && s.size() <= 4 && s[0] == 'r' && s.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

bool is_semantic_label_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_ident_char(c) && c != '.' && c != '-' && c != '/') return false;
  return true;
}

bool core_has_pipe(CoreType core, Pipe p) {
  switch (p) {
    case Pipe::Scalar:
    case Pipe::Mte2: return true;
    case Pipe::Mte1:
    case Pipe::Cube:
    case Pipe::Fixp: return core == CoreType::Aic;
    case Pipe::Vector:
    case Pipe::Mte3: return core == CoreType::Aiv;
  }
  return false;
}

std::vector<std::string> validate(const Instr& in_, Arch arch, CoreType core) {
  std::vector<std::string> errs;
  if (static_cast<int>(in_.op) >= kNumOps) {
    errs.push_back(fmt::format("bad opcode {}", static_cast<int>(in_.op)));
    return errs;
  }
  const InstrDef& d = in_.d();
  for (int i = 0; i < d.nfields; ++i) {
    std::string e = field_value_error(d.fields[i], in_.f[i]);
    if (!e.empty()) errs.push_back(e);
  }
  if (d.arch == ArchMask::A5Only && arch != Arch::A5)
    errs.push_back(fmt::format("'{}' is only available on a5 (target arch is {})", d.mnemonic, arch_name(arch)));
  if ((d.cores == CoreMask::AicOnly && core != CoreType::Aic) ||
      (d.cores == CoreMask::AivOnly && core != CoreType::Aiv))
    errs.push_back(fmt::format("'{}' runs only on {} cores, not in the {} section", d.mnemonic,
                               d.cores == CoreMask::AicOnly ? "AIC" : "AIV", core_type_name(core)));
  if (!errs.empty()) return errs;  // the checks below assume in-range fields

  bool a5 = arch == Arch::A5;
  auto fval = [&](const char* name) { return in_.f[d.field_index(name)].value; };
  const List* extra = nullptr;
  if (const List* l = dtypes_for(d, a5, &extra)) {
    Dtype dt = static_cast<Dtype>(fval("dt"));
    if (!in(*l, dt) && !in(*extra, dt))
      errs.push_back(fmt::format("'{}' does not support dtype {} (allowed: {})", d.mnemonic,
                                 dtype_name(dt), names(*l, *extra)));
  }
  if (d.op == Op::VCAST) {
    const List& x = a5 ? kCastA5 : kEmpty;
    for (const char* n : {"sdt", "ddt"}) {
      Dtype dt = static_cast<Dtype>(fval(n));
      if (!in(kCast, dt) && !in(x, dt))
        errs.push_back(fmt::format("'{}' does not support dtype {} (allowed: {})", d.mnemonic,
                                   dtype_name(dt), names(kCast, x)));
    }
  }
  if (d.op == Op::FIX || d.op == Op::FIX_UB) {
    Dtype s = static_cast<Dtype>(fval("sdt")), t = static_cast<Dtype>(fval("ddt"));
    bool ok = (s == D::F32 && in(kFixFromF32, t)) || (s == D::S32 && in(kFixFromS32, t));
    if (!ok)
      errs.push_back(fmt::format("'{}' cannot convert {} to {} (allowed: f32 -> {}; s32 -> {})",
                                 d.mnemonic, dtype_name(s), dtype_name(t), names(kFixFromF32),
                                 names(kFixFromS32)));
  }
  // Pipes named by operands must exist on this core; a flag joins two different pipes.
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    if (f.kind != FieldKind::Enum || (f.etype != EnumType::Pipe && f.etype != EnumType::PipeSel)) continue;
    int64_t v = in_.f[i].value;
    if (f.etype == EnumType::PipeSel && v == static_cast<int64_t>(PipeSel::All)) continue;
    if (!core_has_pipe(core, static_cast<Pipe>(v)))
      errs.push_back(fmt::format("'{}': pipe {} does not exist on {}", d.mnemonic, pipe_kw(v), core_upper(core)));
  }
  if (d.op == Op::SET_FLAG || d.op == Op::WAIT_FLAG) {
    if (in_.f[0].value == in_.f[1].value)
      errs.push_back(fmt::format("'{}': src and dst must be different pipes (both {})", d.mnemonic,
                                 pipe_kw(in_.f[0].value)));
  }
  if (d.op == Op::CC_SET && fval("mode") > 2)
    errs.push_back(fmt::format("'cc_set': mode {} out of range (0..2)", fval("mode")));
  return errs;
}

namespace {

// Printable form of a name from an object file (it may hold any bytes).
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s.substr(0, 64)) {
    const auto u = static_cast<unsigned char>(c);
    q += u >= 0x20 && u < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", u);
  }
  return q + (s.size() > 64 ? "...'" : "'");
}

void check_names_and_limits(const Program& p, std::vector<std::string>& out) {
  if (!p.name.empty() && !is_identifier(p.name))
    out.push_back(fmt::format("bad kernel name {} (an identifier, or none)", quoted(p.name)));
  if (p.params.size() > kMaxParams)
    out.push_back(fmt::format("too many parameters: {} (limit {})", p.params.size(), kMaxParams));
  std::map<std::string_view, size_t> first;  // name -> index
  for (size_t i = 0; i < p.params.size(); ++i) {
    const std::string& n = p.params[i].name;
    auto [it, fresh] = first.emplace(n, i);
    if (!is_identifier(n) || is_register_spelling(n))
      out.push_back(fmt::format("parameter {}: bad name {}", i, quoted(n)));
    else if (!fresh)
      out.push_back(fmt::format("parameter {}: '{}' is already declared as parameter {}", i, n, it->second));
  }
  if (!p.aic.present && !p.aiv.present) out.push_back("no code: neither an aic nor an aiv section");
  for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
    const CodeSection& s = p.section(ct);
    if (!s.present) continue;
    if (s.code.size() > kMaxSectionSize)
      out.push_back(fmt::format("{} section: {} instructions (limit {})", core_type_name(ct), s.code.size(), kMaxSectionSize));
    for (size_t i = 0; i < s.labels.size(); ++i) {
      const SemanticLabel& l = s.labels[i];
      const std::string where = fmt::format("{} semantic label {} {} at pc {}", core_type_name(ct), i, quoted(l.name), l.pc);
      if (!is_semantic_label_name(l.name)) out.push_back(where + ": bad name (letters, digits, _ . - /)");
      if (l.pc > s.code.size())
        out.push_back(fmt::format("{}: beyond the end of the section ({} instructions)", where, s.code.size()));
      if (i > 0 && l.pc <= s.labels[i - 1].pc)
        out.push_back(fmt::format("{}: not after the previous label (pc {})", where, s.labels[i - 1].pc));
    }
  }
}

}  // namespace

std::vector<std::string> validate_program(const Program& p, Arch arch) {
  std::vector<std::string> out;
  for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
    const CodeSection& s = p.section(ct);
    if (!s.present) continue;
    for (size_t pc = 0; pc < s.code.size(); ++pc) {
      const Instr& in_ = s.code[pc];
      std::vector<std::string> errs = validate(in_, arch, ct);
      if (errs.empty() && static_cast<int>(in_.op) < kNumOps) {
        const InstrDef& d = in_.d();
        for (int i = 0; i < d.nfields; ++i) {
          const FieldDef& f = d.fields[i];
          int64_t v = in_.f[i].value;
          if (f.kind == FieldKind::Target && v > static_cast<int64_t>(s.code.size()))
            errs.push_back(fmt::format("branch target {} outside the section (0..{})", v, s.code.size()));
          if (f.kind == FieldKind::Param && v >= static_cast<int64_t>(p.params.size()))
            errs.push_back(fmt::format("parameter index {} but the kernel has {} parameters", v, p.params.size()));
        }
      }
      for (const std::string& e : errs) {
        std::string text = static_cast<int>(in_.op) < kNumOps ? disassemble(in_) : "?";
        out.push_back(fmt::format("{} pc {} ({}): {}", core_type_name(ct), pc, text, e));
      }
    }
  }
  check_names_and_limits(p, out);
  return out;
}

}  // namespace npu::isa
