#pragma once
// Disassembler: table-driven text of instructions and whole programs, in the syntax the
// assembler accepts (docs/isa.md). disassemble_program() output assembles back to the
// identical binary.
#include <cstdint>
#include <functional>
#include <string>

#include "isa/isa.h"
#include "isa/program.h"

namespace npu::isa {

// Spelling of a branch target; the default is target_label(pc).
using TargetNamer = std::function<std::string(int64_t pc)>;
std::string target_label(int64_t pc);  // "L<pc>"

// One instruction, e.g. "vadd.f32 0x100, 0x200, r5, 64". With ctx, Param operands print as
// the parameter's name (else "p<index>"). Every optional operand is printed. Never throws.
std::string disassemble(const Instr& in, const Program* ctx = nullptr, const TargetNamer& target = {});

// A complete source file: .kernel, .param, sections, .semantic labels and an `L<pc>:` label at
// every branch target.
std::string disassemble_program(const Program& p);

}  // namespace npu::isa
