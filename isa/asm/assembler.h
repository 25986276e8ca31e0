#pragma once
// The npusim assembler: source text -> isa::Program. The syntax is documented at the top of
// docs/isa.md (generated from isa/isa_doc.cc, which holds the authoritative description).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/program.h"

namespace npu::isa {

struct Diagnostic {
  std::string file;
  int line = 0;  // 1-based
  int col = 0;   // 1-based
  std::string message;
  std::string source_line;  // the offending line, shown with a caret under col
  // "file:line:col: error: message\n<source line>\n<caret line>\n"
  std::string format() const;
};

struct AsmResult {
  std::optional<Program> program;  // set only when there are no diagnostics
  std::vector<Diagnostic> diags;   // every error in the file, in source order
  std::string format_diags() const;
};

// What a source is assembled for: the architecture and the constants predefined from the target
// hardware config (hw/config/kernel_symbols.h builds one from an HwConfig). `config` names the
// config in Program::target_config.
struct AsmTarget {
  Arch arch = Arch::A2;
  std::string config;
  std::vector<TargetSymbol> symbols;
};

// Never throws for bad source; every problem is a diagnostic.
AsmResult assemble(std::string_view source, std::string_view filename, const AsmTarget& target);
// Without a target config: a source that uses a CFG_ constant does not assemble.
AsmResult assemble(std::string_view source, std::string_view filename, Arch arch = Arch::A2);
// A source file and each file it includes may hold this much (kernels are kilobytes).
inline constexpr uint64_t kMaxSourceFileBytes = 16ull << 20;

// Reads the file (an unreadable, too large or endless file, or a directory, is one diagnostic
// at line 0).
AsmResult assemble_file(const std::string& path, const AsmTarget& target);
AsmResult assemble_file(const std::string& path, Arch arch = Arch::A2);

}  // namespace npu::isa
