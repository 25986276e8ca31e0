// Pass 2 of the assembler: directives, instructions, labels and fixups.
#include "isa/asm/assembler.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/file_io.h"
#include "isa/asm/source.h"
#include "isa/encoding.h"
#include "isa/validate.h"

namespace npu::isa {
namespace detail {
namespace {

std::string keyword_list(EnumType t) {
  std::string s;
  for (int i = 0; i < enum_count(t); ++i) s += (i ? ", " : "") + std::string(keyword(t, i));
  return s;
}

std::string printable(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", u);
}

struct SectionState {
  CodeSection* sec = nullptr;
  CoreType type = CoreType::Aic;
  std::map<std::string, std::pair<uint32_t, int>> labels;  // name -> (pc, line)
  struct Fix {
    uint32_t pc;
    int field;
    std::string name;
    Stmt stmt;
    size_t pos;
  };
  std::vector<Fix> targets, params;
  bool too_big = false;
};

class Assembler {
 public:
  Assembler(Arch arch, Sink& sink) : arch_(arch), sink_(sink) {
    syms_.sink = &sink;
    aic_.sec = &prog_.aic;
    aic_.type = CoreType::Aic;
    aiv_.sec = &prog_.aiv;
    aiv_.type = CoreType::Aiv;
  }
  Symbols& symbols() { return syms_; }

  void statement(const Stmt& s) {
    size_t rest;
    for (auto& [name, pos] : leading_labels(s.text, &rest)) define_label(s, name, pos);
    if (rest >= s.text.size()) return;
    size_t e = rest;
    while (e < s.text.size() && s.text[e] != ' ' && s.text[e] != '\t') ++e;
    std::string w = s.text.substr(rest, e - rest);
    if (w[0] == '.') return directive(s, w, rest);
    for (size_t i = 0; i < w.size(); ++i)
      if (!is_ident_char(w[i]) && w[i] != '.') {
        sink_.error(s, rest + i, fmt::format("unexpected character '{}'", printable(w[i])));
        return;
      }
    instruction(s, w, rest);
  }

  // The kernel's name when the source has no .kernel directive.
  void set_default_name(std::string name) { default_name_ = std::move(name); }

  std::optional<Program> finish() {
    for (SectionState* st : {&aic_, &aiv_}) {
      SectionState* other = st == &aic_ ? &aiv_ : &aic_;
      for (auto& f : st->targets) {
        auto it = st->labels.find(f.name);
        if (it != st->labels.end()) {
          st->sec->code[f.pc].f[f.field].value = it->second.first;
        } else if (other->labels.count(f.name)) {
          sink_.error(f.stmt, f.pos, fmt::format("unknown label '{}' in the {} section (it is defined in the {} section)",
                                                 f.name, core_type_name(st->type), core_type_name(other->type)));
        } else {
          sink_.error(f.stmt, f.pos, fmt::format("unknown label '{}'", f.name));
        }
      }
      for (auto& f : st->params) {
        int idx = prog_.param_index(f.name);
        if (idx >= 0) st->sec->code[f.pc].f[f.field].value = idx;
        else sink_.error(f.stmt, f.pos, fmt::format("unknown parameter '{}' (declare it with .param)", f.name));
      }
    }
    if (prog_.name.empty()) prog_.name = default_name_;
    if (!prog_.aic.present && !prog_.aiv.present && sink_.diags.empty())
      sink_.error_at(1, 1, "no code: the file has neither an .aic nor an .aiv section");
    // The rules above, checked once more on the result as the object loader checks a file (a
    // finding here means the assembler let something through).
    if (sink_.diags.empty())
      for (const std::string& e : validate_program(prog_, arch_)) sink_.error_at(1, 1, e);
    if (!sink_.diags.empty()) return std::nullopt;
    return std::move(prog_);
  }

 private:
  Arch arch_;
  Sink& sink_;
  Symbols syms_;
  Program prog_;
  std::string default_name_ = "kernel";
  SectionState aic_, aiv_;
  SectionState* cur_ = nullptr;
  int kernel_line_ = 0;

