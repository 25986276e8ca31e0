#pragma once
// An assembled kernel: parameters, the AIC and AIV code sections and their semantic labels.
// This is what `npusim asm` writes (isa/object.h) and what the ISS and the SystemC model run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/isa.h"

namespace npu::isa {

enum class ParamKind : uint8_t { Gm, Int, F32 };

// How a GM tensor parameter's elements lie in GM (docs/isa.md "Fractal formats"): Nd row-major;
// Nz the fractal layout (32-byte column blocks of ceil16(rows) rows), as inference stacks keep
// pre-converted weights. The case runner stores and reads the tensor in that layout.
enum class GmFormat : uint8_t { Nd, Nz };
inline const char* gm_format_name(GmFormat f) { return f == GmFormat::Nz ? "nz" : "nd"; }  // as `.param` spells it

struct KernelParam {
  std::string name;
  ParamKind kind = ParamKind::Int;
  std::optional<Dtype> dtype;  // element type of a GM tensor parameter, when declared
  GmFormat format = GmFormat::Nd;  // gm parameters: `.param w, gm, bf16, nz`
};

// From instruction `pc` on (until the next entry) the code belongs to semantic label `name`
// (PyPTO's set_semantic_label). Free in timing; travels into traces and per-label stats.
struct SemanticLabel {
  uint32_t pc = 0;
  std::string name;
};

// A line of a kernel source file: an index into Program::source_files and a 1-based line.
struct FileLine {
  int file = 0;
  int line = 0;
};

// Where an instruction was written (the assembler's source map). An instruction produced by a
// macro is located at the macro-body line it came from; `via` holds the invocations that
// produced it, innermost first, the last one outside every macro (empty: not from a macro).
struct SourceLoc {
  FileLine at;
  std::vector<FileLine> via;
};

struct CodeSection {
  bool present = false;
  std::vector<Instr> code;
  std::vector<SemanticLabel> labels;  // sorted by pc
  std::vector<SourceLoc> src;         // per instruction; empty when read from an object file
  // Label of instruction `pc` ("" when none).
  const std::string& label_at(uint32_t pc) const;
};

// A constant the assembler predefines from the target hardware config (CFG_UB_BYTES = the UB
// size, ...; docs/kernels.md "Configuration constants"). The table of names and what each means
// lives with the config (hw/config/kernel_symbols.h); the ISA layer only carries the values.
struct TargetSymbol {
  std::string name;
  int64_t value = 0;
  bool operator==(const TargetSymbol& o) const { return name == o.name && value == o.value; }
};

struct Program {
  std::string name;
  std::vector<KernelParam> params;
  CodeSection aic, aiv;
  const CodeSection& section(CoreType t) const { return t == CoreType::Aic ? aic : aiv; }
  int param_index(const std::string& name) const;  // -1 if absent
  std::vector<std::string> source_files;  // of the source maps; [0] = the file assembled
  // The target constants the source used, sorted by name, and the config they came from (its
  // chip name): a run on a config whose constants differ is refused (mismatched_target).
  // Empty when the kernel uses none: it then runs on any config.
  std::vector<TargetSymbol> target_symbols;
  std::string target_config;
  // "kernels/lib/m.inc:63 (via kernels/lib/m.inc:80, kernels/rmsnorm.s:70)": the line, then
  // the macro invocations that produced it, innermost first; "" without a source map.
  std::string where(CoreType t, uint32_t pc) const;
};

// "" when every constant `p` was assembled with has the same value in `target` (the constants
// of the config it is about to run on, named `config`); else one line per difference, saying to
// re-assemble.
std::string mismatched_target(const Program& p, const std::vector<TargetSymbol>& target, const std::string& config);

}  // namespace npu::isa
