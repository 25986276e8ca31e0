#include "isa/validate.h"

#include <fmt/format.h>

#include "isa/disasm.h"
#include "isa/dtype_rules.h"
#include "isa/encoding.h"

namespace npu::isa {
namespace {

std::string pipe_kw(int64_t v) { return std::string(keyword(EnumType::Pipe, static_cast<int>(v))); }

const char* core_upper(CoreType c) { return c == CoreType::Aic ? "AIC" : "AIV"; }

}  // namespace

std::vector<std::string> validate(const Instr& in_, Arch arch, CoreType core) {
  std::vector<std::string> errs;
  if (!is_valid_op(in_.op)) {
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

  for (std::string& e : dtype_errors(in_, arch)) errs.push_back(std::move(e));
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
  if (d.op == Op::CC_SET) {
    const int64_t mode = in_.f[d.field_index("mode")].value;
    if (mode > 2) errs.push_back(fmt::format("'cc_set': mode {} out of range (0..2)", mode));
  }
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
      if (errs.empty() && is_valid_op(in_.op)) {
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
        std::string text = is_valid_op(in_.op) ? disassemble(in_) : "?";
        out.push_back(fmt::format("{} pc {} ({}): {}", core_type_name(ct), pc, text, e));
      }
    }
  }
  return out;
}

}  // namespace npu::isa