  void define_label(const Stmt& s, const std::string& name, size_t pos) {
    if (!cur_) {
      sink_.error(s, pos, fmt::format("label '{}' outside a section (start one with .aic or .aiv)", name));
      return;
    }
    uint32_t pc = static_cast<uint32_t>(cur_->sec->code.size());
    auto [it, fresh] = cur_->labels.emplace(name, std::make_pair(pc, s.line));
    if (!fresh) sink_.error(s, pos, fmt::format("duplicate label '{}' (first defined at line {})", name, it->second.second));
  }

  void directive(const Stmt& s, const std::string& w, size_t at) {
    auto ops = split_operands(s.text, at + w.size());
    auto want = [&](size_t lo, size_t hi, const char* usage) {
      if (ops.size() >= lo && ops.size() <= hi) return true;
      sink_.error(s, at, fmt::format("expected '{}'", usage));
      return false;
    };
    if (w == ".aic" || w == ".aiv") {
      if (!want(0, 0, w.c_str())) return;
      cur_ = w == ".aic" ? &aic_ : &aiv_;
      cur_->sec->present = true;
    } else if (w == ".kernel") {
      if (!want(1, 1, ".kernel NAME")) return;
      if (!is_identifier(ops[0].first)) return sink_.error(s, ops[0].second, fmt::format("bad kernel name '{}'", ops[0].first));
      if (kernel_line_) return sink_.error(s, at, fmt::format(".kernel already given at line {}", kernel_line_));
      kernel_line_ = s.line;
      prog_.name = ops[0].first;
    } else if (w == ".param") {
      param(s, at, ops);
    } else if (w == ".semantic") {
      if (!want(1, 1, ".semantic NAME")) return;
      const std::string& n = ops[0].first;
      if (!is_semantic_label_name(n)) return sink_.error(s, ops[0].second, fmt::format("bad semantic label '{}' (letters, digits, _ . - /)", n));
      if (!cur_) return sink_.error(s, at, ".semantic outside a section (start one with .aic or .aiv)");
      auto& labels = cur_->sec->labels;
      uint32_t pc = static_cast<uint32_t>(cur_->sec->code.size());
      if (!labels.empty() && labels.back().pc == pc) labels.back().name = n;  // the later one wins
      else labels.push_back(SemanticLabel{pc, n});
    } else {
      sink_.error(s, at, fmt::format("unknown directive '{}'", w));
    }
  }

  void param(const Stmt& s, size_t at, const std::vector<std::pair<std::string, size_t>>& ops) {
    if (ops.size() < 2) return sink_.error(s, at, "expected '.param NAME, gm|int|f32 [, dtype] [, nd|nz]'");
    KernelParam kp;
    kp.name = ops[0].first;
    if (!is_identifier(kp.name) || parse_register(kp.name, syms_))
      return sink_.error(s, ops[0].second, fmt::format("bad parameter name '{}'", kp.name));
    if (prog_.param_index(kp.name) >= 0) return sink_.error(s, ops[0].second, fmt::format("parameter '{}' is already declared", kp.name));
    const std::string& k = ops[1].first;
    if (k == "gm") kp.kind = ParamKind::Gm;
    else if (k == "int") kp.kind = ParamKind::Int;
    else if (k == "f32") kp.kind = ParamKind::F32;
    else return sink_.error(s, ops[1].second, fmt::format("bad parameter kind '{}' (expected gm, int or f32)", k));
    // Optional: a dtype, then a layout (nd / nz); a layout alone may stand in the dtype's place.
    size_t next = 2;
    if (next < ops.size() && ops[next].first != "nd" && ops[next].first != "nz") {
      auto dt = parse_keyword(EnumType::Dtype, ops[next].first);
      if (!dt) return sink_.error(s, ops[next].second, fmt::format("bad dtype '{}' (expected {})", ops[next].first, keyword_list(EnumType::Dtype)));
      kp.dtype = static_cast<Dtype>(*dt);
      ++next;
    }
    if (next < ops.size()) {
      const std::string& f = ops[next].first;
      if (f != "nd" && f != "nz") return sink_.error(s, ops[next].second, fmt::format("bad layout '{}' (expected nd or nz)", f));
      if (kp.kind != ParamKind::Gm) return sink_.error(s, ops[next].second, "a layout (nd, nz) is for gm parameters only");
      if (f == "nz") kp.format = GmFormat::Nz;
      ++next;
    }
    if (next < ops.size()) return sink_.error(s, ops[next].second, "expected '.param NAME, gm|int|f32 [, dtype] [, nd|nz]'");
    if (prog_.params.size() >= kMaxParams) return sink_.error(s, at, fmt::format("too many parameters (limit {})", kMaxParams));
    prog_.params.push_back(std::move(kp));
  }

