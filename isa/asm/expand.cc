// Pass 1 of the assembler: comments, .macro/.endm, .rept/.endr, .equ and .reg.
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "isa/asm/source.h"
#include "isa/isa.h"

namespace npu::isa::detail {

void Sink::error(const Stmt& s, size_t pos, const std::string& msg) {
  std::string m = msg;
  if (!s.macro.empty()) {
    size_t levels = 1, first = s.macro.find(" -> ");
    for (size_t p = first; p != std::string::npos; p = s.macro.find(" -> ", p + 4)) ++levels;
    if (levels <= 4) {
      // The lines inside the macro bodies (the error itself is at the outermost invocation),
      // as Program::where gives them for an instruction: "m.inc:12, via m.inc:30".
      std::string at;
      for (size_t k = 0; k < s.chain.size(); ++k) at += (k == 0 ? " at " : k == 1 ? ", via " : ", ") + place(s.chain[k]);
      m += fmt::format(" (in expansion of macro '{}'{})", s.macro, at);
    } else {  // runaway recursion: show the ends of the chain only
      m += fmt::format(" (in expansion of macro '{} -> ... -> {}', {} levels)", s.macro.substr(0, first),
                       s.macro.substr(s.macro.rfind(" -> ") + 4), levels);
    }
  }
  error_at(s.line, s.col(pos), m);
}

std::string Sink::place(int spliced) const {
  if (!map || spliced < 1 || spliced > static_cast<int>(map->origins.size())) return file + ":" + std::to_string(spliced);
  const SourceMap::Origin& o = map->origins[spliced - 1];
  return map->files[o.file] + ":" + std::to_string(o.line);
}

void Sink::error_at(int line, int col, const std::string& msg) {
  Diagnostic d;
  d.file = file;
  d.line = line;
  d.col = col;
  d.message = msg;
  if (lines && line >= 1 && line <= static_cast<int>(lines->size())) d.source_line = (*lines)[line - 1];
  diags.push_back(std::move(d));
}

size_t skip_ws(const std::string& t, size_t p) {
  while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
  return p;
}

// Past the `name:` labels and blanks at the start of t: where the first word starts; each label
// (name, column) goes to *labels when given.
size_t skip_labels(const std::string& t, std::vector<std::pair<std::string, size_t>>* labels) {
  size_t p = skip_ws(t, 0);
  for (;;) {
    if (p >= t.size() || !is_ident_start(t[p])) return p;
    size_t e = p;
    while (e < t.size() && is_ident_char(t[e])) ++e;
    size_t c = skip_ws(t, e);
    if (c >= t.size() || t[c] != ':') return p;
    if (labels) labels->emplace_back(t.substr(p, e - p), p);
    p = skip_ws(t, c + 1);
  }
}

std::vector<std::pair<std::string, size_t>> leading_labels(const std::string& t, size_t* rest) {
  std::vector<std::pair<std::string, size_t>> out;
  *rest = skip_labels(t, &out);
  return out;
}

std::vector<std::pair<std::string, size_t>> split_operands(const std::string& t, size_t from) {
  std::vector<std::pair<std::string, size_t>> out;
  from = skip_ws(t, from);
  if (from >= t.size()) return out;
  int depth = 0;
  size_t start = from;
  auto push = [&](size_t end) {
    size_t b = skip_ws(t, start);
    size_t e = end;
    while (e > b && (t[e - 1] == ' ' || t[e - 1] == '\t')) --e;
    out.emplace_back(t.substr(b, e - b), b);
  };
  for (size_t i = from; i < t.size(); ++i) {
    if (t[i] == '(') ++depth;
    else if (t[i] == ')') --depth;
    else if (t[i] == ',' && depth <= 0) {
      push(i);
      start = i + 1;
    }
  }
  push(t.size());
  return out;
}

std::optional<int> parse_register(std::string_view w, const Symbols& syms) {
  if (is_register_spelling(w)) {
    int n = 0;
    for (char c : w.substr(1)) n = n * 10 + (c - '0');
    return n;  // the caller rejects numbers above r31 with a clear message
  }
  auto it = syms.regs.find(std::string(w));
  if (it != syms.regs.end()) return it->second.first;
  return std::nullopt;
}

void Symbols::predefine(const std::vector<TargetSymbol>& target) {
  for (const TargetSymbol& t : target) {
    ConstDef c;
    c.state = ConstDef::Done;
    c.value = t.value;
    c.target = true;
    consts[t.name] = std::move(c);
  }
}

std::vector<TargetSymbol> Symbols::used_target_symbols() const {
  std::vector<TargetSymbol> out;
  for (const auto& [name, c] : consts)  // std::map: sorted by name
    if (c.target && c.used) out.push_back(TargetSymbol{name, c.value});
  return out;
}

std::optional<int64_t> Symbols::lookup(std::string_view name, const ScopePtr& scope, bool* reported) {
  for (const Scope* s = scope.get(); s; s = s->parent.get())
    if (s->name == name) return s->value;
  auto it = consts.find(std::string(name));
  if (it == consts.end()) return std::nullopt;
  ConstDef& c = it->second;
  c.used |= c.target;
  switch (c.state) {
    case ConstDef::Done: return c.value;
    case ConstDef::Failed: *reported = true; return std::nullopt;
    case ConstDef::Busy:
      sink->error(c.where, c.expr_pos, fmt::format("constant '{}' is defined in terms of itself", name));
      c.state = ConstDef::Failed;
      *reported = true;
      return std::nullopt;
    case ConstDef::Pending: break;
  }
  c.state = ConstDef::Busy;
  auto v = eval(c.where, c.expr_pos, c.expr);
  if (c.state == ConstDef::Failed || !v) {
    c.state = ConstDef::Failed;
    *reported = true;
    return std::nullopt;
  }
  c.state = ConstDef::Done;
  c.value = *v;
  return c.value;
}

std::optional<int64_t> Symbols::eval(const Stmt& s, size_t pos, std::string_view text) {
  ExprError e;
  ScopePtr scope = s.scope;
  auto v = eval_expr(text, [&](std::string_view n, bool* rep) { return lookup(n, scope, rep); }, &e);
  if (!v && !e.message.empty()) sink->error(s, pos + e.pos, e.message);
  return v;
}

namespace {

constexpr int kMaxDepth = 64;
constexpr size_t kMaxStatements = 200000;  // statements after expansion (memory bound)
constexpr int64_t kMaxRept = 100000;
constexpr int64_t kMaxWork = 1000000;  // .rept iterations in all (empty bodies emit nothing)

// The first word after the labels (".macro", "vadd.f32", a macro name) and where it starts.
std::string_view first_word(const std::string& t, size_t* at) {
  const size_t p = skip_labels(t, nullptr);
  *at = p;
  size_t e = p;
  while (e < t.size() && t[e] != ' ' && t[e] != '\t') ++e;
  return std::string_view(t).substr(p, e - p);
}

using Subst = std::map<std::string, std::string, std::less<>>;

// Replaces \name (names in `subst`) and \@ (with `unique`).
std::string substitute(const std::string& t, const Subst& subst, int unique) {
  size_t i = t.find('\\');
  if (i == std::string::npos) return t;
  std::string out;
  out.reserve(t.size() + 16);
  size_t copied = 0;  // t[copied, i) is still to be appended
  for (; i != std::string::npos; i = t.find('\\', i)) {
    if (i + 1 >= t.size()) break;
    if (t[i + 1] == '@') {
      out.append(t, copied, i - copied);
      out += std::to_string(unique);
      copied = i += 2;
      continue;
    }
    size_t e = i + 1;
    while (e < t.size() && is_ident_char(t[e])) ++e;
    auto it = subst.find(std::string_view(t).substr(i + 1, e - i - 1));
    if (it != subst.end()) {
      out.append(t, copied, i - copied);
      out += it->second;
      copied = i = e;
      continue;
    }
    ++i;
  }
  out.append(t, copied, std::string::npos);
  return out;
}

class Expander {
 public:
  Expander(Symbols& s, Sink& k) : syms_(s), sink_(k) {}
  std::vector<Stmt> out;
  bool overflowed() const { return overflow_; }

