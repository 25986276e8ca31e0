#pragma once
// Kernel faults: every error raised while executing an instruction names the core, the PC,
// the instruction and (where there is one) the address, in one fixed format:
//   "cluster0.aiv1 pc 12 (vadd.f32 0x0, 0x40, r3, 16): UB read [196608, 196672) out of bounds (UB is 196608 bytes)"
#include <string>

#include "isa/isa.h"
#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"

namespace npu::sem {

// Text of an instruction for messages: isa::disassemble() (isa/disasm.h), without program context.
std::string describe(const isa::Instr& in);

// "<core> pc <pc> (<instruction>): <what>"
std::string fault_text(const CoreId& core, uint32_t pc, const isa::Instr& in, const std::string& what);
[[noreturn]] void fault(const CoreId& core, uint32_t pc, const isa::Instr& in, const std::string& what);
[[noreturn]] inline void fault(const CoreId& core, const DispatchedInstr& di, const std::string& what) {
  fault(core, di.pc, di.in, what);
}

}  // namespace npu::sem
