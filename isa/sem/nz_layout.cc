#include "isa/sem/nz_layout.h"

#include <algorithm>
#include <cstring>

namespace npu::sem {

void nd_to_nz_block(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, uint64_t j, uint8_t* block) {
  const uint64_t b0 = j * kC0Bytes, n = std::min(kC0Bytes, row_bytes - b0);
  const uint8_t* src = nd + b0;
  if (n == kC0Bytes) {  // a whole block: a fixed-size copy per row
    for (uint64_t r = 0; r < rows; ++r, src += row_bytes) std::memcpy(block + r * kC0Bytes, src, kC0Bytes);
  } else {
    std::memset(block, 0, rows * kC0Bytes);
    for (uint64_t r = 0; r < rows; ++r, src += row_bytes) std::memcpy(block + r * kC0Bytes, src, n);
  }
  std::memset(block + rows * kC0Bytes, 0, nz_gm_c0_stride(rows) - rows * kC0Bytes);  // padding rows
}

void nd_to_nz(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, uint8_t* nz) {
  if (rows == 0) return;
  const uint64_t stride = nz_gm_c0_stride(rows);
  for (uint64_t j = 0; j < nz_blocks(row_bytes); ++j) nd_to_nz_block(nd, rows, row_bytes, j, nz + j * stride);
}

void nz_to_nd(const uint8_t* nz, uint64_t rows, uint64_t row_bytes, uint8_t* nd) {
  const uint64_t stride = nz_gm_c0_stride(rows);
  for (uint64_t j = 0, b0 = 0; b0 < row_bytes; ++j, b0 += kC0Bytes) {
    const uint64_t n = std::min(kC0Bytes, row_bytes - b0);
    const uint8_t* block = nz + j * stride;
    for (uint64_t r = 0; r < rows; ++r) std::memcpy(nd + r * row_bytes + b0, block + r * kC0Bytes, n);
  }
}

}  // namespace npu::sem
