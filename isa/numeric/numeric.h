#pragma once
// NPU numeric types: decode any element type to double exactly, and encode a double into any
// element type with one rounding step (so int32 -> bf16 rounds once, not twice).
// Semantics follow docs/numerics.md exactly (NaN, Inf, saturation, E8M0).
#include <cstdint>

#include "isa/numeric/dtype.h"

namespace npu::num {

int size_of(Dtype t);            // bytes per element
bool is_float(Dtype t);          // f32 f16 bf16 e4m3 e5m2 e8m0
const char* name_of(Dtype t);    // "f32", "bf16", ... (same spelling as the ISA)

// Exact value of the element whose little-endian bits are at p. NaN codes give a quiet NaN
// (with the code's sign; E8M0 has no sign and gives +NaN).
double decode(Dtype t, const void* p);
double decode_bits(Dtype t, uint64_t bits);

// Encode v into t and return the bits (low size_of(t) bytes meaningful).
//  - floats: round with `rm`; `saturate` clamps overflow to +-max finite (for e4m3 without
//    saturate overflow gives NaN; for f16/bf16/f32/e5m2 it gives +-Inf); NaN stays NaN
//    (quiet; bf16 NaN from anything is 0x7FC0 | sign).
//  - integers: round with `rm`, always saturate to the range; NaN gives 0.
//  - E8M0: the power of two nearest per `rm` (0xFF for NaN/Inf/out of range, see docs/numerics.md).
//
// Details the design note leaves open (all tested in testbench/unit/numeric_*_test.cc):
//  - Away rounds the magnitude up (ceil of |v|), not "nearest, ties away".
//  - Overflow without saturate follows IEEE 754 for directed modes: the result is +-Inf
//    (NaN for e4m3) when the mode rounds the magnitude up (Rne, Away, Ceil of a positive,
//    Floor of a negative) and +-max finite otherwise (Trunc, Floor of a positive, Ceil of a
//    negative). With saturate every overflow gives +-max finite.
//  - +-Inf input: fp8 with saturate gives +-max finite; e4m3 without saturate gives NaN;
//    otherwise +-Inf (f16/bf16/f32 keep Inf even with saturate: Inf is not an overflow).
//  - The canonical quiet NaN keeps the input's sign: f32 0x7FC00000, f16 0x7E00, bf16 0x7FC0,
//    e5m2 0x7E, e4m3 0x7F (each | sign).
//  - Signed zero is kept; results that round to zero keep the sign of v.
//  - E8M0: +-0 and 0 < v < 2^-127 give code 0 (2^-127, the smallest scale, as MXFP8 uses
//    for amax = 0; no clamp error); negative nonzero v, NaN and -Inf give 0xFF; Rne ties
//    (v = 1.5 * 2^e) go to the even code; a result above 2^127 or +Inf gives 0xFF, or 0xFE
//    (2^127) with saturate.
uint64_t encode_bits(Dtype t, double v, RoundMode rm = RoundMode::Rne, bool saturate = false);
void encode(Dtype t, void* p, double v, RoundMode rm = RoundMode::Rne, bool saturate = false);

// Hot-path helpers (bit-identical to the generic functions above: NaN inputs give the
// canonical quiet NaN with the sign kept, also in the *_to_f32 direction).
float bf16_to_f32(uint16_t b);
uint16_t f32_to_bf16(float f);   // RNE, Inf on overflow
float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);    // RNE, Inf on overflow
float bits_to_f32(uint32_t u);
uint32_t f32_to_bits(float f);

// 8-bit decodes by table (exact in f32; e8m0 code 0 = 2^-127 is an f32 subnormal).
float e4m3_to_f32(uint8_t b);
float e5m2_to_f32(uint8_t b);
float e8m0_to_f32(uint8_t b);
// f32 -> fp8, RNE (same as encode_bits(E4M3/E5M2, f, Rne, saturate)).
uint8_t f32_to_e4m3(float f, bool saturate);
uint8_t f32_to_e5m2(float f, bool saturate);

// Largest finite value of a float type (e4m3 448, e5m2 57344, f16 65504, ...; e8m0 2^127).
// Integer types give their maximum (INT32_MAX, ..., 255).
double max_finite(Dtype t);

}  // namespace npu::num