  void instruction(const Stmt& s, const std::string& w, size_t at) {
    if (!cur_) return sink_.error(s, at, "instruction outside a section (start one with .aic or .aiv)");
    if (cur_->sec->code.size() >= kMaxSectionSize) {
      if (!cur_->too_big) sink_.error(s, at, fmt::format("too many instructions in the {} section (limit {})", core_type_name(cur_->type), kMaxSectionSize));
      cur_->too_big = true;
      return;
    }
    uint32_t pc = static_cast<uint32_t>(cur_->sec->code.size());
    cur_->sec->code.push_back(Instr{});  // placeholder; replaced when the statement is valid
    // Spliced line numbers for now; assemble() maps them to files (.include).
    SourceLoc loc;
    loc.at.line = s.chain.empty() ? s.line : s.chain.front();
    loc.via.reserve(s.chain.size());
    for (size_t k = 1; k < s.chain.size(); ++k) loc.via.push_back(FileLine{0, s.chain[k]});
    if (!s.chain.empty()) loc.via.push_back(FileLine{0, s.line});
    cur_->sec->src.push_back(std::move(loc));
    size_t dot = w.find('.');
    std::string mn = w.substr(0, dot);
    const InstrDef* d = find_mnemonic(mn);
    if (!d) return sink_.error(s, at, fmt::format("unknown mnemonic '{}'", mn));
    Instr in;
    in.op = d->op;
    size_t errors = sink_.diags.size();

    // Suffixes, in table order.
    std::vector<std::pair<std::string, size_t>> sfx;
    while (dot != std::string::npos) {
      size_t next = w.find('.', dot + 1);
      sfx.emplace_back(w.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1), at + dot);
      dot = next;
    }
    std::vector<int> sfx_fields, op_fields;
    size_t nreq = 0;
    for (int i = 0; i < d->nfields; ++i) {
      if (d->fields[i].syntax == FieldSyntax::Suffix) sfx_fields.push_back(i);
      else op_fields.push_back(i), nreq += d->fields[i].syntax == FieldSyntax::Operand;
    }
    if (sfx.size() != sfx_fields.size()) {
      std::string names;
      for (int i : sfx_fields) names += fmt::format(".{}", d->fields[i].name);
      if (sfx_fields.empty()) return sink_.error(s, at + mn.size(), fmt::format("'{}' takes no suffix", mn));
      return sink_.error(s, at + mn.size(), fmt::format("'{}' needs {} suffix{} ({}), got {}", mn, sfx_fields.size(),
                                                        sfx_fields.size() == 1 ? "" : "es", names, sfx.size()));
    }
    for (size_t k = 0; k < sfx.size(); ++k) {
      const FieldDef& f = d->fields[sfx_fields[k]];
      auto v = parse_keyword(f.etype, sfx[k].first);
      if (!v) sink_.error(s, sfx[k].second, fmt::format("bad suffix '.{}' for '{}': expected a {} ({})", sfx[k].first, mn,
                                                        enum_type_name(f.etype), keyword_list(f.etype)));
      else in.f[sfx_fields[k]].value = *v;
    }