  // Statements are moved into `out` as they are emitted: `lines` is the caller's to give up.
  void run(std::vector<Stmt>& lines, int depth) {
    for (size_t i = 0; i < lines.size() && !overflow_; ++i) {
      Stmt& s = lines[i];
      size_t at;
      const std::string_view w = first_word(s.text, &at);
      auto label_only = [&] {
        if (at == 0 || s.text.find(':') >= at) return;  // no label before the directive
        Stmt labels = s;
        labels.text = s.text.substr(0, at);
        emit(labels);
      };
      if (w == ".macro" || w == ".rept") {
        label_only();
        size_t end = find_end(lines, i, w);
        if (end == lines.size()) {
          if (w == ".macro") {
            auto ops = split_operands(s.text, at + w.size());
            std::string name = ops.empty() ? "" : ops[0].first.substr(0, ops[0].first.find_first_of(" \t"));
            sink_.error(s, at, fmt::format("unterminated macro '{}' (missing .endm)", name));
          } else {
            sink_.error(s, at, "unterminated .rept (missing .endr)");
          }
          return;
        }
        std::vector<Stmt> body(std::make_move_iterator(lines.begin() + i + 1),
                               std::make_move_iterator(lines.begin() + end));  // i skips past them
        if (w == ".macro") define_macro(s, at + w.size(), std::move(body));
        else rept(s, at + w.size(), body, depth);
        i = end;
      } else if (w == ".endm" || w == ".endr") {
        sink_.error(s, at, fmt::format("'{}' without a matching '{}'", w, w == ".endm" ? ".macro" : ".rept"));
      } else if (w == ".equ") {
        label_only();
        define_equ(s, at + w.size());
      } else if (w == ".reg") {
        label_only();
        define_reg(s, at + w.size());
      } else if (auto m = macros_.find(w); m != macros_.end()) {
        label_only();
        invoke(s, at, m->first, m->second, depth);
      } else if (skip_ws(s.text, 0) < s.text.size()) {
        emit(std::move(s));
      }
    }
  }

