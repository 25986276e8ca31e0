#pragma once
// NPU numeric types: decode any element type to double exactly, and encode a double into any
// element type with one rounding step (so int32 -> bf16 rounds once, not twice).
// Semantics follow ../shared/design/NUMERICS.md exactly (NaN, Inf, saturation, E8M0).
#include <cstdint>

#include "isa/numeric/dtype.h"

namespace npu::num {

int size_of(Dtype t);            // bytes per element
bool is_float(Dtype t);          // f32 f16 bf16 e4m3 e5m2 e8m0
const char* name_of(Dtype t);    // "f32", "bf16", ... (same spelling as the ISA)

// Exact value of the element whose little-endian bits are at p. NaN codes give a quiet NaN.
double decode(Dtype t, const void* p);
double decode_bits(Dtype t, uint64_t bits);

// Encode v into t and return the bits (low size_of(t) bytes meaningful).
//  - floats: round with `rm`; `saturate` clamps overflow to +-max finite (for e4m3 without
//    saturate overflow gives NaN; for f16/bf16/f32/e5m2 it gives +-Inf); NaN stays NaN
//    (quiet; bf16 NaN from anything is 0x7FC0 | sign).
//  - integers: round with `rm`, always saturate to the range; NaN gives 0.
//  - E8M0: the power of two nearest per `rm` (0xFF for NaN/Inf/out of range, see NUMERICS.md).
uint64_t encode_bits(Dtype t, double v, RoundMode rm = RoundMode::Rne, bool saturate = false);
void encode(Dtype t, void* p, double v, RoundMode rm = RoundMode::Rne, bool saturate = false);

// Hot-path helpers (bit-identical to the generic functions above).
float bf16_to_f32(uint16_t b);
uint16_t f32_to_bf16(float f);   // RNE, Inf on overflow
float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);    // RNE, Inf on overflow
float bits_to_f32(uint32_t u);
uint32_t f32_to_bits(float f);

// Largest finite value of a float type (e4m3 448, e5m2 57344, f16 65504, ...).
double max_finite(Dtype t);

}  // namespace npu::num
