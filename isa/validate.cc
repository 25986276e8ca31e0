#include "isa/validate.h"

#include <fmt/format.h>

#include <initializer_list>
#include <map>

#include "isa/disasm.h"
#include "isa/dtype_rules.h"
#include "isa/encoding.h"

namespace npu::isa {
namespace {

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

std::string default_kernel_name(std::string_view filename) {
  std::string_view stem = filename.substr(filename.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  std::string name;
  for (char c : stem) name += is_ident_char(c) ? c : '_';
  if (!name.empty() && !is_ident_start(name[0])) name.insert(0, "_");
  return name.empty() ? "kernel" : name;
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
  if (p.name.empty())
    out.push_back("no kernel name (the assembler always writes one: re-assemble the kernel)");
  else if (!is_identifier(p.name))
    out.push_back(fmt::format("bad kernel name {} (an identifier)", quoted(p.name)));
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
  check_names_and_limits(p, out);
  return out;
}

}  // namespace npu::isa