 private:
  struct Macro {
    std::vector<std::string> params;
    std::vector<Stmt> body;
  };
  Symbols& syms_;
  Sink& sink_;
  std::map<std::string, Macro, std::less<>> macros_;
  int unique_ = 0;
  int64_t work_ = 0;
  bool overflow_ = false;

  void emit(Stmt s) {
    if (out.size() >= kMaxStatements) {
      sink_.error(s, 0, fmt::format("expansion produces more than {} statements", kMaxStatements));
      overflow_ = true;
      return;
    }
    out.push_back(std::move(s));
  }

  // Index of the .endm/.endr matching lines[i] (lines.size() if none); nested pairs count.
  size_t find_end(const std::vector<Stmt>& lines, size_t i, std::string_view open) {
    const std::string_view close = open == ".macro" ? ".endm" : ".endr";
    int depth = 0;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      size_t at;
      const std::string_view w = first_word(lines[j].text, &at);
      if (w == open) ++depth;
      else if (w == close && depth-- == 0) return j;
    }
    return lines.size();
  }

  void define_macro(const Stmt& s, size_t from, std::vector<Stmt> body) {
    size_t p = skip_ws(s.text, from);
    size_t e = p;
    while (e < s.text.size() && is_ident_char(s.text[e])) ++e;
    std::string name = s.text.substr(p, e - p);
    if (!is_identifier(name)) {
      sink_.error(s, p, "expected a macro name after .macro");
      return;
    }
    Macro m;
    m.body = std::move(body);
    for (auto& [param, pos] : split_operands(s.text, e)) {
      // Parameters may be separated by commas or blanks.
      size_t q = 0;
      while (q < param.size()) {
        size_t r = param.find_first_of(" \t", q);
        std::string word = param.substr(q, r == std::string::npos ? std::string::npos : r - q);
        if (!is_identifier(word)) {
          sink_.error(s, pos + q, fmt::format("bad macro parameter name '{}'", word));
          return;
        }
        m.params.push_back(word);
        if (r == std::string::npos) break;
        q = r;
        while (q < param.size() && (param[q] == ' ' || param[q] == '\t')) ++q;
      }
    }
    if (find_mnemonic(name)) {
      sink_.error(s, p, fmt::format("macro name '{}' is an instruction mnemonic", name));
      return;
    }
    if (!macros_.emplace(name, std::move(m)).second)
      sink_.error(s, p, fmt::format("macro '{}' is already defined", name));
  }

  void invoke(const Stmt& s, size_t at, const std::string& name, const Macro& m, int depth) {
    if (depth >= kMaxDepth) {
      sink_.error(s, at, fmt::format("macro expansion nested too deeply (limit {}) at '{}'", kMaxDepth, name));
      overflow_ = true;  // every enclosing level would report the same again
      return;
    }
    auto args = split_operands(s.text, at + name.size());
    if (args.size() != m.params.size()) {
      sink_.error(s, at, fmt::format("macro '{}' takes {} argument{}, got {}", name, m.params.size(),
                                     m.params.size() == 1 ? "" : "s", args.size()));
      return;
    }
    Subst subst;
    for (size_t k = 0; k < args.size(); ++k) subst[m.params[k]] = std::move(args[k].first);
    int unique = unique_++;
    const std::string macro = s.macro.empty() ? name : s.macro + " -> " + name;
    std::vector<Stmt> body;
    body.reserve(m.body.size());
    for (const Stmt& b : m.body) {
      Stmt x;
      x.text = substitute(b.text, subst, unique);
      x.line = s.line;
      x.col0 = 0;
      x.macro_col = s.col(at);
      x.macro = macro;
      x.scope = s.scope;
      x.chain.reserve(1 + s.chain.size());
      x.chain.push_back(b.chain.empty() ? b.line : b.chain.front());
      x.chain.insert(x.chain.end(), s.chain.begin(), s.chain.end());
      body.push_back(std::move(x));
    }
    run(body, depth + 1);
  }

