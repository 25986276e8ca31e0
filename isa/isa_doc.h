#pragma once
// docs/isa.md generator: assembler syntax, encoding layout and one entry per instruction,
// all derived from isa/instructions.def. `npusim isa-doc > docs/isa.md` regenerates it.
#include <string>

namespace npu::isa {

std::string generate_isa_markdown();

}  // namespace npu::isa