    auto ops = split_operands(s.text, at + w.size());
    if (ops.size() < nreq || ops.size() > op_fields.size()) {
      std::string names;
      for (size_t k = 0; k < op_fields.size(); ++k) {
        const FieldDef& f = d->fields[op_fields[k]];
        names += (k ? ", " : "") + std::string(f.syntax == FieldSyntax::Optional ? "[" : "") + std::string(f.name) +
                 (f.syntax == FieldSyntax::Optional ? "]" : "");
      }
      std::string expected = nreq == op_fields.size() ? std::to_string(nreq) : fmt::format("{} to {}", nreq, op_fields.size());
      return sink_.error(s, at, fmt::format("wrong operand count for '{}': expected {} ({}), got {}", mn, expected, names, ops.size()));
    }
    for (size_t k = 0; k < op_fields.size(); ++k) {
      int fi = op_fields[k];
      const FieldDef& f = d->fields[fi];
      if (k >= ops.size()) {
        in.f[fi] = Operand{f.kind == FieldKind::RegSrc, f.default_value};
        continue;
      }
      if (auto o = operand(s, f, ops[k].first, ops[k].second, pc, fi)) in.f[fi] = *o;
    }
    if (sink_.diags.size() != errors) return;
    for (const std::string& e : validate(in, arch_, cur_->type)) sink_.error(s, at, e);
    cur_->sec->code[pc] = in;
  }

  std::optional<Operand> operand(const Stmt& s, const FieldDef& f, const std::string& t, size_t pos, uint32_t pc, int fi) {
    if (t.empty()) {
      sink_.error(s, pos, fmt::format("missing operand '{}'", f.name));
      return std::nullopt;
    }
    std::optional<int> reg;
    if (is_identifier(t)) reg = parse_register(t, syms_);
    if (reg && *reg >= kNumRegs) {
      sink_.error(s, pos, fmt::format("no register '{}' (r0..r{})", t, kNumRegs - 1));
      return std::nullopt;
    }
    switch (f.kind) {
      case FieldKind::RegDst:
      case FieldKind::RegSrc:
        if (!reg) {
          sink_.error(s, pos, fmt::format("'{}' must be a register, got '{}'", f.name, t));
          return std::nullopt;
        }
        return Operand{true, *reg};
      case FieldKind::Enum: {
        auto v = parse_keyword(f.etype, t);
        if (!v) {
          sink_.error(s, pos, fmt::format("bad {} '{}' for '{}' (expected {})", enum_type_name(f.etype), t, f.name, keyword_list(f.etype)));
          return std::nullopt;
        }
        return Operand{false, *v};
      }
      case FieldKind::Target:
      case FieldKind::Param:
        if (!is_identifier(t) || reg) {
          sink_.error(s, pos, fmt::format("expected a {} name for '{}', got '{}'", f.kind == FieldKind::Target ? "label" : "parameter", f.name, t));
          return std::nullopt;
        }
        (f.kind == FieldKind::Target ? cur_->targets : cur_->params).push_back(SectionState::Fix{pc, fi, t, s, pos});
        return Operand{false, 0};
      default: break;
    }
    if (reg) {
      if (f.kind == FieldKind::RegOrImm || f.kind == FieldKind::URegOrImm) return Operand{true, *reg};
      sink_.error(s, pos, fmt::format("'{}' must be an immediate, got register '{}'", f.name, t));
      return std::nullopt;
    }
    auto v = syms_.eval(s, pos, t);
    if (!v) return std::nullopt;
    bool is_signed = f.kind == FieldKind::RegOrImm || f.kind == FieldKind::Imm;
    int64_t val = *v;
    if (is_signed && f.bits < 64) {
      // A signed field also takes its unsigned bit pattern (f32(-1.0) = 0xbf800000): wrap it.
      int64_t half = int64_t{1} << (f.bits - 1);
      if (val >= half && val < 2 * half) val -= 2 * half;
      if (val < -half || val >= half) {
        sink_.error(s, pos, fmt::format("immediate out of range for '{}': {} (allowed {}..{}, or a {}-bit pattern up to {:#x})",
                                        f.name, *v, -half, half - 1, f.bits, 2 * half - 1));
        return std::nullopt;
      }
    } else if (!is_signed && (val < 0 || val > imm_max(f))) {
      sink_.error(s, pos, fmt::format("immediate out of range for '{}': {} (allowed 0..{})", f.name, val, imm_max(f)));
      return std::nullopt;
    }
    return Operand{false, val};
  }
};

}  // namespace

std::vector<std::string> split_source_lines(std::string_view src) {
  std::vector<std::string> lines;
  size_t b = 0;
  while (b <= src.size()) {
    size_t e = src.find('\n', b);
    if (e == std::string_view::npos) e = src.size();
    std::string l(src.substr(b, e - b));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
    b = e + 1;
  }
  return lines;
}

}  // namespace detail

