#pragma once
// What docs/isa.md says about each operand (unit, alignment, range) and each instruction's cost
// formula, derived from the table: the unit from the operand's name and kind, the local buffer an
// offset points into from the instruction's timing class, the range from the field's bits, the
// cost from the timing class's family and configuration key (hw/core/timing.h computes it).
#include <string>

#include "isa/isa.h"

namespace npu::isa {

std::string operand_unit(const InstrDef& d, const FieldDef& f);  // "bytes: UB offset, aligned to ..."
std::string operand_range(const FieldDef& f);                    // "0 .. 1048575 or a register"
std::string cost_formula(const InstrDef& d);                     // cycles, in config keys

}  // namespace npu::isa
