#pragma once
// The fractal NZ layout (docs/isa.md "Fractal formats"): a matrix of `rows` rows of `row_bytes`
// bytes is cut into 32-byte column blocks; block j holds 32 bytes of every row, row r at
// j * c0_stride + r * 32. In L1 the kernel picks c0_stride; a tensor kept NZ in GM (a gm
// parameter declared `nz`) has rows padded to whole 16-row fractals: c0_stride = ceil16(rows) x 32.
#include <cstdint>

namespace npu::sem {

inline constexpr uint64_t kC0Bytes = 32;   // one column block's row: 16 bf16, 8 f32, 32 int8
inline constexpr uint64_t kNzRowAlign = 16;  // rows of one fractal

inline uint64_t nz_blocks(uint64_t row_bytes) { return (row_bytes + kC0Bytes - 1) / kC0Bytes; }
inline uint64_t nz_gm_c0_stride(uint64_t rows) { return (rows + kNzRowAlign - 1) / kNzRowAlign * kNzRowAlign * kC0Bytes; }
// Bytes of a rows x row_bytes matrix kept NZ in GM (0 for an empty one).
inline uint64_t nz_gm_bytes(uint64_t rows, uint64_t row_bytes) {
  return rows == 0 ? 0 : nz_blocks(row_bytes) * nz_gm_c0_stride(rows);
}

// ND (dense rows) -> NZ in GM's padding: `nz` holds nz_gm_bytes(rows, row_bytes); padding rows
// and the tail of a row's last block are zero.
void nd_to_nz(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, uint8_t* nz);
// Column block j of that layout alone: `block` receives nz_gm_c0_stride(rows) bytes (a caller
// writing a large tensor block by block needs no buffer of the whole tensor).
void nd_to_nz_block(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, uint64_t j, uint8_t* block);
// The inverse: `nd` receives rows x row_bytes.
void nz_to_nd(const uint8_t* nz, uint64_t rows, uint64_t row_bytes, uint8_t* nd);

}  // namespace npu::sem
