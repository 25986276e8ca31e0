#include "isa/validate.h"

#include <fmt/format.h>

#include <initializer_list>

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
  return out;
}

}  // namespace npu::isa