  void rept(const Stmt& s, size_t from, const std::vector<Stmt>& body, int depth) {
    auto ops = split_operands(s.text, from);
    if (ops.empty() || ops.size() > 2) {
      sink_.error(s, from, "expected '.rept COUNT' or '.rept COUNT, VAR'");
      return;
    }
    auto count = syms_.eval(s, ops[0].second, ops[0].first);
    if (!count) return;
    if (*count < 0 || *count > kMaxRept) {
      sink_.error(s, ops[0].second, fmt::format(".rept count {} out of range (0..{})", *count, kMaxRept));
      return;
    }
    std::string var;
    if (ops.size() == 2) {
      var = ops[1].first;
      if (!is_identifier(var)) {
        sink_.error(s, ops[1].second, fmt::format("bad .rept variable name '{}'", var));
        return;
      }
    }
    if (depth >= kMaxDepth) {
      sink_.error(s, 0, fmt::format("macro expansion nested too deeply (limit {})", kMaxDepth));
      overflow_ = true;
      return;
    }
    for (int64_t k = 0; k < *count && !overflow_; ++k) {
      if (++work_ > kMaxWork) {
        sink_.error(s, 0, fmt::format(".rept expansion too large (more than {} iterations in all)", kMaxWork));
        overflow_ = true;
        return;
      }
      auto scope = std::make_shared<Scope>(Scope{s.scope, var, k});
      Subst subst;
      if (!var.empty()) subst[var] = std::to_string(k);
      int unique = unique_++;
      std::vector<Stmt> copy = body;
      for (Stmt& b : copy) {
        b.text = substitute(b.text, subst, unique);
        b.scope = scope;
      }
      run(copy, depth + 1);
    }
  }

  // The two operands of a directive (NAME, value), or none after reporting `usage`.
  std::vector<std::pair<std::string, size_t>> two_operands(const Stmt& s, size_t from, const char* usage) {
    auto ops = split_operands(s.text, from);
    if (ops.size() == 2) return ops;
    sink_.error(s, from, usage);
    return {};
  }

  void define_equ(const Stmt& s, size_t from) {
    auto ops = two_operands(s, from, "expected '.equ NAME, expression'");
    if (ops.empty()) return;
    const std::string& name = ops[0].first;
    if (!is_identifier(name) || parse_register(name, syms_)) {
      sink_.error(s, ops[0].second, fmt::format("bad constant name '{}'", name));
      return;
    }
    if (name.compare(0, kTargetPrefix.size(), kTargetPrefix) == 0) {
      sink_.error(s, ops[0].second, fmt::format("'{}': names starting with {} are the target config's constants "
                                                "(docs/kernels.md); choose another name", name, kTargetPrefix));
      return;
    }
    auto it = syms_.consts.find(name);
    if (it != syms_.consts.end()) {
      sink_.error(s, ops[0].second, fmt::format("constant '{}' is already defined at line {}", name, it->second.where.line));
      return;
    }
    ConstDef c;
    c.expr = ops[1].first;
    c.where = s;
    c.expr_pos = ops[1].second;
    syms_.consts.emplace(name, std::move(c));
  }

  void define_reg(const Stmt& s, size_t from) {
    auto ops = two_operands(s, from, "expected '.reg NAME, rN'");
    if (ops.empty()) return;
    const std::string& name = ops[0].first;
    bool reg_like = name.size() >= 2 && name[0] == 'r' && name.find_first_not_of("0123456789", 1) == std::string::npos;
    if (!is_identifier(name) || reg_like) {
      sink_.error(s, ops[0].second, fmt::format("bad register alias name '{}'", name));
      return;
    }
    auto r = parse_register(ops[1].first, syms_);
    if (!r || *r >= kNumRegs) {
      sink_.error(s, ops[1].second, fmt::format("expected a register r0..r{}, got '{}'", kNumRegs - 1, ops[1].first));
      return;
    }
    auto it = syms_.regs.find(name);
    if (it != syms_.regs.end()) {
      sink_.error(s, ops[0].second, fmt::format("register alias '{}' is already defined at line {}", name, it->second.second));
      return;
    }
    syms_.regs.emplace(name, std::make_pair(*r, s.line));
  }
};

std::string strip_comment(const std::string& line) {
  size_t h = line.find('#');
  size_t c = line.find("//");
  return line.substr(0, std::min(h, c));
}

}  // namespace

std::vector<Stmt> expand(const std::vector<std::string>& lines, Symbols& syms, Sink& sink, bool* overflow) {
  std::vector<Stmt> stmts;
  for (size_t i = 0; i < lines.size(); ++i) {
    Stmt s;
    s.text = strip_comment(lines[i]);
    s.line = static_cast<int>(i + 1);
    stmts.push_back(std::move(s));
  }
  Expander e(syms, sink);
  e.run(stmts, 0);
  if (e.overflowed()) *overflow = true;
  return std::move(e.out);
}

}  // namespace npu::isa::detail
