#pragma once
// Internal to the assembler: statements after macro/.rept expansion and diagnostics.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isa/asm/assembler.h"
#include "isa/asm/expr.h"

namespace npu::isa::detail {

// .rept loop variables visible to a statement (innermost first via parent).
struct Scope {
  std::shared_ptr<const Scope> parent;
  std::string name;
  int64_t value = 0;
};
using ScopePtr = std::shared_ptr<const Scope>;

// One source statement (comment-free), possibly produced by a macro expansion.
struct Stmt {
  std::string text;
  int line = 0;          // source line shown in diagnostics
  int col0 = 1;          // source column of text[0]; 0 when produced by a macro
  int macro_col = 1;     // column of the macro invocation (when col0 == 0)
  std::string macro;     // "m" or "outer -> inner" when produced by a macro
  ScopePtr scope;
  // When produced by a macro: the macro-body line it came from, then the line of each
  // enclosing invocation that is itself in a macro body, innermost first (`line` is then the
  // outermost invocation). Empty otherwise.
  std::vector<int> chain;
  int col(size_t pos) const { return col0 ? col0 + static_cast<int>(pos) : macro_col; }
};

// Where each line of the spliced source (after .include) came from.
struct SourceMap {
  struct Origin {
    int file = 0;  // index into files
    int line = 0;  // 1-based line in that file
  };
  std::vector<std::string> files;  // [0] = the file being assembled
  std::vector<Origin> origins;     // per spliced line
};

struct Sink {
  std::string file;
  const std::vector<std::string>* lines = nullptr;
  const SourceMap* map = nullptr;  // spliced line -> file:line in the messages (.include)
  std::string place(int spliced) const;  // "file:line" of a spliced line
  std::vector<Diagnostic> diags;
  void error(const Stmt& s, size_t pos, const std::string& msg);
  void error_at(int line, int col, const std::string& msg);
};

struct ConstDef {
  std::string expr;
  Stmt where;        // the .equ statement (expression starts at expr_pos)
  size_t expr_pos = 0;
  enum State { Pending, Busy, Done, Failed } state = Pending;
  int64_t value = 0;
  bool target = false;  // predefined from the target config (AsmTarget::symbols)
  bool used = false;    // a target constant some expression read
};


// Symbols shared by both passes.
struct Symbols {
  std::map<std::string, ConstDef> consts;
  std::map<std::string, std::pair<int, int>> regs;  // alias -> (register, line)
  Sink* sink = nullptr;
  void predefine(const std::vector<TargetSymbol>& target);
  std::vector<TargetSymbol> used_target_symbols() const;  // sorted by name
  // Value of a name seen from `scope` (loop variables first, then constants).
  std::optional<int64_t> lookup(std::string_view name, const ScopePtr& scope, bool* reported);
  std::optional<int64_t> eval(const Stmt& s, size_t pos, std::string_view text);  // reports errors
};

// Parsing helpers on one statement.
size_t skip_ws(const std::string& t, size_t p);
// Leading "label:" prefixes: returns their (name, pos) and sets *rest to the position after them.
std::vector<std::pair<std::string, size_t>> leading_labels(const std::string& t, size_t* rest);
// Top-level comma-separated pieces of t[from..], trimmed: (text, pos).
std::vector<std::pair<std::string, size_t>> split_operands(const std::string& t, size_t from);
std::optional<int> parse_register(std::string_view word, const Symbols& syms);  // r0..r31 or alias

// Lines of a source text ("\r\n" or "\n" separated).
std::vector<std::string> split_source_lines(std::string_view src);

// Pass 0: splices every `.include "FILE"` (resolved against the including file's directory).
// Errors (missing file, cycle, depth, malformed directive) go to sink at spliced line numbers.
std::vector<std::string> expand_includes(const std::vector<std::string>& lines, const std::string& file,
                                         SourceMap& map, Sink& sink);

// Pass 1: .macro/.endm, .rept/.endr, .equ, .reg; returns the remaining statements.
// *overflow is set when a limit stopped the expansion (the statements are then incomplete).
std::vector<Stmt> expand(const std::vector<std::string>& lines, Symbols& syms, Sink& sink, bool* overflow);

}  // namespace npu::isa::detail
