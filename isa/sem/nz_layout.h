#pragma once
// The fractal NZ layout (docs/isa.md "Fractal formats"): a matrix of `rows` rows of `row_bytes`
// bytes is cut into 32-byte column blocks; block j holds 32 bytes of every row, row r at
// j * c0_stride + r * 32. In L1 the kernel picks c0_stride; a tensor kept NZ in GM (a gm
// parameter declared `nz`) has rows padded to whole 16-row fractals: c0_stride = ceil16(rows) x 32.
#include <algorithm>
#include <cstdint>
#include <cstring>

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
// The same image in pieces, for a caller writing a large tensor without a buffer of the whole:
// put(offset, bytes, n) receives every byte of [0, nz_gm_bytes) exactly once, in pieces of
// whole rows of one block (kNzPieceRows rows, n <= kNzPieceRows x 32 bytes), row groups outer and
// blocks inner, so the ND rows are read in order and each piece is written whole.
inline constexpr uint64_t kNzPieceRows = 64;
template <class Put>
void nd_to_nz_pieces(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, Put&& put);
// The inverse: `nd` receives rows x row_bytes.
void nz_to_nd(const uint8_t* nz, uint64_t rows, uint64_t row_bytes, uint8_t* nd);

template <class Put>
void nd_to_nz_pieces(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, Put&& put) {
  if (rows == 0) return;
  const uint64_t stride = nz_gm_c0_stride(rows), padded = stride / kC0Bytes, blocks = nz_blocks(row_bytes);
  uint8_t piece[kNzPieceRows * kC0Bytes];
  for (uint64_t r0 = 0; r0 < padded; r0 += kNzPieceRows) {
    const uint64_t n = std::min(kNzPieceRows, padded - r0);
    for (uint64_t j = 0; j < blocks; ++j) {
      const uint64_t b0 = j * kC0Bytes, w = std::min(kC0Bytes, row_bytes - b0);
      for (uint64_t i = 0; i < n; ++i) {
        uint8_t* dst = piece + i * kC0Bytes;
        if (r0 + i >= rows) {
          std::memset(dst, 0, kC0Bytes);  // padding rows of the last fractal
        } else if (w == kC0Bytes) {
          std::memcpy(dst, nd + (r0 + i) * row_bytes + b0, kC0Bytes);
        } else {
          std::memcpy(dst, nd + (r0 + i) * row_bytes + b0, w);
          std::memset(dst + w, 0, kC0Bytes - w);  // the row's last, partial block
        }
      }
      put(j * stride + r0 * kC0Bytes, piece, n * kC0Bytes);
    }
  }
}

}  // namespace npu::sem
