#pragma once
// Element types and rounding modes: the vocabulary shared by the numeric library,
// the ISA (isa/types.h re-exports them) and the golden references.
#include <cstdint>

namespace npu::num {

// U8 is a raw byte (E8M0 scales and plain copies are moved as u8).
enum class Dtype : uint8_t { F32, F16, BF16, S32, S16, S8, U8, E4M3, E5M2, E8M0 };

// Rounding modes (docs/numerics.md): to nearest even, toward zero, away from zero, floor, ceil.
enum class RoundMode : uint8_t { Rne, Trunc, Away, Floor, Ceil };

}  // namespace npu::num
