#pragma once
// `npusim asm --listing`: per code section, one line per instruction with its PC, where it was
// written (isa::Program::where: "kernels/lib/m.inc:63 (via kernels/lib/m.inc:80, kernels/x.s:70)"
// for a macro body line and the invocations that led to it, innermost first; the column is
// padded to at most 60 characters) and its disassembly; a line "-- label NAME" where a semantic
// label starts. Without a source map (a program read from an object file) the source column is
// empty.
#include <string>

#include "isa/program.h"

namespace npu::isa {

std::string program_listing(const Program& p);

}  // namespace npu::isa
