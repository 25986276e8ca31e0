#pragma once
// Basic enumerations of the npusim ISA. The keyword spellings (what the assembler
// accepts and the disassembler prints) live beside each enum in isa/types.cc.
#include <cstdint>
#include <optional>
#include <string_view>

#include "isa/numeric/dtype.h"

namespace npu::isa {

// The pipes of a core. Names follow Ascend's simulator (SCALAR, MTE1, ...).
enum class Pipe : uint8_t { Scalar, Mte1, Mte2, Mte3, Cube, Vector, Fixp };
inline constexpr int kNumPipes = 7;

// A pipe, or every pipe ("all"), for `barrier`.
enum class PipeSel : uint8_t { Scalar, Mte1, Mte2, Mte3, Cube, Vector, Fixp, All };

enum class CoreType : uint8_t { Aic, Aiv };

// Element types and rounding modes come from the numeric library.
using num::Dtype;
using num::RoundMode;

// Cache hint carried by every GM access of a DMA instruction (docs/machine.md section 5).
enum class CacheHint : uint8_t { Normal, NoneCacheable, Prefetch };

// The combining operation of the per-row / per-column broadcast vector ops.
enum class VecOp : uint8_t { Add, Sub, Mul, Div, Max, Min };

// Special registers readable with `getsr`.
enum class SpecialReg : uint8_t { BlockIdx, BlockDim, SubblockIdx, CoreType, SubblockDim };

// FixPipe dequantisation: none, one fp32 scalar, or a per-column fp32 vector in the FixPipe buffer.
enum class QuantMode : uint8_t { None, Scalar, Vector };

// Element types of the MX (microscaling) matmul.
enum class MxType : uint8_t { E4M3, E5M2 };

// Which architectures have an instruction.
enum class ArchMask : uint8_t { Any, A5Only };

// Which core type may execute an instruction.
enum class CoreMask : uint8_t { Any, AicOnly, AivOnly };

enum class Arch : uint8_t { A2, A5 };

// Every enum that an operand can name, for the generic field machinery.
enum class EnumType : uint8_t {
  None, Pipe, PipeSel, Dtype, RoundMode, CacheHint, VecOp, SpecialReg, QuantMode, MxType
};
inline constexpr EnumType kLastEnumType = EnumType::MxType;  // keep it the last one

// Keyword <-> value for any EnumType. keyword() returns "" for an out-of-range value.
std::string_view keyword(EnumType t, int value);
std::optional<int> parse_keyword(EnumType t, std::string_view word);
int enum_count(EnumType t);
std::string_view enum_type_name(EnumType t);

std::string_view pipe_name(Pipe p);  // "SCALAR", "MTE2", ... (trace and report spelling)
std::string_view dtype_name(Dtype d);  // same as keyword: "f32", "bf16", ...
std::string_view arch_name(Arch a);    // "a2", "a5"
std::string_view core_type_name(CoreType c);  // "aic", "aiv"
int dtype_size(Dtype d);               // bytes per element

// Pipes a core type has (docs/machine.md section 2): the one definition.
bool core_has_pipe(CoreType core, Pipe p);

}  // namespace npu::isa
