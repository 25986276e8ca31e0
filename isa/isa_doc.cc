#include "isa/isa_doc.h"

#include <fmt/format.h>

#include "isa/dtype_rules.h"
#include "isa/encoding.h"
#include "isa/isa.h"
#include "isa/isa_doc_text.h"
#include "isa/isa_doc_units.h"

namespace npu::isa {
namespace {

std::string_view pipe_rule_name(PipeRule p) {
  switch (p) {
    case PipeRule::Scalar: return "SCALAR";
    case PipeRule::Mte1: return "MTE1";
    case PipeRule::Mte2: return "MTE2";
    case PipeRule::Mte3: return "MTE3";
    case PipeRule::Cube: return "CUBE";
    case PipeRule::Vector: return "VECTOR";
    case PipeRule::Fixp: return "FIXP";
    case PipeRule::FromField0: return "the pipe named by the first operand";
    case PipeRule::FromField1: return "the pipe named by the second operand";
  }
  return "?";
}

std::string_view cores_text(CoreMask c) {
  return c == CoreMask::Any ? "AIC, AIV" : c == CoreMask::AicOnly ? "AIC" : "AIV";
}

// ": f32, f16 (a5 adds e4m3)" for a dtype field's rule, "" for unchecked ones.
std::string dtype_rule_text(DtypeRule r) {
  const DtypeRuleDef& d = dtype_rule(r);
  if (d.nconv) return fmt::format(": {}", conversion_names(r));
  if (!d.any.n) return "";
  return fmt::format(": {}{}", d.any.names(), d.a5.n ? " (a5 adds " + d.a5.names() + ")" : "");
}

std::string_view flops_text(Flops f) {
  switch (f) {
    case Flops::Zero: return "";
    case Flops::OnePerElement: return "; 1 FLOP per element";
    case Flops::TwoPerMac: return "; 2 FLOPs per multiply-accumulate";
  }
  return "";
}

std::string kind_text(const FieldDef& f) {
  switch (f.kind) {
    case FieldKind::RegDst: return "reg (written)";
    case FieldKind::RegSrc: return "reg";
    case FieldKind::RegOrImm: return fmt::format("reg or imm{}", f.bits);
    case FieldKind::URegOrImm: return fmt::format("reg or uimm{}", f.bits);
    case FieldKind::Imm: return fmt::format("imm{}", f.bits);
    case FieldKind::UImm: return fmt::format("uimm{}", f.bits);
    case FieldKind::Target: return "target (label)";
    case FieldKind::Param: return "param (name)";
    case FieldKind::Enum: return std::string(enum_type_name(f.etype)) + dtype_rule_text(f.dtypes);
  }
  return "?";
}

std::string syntax_line(const InstrDef& d) {
  std::string s(d.mnemonic);
  int n = 0;
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    if (f.syntax == FieldSyntax::Suffix) {
      s += fmt::format(".<{}>", f.name);
      continue;
    }
    std::string sep = n++ ? ", " : " ";
    if (f.syntax == FieldSyntax::Optional) s += fmt::format("[{}{}]", sep, f.name);
    else s += sep + std::string(f.name);
  }
  return s;
}

std::string default_text(const FieldDef& f) {
  if (f.syntax != FieldSyntax::Optional) return "";
  if (f.kind == FieldKind::RegSrc) return fmt::format("r{}", f.default_value);
  if (f.kind == FieldKind::Enum) return std::string(keyword(f.etype, static_cast<int>(f.default_value)));
  return std::to_string(f.default_value);
}

}  // namespace

std::string generate_isa_markdown() {
  std::string out;
  out += "<!-- generated from isa/instructions.def, do not edit; regenerate with `npusim isa-doc > docs/isa.md` -->\n";
  out += "# npusim ISA\n\n";
  out += "Generated from isa/instructions.def, do not edit; regenerate with `npusim isa-doc > docs/isa.md`.\n\n";
  out += isa_doc_conventions();
  out += fmt::format("\nISA fingerprint: `{:016x}`\n", isa_fingerprint());

  out += "\n## Keywords\n\n| enum | keywords (value 0, 1, ...) |\n|---|---|\n";
  for (EnumType t : {EnumType::Dtype, EnumType::RoundMode, EnumType::Pipe, EnumType::PipeSel, EnumType::CacheHint,
                     EnumType::VecOp, EnumType::SpecialReg, EnumType::QuantMode, EnumType::MxType}) {
    std::string k;
    for (int i = 0; i < enum_count(t); ++i) k += fmt::format("{}`{}`", i ? ", " : "", keyword(t, i));
    out += fmt::format("| {} | {} |\n", enum_type_name(t), k);
  }

  out += "\n## Instructions\n\n| opcode | syntax | pipe | cores | arch |\n|---|---|---|---|---|\n";
  for (const InstrDef& d : table())
    out += fmt::format("| {:#04x} | `{}` | {} | {} | {} |\n", static_cast<int>(d.op), syntax_line(d),
                       d.pipe == PipeRule::FromField0 || d.pipe == PipeRule::FromField1 ? "operand" : pipe_rule_name(d.pipe),
                       cores_text(d.cores), d.arch == ArchMask::Any ? "a2, a5" : "a5");

  for (const InstrDef& d : table()) {
    out += fmt::format("\n### {}\n\n`{}`\n\n{}\n\n", d.mnemonic, syntax_line(d), d.summary);
    out += fmt::format("- opcode {:#04x}; pipe {}; cores {}; arch {}; timing class {}{}; {} of 128 bits used\n",
                       static_cast<int>(d.op), pipe_rule_name(d.pipe), cores_text(d.cores),
                       d.arch == ArchMask::Any ? "a2, a5" : "a5 only", timing_class_name(d.timing),
                       flops_text(d.flops), d.encoded_bits());
    out += "- cost: " + cost_formula(d) + "\n";
    if (d.nfields == 0) continue;
    out += "\n| field | syntax | kind | unit | range | bits | default |\n|---|---|---|---|---|---|---|\n";
    for (int i = 0; i < d.nfields; ++i) {
      const FieldDef& f = d.fields[i];
      int lo = field_offset(d, i), hi = lo + f.width() - 1;
      const char* syn = f.syntax == FieldSyntax::Suffix ? "suffix" : f.syntax == FieldSyntax::Optional ? "optional" : "operand";
      out += fmt::format("| {} | {} | {} | {} | {} | [{}:{}] | {} |\n", f.name, syn, kind_text(f), operand_unit(d, f),
                         operand_range(f), hi, lo, default_text(f));
    }
  }
  return out;
}

}  // namespace npu::isa
