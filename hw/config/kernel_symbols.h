#pragma once
// The constants a kernel source may use to size itself to the target machine: the assembler
// predefines them (CFG_UB_BYTES = buffers.ub.size, ...) from the config the kernel is assembled
// for, and records the ones the source used in the program (isa::Program::target_symbols), so
// an object file assembled for one config is refused on another whose values differ.
// docs/kernels.md ("Configuration constants") lists them; a test keeps that list complete.
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/asm/assembler.h"

namespace npu::hw {

struct KernelSymbolDef {
  const char* name;         // CFG_...
  const char* description;  // what it is, with its config key
};
const std::vector<KernelSymbolDef>& kernel_symbol_defs();

// The constants' values for `cfg`, in kernel_symbol_defs() order.
std::vector<isa::TargetSymbol> kernel_symbols(const HwConfig& cfg);
// The assembler target for `cfg`: its arch, its chip name and its constants.
isa::AsmTarget asm_target(const HwConfig& cfg);
// Throws npu::Error when `prog` was assembled with constants that `cfg` does not have (another
// config's buffer sizes, say): "kernel 'k' was assembled for config 'a' with CFG_UB_BYTES = ...".
void check_kernel_target(const isa::Program& prog, const HwConfig& cfg);

}  // namespace npu::hw
