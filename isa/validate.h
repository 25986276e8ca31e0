#pragma once
// Static checks of an instruction against the table, the architecture and the core type it
// will run on: operand forms and ranges, enum values, arch/core availability, dtype
// combinations, pipes that exist on the core. Used by the assembler (each message becomes a
// file:line:col error) and by the ISS/model loader (validate_program).
#include <string>
#include <vector>

#include "isa/isa.h"
#include "isa/program.h"

namespace npu::isa {

// Every problem with `in` on (arch, core); empty when it is valid. Messages do not name the
// location (the caller adds it). Targets and parameter indices need the program: see below.
std::vector<std::string> validate(const Instr& in, Arch arch, CoreType core);

// validate() for every instruction of every present section, plus branch targets inside the
// section (0..size) and parameter indices < params.size(). Messages are prefixed
// "aic pc 12 (disassembly): ".
std::vector<std::string> validate_program(const Program& p, Arch arch);

}  // namespace npu::isa
