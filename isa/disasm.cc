#include "isa/disasm.h"

#include <fmt/format.h>

#include <set>

namespace npu::isa {
namespace {

// URegOrImm fields that hold a local-buffer byte offset print in hex.
bool is_offset_field(std::string_view n) {
  for (std::string_view o : {"dst", "src", "src0", "src1", "a", "b", "c", "s", "v"})
    if (n == o) return true;
  return false;
}

std::string signed_imm(int64_t v, int bits) {
  // Large patterns (fp32 bits, addresses) read better in hex; the assembler accepts the
  // unsigned spelling of a signed field and wraps it.
  if (v >= 65536 || v <= -(int64_t{1} << 24)) {
    uint64_t u = static_cast<uint64_t>(v);
    if (bits < 64) u &= (1ull << bits) - 1;
    return fmt::format("{:#x}", u);
  }
  return std::to_string(v);
}

std::string operand_text(const FieldDef& f, const Operand& o, const Program* ctx, const TargetNamer& target) {
  if (o.is_reg) return fmt::format("r{}", o.value);
  switch (f.kind) {
    case FieldKind::Enum: {
      std::string_view k = keyword(f.etype, static_cast<int>(o.value));
      return k.empty() ? fmt::format("?{}", o.value) : std::string(k);
    }
    case FieldKind::Target: return target ? target(o.value) : target_label(o.value);
    case FieldKind::Param:
      if (ctx && o.value >= 0 && o.value < static_cast<int64_t>(ctx->params.size()))
        return ctx->params[o.value].name;
      return fmt::format("p{}", o.value);
    case FieldKind::URegOrImm:
      return is_offset_field(f.name) ? fmt::format("{:#x}", o.value) : std::to_string(o.value);
    case FieldKind::RegOrImm:
    case FieldKind::Imm: return signed_imm(o.value, f.bits);
    case FieldKind::RegDst:
    case FieldKind::RegSrc: return fmt::format("r{}", o.value);  // is_reg unset: still a register
    default: return std::to_string(o.value);
  }
}

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Gm: return "gm";
    case ParamKind::Int: return "int";
    case ParamKind::F32: return "f32";
  }
  return "?";
}

}  // namespace

std::string target_label(int64_t pc) { return fmt::format("L{}", pc); }

std::string disassemble(const Instr& in, const Program* ctx, const TargetNamer& target) {
  if (!is_valid_op(in.op)) return fmt::format("?op{}", static_cast<int>(in.op));
  const InstrDef& d = in.d();
  std::string s(d.mnemonic);
  int nops = 0;
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    std::string t = operand_text(f, in.f[i], ctx, target);
    if (f.syntax == FieldSyntax::Suffix) {
      s += "." + t;
    } else {
      s += nops++ ? ", " : " ";
      s += t;
    }
  }
  return s;
}

std::string disassemble_program(const Program& p) {
  std::string out = "# disassembled by npusim disasm\n";
  if (!p.name.empty()) out += fmt::format(".kernel {}\n", p.name);
  for (const KernelParam& kp : p.params) {
    out += fmt::format(".param {}, {}", kp.name, kind_name(kp.kind));
    if (kp.dtype) out += fmt::format(", {}", dtype_name(*kp.dtype));
    if (kp.format != GmFormat::Nd) out += fmt::format(", {}", gm_format_name(kp.format));
    out += "\n";
  }
  for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
    const CodeSection& sec = p.section(ct);
    if (!sec.present) continue;
    out += fmt::format("\n.{}\n", core_type_name(ct));
    std::set<int64_t> targets;
    for (const Instr& in : sec.code) {
      if (!is_valid_op(in.op)) continue;
      const InstrDef& d = in.d();
      for (int i = 0; i < d.nfields; ++i)
        if (d.fields[i].kind == FieldKind::Target) targets.insert(in.f[i].value);
    }
    size_t li = 0;
    for (size_t pc = 0; pc <= sec.code.size(); ++pc) {
      for (; li < sec.labels.size() && sec.labels[li].pc == pc; ++li)
        out += fmt::format(".semantic {}\n", sec.labels[li].name);
      if (targets.count(static_cast<int64_t>(pc))) out += target_label(static_cast<int64_t>(pc)) + ":\n";
      if (pc < sec.code.size()) out += "    " + disassemble(sec.code[pc], &p) + "\n";
    }
    // Labels past the end (only in hand-made programs) are kept so nothing is lost silently.
    for (; li < sec.labels.size(); ++li)
      out += fmt::format("# semantic label '{}' at pc {} is past the end\n", sec.labels[li].name, sec.labels[li].pc);
  }
  return out;
}

}  // namespace npu::isa
