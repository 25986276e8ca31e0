#pragma once
// Binary encoding of one instruction as a 128-bit word, derived from isa/instructions.def.
//
// Layout: opcode (the Op's index) in bits [7:0]; the fields follow LSB-first from bit 8 in
// table order, each FieldDef::width() bits wide:
//   RegDst / RegSrc   5-bit register number
//   RegOrImm          1 flag bit (1 = register) then max(5, bits) payload bits: the register
//   URegOrImm         number (upper payload bits zero) or the immediate (two's complement in
//                     `bits` for RegOrImm, unsigned for URegOrImm)
//   Imm / UImm        two's complement / unsigned in `bits`
//   Target            absolute instruction index of the branch target (unsigned)
//   Param             kernel parameter index (unsigned)
//   Enum              the keyword's value (must be < enum_count)
// Every bit above the last field must be zero.
//
// Operand convention of a decoded Instr: register fields (RegDst, RegSrc, and RegOrImm /
// URegOrImm holding a register) have is_reg = true and value = register number; all other
// values have is_reg = false. Fields past nfields are zero.
#include <array>
#include <cstdint>
#include <string>

#include "isa/isa.h"

namespace npu::isa {

using Word = std::array<uint64_t, 2>;  // [0] = bits 63..0, [1] = bits 127..64

// Throws npu::Error when an operand does not fit its field or has the wrong form.
Word encode(const Instr& in);
// Throws npu::Error on an unknown opcode, nonzero unused bits or an out-of-range enum value.
Instr decode(const Word& w);

// Why `f` of instruction `d` cannot hold `o` ("" when it can). Shared by encode and the assembler.
std::string field_value_error(const FieldDef& f, const Operand& o);
// Range of an immediate field (for messages and random tests).
int64_t imm_min(const FieldDef& f);
int64_t imm_max(const FieldDef& f);
// Bit offset of field i of instruction d in the encoded word.
int field_offset(const InstrDef& d, int i);

}  // namespace npu::isa
