#include "isa/sem/fault.h"

#include "isa/disasm.h"
#include "isa/error.h"

namespace npu::sem {

// The shared disassembler (assembler syntax), so fault messages match listings.
std::string describe(const isa::Instr& in) { return isa::disassemble(in); }

std::string fault_text(const CoreId& core, uint32_t pc, const isa::Instr& in, const std::string& what) {
  return core.name() + " pc " + std::to_string(pc) + " (" + describe(in) + "): " + what;
}

void fault(const CoreId& core, uint32_t pc, const isa::Instr& in, const std::string& what) {
  throw Error(fault_text(core, pc, in, what));
}

}  // namespace npu::sem
