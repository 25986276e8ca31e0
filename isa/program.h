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

struct KernelParam {
  std::string name;
  ParamKind kind = ParamKind::Int;
  std::optional<Dtype> dtype;  // element type of a GM tensor parameter, when declared
};

// From instruction `pc` on (until the next entry) the code belongs to semantic label `name`
// (PyPTO's set_semantic_label). Free in timing; travels into traces and per-label stats.
struct SemanticLabel {
  uint32_t pc = 0;
  std::string name;
};

// Where an instruction was written (the assembler's source map). An instruction produced by a
// macro is located at the macro-body line it came from, `via` at the outermost invocation.
struct SourceLoc {
  int file = 0;        // index into Program::source_files
  int line = 0;        // 1-based
  int via_file = -1;   // -1: not produced by a macro
  int via_line = 0;
};

struct CodeSection {
  bool present = false;
  std::vector<Instr> code;
  std::vector<SemanticLabel> labels;  // sorted by pc
  std::vector<SourceLoc> src;         // per instruction; empty when read from an object file
  // Label of instruction `pc` ("" when none).
  const std::string& label_at(uint32_t pc) const;
};

struct Program {
  std::string name;
  std::vector<KernelParam> params;
  CodeSection aic, aiv;
  const CodeSection& section(CoreType t) const { return t == CoreType::Aic ? aic : aiv; }
  int param_index(const std::string& name) const;  // -1 if absent
  std::vector<std::string> source_files;  // of the source maps; [0] = the file assembled
  // "kernels/lib/m.inc:63 (via kernels/rmsnorm.s:70)", or "" without a source map.
  std::string where(CoreType t, uint32_t pc) const;
};

}  // namespace npu::isa