std::string Diagnostic::format() const {
  if (line <= 0) return fmt::format("{}: error: {}\n", file, message);
  std::string out = fmt::format("{}:{}:{}: error: {}\n", file, line, col, message);
  if (!source_line.empty()) {
    out += source_line + "\n";
    std::string caret;
    for (int i = 0; i + 1 < col && i < static_cast<int>(source_line.size()); ++i) caret += source_line[i] == '\t' ? '\t' : ' ';
    out += caret + "^\n";
  }
  return out;
}

std::string AsmResult::format_diags() const {
  std::string out;
  for (const Diagnostic& d : diags) out += d.format();
  return out;
}

AsmResult assemble(std::string_view source, std::string_view filename, Arch arch) {
  return assemble(source, filename, AsmTarget{arch, "", {}});
}

AsmResult assemble(std::string_view source, std::string_view filename, const AsmTarget& target) {
  using namespace detail;
  const Arch arch = target.arch;
  Sink sink;
  sink.file = std::string(filename);
  SourceMap map;
  std::vector<std::string> lines = expand_includes(split_source_lines(source), sink.file, map, sink);
  sink.lines = &lines;
  sink.map = &map;
  Assembler as(arch, sink);
  as.symbols().predefine(target.symbols);
  as.set_default_name(default_kernel_name(filename));
  bool overflow = false;
  std::vector<Stmt> stmts = expand(lines, as.symbols(), sink, &overflow);
  // After a runaway expansion the statements are a truncated mess: report only the limit.
  if (!overflow)
    for (const Stmt& s : stmts) as.statement(s);
  // Report every bad .equ, used or not, at its definition.
  for (auto& [name, c] : as.symbols().consts) {
    if (c.target) continue;  // predefined, not written in the source
    bool reported = false;
    as.symbols().lookup(name, nullptr, &reported);
  }
  AsmResult r;
  r.program = as.finish();
  if (r.program) {
    auto origin = [&](FileLine& l) {  // spliced line -> file and line
      if (l.line < 1 || l.line > static_cast<int>(map.origins.size())) return;
      l = FileLine{map.origins[l.line - 1].file, map.origins[l.line - 1].line};
    };
    r.program->source_files = map.files;
    r.program->target_symbols = as.symbols().used_target_symbols();
    if (!r.program->target_symbols.empty()) r.program->target_config = target.config;
    for (CodeSection* sec : {&r.program->aic, &r.program->aiv})
      for (SourceLoc& l : sec->src) {
        origin(l.at);
        for (FileLine& v : l.via) origin(v);
      }
  }
  std::stable_sort(sink.diags.begin(), sink.diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.col < b.col;
  });
  for (Diagnostic& d : sink.diags) {
    // Spliced line numbers -> the file and line each came from (.include).
    if (d.line >= 1 && d.line <= static_cast<int>(map.origins.size())) {
      const SourceMap::Origin& o = map.origins[d.line - 1];
      d.file = map.files[o.file];
      d.line = o.line;
    }
    if (r.diags.empty() || r.diags.back().format() != d.format())  // .rept repeats a bad line: once
      r.diags.push_back(std::move(d));
  }
  return r;
}

AsmResult assemble_file(const std::string& path, Arch arch) { return assemble_file(path, AsmTarget{arch, "", {}}); }

AsmResult assemble_file(const std::string& path, const AsmTarget& target) {
  std::string text;
  try {
    text = read_input_file(path, kMaxSourceFileBytes);
  } catch (const InputFileError& e) {
    AsmResult r;
    Diagnostic d;
    d.file = path;
    d.message = e.reason;
    r.diags.push_back(d);
    return r;
  }
  return assemble(text, path, target);
}

}  // namespace npu::isa
