#pragma once
// `npusim asm --listing`: per code section, one line per instruction with its PC, where it was
// written (isa::Program::where: "kernels/lib/m.inc:63 (via kernels/x.s:70)" for a macro body
// line and its invocation) and its disassembly; a line "-- label NAME" where a semantic label
// starts. Without a source map (a program read from an object file) the source column is empty.
#include <string>

#include "isa/program.h"

namespace npu::isa {

std::string program_listing(const Program& p);

}  // namespace npu::isa
